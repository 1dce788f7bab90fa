package analysis

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestLagFloor: a robot whose every system-time series reaches the
// recorder a steady 40 ms late is said to be late or 40 ms behind, which
// the bag cannot tell apart, and is no finding; a clock ahead, a recorder in
// sync, a latency burst, or tf alone from a farther machine give no floor.
func TestLagFloor(t *testing.T) {
	burst := []scenario.Burst{{Machine: scenario.MachineSensors | scenario.MachineTF, At: 3 * time.Second, Dur: time.Second, Extra: 150 * time.Millisecond}}
	cases := []struct {
		name   string
		noise  scenario.Noise
		series int // series in the floor; 0: no floor
	}{
		{"40 ms behind", scenario.Noise{Seed: 7, RobotOffset: -40 * time.Millisecond}, 3},
		{"40 ms behind, with a burst", scenario.Noise{Seed: 7, RobotOffset: -40 * time.Millisecond, Bursts: burst}, 3},
		{"tf 40 ms away", scenario.Noise{Seed: 7, TFDelay: 40 * time.Millisecond}, 0},
		{"in sync", scenario.Noise{Seed: 7}, 0},
		{"30 ms ahead", scenario.Noise{Seed: 7, RobotOffset: 30 * time.Millisecond}, 0},
		{"latency burst", scenario.Noise{Seed: 7, Bursts: burst}, 0},
	}
	for _, c := range cases {
		for _, storage := range []string{"mcap", "sqlite3"} {
			t.Run(c.name+"/"+storage, func(t *testing.T) {
				rep := robotReport(t, storage, c.noise, func(s *scenario.Spec) { s.Odometry = true })
				lf := rep.LagFloor
				if c.series == 0 {
					if lf != nil {
						t.Fatalf("lag floor %+v, want none", lf)
					}
					return
				}
				if lf == nil {
					t.Fatal("no lag floor")
				}
				if lf.SeriesCount != c.series || lf.FloorS < 0.035 || lf.FloorS > 0.045 {
					t.Fatalf("floor %.4f s over %d series %+v, want about 40 ms over %d", lf.FloorS, lf.SeriesCount, lf.Series, c.series)
				}
				for _, w := range []string{"/scan", "/odom", "odom->base_link on /tf", "cannot tell", "behind the recorder's", "chronyc"} {
					if !strings.Contains(lf.Sentence, w) {
						t.Errorf("sentence lacks %q: %s", w, lf.Sentence)
					}
				}
				if len(rep.Findings) != 0 {
					t.Errorf("a lag floor is no finding: %+v", rep.Findings)
				}
			})
		}
	}
}

// TestLagFloorRule covers the rule on hand-made envelopes.
func TestLagFloorRule(t *testing.T) {
	many := func(n int, env float64) []LagSeries {
		var out []LagSeries
		for i := range n {
			out = append(out, LagSeries{fmt.Sprintf("/t%d", i), env + float64(i)/1000})
		}
		return out
	}
	cases := []struct {
		name   string
		series []LagSeries
		floor  float64 // 0: none
		words  string
	}{
		{"one machine behind", []LagSeries{{"/scan", 0.041}, {"a->b on /tf", 0.040}}, 0.040, "a->b on /tf 40.0 ms, /scan 41.0 ms"},
		{"below 20 ms", []LagSeries{{"/scan", 0.012}, {"a->b on /tf", 0.030}}, 0, ""},
		{"one fast series", []LagSeries{{"/scan", 0.002}, {"/filtered", 0.080}}, 0, ""},
		{"a lone series", []LagSeries{{"/scan", 0.045}}, 0.045, "/scan 45.0 ms"},
		{"seconds: the skew table's", []LagSeries{{"/scan", 2.5}, {"a->b on /tf", 2.5}}, 0, ""},
		{"ahead", []LagSeries{{"/scan", 0.050}, {"a->b on /tf", -0.020}}, 0, ""},
		{"many", many(8, 0.030), 0.030, "/t5 35.0 ms and 2 more"},
		{"none", nil, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lf := lagFloor(c.series)
			if c.floor == 0 {
				if lf != nil {
					t.Fatalf("floor %+v, want none", lf)
				}
				return
			}
			if lf == nil || lf.FloorS != c.floor {
				t.Fatalf("floor %+v, want %.3f s", lf, c.floor)
			}
			if !strings.Contains(lf.Sentence, c.words) {
				t.Errorf("sentence lacks %q: %s", c.words, lf.Sentence)
			}
		})
	}
}

// TestLagFloorOverMaxAge: a robot 600 ms behind (or 600 ms away) makes its
// scans look older than --max-age against the recorder's clock, but tf lags
// as much, so the bag cannot tell stale data from a clock behind: no stale
// finding, and the headline says so.
func TestLagFloorOverMaxAge(t *testing.T) {
	for _, storage := range []string{"mcap", "sqlite3"} {
		t.Run(storage, func(t *testing.T) {
			rep := robotReport(t, storage, scenario.Noise{Seed: 7, RobotOffset: -600 * time.Millisecond}, nil)
			if lf := rep.LagFloor; lf == nil || len(lf.OverMaxAge) != 1 || lf.OverMaxAge[0] != "/scan" {
				t.Fatalf("lag floor %+v, want /scan over the maximum age", rep.LagFloor)
			}
			if len(rep.Findings) != 0 {
				t.Errorf("findings %+v, want none: the bag cannot tell", rep.Findings)
			}
			v := rep.Verdict
			if v.Class != "time" || !strings.Contains(v.Sentence, "cannot tell") || !strings.Contains(v.Sentence, "/scan would be stale") {
				t.Errorf("verdict %s: %s", v.Class, v.Sentence)
			}
			if len(v.Commands) == 0 || v.Commands[0] != "chronyc tracking" {
				t.Errorf("commands %v", v.Commands)
			}
		})
	}
}
