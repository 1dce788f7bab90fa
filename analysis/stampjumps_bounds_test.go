package analysis

import (
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// Boundary tests of the stamp-jump check of bags without /clock (issue
// 15): the pace a forward jump needs, the threshold itself, which steps
// feed the pace, and the kept jumps.

// stampJumpsBoundsRun feeds header stamps of one topic, a message every
// 10 ms of record time, to a fresh stampJumps under cfg.
func stampJumpsBoundsRun(cfg Config, stamps []int64) *stampJumps {
	a := &analyzer{cfg: cfg}
	j := &stampJumps{}
	ts := &topicState{}
	for i, s := range stamps {
		m := &bagread.Message{Topic: "/scan", Index: uint64(i), LogTimeNS: int64(i) * 10_000_000}
		j.onStamped(a, &stampedMsg{m: m, topic: ts, stamp: s})
	}
	j.flush()
	return j
}

// stampJumpsBoundsSteps is stamps from 0 by the given steps.
func stampJumpsBoundsSteps(steps ...int64) []int64 {
	s := []int64{0}
	for _, d := range steps {
		s = append(s, s[len(s)-1]+d)
	}
	return s
}

// stampJumpsBoundsRepeat is n copies of step.
func stampJumpsBoundsRepeat(n int, step int64) []int64 {
	var s []int64
	for range n {
		s = append(s, step)
	}
	return s
}

// TestStampJumpForwardBoundary: after minPaceSteps steps of 200 ms a
// forward step of 2 s (10x the median) is a jump; 2 s - 1 ns is not, nor 2 s
// after one step fewer. Repeated stamps add no step to the pace: with
// them the 200 ms median, and the 2 s threshold, stand.
func TestStampJumpForwardBoundary(t *testing.T) {
	const tick = int64(200_000_000)
	pace := stampJumpsBoundsRepeat(minPaceSteps, tick)
	for _, tc := range []struct {
		name  string
		steps []int64
		want  int
	}{
		{"2 s after the pace", append(pace[:minPaceSteps:minPaceSteps], 10*tick), 1},
		{"2 s - 1 ns after the pace", append(pace[:minPaceSteps:minPaceSteps], 10*tick-1), 0},
		{"2 s one step short of the pace", append(pace[:minPaceSteps-1:minPaceSteps-1], 10*tick), 0},
		{"1.5 s after the pace and repeats", append(append(pace[:minPaceSteps:minPaceSteps], stampJumpsBoundsRepeat(minPaceSteps+1, 0)...), 15*tick/2), 0},
	} {
		j := stampJumpsBoundsRun(Config{}, stampJumpsBoundsSteps(tc.steps...))
		if j.n != tc.want || len(j.kept) != tc.want {
			t.Errorf("%s: %d jumps (%d kept), want %d", tc.name, j.n, len(j.kept), tc.want)
		}
	}
}

// TestStampJumpsKeptBoundary: maxJumpsKept jumps are kept, with the
// record time of the message before each; all are counted.
func TestStampJumpsKeptBoundary(t *testing.T) {
	for _, n := range []int{maxJumpsKept, maxJumpsKept + 1} {
		j := stampJumpsBoundsRun(Config{}, stampJumpsBoundsSteps(stampJumpsBoundsRepeat(n, -1)...))
		if j.n != n || len(j.kept) != maxJumpsKept || j.kept[1].PrevLogTimeNS != 10_000_000 {
			t.Errorf("%d steps back: %d counted, %d kept, record time before the second %d; want %d, %d, 10000000", n, j.n, len(j.kept), j.kept[1].PrevLogTimeNS, n, maxJumpsKept)
		}
	}
}
