package analysis

import (
	"fmt"
	"testing"
)

// A /clock step counts as a forward jump from the threshold on (10x the
// median tick, at least 1 s, or the configured --jump-min-forward) and not
// 1 ns below it; a backward step from the configured min_backward on. The
// jump keeps its values, index and record time.
func TestClockJumpSteps(t *testing.T) {
	const tick = int64(10e6)
	links := []genLink{{parent: "odom", child: "base_link", ageNS: 10e6}, {parent: "base_link", child: "laser", static: true}}
	for _, tc := range []struct {
		name string
		cfg  Config
		step int64 // the /clock step at tick 200 (normally 10 ms)
		kind string
	}{
		{"auto: exactly 1 s", Config{}, 1e9, "forward"},
		{"auto: 1 s - 1 ns", Config{}, 1e9 - 1, ""},
		{"auto: 1 s + 1 ns", Config{}, 1e9 + 1, "forward"},
		{"configured 300 ms: exactly", Config{JumpMinForwardNS: 300e6}, 300e6, "forward"},
		{"configured 300 ms: 1 ns below", Config{JumpMinForwardNS: 300e6}, 300e6 - 1, ""},
		{"configured 3 s: 2 s is none", Config{JumpMinForwardNS: 3e9}, 2e9, ""},
		{"backward any", Config{}, -1, "backward"},
		{"standing still is none", Config{}, 0, ""},
		{"min_backward -50 ms: exactly", Config{JumpMinBackwardNS: -50e6}, -50e6, "backward"},
		{"min_backward -50 ms: 1 ns short", Config{JumpMinBackwardNS: -50e6}, -50e6 + 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := func(i, sim int64) (int64, bool) {
				if i >= 200 {
					return sim + tc.step - tick, true
				}
				return sim, true
			}
			dir := genBag(t, links, []genScan{{"/scan", "laser", simStamp}}, clock, 300)
			rep, _ := analyzeGen(t, dir, tc.cfg)
			from := simStartNS + 199*tick
			want := []ClockJump{}
			if tc.kind != "" {
				want = []ClockJump{{Index: 200, LogTimeNS: sysStartNS + 200*tick + 1_000_000, FromNS: from, ToNS: from + tc.step, Kind: tc.kind, Topic: "/clock"}}
			}
			if fmt.Sprint(rep.ClockJumps) != fmt.Sprint(want) || rep.Counts.ClockJumps != len(want) {
				t.Errorf("jumps %+v (count %d), want %+v", rep.ClockJumps, rep.Counts.ClockJumps, want)
			}
			back := 0
			if tc.kind == "backward" {
				back = 1
			}
			if rep.Counts.BackwardJumps != back {
				t.Errorf("%d backward jumps, want %d", rep.Counts.BackwardJumps, back)
			}
		})
	}
}
