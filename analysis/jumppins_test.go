package analysis

import (
	"fmt"
	"strings"
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

// Without /clock, header stamps that jump are counted per scan topic and
// per tf link, with the same thresholds as /clock (forward from 1 s here,
// the scans' 50 ms tick being small; backward any step); with /clock the
// check sits out.
func TestStampJumps(t *testing.T) {
	const tick = int64(10e6)
	for _, tc := range []struct {
		name     string
		scanJump int64 // added to scan stamps from tick 200 on: the step at scan 40 is 50 ms + this
		tfJump   int64 // added to odom->base_link stamps from tick 300 on: the step is 20 ms + this
		clock    bool
		want     []ClockJump
	}{
		{"forward exactly 1 s, backward 1 ns", 950e6, -20e6 - 1, false, []ClockJump{
			{Index: 40, LogTimeNS: sysStartNS + 202*tick + 1_200_000, FromNS: simStartNS + 197*tick, ToNS: simStartNS + 202*tick + 950e6, Kind: "forward", Topic: "/scan"},
			{Index: 150, LogTimeNS: sysStartNS + 300*tick + 1_100_000, FromNS: simStartNS + 298*tick - 10e6, ToNS: simStartNS + 300*tick - 10e6 - 20e6 - 1, Kind: "backward", Topic: "/tf", Link: "odom->base_link"},
		}},
		{"1 ns short of both", 950e6 - 1, -20e6, false, nil},
		{"with /clock the check sits out", 950e6, -20e6 - 1, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			links := []genLink{{parent: "odom", child: "base_link", ageNS: 10e6, jumpAt: 300, jumpNS: tc.tfJump}, {parent: "base_link", child: "laser", static: true}}
			stamp := func(i, sim, _ int64) int64 {
				if i >= 200 {
					return sim + tc.scanJump
				}
				return sim
			}
			var clock func(i, sim int64) (int64, bool)
			if tc.clock {
				clock = simClock
			}
			rep, _ := analyzeGen(t, genBag(t, links, []genScan{{"/scan", "laser", stamp}}, clock, 400), Config{})
			if len(rep.StampJumps) != len(tc.want) || rep.Counts.StampJumps != len(tc.want) {
				t.Fatalf("stamp jumps %+v (count %d), want %+v", rep.StampJumps, rep.Counts.StampJumps, tc.want)
			}
			for i, w := range tc.want {
				got := rep.StampJumps[i]
				// The message before the jump came earlier in record time.
				if got.PrevLogTimeNS <= 0 || got.PrevLogTimeNS >= got.LogTimeNS {
					t.Errorf("jump %d: record time before it %d, want in (0, %d)", i, got.PrevLogTimeNS, got.LogTimeNS)
				}
				got.PrevLogTimeNS = 0
				if got != w {
					t.Errorf("jump %d: %+v, want %+v", i, got, w)
				}
			}
			// The evidence names each jump's series (up to three).
			line := fmt.Sprintf("No /clock; header stamps jump %s: ", Plural(len(tc.want), "time"))
			found := false
			for _, e := range rep.Verdict.Evidence {
				named := strings.HasPrefix(e, line)
				for i, w := range tc.want {
					name := w.Topic
					if w.Link != "" {
						name = w.Link
					}
					named = named && (i >= maxJumpsWorded || strings.Contains(e, name+" "+strings.TrimSuffix(w.Kind, "ward")))
				}
				found = found || named
			}
			if found != (len(tc.want) > 0) {
				t.Errorf("evidence %q: line %q there %v, want %v", rep.Verdict.Evidence, line, found, len(tc.want) > 0)
			}
		})
	}
}

// Jumps and stalls beyond the kept lists (1000 jumps, 200 stalls) are
// still counted, backward jumps included; the lists stop at their caps.
func TestClockCountsBeyondCaps(t *testing.T) {
	links := []genLink{{parent: "odom", child: "base_link", ageNS: 10e6}, {parent: "base_link", child: "laser", static: true}}
	scans := []genScan{{"/scan", "laser", simStamp}}
	t.Run("jumps", func(t *testing.T) {
		// Every odd tick steps back 10 ms: 1005 backward jumps.
		back := func(i, sim int64) (int64, bool) { return sim - i%2*20e6, true }
		rep, _ := analyzeGen(t, genBag(t, links, scans, back, 2011), Config{})
		if len(rep.ClockJumps) != maxJumpsKept || rep.Counts.ClockJumps != 1005 || rep.Counts.BackwardJumps != 1005 {
			t.Errorf("%d jumps kept, counts %d (%d backward); want %d kept, 1005 counted, all backward", len(rep.ClockJumps), rep.Counts.ClockJumps, rep.Counts.BackwardJumps, maxJumpsKept)
		}
	})
	t.Run("stalls", func(t *testing.T) {
		// /clock holds each value for 101 ticks (1 s of record time): a
		// stall per block, 202 blocks.
		hold := func(i, _ int64) (int64, bool) { return simStartNS + i/101*1010e6, true }
		rep, _ := analyzeGen(t, genBag(t, links, scans, hold, 202*101), Config{})
		if len(rep.Stalls) != maxStallsKept || rep.Counts.Stalls != 202 {
			t.Errorf("%d stalls kept, %d counted; want %d kept, 202 counted", len(rep.Stalls), rep.Counts.Stalls, maxStallsKept)
		}
	})
}

// The forward threshold of header-stamp jumps follows the median positive
// step of the series: scans whose stamps advance 250 ms every fifth scan
// (four repeats between) have a 2.5 s threshold, so a 2.25 s step is no
// jump; a 2.5 s step is.
func TestStampJumpTickMedian(t *testing.T) {
	links := []genLink{{parent: "odom", child: "base_link", ageNS: 10e6}, {parent: "base_link", child: "laser", static: true}}
	for _, tc := range []struct {
		extra int64 // added from tick 300 on
		jumps int
	}{{2e9, 0}, {2.25e9, 1}} {
		stamp := func(i, sim, _ int64) int64 {
			s := sim - (sim-simStartNS)%250e6
			if i >= 300 { // 3 s in: 12 steps of 250 ms seen
				s += tc.extra
			}
			return s
		}
		rep, _ := analyzeGen(t, genBag(t, links, []genScan{{"/scan", "laser", stamp}}, nil, 400), Config{})
		if rep.Counts.StampJumps != tc.jumps {
			t.Errorf("step of %d ns + 250 ms: %d stamp jumps %+v, want %d", tc.extra, rep.Counts.StampJumps, rep.StampJumps, tc.jumps)
		}
	}
}
