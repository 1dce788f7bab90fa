package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/msgfilter"
	"github.com/bagclock/bagclock/bagread"
)

// Boundary tests of newAnalyzer's checks of the configured filter and
// jump settings (issue 15): each limit is tried at its value and just past
// it, and an accepted value must reach Report.Settings unchanged.

func TestConfigLimitsBoundary(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     Config
		wantErr string // "" for accepted
		check   func(Settings) bool
	}{
		{"queue size -1", Config{SetQueueSize: true, QueueSize: -1}, "queue size -1: must be >= 0", nil},
		{"queue size 0", Config{SetQueueSize: true, QueueSize: 0}, "", func(s Settings) bool { return s.QueueSize == 0 }},
		{"queue size 3", Config{SetQueueSize: true, QueueSize: 3}, "", func(s Settings) bool { return s.QueueSize == 3 }},
		{"tolerance -1 ns", Config{SetTolerance: true, ToleranceS: -1e-9}, "tolerance -1e-09: must be >= 0", nil},
		{"tolerance NaN", Config{SetTolerance: true, ToleranceS: math.NaN()}, "tolerance NaN: must be >= 0", nil},
		{"tolerance 0", Config{SetTolerance: true, ToleranceS: 0}, "", func(s Settings) bool { return s.ToleranceS == 0 }},
		{"tolerance 0.25 s", Config{SetTolerance: true, ToleranceS: 0.25}, "", func(s Settings) bool { return s.ToleranceS == 0.25 }},
		{"cache time 0", Config{SetCacheTime: true, CacheTimeS: 0}, "cache time 0: must be at least 1 ns", nil},
		{"cache time -1", Config{SetCacheTime: true, CacheTimeS: -1}, "cache time -1: must be at least 1 ns", nil},
		{"cache time NaN", Config{SetCacheTime: true, CacheTimeS: math.NaN()}, "cache time NaN: must be at least 1 ns", nil},
		{"cache time 0.4 ns", Config{SetCacheTime: true, CacheTimeS: 0.4e-9}, "cache time 4e-10: must be at least 1 ns", nil},
		{"cache time 1 ns", Config{SetCacheTime: true, CacheTimeS: 1e-9}, "", func(s Settings) bool { return s.CacheTimeS == 1e-9 }},
		{"cache time 2.5 s", Config{SetCacheTime: true, CacheTimeS: 2.5}, "", func(s Settings) bool { return s.CacheTimeS == 2.5 }},
		{"preset cache time", Config{}, "", func(s Settings) bool { return s.CacheTimeS == 10 }},
		{"jump forward -1 ns", Config{JumpMinForwardNS: -1}, "jump min forward -1 ns: must be >= 0", nil},
		{"jump forward 0", Config{JumpMinForwardNS: 0}, "", nil},
		{"jump backward 1 ns", Config{JumpMinBackwardNS: 1}, "jump min backward 1 ns: must be <= 0", nil},
		{"jump backward 0", Config{JumpMinBackwardNS: 0}, "", nil},
		{"jump backward -1 ns", Config{JumpMinBackwardNS: -1}, "", nil},
	} {
		a, err := newAnalyzer(&bagread.Bag{}, tc.cfg, nil)
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.wantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.check != nil && !tc.check(a.rep.Settings):
			t.Errorf("%s: settings %+v", tc.name, a.rep.Settings)
		}
	}
}

// TestBagSummaryProblems: a damaged file's recovery and a reconstructed
// metadata.yaml's problem become problem lines; file sizes add up.
func TestBagSummaryProblems(t *testing.T) {
	for _, tc := range []struct {
		name string
		bag  bagread.Bag
		want []string
		size int64
	}{
		{"intact", bagread.Bag{Files: []bagread.File{{Path: "a.mcap", Size: 10}, {Path: "b.mcap", Size: 32}}}, nil, 42},
		{"recovered file", bagread.Bag{Files: []bagread.File{{Path: "a.mcap", Size: 10}, {Path: "b.mcap", Size: 5, Recovery: &bagread.Recovery{Reason: "truncated"}}}},
			[]string{"b.mcap: truncated"}, 15},
		{"metadata reconstructed", bagread.Bag{MetadataReconstructed: true, MetadataProblem: "no metadata.yaml"}, []string{"metadata reconstructed: no metadata.yaml"}, 0},
		{"metadata reconstructed, no problem named", bagread.Bag{MetadataReconstructed: true}, nil, 0},
		{"problem of metadata not reconstructed", bagread.Bag{MetadataProblem: "ignored"}, nil, 0},
	} {
		a, err := newAnalyzer(&tc.bag, Config{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := a.rep.Bag.Problems; strings.Join(got, "|") != strings.Join(tc.want, "|") || a.rep.Bag.SizeBytes != tc.size {
			t.Errorf("%s: problems %q, size %d; want %q, %d", tc.name, got, a.rep.Bag.SizeBytes, tc.want, tc.size)
		}
	}
}

// TestOverrideParams: a topic's preset keeps its queue size and tolerance
// unless the configuration sets them.
func TestOverrideParams(t *testing.T) {
	preset := msgfilter.Params{QueueSize: 10, ToleranceNS: 5}
	for _, tc := range []struct {
		name string
		cfg  Config
		want msgfilter.Params
	}{
		{"nothing set", Config{QueueSize: 3, ToleranceS: 0.25}, preset},
		{"queue size set", Config{SetQueueSize: true, QueueSize: 3}, msgfilter.Params{QueueSize: 3, ToleranceNS: 5}},
		{"tolerance set", Config{SetTolerance: true, ToleranceS: 0.25}, msgfilter.Params{QueueSize: 10, ToleranceNS: 250_000_000}},
		{"tolerance set to 0", Config{SetTolerance: true}, msgfilter.Params{QueueSize: 10}},
	} {
		a := &analyzer{cfg: tc.cfg}
		if got := a.overrideParams(preset); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
