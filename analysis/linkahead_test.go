package analysis

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestAheadLinksAndOdometry: a robot clock 20 to 60 ms ahead of the
// recorder shows on its tf links and its odometry as on its sensors (the
// lower envelope of record time − stamp below 0), while AMCL's map->odom,
// dated 1 s ahead by design, is never called ahead, and a clock behind
// (which looks like latency) is not either.
func TestAheadLinksAndOdometry(t *testing.T) {
	cases := []struct {
		name      string
		offset    time.Duration
		localiser bool
		ahead     []string // ages entries of kind ahead, by name()
	}{
		{"20 ms ahead", 20 * time.Millisecond, false, []string{"/odom", "/scan", "odom->base_link on /tf"}},
		{"45 ms ahead, with AMCL", 45 * time.Millisecond, true, []string{"/odom", "/scan", "odom->base_link on /tf"}},
		{"in sync, with AMCL", 0, true, nil},
		{"40 ms behind", -40 * time.Millisecond, false, nil},
	}
	for _, c := range cases {
		for _, storage := range []string{"mcap", "sqlite3"} {
			t.Run(c.name+"/"+storage, func(t *testing.T) {
				rep := robotReport(t, storage, scenario.Noise{Seed: 7, RobotOffset: c.offset}, func(s *scenario.Spec) {
					s.Odometry, s.Localiser = true, c.localiser
				})
				var got []string
				for i := range rep.Ages {
					if ag := &rep.Ages[i]; ag.Kind == AgeAhead {
						got = append(got, ag.Name())
						// The verdict's tf2_echo takes the frames as data.
						if ag.Link != "" && ag.Parent+"->"+ag.Child != ag.Link {
							t.Errorf("link %q: frames %q, %q", ag.Link, ag.Parent, ag.Child)
						}
					}
				}
				slices.Sort(got)
				if !slices.Equal(got, c.ahead) {
					t.Fatalf("ahead %v, want %v; verdict %s", got, c.ahead, rep.Verdict.Sentence)
				}
				skew := slices.Contains(rep.Summary.Findings, "skew")
				if skew != (len(c.ahead) > 0) {
					t.Errorf("findings %v: skew %v, want %v", rep.Summary.Findings, skew, len(c.ahead) > 0)
				}
				if len(c.ahead) == 0 {
					return
				}
				for _, n := range c.ahead {
					if !strings.Contains(rep.Verdict.Sentence, n) {
						t.Errorf("verdict does not name %s: %s", n, rep.Verdict.Sentence)
					}
				}
				if strings.Contains(rep.Verdict.Sentence, "map->odom") {
					t.Errorf("verdict names AMCL's map->odom: %s", rep.Verdict.Sentence)
				}
				var link bool
				for _, f := range rep.Findings {
					if f.Detail == AgeAhead && slices.Equal(f.Subjects.Links, []string{"odom->base_link"}) && len(f.Subjects.Topics) == 0 {
						link = true
					}
				}
				if !link {
					t.Errorf("no ahead finding with the link as its subject: %+v", rep.Findings)
				}
			})
		}
	}
}

func TestDatedAheadByDesign(t *testing.T) {
	for link, want := range map[string]bool{
		"map->odom": true, "robot1/map->robot1/odom": true, "map->hector_odom": true,
		"odom->base_link": false, "map->base_link": false, "world->map": false,
	} {
		if got := DatedAheadByDesign(link); got != want {
			t.Errorf("DatedAheadByDesign(%q) = %v, want %v", link, got, want)
		}
	}
}
