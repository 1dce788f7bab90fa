package analysis

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// Boundary tests of the wall-timer check (issue 15): its helpers, the
// real-time factor windows, the intervals it keeps, and the decision in
// finish, each threshold at its value and just on each side.

// wallTimerValues is a reservoir holding vs.
func wallTimerValues(vs ...float64) reservoir {
	var r reservoir
	for _, v := range vs {
		r.add(v)
	}
	return r
}

// wallTimerRepeat is v n times.
func wallTimerRepeat(n int, v float64) []float64 {
	l := make([]float64, n)
	for i := range l {
		l[i] = v
	}
	return l
}

// TestRelSpread: the interquartile range over the median; +Inf when the
// median is 0, even with no range at all.
func TestRelSpread(t *testing.T) {
	// Nearest rank of 20 values: the quartiles are the 5th, 10th and 15th.
	spread := append(append(wallTimerRepeat(5, 49.5), wallTimerRepeat(5, 50)...), wallTimerRepeat(10, 50.5)...)
	for _, tc := range []struct {
		name string
		vs   []float64
		want float64
	}{
		{"no range", wallTimerRepeat(20, 100), 0},
		{"a range of 1 over 50", spread, 0.02},
		{"median 0", append(wallTimerRepeat(10, 0), wallTimerRepeat(10, 5)...), math.Inf(1)},
		{"all 0", wallTimerRepeat(20, 0), math.Inf(1)},
	} {
		r := wallTimerValues(tc.vs...)
		if got := relSpread(&r); got != tc.want {
			t.Errorf("%s: relSpread = %g, want %g", tc.name, got, tc.want)
		}
	}
}

// TestWallTimerSentenceRange: a factor that varies by 0.2 or more (and
// never reaches 0) is given as a range, else as one value.
func TestWallTimerSentenceRange(t *testing.T) {
	for _, tc := range []struct {
		name        string
		rtf, lo, hi float64
		want        string
	}{
		{"varies by 0.2", 0.5, 0.25, 0.45, "at real-time factor 0.25..0.45 it publishes 2.2..4.0× per sim period"},
		{"varies by 0.25", 0.5, 0.25, 0.5, "at real-time factor 0.25..0.50 it publishes 2.0..4.0× per sim period"},
		{"varies by under 0.2", 0.5, 0.375, 0.5625, "at real-time factor 0.50 it publishes 2.0× per sim period"},
		{"range from 0", 0.5, 0, 0.5, "at real-time factor 0.50 it publishes 2.0× per sim period"},
	} {
		got := wallTimerSentence("/w", tc.rtf, tc.lo, tc.hi)
		if !strings.HasPrefix(got, "/w comes from a wall timer: "+tc.want+": use rclcpp::create_timer") {
			t.Errorf("%s: %q, want it to say %q", tc.name, got, tc.want)
		}
	}
}

// TestWallTimerRTFWindows: the real-time factor is /clock's advance over
// each window of at least rtfWindowNS of record time; /clock or record
// time going back starts a new window.
func TestWallTimerRTFWindows(t *testing.T) {
	type tick struct{ log, v int64 }
	for _, tc := range []struct {
		name  string
		ticks []tick
		want  []float64
	}{
		{"a window of 2 s", []tick{{10e9, 100e9}, {12e9, 101e9}}, []float64{0.5}},
		{"under 2 s", []tick{{10e9, 100e9}, {12e9 - 1, 101e9}}, nil},
		{"two windows", []tick{{10e9, 100e9}, {11e9, 100.5e9}, {12e9, 101e9}, {16e9, 109e9}}, []float64{0.5, 2}},
		{"/clock back", []tick{{10e9, 100e9}, {11e9, 99e9}, {13e9, 101e9}}, []float64{1}},
		{"/clock unchanged", []tick{{10e9, 100e9}, {12e9, 100e9}}, []float64{0}},
		{"record time back", []tick{{10e9, 100e9}, {9e9, 101e9}, {11e9, 103e9}}, []float64{1}},
		{"record time unchanged", []tick{{10e9, 100e9}, {10e9, 101e9}, {12e9, 103e9}}, []float64{1.5}},
	} {
		c := &wallTimerCheck{}
		for _, k := range tc.ticks {
			c.onClock(nil, &bagread.Message{LogTimeNS: k.log}, k.v)
		}
		got := append([]float64(nil), c.rtf.s...)
		if !reflect.DeepEqual(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Errorf("%s: windows %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestWallTimerIntervals: the intervals kept in wall and sim time; a step
// of either clock back, or of 10 s or more, is no period. Wall time is the
// publish time when there is one.
func TestWallTimerIntervals(t *testing.T) {
	const s = int64(1_000_000_000)
	for _, tc := range []struct {
		name    string
		dw, ds  int64
		publish bool
		wantW   []float64
		wantS   []float64
	}{
		{"0.1 s both", s / 10, s / 10, false, []float64{1e8}, []float64{1e8}},
		{"sim time unchanged", s / 10, 0, false, []float64{1e8}, []float64{0}},
		{"wall time unchanged", 0, s / 10, false, nil, nil},
		{"sim time back", s / 10, -1, false, nil, nil},
		{"sim just under 10 s", s / 10, 10*s - 1, false, []float64{1e8}, []float64{1e10 - 1}},
		{"sim 10 s", s / 10, 10 * s, false, nil, nil},
		{"wall just under 10 s", 10*s - 1, s / 10, false, []float64{1e10 - 1}, []float64{1e8}},
		{"wall 10 s", 10 * s, s / 10, false, nil, nil},
		{"publish time", s / 10, s / 10, true, []float64{2e8}, []float64{1e8}},
	} {
		a := &analyzer{clock: &clockState{}}
		c := &wallTimerCheck{}
		ts := &topicState{name: "/w", id: 2}
		const l0, s0 = 50 * s, 20 * s
		m := func(i int64) *bagread.Message {
			m := &bagread.Message{LogTimeNS: l0 + i*tc.dw}
			if tc.publish {
				m.HasPublishTime, m.PublishTimeNS = true, l0+2*i*tc.dw
			}
			return m
		}
		c.onStamped(a, &stampedMsg{m: m(0), topic: ts, stamp: s0})
		c.onStamped(a, &stampedMsg{m: m(1), topic: ts, stamp: s0 + tc.ds})
		tsr := &c.topics[2]
		gotW, gotS := append([]float64(nil), tsr.dW.s...), append([]float64(nil), tsr.dS.s...)
		if !reflect.DeepEqual(gotW, tc.wantW) || !reflect.DeepEqual(gotS, tc.wantS) || tsr.pairs != len(tc.wantW) {
			t.Errorf("%s: wall %v, sim %v (%d pairs), want %v, %v", tc.name, gotW, gotS, tsr.pairs, tc.wantW, tc.wantS)
		}
		var sumW, sumS float64
		for i := range tc.wantW {
			sumW += tc.wantW[i]
			sumS += tc.wantS[i]
		}
		if tsr.sumW != sumW || tsr.sumS != sumS {
			t.Errorf("%s: sums %g, %g, want %g, %g", tc.name, tsr.sumW, tsr.sumS, sumW, sumS)
		}
	}
}

// TestWallTimerSimStamps: stamps from 1 ns up to the epoch are sim time;
// others (0, system time) take the /clock value in force, or nothing
// before the first /clock.
func TestWallTimerSimStamps(t *testing.T) {
	for _, tc := range []struct {
		name       string
		stamp      int64
		clockSeen  bool
		sim, other int
		lastS      int64
		seen       bool
	}{
		{"1 ns", 1, false, 1, 0, 1, true},
		{"just under the epoch", EpochThresholdNS - 1, false, 1, 0, EpochThresholdNS - 1, true},
		{"the epoch, /clock", EpochThresholdNS, true, 0, 1, 42, true},
		{"0, /clock", 0, true, 0, 1, 42, true},
		{"0, no /clock", 0, false, 0, 1, 0, false},
	} {
		a := &analyzer{clock: &clockState{seen: tc.clockSeen, ns: 42}}
		c := &wallTimerCheck{}
		c.onStamped(a, &stampedMsg{m: &bagread.Message{LogTimeNS: 5}, topic: &topicState{id: 0}, stamp: tc.stamp})
		ts := c.topics[0]
		if ts.sim != tc.sim || ts.other != tc.other || ts.lastS != tc.lastS || ts.seen != tc.seen {
			t.Errorf("%s: sim %d other %d last %d seen %v, want %d %d %d %v", tc.name, ts.sim, ts.other, ts.lastS, ts.seen, tc.sim, tc.other, tc.lastS, tc.seen)
		}
	}
}

// TestWallTimerPhase: a message's phase is its record time since the last
// /clock message, from the same record time on; none before /clock.
func TestWallTimerPhase(t *testing.T) {
	for _, tc := range []struct {
		name      string
		clockSeen bool
		clockLog  int64
		want      []float64
	}{
		{"after /clock", true, 900, []float64{100}},
		{"with /clock", true, 1000, []float64{0}},
		{"before /clock's record time", true, 1001, nil},
		{"no /clock", false, 900, nil},
	} {
		a := &analyzer{clock: &clockState{seen: tc.clockSeen, logNS: tc.clockLog}}
		c := &wallTimerCheck{}
		c.onRecord(a, &bagread.Message{LogTimeNS: 1000}, &topicState{id: 0})
		var got []float64
		if len(c.topics) > 0 {
			got = c.topics[0].phase.s
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: phase %v, want %v", tc.name, got, tc.want)
		}
	}
}

// wallTimerSpread is 20 intervals around 50 ms whose interquartile range
// over the median is spread (nearest rank: the 5th, 10th and 15th).
func wallTimerSpread(spread float64) []float64 {
	const med = 50e6
	half := spread * med / 2
	return append(append(wallTimerRepeat(5, med-half), wallTimerRepeat(5, med)...), wallTimerRepeat(10, med+half)...)
}

// wallTimerCase is the state finish reads: one topic's series, the bag's
// real-time factor and its windows, /clock's record-time ticks.
type wallTimerCase struct {
	name        string
	role        topicRole
	typ         string
	dW, dS      []float64
	sim, other  int
	phase       []float64
	clockTicks  []float64
	rtf         float64 // ClockRate's; 0: none measured
	windows     []float64
	want        TimerClock // Topic and Sentence left out
	wantWindows bool
}

func (tc wallTimerCase) run() *Report {
	a := &analyzer{clock: &clockState{logTicks: wallTimerValues(tc.clockTicks...)}}
	role := tc.role
	if role == 0 {
		role = roleStamped
	}
	typ := tc.typ
	if typ == "" {
		typ = "sensor_msgs/msg/LaserScan"
	}
	// /other has no intervals, /late came after the check's last message.
	a.topics.list = []*topicState{{name: "/other", role: roleStamped, id: 0}, {name: "/w", typ: typ, role: role, id: 1},
		{name: "/late", role: roleStamped, id: 2}}
	a.rep.ClockRate = &ClockRate{RealTimeFactor: tc.rtf}
	s := timerSeries{dW: wallTimerValues(tc.dW...), dS: wallTimerValues(tc.dS...), pairs: len(tc.dW),
		sim: tc.sim, other: tc.other, phase: wallTimerValues(tc.phase...)}
	for i := range tc.dW {
		s.sumW += tc.dW[i]
		s.sumS += tc.dS[i]
	}
	c := &wallTimerCheck{topics: []timerSeries{{}, s}, rtf: wallTimerValues(tc.windows...)}
	c.finish(a)
	return &a.rep
}

// TestWallTimerFinishBoundary: which clock a topic's timer is on, with
// what confidence, and when it is flagged.
func TestWallTimerFinishBoundary(t *testing.T) {
	regular := wallTimerRepeat(20, 50e6)
	twice := wallTimerSpread(0.02)   // with +0.02 twice the spread of a regular series
	under := wallTimerSpread(0.0199) // just under
	quarter := wallTimerSpread(0.06) // a quarter of the +0.02 of a regular series: confidence 0.75
	lower := wallTimerSpread(0.057)  // confidence 0.74
	base := func(tc wallTimerCase) wallTimerCase {
		if tc.dW == nil {
			tc.dW = regular
		}
		if tc.dS == nil {
			tc.dS = quarter
		}
		if tc.rtf == 0 && tc.windows == nil {
			tc.rtf = 0.5
		}
		return tc
	}
	wall := func(conf float64, flagged bool, simSpread float64) TimerClock {
		return TimerClock{Intervals: 20, WallRateHz: 20, Clock: TimerWall, Confidence: conf, Flagged: flagged, SimSpread: simSpread}
	}
	for _, tc := range []wallTimerCase{
		base(wallTimerCase{name: "wall, confidence 0.75, sim stamps", sim: 20, want: wall(0.75, true, 0.06)}),
		base(wallTimerCase{name: "wall, confidence 0.74", dS: lower, sim: 20, want: wall(0.74, false, 0.057)}),
		base(wallTimerCase{name: "sim spread twice wall's", dS: twice, sim: 20, want: wall(0.5, false, 0.02)}),
		base(wallTimerCase{name: "sim spread just under twice", dS: under, sim: 20,
			want: TimerClock{Intervals: 20, WallRateHz: 20, Clock: TimerUndetermined, SimSpread: 0.0199}}),
		base(wallTimerCase{name: "wall spread twice sim's", dW: twice, dS: regular, sim: 20,
			want: TimerClock{Intervals: 20, WallRateHz: 20, SimRateHz: 20, Clock: TimerSim, Confidence: 0.5, WallSpread: 0.02}}),
		base(wallTimerCase{name: "9 in 10 stamps on sim time", sim: 18, other: 2, want: wall(0.75, true, 0.06)}),
		base(wallTimerCase{name: "under 9 in 10 on sim time", sim: 17, other: 2, want: wall(0.75, false, 0.06)}),
		base(wallTimerCase{name: "record times only", role: roleTimeOnly, want: func() TimerClock {
			w := wall(0.75, true, 0.06)
			w.RecordTimeOnly = true
			return w
		}()}),
		base(wallTimerCase{name: "wall by design", typ: "gazebo_msgs/msg/PerformanceMetrics", sim: 20, want: func() TimerClock {
			w := wall(0.75, false, 0.06)
			w.WallByDesign = true
			return w
		}()}),
		base(wallTimerCase{name: "sim time does not resolve the period", dS: wallTimerRepeat(20, 0), sim: 20, want: wall(0.5, false, -1)}),
		base(wallTimerCase{name: "no wall time", dW: wallTimerRepeat(20, 0), dS: regular, sim: 20,
			want: TimerClock{Intervals: 20, SimRateHz: 20, Clock: TimerSim, Confidence: 1, WallSpread: -1}}),
		// /clock ticks every 100 ms: messages within 25 ms after it follow it.
		base(wallTimerCase{name: "undetermined, follows /clock", dS: under, sim: 20, phase: wallTimerRepeat(20, 25e6), clockTicks: []float64{100e6},
			want: TimerClock{Intervals: 20, WallRateHz: 20, Clock: TimerSim, Confidence: 0.75, SimSpread: 0.0199}}),
		base(wallTimerCase{name: "undetermined, just after /clock", dS: under, sim: 20, phase: wallTimerRepeat(20, 25e6+1), clockTicks: []float64{100e6},
			want: TimerClock{Intervals: 20, WallRateHz: 20, Clock: TimerUndetermined, SimSpread: 0.0199}}),
		base(wallTimerCase{name: "undetermined, 19 phases", dS: under, sim: 20, phase: wallTimerRepeat(19, 25e6), clockTicks: []float64{100e6},
			want: TimerClock{Intervals: 20, WallRateHz: 20, Clock: TimerUndetermined, SimSpread: 0.0199}}),
		base(wallTimerCase{name: "undetermined, no /clock ticks", dS: under, sim: 20, phase: wallTimerRepeat(20, 0),
			want: TimerClock{Intervals: 20, WallRateHz: 20, Clock: TimerUndetermined, SimSpread: 0.0199}}),
		base(wallTimerCase{name: "wall, follows /clock", sim: 20, phase: wallTimerRepeat(20, 25e6), clockTicks: []float64{100e6},
			want: TimerClock{Intervals: 20, WallRateHz: 20, Clock: TimerUndetermined, SimSpread: 0.06}}),
		// A factor that does not say 1 and windows that vary by 0.2.
		base(wallTimerCase{name: "no factor, windows vary by 0.2", rtf: -1, windows: []float64{0.25, 0.35, 0.45}, sim: 20,
			want: wall(0.75, true, 0.06), wantWindows: true}),
		base(wallTimerCase{name: "factor 1, windows vary by under 0.2", rtf: 1, windows: []float64{0.25, 0.35, 0.4375}, sim: 20,
			want: TimerClock{Intervals: 20, WallRateHz: 20, Clock: TimerIndistinguishable, SimSpread: 0.06}, wantWindows: true}),
		base(wallTimerCase{name: "factor 1, two windows", rtf: 1, windows: []float64{0.25, 0.45}, sim: 20,
			want: TimerClock{Intervals: 20, WallRateHz: 20, Clock: TimerIndistinguishable, SimSpread: 0.06}}),
	} {
		rep := tc.run()
		if len(rep.TimerClocks) != 1 {
			t.Errorf("%s: timer clocks %+v, want /w", tc.name, rep.TimerClocks)
			continue
		}
		got := rep.TimerClocks[0]
		// A sentence when flagged, or when the bag cannot tell the timer
		// at a constant real-time factor (lookAlikeSentence), or when it
		// leans to wall time by too little to flag (leansWallSentence):
		// over 0.5, on sim time and not wall time by design.
		lookAlike := got.Clock == TimerUndetermined && strings.HasPrefix(got.Sentence, "The bag cannot tell which clock /w's timer follows")
		leans := got.Clock == TimerWall && !got.Flagged && strings.HasPrefix(got.Sentence, "/w may come from a wall timer")
		if (got.Flagged || lookAlike || leans) != (got.Sentence != "") || got.Topic != "/w" {
			t.Errorf("%s: %+v: a sentence only when flagged, undetermined or leaning to wall time", tc.name, got)
		}
		if leans != (tc.name == "wall, confidence 0.74") {
			t.Errorf("%s: %+v: leans to wall time %v", tc.name, got, leans)
		}
		if got.Clock == TimerUndetermined && tc.rtf != 1 && !lookAlike {
			t.Errorf("%s: %+v: undetermined at factor %g without saying the bag cannot tell", tc.name, got, tc.rtf)
		}
		if lookAlike && strings.Contains(tc.name, "follows /clock") == strings.Contains(got.Sentence, "do not follow /clock") {
			t.Errorf("%s: %q: says whether the messages follow /clock wrongly", tc.name, got.Sentence)
		}
		got.Topic, got.Sentence = "", ""
		// Rates in Hz to 1e-9, from the sums.
		want := tc.want
		var sumW, sumS float64
		for i := range tc.dW {
			sumW += tc.dW[i]
			sumS += tc.dS[i]
		}
		if want.WallRateHz != 0 {
			want.WallRateHz = 20 / (sumW / 1e9)
		}
		if sumS > 0 {
			want.SimRateHz = 20 / (sumS / 1e9)
		}
		if math.Abs(got.WallRateHz-want.WallRateHz) > 1e-9 || math.Abs(got.SimRateHz-want.SimRateHz) > 1e-9 ||
			math.Abs(got.SimSpread-want.SimSpread) > 1e-12 || math.Abs(got.WallSpread-want.WallSpread) > 1e-12 {
			t.Errorf("%s: rates and spreads %+v, want %+v", tc.name, got, want)
		}
		got.WallRateHz, got.SimRateHz, got.SimSpread, got.WallSpread = 0, 0, 0, 0
		want.WallRateHz, want.SimRateHz, want.SimSpread, want.WallSpread = 0, 0, 0, 0
		if got != want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, want)
		}
		if (rep.RealTimeFactorRange != nil) != tc.wantWindows {
			t.Errorf("%s: factor range %+v, want one: %v", tc.name, rep.RealTimeFactorRange, tc.wantWindows)
		}
	}
}

// TestWallTimerFinishListed: a topic is listed from minTimerPairs
// intervals on, analysed or read for its record times only.
func TestWallTimerFinishListed(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		role topicRole
		want int
	}{
		{"20 intervals", minTimerPairs, roleStamped, 1},
		{"19 intervals", minTimerPairs - 1, roleStamped, 0},
		{"record times only", minTimerPairs, roleTimeOnly, 1},
		{"tf", minTimerPairs, roleTF, 0},
	} {
		rep := wallTimerCase{role: tc.role, dW: wallTimerRepeat(tc.n, 50e6), dS: wallTimerRepeat(tc.n, 50e6), rtf: 1}.run()
		if len(rep.TimerClocks) != tc.want {
			t.Errorf("%s: timer clocks %+v, want %d", tc.name, rep.TimerClocks, tc.want)
		}
	}
}

// TestWallTimerNoFactor: a real-time factor of 0 (none measured) counts
// as 1: without windows the clocks cannot be told apart.
func TestWallTimerNoFactor(t *testing.T) {
	rep := wallTimerCase{dW: wallTimerRepeat(20, 50e6), dS: wallTimerSpread(0.06), sim: 20, rtf: 0}.run()
	if len(rep.TimerClocks) != 1 || rep.TimerClocks[0].Clock != TimerIndistinguishable {
		t.Errorf("timer clocks %+v, want /w indistinguishable", rep.TimerClocks)
	}
}
