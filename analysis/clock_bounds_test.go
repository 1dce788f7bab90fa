package analysis

import (
	"math"
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// Boundary tests of the /clock follower (issue 15): which steps feed the
// tick and record-time medians and the real-time factor, when a step back
// opens the reset window, and the stall and jump rules at their bounds.

// clockBoundsStep is one /clock message: its record time and value.
type clockBoundsStep struct{ log, v int64 }

// clockBoundsRun feeds steps to a fresh clockState under cfg and returns
// it with the analyzer whose report finish filled.
func clockBoundsRun(cfg Config, steps []clockBoundsStep) (*clockState, *analyzer) {
	a := &analyzer{cfg: cfg}
	c := newClockState(100)
	for i, s := range steps {
		c.update(a, &bagread.Message{Topic: "/clock", Index: uint64(i), LogTimeNS: s.log}, s.v)
	}
	c.finish(a)
	return c, a
}

// clockBoundsEvery is n messages from record time and value 0, each
// dlog later in record time and dv later in value.
func clockBoundsEvery(n int, dlog, dv int64) []clockBoundsStep {
	var s []clockBoundsStep
	for i := range int64(n) {
		s = append(s, clockBoundsStep{i * dlog, i * dv})
	}
	return s
}

const clockBoundsMS = int64(1_000_000)

// TestClockMedianTickAndRate: a repeated value is no tick, and two values
// at one record time do not enter the real-time factor.
func TestClockMedianTickAndRate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		steps  []clockBoundsStep
		tickNS int64
		rtf    float64
	}{
		// Steps of 200 ms, 0, 0, 200 ms, 0, 0, 200 ms: the median tick is
		// 200 ms; 700 ms of record time carry 600 ms of clock.
		{"repeated values", []clockBoundsStep{
			{0, 0}, {100 * clockBoundsMS, 200 * clockBoundsMS}, {200 * clockBoundsMS, 200 * clockBoundsMS}, {300 * clockBoundsMS, 200 * clockBoundsMS},
			{400 * clockBoundsMS, 400 * clockBoundsMS}, {500 * clockBoundsMS, 400 * clockBoundsMS}, {600 * clockBoundsMS, 400 * clockBoundsMS},
			{700 * clockBoundsMS, 600 * clockBoundsMS},
		}, 200 * clockBoundsMS, 600.0 / 700},
		// The second message shares the first's record time: its step of
		// 100 ms has no record time to divide by.
		{"one record time", []clockBoundsStep{
			{0, 0}, {0, 100 * clockBoundsMS}, {100 * clockBoundsMS, 200 * clockBoundsMS}, {200 * clockBoundsMS, 300 * clockBoundsMS},
		}, 100 * clockBoundsMS, 1},
		{"one message", []clockBoundsStep{{5, 7}}, 0, 0},
	} {
		_, a := clockBoundsRun(Config{}, tc.steps)
		cr := a.rep.ClockRate
		if cr == nil || cr.MedianTickNS != tc.tickNS || !(math.Abs(cr.RealTimeFactor-tc.rtf) <= 1e-12) { // NaN fails too
			t.Errorf("%s: clock rate %+v, want median tick %d, real-time factor %v", tc.name, cr, tc.tickNS, tc.rtf)
		}
	}
	// No /clock message: no rate at all.
	if _, a := clockBoundsRun(Config{}, nil); a.rep.ClockRate != nil || a.rep.Counts.ClockMessages != 0 {
		t.Errorf("no /clock: rate %+v, %d messages", a.rep.ClockRate, a.rep.Counts.ClockMessages)
	}
}

// TestClockResetWindowBoundary: only a step back opens the reset window,
// a repeated value does not; the window lasts less than one cache time.
func TestClockResetWindowBoundary(t *testing.T) {
	const cache = 10 * clockBoundsMS
	c, _ := clockBoundsRun(Config{}, []clockBoundsStep{{0, 500}, {1, 500}, {2, 500}})
	if c.inResetWindow(math.MaxInt64) {
		t.Error("a repeated /clock value opened the reset window")
	}
	for _, tc := range []struct {
		after int64 // clock advance since the step back
		want  bool
	}{
		{0, true},
		{cache - 1, true},
		{cache, false},
		{cache + 1, false},
	} {
		c, _ := clockBoundsRun(Config{}, []clockBoundsStep{{0, 1e9}, {1, 100}, {2, 100 + tc.after}})
		if got := c.inResetWindow(cache); got != tc.want {
			t.Errorf("%d ns after the step back: in reset window %v, want %v", tc.after, got, tc.want)
		}
	}
}

// TestClockSilenceStallBoundary: a silence of /clock is a stall when it
// lasts at least StallMinNS and at least 10 median record-time steps, with
// at least 8 steps (the silence included) to take the median of.
func TestClockSilenceStallBoundary(t *testing.T) {
	// gap appends a message gap after the last one, its value 1 ms on.
	gap := func(s []clockBoundsStep, gap int64) []clockBoundsStep {
		last := s[len(s)-1]
		return append(s, clockBoundsStep{last.log + gap, last.v + clockBoundsMS})
	}
	for _, tc := range []struct {
		name  string
		steps []clockBoundsStep
		want  int
	}{
		// Nine 100 ms steps: 10x the median is 1 s, StallMinNS.
		{"1 s after 100 ms steps", gap(clockBoundsEvery(10, 100*clockBoundsMS, clockBoundsMS), StallMinNS), 1},
		{"1 s - 1 ns after 100 ms steps", gap(clockBoundsEvery(10, 100*clockBoundsMS, clockBoundsMS), StallMinNS-1), 0},
		{"1 s after 100 ms + 1 ns steps", gap(clockBoundsEvery(10, 100*clockBoundsMS+1, clockBoundsMS), StallMinNS), 0},
		// Steps of 10 ms: StallMinNS is the larger bound.
		{"1 s after 10 ms steps", gap(clockBoundsEvery(10, 10*clockBoundsMS, clockBoundsMS), StallMinNS), 1},
		{"1 s - 1 ns after 10 ms steps", gap(clockBoundsEvery(10, 10*clockBoundsMS, clockBoundsMS), StallMinNS-1), 0},
		// Seven steps before, the silence the eighth.
		{"8 steps", gap(clockBoundsEvery(8, 10*clockBoundsMS, clockBoundsMS), 2*StallMinNS), 1},
		{"7 steps", gap(clockBoundsEvery(7, 10*clockBoundsMS, clockBoundsMS), 2*StallMinNS), 0},
	} {
		c, _ := clockBoundsRun(Config{}, tc.steps)
		if c.nStalls != tc.want {
			t.Errorf("%s: %d stalls, want %d", tc.name, c.nStalls, tc.want)
		}
	}
}

// TestClockRecordTimeMedianSkipsTies: messages at one record time add no
// step to the record-time median; nine such ties would make a 1.5 s
// silence after 200 ms steps look like 10 median steps.
func TestClockRecordTimeMedianSkipsTies(t *testing.T) {
	var s []clockBoundsStep
	v := int64(0)
	for i := range int64(9) {
		// Two messages per record time, 200 ms apart.
		v += clockBoundsMS
		s = append(s, clockBoundsStep{i * 200 * clockBoundsMS, v})
		v += clockBoundsMS
		s = append(s, clockBoundsStep{i * 200 * clockBoundsMS, v})
	}
	s = append(s, clockBoundsStep{8*200*clockBoundsMS + 1500*clockBoundsMS, v + clockBoundsMS})
	if c, _ := clockBoundsRun(Config{}, s); c.nStalls != 0 {
		t.Errorf("%d stalls, want 0: a 1.5 s silence is under 10 steps of 200 ms", c.nStalls)
	}
}

// TestClockRepeatStallBoundary: a value repeated by at least two messages
// for at least StallMinNS of record time is a stall, counted when the
// value changes or the bag ends.
func TestClockRepeatStallBoundary(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []clockBoundsStep
		want  []Stall
	}{
		{"two messages 1 s apart", []clockBoundsStep{{0, 5}, {StallMinNS, 5}, {StallMinNS + 1, 6}},
			[]Stall{{StartLogNS: 0, EndLogNS: StallMinNS, ClockNS: 5, Messages: 2}}},
		{"three messages over 1 s, at the end", []clockBoundsStep{{0, 5}, {1, 5}, {StallMinNS, 5}},
			[]Stall{{StartLogNS: 0, EndLogNS: StallMinNS, ClockNS: 5, Messages: 3}}},
		{"two messages 1 s - 1 ns apart", []clockBoundsStep{{0, 5}, {StallMinNS - 1, 5}, {StallMinNS + 1, 6}}, []Stall{}},
	} {
		_, a := clockBoundsRun(Config{}, tc.steps)
		if len(a.rep.Stalls) != len(tc.want) || len(tc.want) == 1 && a.rep.Stalls[0] != tc.want[0] {
			t.Errorf("%s: stalls %+v, want %+v", tc.name, a.rep.Stalls, tc.want)
		}
	}
}

// TestClockKeptBoundary: the report keeps maxJumpsKept jumps and
// maxStallsKept stalls, and counts them all.
func TestClockKeptBoundary(t *testing.T) {
	for _, n := range []int{maxJumpsKept, maxJumpsKept + 1} {
		// n steps back of 1 ns each.
		c, a := clockBoundsRun(Config{}, clockBoundsEvery(n+1, clockBoundsMS, -1))
		if len(a.rep.ClockJumps) != maxJumpsKept || c.nJumps != n || a.rep.Counts.BackwardJumps != n {
			t.Errorf("%d jumps: kept %d, counted %d (%d back); want %d, %d", n, len(a.rep.ClockJumps), c.nJumps, a.rep.Counts.BackwardJumps, maxJumpsKept, n)
		}
	}
	for _, n := range []int{maxStallsKept, maxStallsKept + 1} {
		c := newClockState(1)
		for range n {
			c.addStall(Stall{})
		}
		if len(c.stalls) != maxStallsKept || c.nStalls != n {
			t.Errorf("%d stalls: kept %d, counted %d; want %d, %d", n, len(c.stalls), c.nStalls, maxStallsKept, n)
		}
	}
}

// TestDecodeClockNSEncapsulation: only plain little-endian CDR takes the
// fast path; another first byte or encapsulation goes through
// cdr.DecodeClock, which decodes big endian and rejects the rest.
func TestDecodeClockNSEncapsulation(t *testing.T) {
	body := []byte{7, 0, 0, 0, 5, 0, 0, 0} // 7 s 5 ns in little endian
	for _, tc := range []struct {
		head    [4]byte
		want    int64
		wantErr bool
	}{
		{[4]byte{0, 1}, 7_000_000_005, false},
		{[4]byte{0, 0}, 0x07000000*1_000_000_000 + 0x05000000, false}, // the same bytes in big endian
		{[4]byte{1, 1}, 0, true},
		{[4]byte{0, 3}, 0, true},
	} {
		got, err := decodeClockNS(append(tc.head[:], body...))
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("encapsulation %x: %d, %v; want %d, error %v", tc.head[:2], got, err, tc.want, tc.wantErr)
		}
	}
}
