package crosscheck

import (
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// topicStats is what PROVENANCE.md's decoded lines state, computed from
// our own decode.
type topicStats struct {
	stamps, zero, backward int
	minNS, maxNS           int64
	ranges, intensities    map[int]int
	frames                 map[string]bool
}

func statsByTopic(recs []record) map[string]*topicStats {
	out := map[string]*topicStats{}
	last := map[string]int64{}
	for _, r := range recs {
		s := out[r.Topic]
		if s == nil {
			s = &topicStats{minNS: math.MaxInt64, maxNS: math.MinInt64,
				ranges: map[int]int{}, intensities: map[int]int{}, frames: map[string]bool{}}
			out[r.Topic] = s
		} else if r.Stamp < last[r.Topic] {
			s.backward++
		}
		last[r.Topic] = r.Stamp
		s.stamps++
		if r.Stamp == 0 {
			s.zero++
		}
		s.minNS = min(s.minNS, r.Stamp)
		s.maxNS = max(s.maxNS, r.Stamp)
		switch r.Kind {
		case cdr.TypeLaserScan:
			s.ranges[r.NRanges]++
			s.intensities[r.NInt]++
			s.frames[r.Frame] = true
		case cdr.TypeTFMessage:
			s.frames[r.Frame+"->"+r.Child] = true
		}
	}
	return out
}

// TestProvenance decodes every LaserScan, TFMessage and Clock of every
// shared bag and compares per-topic stamp counts, ranges, zero stamps,
// backward steps, scan sizes and frames with PROVENANCE.md.
func TestProvenance(t *testing.T) {
	root, bags := sharedBags(t)
	want := map[string][]provenance{}
	for _, p := range provenanceTable {
		want[p.bag] = append(want[p.bag], p)
	}
	found := map[string]bool{}
	for _, bag := range bags {
		found[bag] = true
		t.Run(bag, func(t *testing.T) {
			b := openBag(t, filepath.Join(root, filepath.FromSlash(bag)))
			topics := decodedTopics(b)
			recs := readRecords(t, b, topics, bagread.RecordOrder)
			stats := statsByTopic(recs)
			listed := map[string]bool{}
			for _, p := range want[bag] {
				listed[p.topic] = true
				checkProvenance(t, p, stats[p.topic])
			}
			for _, tp := range topics {
				if !listed[tp] {
					t.Logf("%s: %d decoded stamps, not listed in PROVENANCE.md", tp, stats[tp].stamps)
				}
			}
		})
	}
	for bag := range want {
		if !found[bag] {
			t.Errorf("PROVENANCE.md lists %s, which is not a bag under %s", bag, root)
		}
	}
}

func checkProvenance(t *testing.T, p provenance, s *topicStats) {
	t.Helper()
	if s == nil {
		t.Errorf("%s: no decoded messages; PROVENANCE.md has %d stamps", p.topic, p.stamps)
		return
	}
	// PROVENANCE prints seconds with 3 decimals: allow the rounding.
	near := func(ns int64, s float64) bool { return math.Abs(float64(ns)/1e9-s) <= 0.0005+1e-6 }
	if s.stamps != p.stamps || s.zero != p.zero || s.backward != p.backward || !near(s.minNS, p.minS) || !near(s.maxNS, p.maxS) {
		t.Errorf("%s: decoded %d stamps, %.9f .. %.9f s, %d zero, %d backward; PROVENANCE.md: %d stamps, %.3f .. %.3f s, %d zero, %d backward",
			p.topic, s.stamps, float64(s.minNS)/1e9, float64(s.maxNS)/1e9, s.zero, s.backward,
			p.stamps, p.minS, p.maxS, p.zero, p.backward)
	}
	if p.ranges >= 0 {
		if len(s.ranges) != 1 || s.ranges[p.ranges] != s.stamps || len(s.intensities) != 1 || s.intensities[p.intensity] != s.stamps {
			t.Errorf("%s: ranges per scan %v, intensities %v; PROVENANCE.md: %d and %d for all", p.topic, s.ranges, s.intensities, p.ranges, p.intensity)
		}
	}
	if p.frames == "" {
		return
	}
	var got []string
	for f := range s.frames {
		got = append(got, f)
	}
	sort.Strings(got)
	wantFrames := strings.Split(p.frames, ",")
	if p.truncated {
		if len(got) < len(wantFrames) || strings.Join(got[:len(wantFrames)], ",") != p.frames {
			t.Errorf("%s: frames %v do not start with PROVENANCE.md's %v", p.topic, got, wantFrames)
		}
	} else if strings.Join(got, ",") != p.frames {
		t.Errorf("%s: frames %v, PROVENANCE.md %v", p.topic, got, wantFrames)
	}
}
