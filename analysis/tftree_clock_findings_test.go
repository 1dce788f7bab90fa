package analysis

import (
	"fmt"
	"strings"
	"testing"
)

// Tests of the tf-clock check's findings from given link statistics
// (issue 15): which links are stale and how the sentence words it, and
// which clock family the tree is on.

// clockLinks makes n dynamic links odom->lI on /tf whose newest stamps
// are newest[i].
func clockLinks(newest ...int64) []*linkStats {
	var out []*linkStats
	for i, n := range newest {
		out = append(out, &linkStats{id: i, key: linkKey{"odom", fmt.Sprintf("l%d", i), "/tf"}, count: 1, oldest: n, newest: n})
	}
	return out
}

func TestStaleLinksFinding(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lags     []float64 // median lag of each link, s; < 0: no sample
		want     string    // Count Links
		sentence string
	}{
		{"none stale", []float64{0, 1.9}, "", ""},
		{"at the bound, sorted by lag", []float64{0, 1.9, 2.0, 2.1}, "2 [odom->l3 on /tf odom->l2 on /tf]",
			"odom->l3 on /tf, odom->l2 on /tf lags the rest of the tree by 2.100 s (median): lookups through it must wait for a newer transform, and past the 10 s cache they fail"},
		{"lag the cache", []float64{10}, "1 [odom->l0 on /tf]", "odom->l0 on /tf lags the rest of the tree by 10.000 s (median): lookups through it must wait"},
		{"lag over the cache", []float64{10.5}, "1 [odom->l0 on /tf]", "odom->l0 on /tf lags the rest of the tree by 10.500 s (median): more than the 10 s tf2 cache"},
		{"four stale: three named", []float64{3, 4, 5, 6}, "4 [odom->l3 on /tf odom->l2 on /tf odom->l1 on /tf]", ""},
		{"no sample", []float64{-1, 0}, "", ""},
	} {
		a := &analyzer{cache: 10e9}
		c := &tfClockCheck{}
		dyn := clockLinks(make([]int64, len(tc.lags)+1)...) // one more link, beyond c.lag
		for _, lag := range tc.lags {
			var r reservoir
			if lag >= 0 {
				r.add(lag)
			}
			c.lag = append(c.lag, r)
		}
		c.staleLinks(a, dyn, 0)
		got := ""
		if len(a.rep.TFFindings) == 1 {
			f := a.rep.TFFindings[0]
			got = fmt.Sprintf("%d %v", f.Count, f.Links)
			if !strings.HasPrefix(f.Sentence, tc.sentence) || len(f.Evidence) != len(f.Links) {
				t.Errorf("%s: sentence %q, %d evidence lines", tc.name, f.Sentence, len(f.Evidence))
			}
		}
		if got != tc.want || len(a.rep.TFFindings) > 1 {
			t.Errorf("%s: finding %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestFamilyMixtureFinding(t *testing.T) {
	sim, sys := int64(100e9), EpochThresholdNS+100e9
	for _, tc := range []struct {
		name     string
		start    int64
		clock    int64 // /clock value; 0 for a bag without /clock
		newest   []int64
		wantRef  int
		want     string // Count Links
		sentence string
	}{
		{"all on sim time", sys, 0, []int64{sim, sim}, 0, "", ""},
		{"tie: the recorder's family", sys, 0, []int64{sim, sys}, 1, "1 [odom->l0 on /tf]",
			"The tf tree is on two clocks, which tf2 cannot look up across: odom->l0 on /tf (1 dynamic link, near 100.000 s) on sim time, odom->l1 on /tf (1 dynamic link, near 1e+08 s) on system time. Sim-time stamps mean a simulator ran (something published /clock, not recorded here), so the system-time side is likelier wrong (set use_sim_time:=true on the node publishing odom->l1 on /tf) — unless no simulator should have run"},
		{"tie on a sim recorder", sim, 0, []int64{sim, sys}, 0, "1 [odom->l1 on /tf]", "The tf tree is on two clocks, which tf2 cannot look up across: odom->l0 on /tf (1 dynamic link, near 100.000 s) on sim time, odom->l1 on /tf (1 dynamic link, near 1e+08 s) on system time. Sim-time stamps mean a simulator ran (something published /clock, not recorded here), so the system-time side is likelier wrong: set use_sim_time:=true on the node publishing odom->l1 on /tf, and record /clock."},
		{"majority on system time", sim, 0, []int64{sim, sys, sys}, 1, "1 [odom->l0 on /tf]", ""},
		{"majority on sim time", sys, 0, []int64{sim, sim, sys}, 0, "1 [odom->l2 on /tf]", ""},
		{"/clock decides", sys, sim, []int64{sim, sys, sys}, 0, "2 [odom->l1 on /tf odom->l2 on /tf]",
			"The tf tree is on two clocks, which tf2 cannot look up across: odom->l0 on /tf (1 dynamic link, near 100.000 s) on sim time, odom->l1 on /tf, odom->l2 on /tf (2 dynamic links, near 1e+08 s) on system time. /clock runs sim time, so the system-time side is wrong: set use_sim_time:=true on the node publishing odom->l1 on /tf, odom->l2 on /tf."},
		{"four odd: three named", sys, sim, []int64{sim, sys, sys, sys, sys}, 0, "4 [odom->l1 on /tf odom->l2 on /tf odom->l3 on /tf]", ""},
	} {
		a := &analyzer{startNS: tc.start, clock: newClockState(1)}
		if tc.clock != 0 {
			a.hasClock, a.clock.seen, a.clock.ns = true, true, tc.clock
		}
		c := &tfClockCheck{}
		ref := c.familyMixture(a, clockLinks(tc.newest...))
		got := ""
		if len(a.rep.TFFindings) == 1 {
			f := a.rep.TFFindings[0]
			got = fmt.Sprintf("%d %v", f.Count, f.Links)
			if !strings.HasPrefix(f.Sentence, tc.sentence) || len(f.Evidence) != len(f.Links) {
				t.Errorf("%s: sentence %q, %d evidence lines", tc.name, f.Sentence, len(f.Evidence))
			}
		}
		if ref != tc.wantRef || got != tc.want || len(a.rep.TFFindings) > 1 {
			t.Errorf("%s: family %d, finding %q; want %d, %q", tc.name, ref, got, tc.wantRef, tc.want)
		}
	}
}

// TestTwoClocksSentenceFamily: the advice of a tree on two clocks is
// worded for the bag's ROS when the sentence is written (the verdict no
// longer rewrites it): ROS 2's per-node use_sim_time:=true, ROS 1's
// global /use_sim_time and a restart, in each of the three cases.
func TestTwoClocksSentenceFamily(t *testing.T) {
	sim := []*linkStats{{key: linkKey{"odom", "base_link", "/tf"}, newest: 120e9}}
	system := []*linkStats{{key: linkKey{"map", "odom", "/tf"}, newest: 1_790_000_000e9}}
	const ros2 = "set use_sim_time:=true on the node publishing map->odom on /tf"
	const ros1 = "in ROS 1, set the global parameter /use_sim_time to true and restart the node publishing map->odom on /tf"
	for _, tc := range []struct {
		name     string
		hasClock bool
		ref      int
		tail     string // what follows the fix
	}{
		{"with /clock", true, 0, "."},
		{"no /clock, mostly sim time", false, 0, ", and record /clock."},
		{"no /clock, mostly system time", false, 1, ") — unless no simulator should have run"},
	} {
		for _, ros := range []struct {
			ros1 bool
			fix  string
		}{{false, ros2}, {true, ros1}} {
			got := twoClocksSentence(tc.hasClock, ros.ros1, sim, system, tc.ref)
			if !strings.Contains(got, ros.fix+tc.tail) {
				t.Errorf("%s (ros1 %v): %q lacks %q", tc.name, ros.ros1, got, ros.fix+tc.tail)
			}
			if ros.ros1 && strings.Contains(got, ros2) {
				t.Errorf("%s: ROS 2 advice in a ROS 1 bag: %q", tc.name, got)
			}
		}
	}
}
