package analysis

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// Boundary tests of the clock-step check (issue 15): its helpers and its
// record-time follower driven message by message, each threshold at its
// value and just on each side.

// TestSameStepBoundary: a stamp jump is the same step when it is within
// stepTogetherNS of record time, goes the same way, and its size is within
// max(stepMatchNS, a fifth of the step) of it.
func TestSameStepBoundary(t *testing.T) {
	const at = int64(50_000_000_000)
	jump := func(logNS, d int64) ClockJump {
		return ClockJump{LogTimeNS: logNS, FromNS: 7_000_000_000, ToNS: 7_000_000_000 + d}
	}
	for _, tc := range []struct {
		name  string
		sj    ClockJump
		delta int64
		want  bool
	}{
		{"same time and size", jump(at, 2_000_000_000), 2_000_000_000, true},
		{"1 s later", jump(at+stepTogetherNS, 2_000_000_000), 2_000_000_000, true},
		{"1 s earlier", jump(at-stepTogetherNS, 2_000_000_000), 2_000_000_000, true},
		{"over 1 s later", jump(at+stepTogetherNS+1, 2_000_000_000), 2_000_000_000, false},
		{"over 1 s earlier", jump(at-stepTogetherNS-1, 2_000_000_000), 2_000_000_000, false},
		{"the other way", jump(at, -2_000_000_000), 2_000_000_000, false},
		{"no jump against a step forward", jump(at, 0), 1, false},
		{"no jump against no step", jump(at, 0), 0, true},
		{"backward, a fifth off", jump(at, -2_400_000_000), -2_000_000_000, true},
		// A fifth of 2 s is 0.4 s, past the 0.2 s floor.
		{"a fifth larger", jump(at, 2_400_000_000), 2_000_000_000, true},
		{"over a fifth larger", jump(at, 2_400_000_001), 2_000_000_000, false},
		{"a fifth smaller", jump(at, 1_600_000_000), 2_000_000_000, true},
		{"over a fifth smaller", jump(at, 1_599_999_999), 2_000_000_000, false},
		// Under 1 s the floor of 0.2 s holds.
		{"0.2 s off a 0.5 s step", jump(at, 700_000_000), 500_000_000, true},
		{"over 0.2 s off a 0.5 s step", jump(at, 700_000_001), 500_000_000, false},
	} {
		if got := sameStep(tc.sj, at, tc.delta); got != tc.want {
			t.Errorf("%s: sameStep(%+v, %d, %d) = %v, want %v", tc.name, tc.sj, at, tc.delta, got, tc.want)
		}
	}
}

// TestAddSteppedBoundary: a link is named by its link, a topic by its
// topic, each once, at most maxStepTopics of them.
func TestAddSteppedBoundary(t *testing.T) {
	full := func(n int) []string {
		l := []string{}
		for i := range n {
			l = append(l, fmt.Sprintf("/t%d", i))
		}
		return l
	}
	for _, tc := range []struct {
		name  string
		list  []string
		sj    ClockJump
		want  []string
		links []string // SteppedLinks after
	}{
		{"nil list, a topic", nil, ClockJump{Topic: "/scan"}, []string{"/scan"}, nil},
		{"a link", []string{}, ClockJump{Topic: "/tf", Link: "odom->base"}, []string{"odom->base"}, []string{"odom->base"}},
		{"already there", []string{"/scan"}, ClockJump{Topic: "/scan"}, []string{"/scan"}, nil},
		{"one short of the cap", full(maxStepTopics - 1), ClockJump{Topic: "/x"}, append(full(maxStepTopics-1), "/x"), nil},
		{"at the cap", full(maxStepTopics), ClockJump{Topic: "/x"}, full(maxStepTopics), nil},
		{"a link at the cap", full(maxStepTopics), ClockJump{Topic: "/tf", Link: "odom->base"}, full(maxStepTopics), nil},
	} {
		st := ClockStep{Stepped: tc.list}
		st.addStepped(tc.sj)
		if !reflect.DeepEqual(st.Stepped, tc.want) || !reflect.DeepEqual(st.SteppedLinks, tc.links) {
			t.Errorf("%s: Stepped %q, links %q; want %q, %q", tc.name, st.Stepped, st.SteppedLinks, tc.want, tc.links)
		}
	}
}

// TestStepSentenceWording: each kind of step has its own sentence; stepped
// and unstepped series are named; a stamp step's size is given unsigned.
func TestStepSentenceWording(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    ClockStep
		want []string
		not  []string
	}{
		{"stamps back", ClockStep{Source: StepStamps, Kind: "backward", StepS: -2.5, AtS: 12, Stepped: []string{"/a", "/b"}},
			[]string{"stepped back by 2.500 s at +12.0 s (record time): the stamps of /a and /b jump together"}, []string{"-2.5"}},
		{"stamps, no step", ClockStep{Source: StepStamps, Kind: "forward", StepS: 0, Stepped: []string{"/a", "/b"}},
			[]string{"stepped forward by 0.0 ms"}, []string{"-0.0"}},
		{"record time back", ClockStep{Source: StepRecordTime, Kind: "backward", StepS: -0.8, AtS: 10, Topic: "/scan", Index: 7, Confirmed: true, Stepped: []string{"/a"}},
			[]string{"stepped back by 800.0 ms at +10.0 s", "at /scan #7); the system-time stamps of /a stepped with it: NTP"}, nil},
		{"record time back, nothing stepped", ClockStep{Source: StepRecordTime, Kind: "backward", StepS: -0.8, Topic: "/scan", Confirmed: true, Stepped: []string{}},
			[]string{"#0): NTP"}, []string{"stepped with it"}},
		{"confirmed forward by /clock", ClockStep{Source: StepRecordTime, Kind: "forward", StepS: 3, AtS: 20, Topic: "/scan", Index: 9, Confirmed: true, Stepped: []string{"/a"}},
			[]string{"stepped forward by 3.000 s at +20.0 s", "/clock went on by less than half", "; the system-time stamps of /a stepped with it"}, nil},
		{"confirmed forward by stamps", ClockStep{Source: StepRecordTime, Kind: "forward", StepS: 3, Topic: "/scan", Confirmed: true, Unstepped: []string{"/u"}},
			[]string{"and some stamps did not jump with it); the stamps of /u did not (a publisher on another clock"}, []string{"/clock went on"}},
		{"unconfirmed forward", ClockStep{Source: StepRecordTime, Kind: "forward", StepS: 3, AtS: 20, Topic: "/scan", Index: 9, Stepped: []string{"/a"}},
			[]string{"Record time jumps forward by 3.000 s at +20.0 s with no message in between (at /scan #9); the stamps of /a jump with it: a step forward"}, nil},
		{"unconfirmed forward, nothing stepped", ClockStep{Source: StepRecordTime, Kind: "forward", StepS: 3, Topic: "/scan", Index: 9},
			[]string{"(at /scan #9): a step forward"}, nil},
		// Past four names the rest are counted, the links apart, by
		// SteppedLinks and UnsteppedLinks.
		{"many stepped, links among them", ClockStep{Source: StepStamps, Kind: "backward", StepS: -2.5, AtS: 12,
			Stepped: []string{"/a", "/b", "/c", "/d", "odom->base", "map->odom"}, SteppedLinks: []string{"odom->base", "map->odom"}},
			[]string{"the stamps of /a, /b, /c and 1 other topic and 2 tf links jump together"}, nil},
		{"many unstepped, a link among them", ClockStep{Source: StepRecordTime, Kind: "forward", StepS: 3, Topic: "/scan", Confirmed: true,
			Unstepped: []string{"/u", "/v", "/w", "odom->base", "/x"}, UnsteppedLinks: []string{"odom->base"}},
			[]string{"the stamps of /u, /v, /w and 1 other topic and 1 tf link did not"}, nil},
	} {
		got := stepSentence(&tc.s)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.name, got, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q has %q", tc.name, got, w)
			}
		}
	}
}

// clockStepRun feeds record times (ns) to a clock-step check as
// record-time-only messages, each 10 ms after the bag start plus its
// value, and returns the check.
func clockStepRun(a *analyzer, c *clockStepCheck, logs ...int64) *clockStepCheck {
	for i, l := range logs {
		c.onRecord(a, &bagread.Message{Topic: "/scan", Index: uint64(i), LogTimeNS: l}, nil)
	}
	return c
}

func clockStepAnalyzer(cfg Config) *analyzer {
	return &analyzer{cfg: cfg, clock: &clockState{}, startNS: 1_000_000_000}
}

// TestClockStepSeeBoundary: which gaps of record time are steps, with the
// default and configured thresholds.
func TestClockStepSeeBoundary(t *testing.T) {
	const s0 = int64(10_000_000_000)
	// ticks: n gaps of d from s0.
	ticks := func(n int, d int64) []int64 {
		l := []int64{}
		for i := range n {
			l = append(l, s0+int64(i)*d)
		}
		return l
	}
	then := func(l []int64, ds ...int64) []int64 {
		for _, d := range ds {
			l = append(l, l[len(l)-1]+d)
		}
		return l
	}
	for _, tc := range []struct {
		name string
		cfg  Config
		logs []int64
		want []string // kinds of the steps
	}{
		{"back 100 ms", Config{}, then(ticks(3, 1e7), -100_000_000), []string{"backward"}},
		{"back under 100 ms", Config{}, then(ticks(3, 1e7), -99_999_999), nil},
		{"back 0.5 s configured", Config{JumpMinBackwardNS: -500_000_000}, then(ticks(3, 1e7), -500_000_000), []string{"backward"}},
		{"back under 0.5 s configured", Config{JumpMinBackwardNS: -500_000_000}, then(ticks(3, 1e7), -499_999_999), nil},
		{"forward 1 s", Config{}, then(ticks(3, 1e7), 1_000_000_000), []string{"forward"}},
		{"forward under 1 s", Config{}, then(ticks(3, 1e7), 999_999_999), nil},
		{"forward 2 s configured", Config{JumpMinForwardNS: 2_000_000_000}, then(ticks(3, 1e7), 2_000_000_000), []string{"forward"}},
		{"forward under 2 s configured", Config{JumpMinForwardNS: 2_000_000_000}, then(ticks(3, 1e7), 1_999_999_999), nil},
		// Ten ticks of 0.2 s: the threshold is 2 s.
		{"forward 1.5 s past 0.2 s ticks", Config{}, then(ticks(11, 200_000_000), 1_500_000_000), nil},
		{"forward 2 s past 0.2 s ticks", Config{}, then(ticks(11, 200_000_000), 2_000_000_000), []string{"forward"}},
		// Messages at the same record time are no ticks: they do not pull
		// the median (and the threshold) down.
		{"forward 1.5 s past 0.2 s ticks and equal times", Config{}, then(ticks(11, 200_000_000), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1_500_000_000), nil},
	} {
		a := clockStepAnalyzer(tc.cfg)
		c := clockStepRun(a, &clockStepCheck{}, tc.logs...)
		var got []string
		for _, st := range c.kept {
			got = append(got, st.Kind)
		}
		if !reflect.DeepEqual(got, tc.want) || c.n != len(tc.want) {
			t.Errorf("%s: steps %q (n %d), want %q", tc.name, got, c.n, tc.want)
		}
	}
}

// TestClockStepKept: a step's fields, the cap on kept steps with the
// count going on, and a forward step awaiting /clock at the real-time
// factor when one is known.
func TestClockStepKept(t *testing.T) {
	a := clockStepAnalyzer(Config{})
	a.clock.ns = 77 // /clock in force before the step
	c := &clockStepCheck{}
	clockStepRun(a, c, 3_000_000_000, 3_010_000_000, 2_000_000_000)
	want := recordStep{ClockStep: ClockStep{Source: StepRecordTime, Kind: "backward", LogTimeNS: 2_000_000_000, AtS: 2.01,
		FromNS: 3_010_000_000, ToNS: 2_000_000_000, StepS: -1.01, Topic: "/scan", Index: 2,
		Stepped: []string{}, Unstepped: []string{}, Confirmed: true}, msgsAt: 2, clockBefore: 77}
	if len(c.kept) != 1 || !reflect.DeepEqual(c.kept[0], want) {
		t.Fatalf("kept %+v, want %+v", c.kept, want)
	}

	// 101 steps back: 100 kept, 101 counted.
	a = clockStepAnalyzer(Config{})
	c = &clockStepCheck{}
	logs := []int64{}
	for i := range maxStepsKept + 1 {
		logs = append(logs, int64(1000-i)*1_000_000_000)
	}
	clockStepRun(a, c, append([]int64{2000_000_000_000}, logs...)...)
	if len(c.kept) != maxStepsKept || c.n != maxStepsKept+1 {
		t.Errorf("%d steps kept of %d, want %d of %d", len(c.kept), c.n, maxStepsKept, maxStepsKept+1)
	}
	c.finish(a)
	if n := a.rep.Counts.ClockSteps; n != maxStepsKept+1 {
		t.Errorf("counted %d steps, want %d", n, maxStepsKept+1)
	}

	for _, tc := range []struct {
		name             string
		seen             bool
		rtfClock, rtfLog float64
		await            bool
		rtf              float64
	}{
		{"real-time factor 0.5", true, 1, 2, true, 0.5},
		{"no record time measured", true, 1, 0, false, 0},
		{"no /clock", false, 1, 2, false, 0},
	} {
		a := clockStepAnalyzer(Config{})
		a.clock.seen, a.clock.rtfClock, a.clock.rtfLog = tc.seen, tc.rtfClock, tc.rtfLog
		c := clockStepRun(a, &clockStepCheck{}, 1_000_000_000, 5_000_000_000)
		if len(c.kept) != 1 || c.kept[0].awaitClock != tc.await || c.kept[0].rtf != tc.rtf {
			t.Errorf("%s: kept %+v, want await %v at rtf %g", tc.name, c.kept, tc.await, tc.rtf)
		}
	}
}

// TestClockStepClockOK: /clock confirms a forward step when it went on by
// less than half the sim time the jump of record time takes at the
// real-time factor.
func TestClockStepClockOK(t *testing.T) {
	for _, tc := range []struct {
		name string
		rtf  float64
		v    int64 // /clock after the step; it was 1 s before
		want bool
	}{
		// A 4 s step at factor 0.5: 2 s of sim time, half of it 1 s.
		{"on by under half", 0.5, 1_000_000_000 + 999_999_999, true},
		{"on by half", 0.5, 2_000_000_000, false},
		{"on by all", 0.5, 3_000_000_000, false},
		{"factor 0, /clock went back", 0, 999_999_999, false},
	} {
		a := clockStepAnalyzer(Config{})
		c := &clockStepCheck{kept: []recordStep{{ClockStep: ClockStep{Kind: "forward", FromNS: 6_000_000_000, ToNS: 10_000_000_000},
			awaitClock: true, rtf: tc.rtf, clockBefore: 1_000_000_000}}}
		c.onClock(a, &bagread.Message{LogTimeNS: 10_100_000_000}, tc.v)
		if st := c.kept[0]; st.clockOK != tc.want || st.awaitClock {
			t.Errorf("%s: clockOK %v (await %v), want %v", tc.name, st.clockOK, st.awaitClock, tc.want)
		}
	}
}

// TestClockStepUnstepped: an analysed topic's first message after a step
// whose age jumped by the step (within max(0.2 s, a fifth)) did not step;
// steps of 0.4 s and less are not judged (forward steps from 0.3 s here).
func TestClockStepUnstepped(t *testing.T) {
	const epoch = EpochThresholdNS
	for _, tc := range []struct {
		name  string
		d     int64 // the step of record time
		after int64 // age after the step less age before
		want  bool
	}{
		{"age jumped by the step", 2_000_000_000, 2_000_000_000, true},
		{"age unchanged", 2_000_000_000, 0, false},
		{"age jumped a fifth more", 2_000_000_000, 2_400_000_000, true},
		{"age jumped over a fifth more", 2_000_000_000, 2_400_000_001, false},
		{"age jumped a fifth less", 2_000_000_000, 1_600_000_000, true},
		{"age jumped over a fifth less", 2_000_000_000, 1_599_999_999, false},
		{"step of 0.4 s", 400_000_000, 400_000_000, false},
		{"step over 0.4 s", 400_000_001, 400_000_001, true},
		{"step back", -2_000_000_000, -2_000_000_000, true},
	} {
		a := clockStepAnalyzer(Config{JumpMinForwardNS: 300_000_000})
		c := &clockStepCheck{}
		ts := &topicState{name: "/scan", id: 1}
		const age0 = int64(10_000_000)
		l0 := epoch + 100_000_000_000
		send := func(log, stamp int64) {
			c.onStamped(a, &stampedMsg{m: &bagread.Message{Topic: "/scan", LogTimeNS: log}, topic: ts, stamp: stamp})
		}
		// Two messages before the step, one at it on another topic, then
		// the topic again.
		send(l0, l0-age0)
		send(l0+10_000_000, l0+10_000_000-age0)
		c.onRecord(a, &bagread.Message{Topic: "/other", LogTimeNS: l0 + 10_000_000 + tc.d}, nil)
		l1 := l0 + 10_000_000 + tc.d + 10_000_000
		send(l1, l1-age0-tc.after)
		if len(c.kept) != 1 {
			t.Fatalf("%s: steps %+v, want 1", tc.name, c.kept)
		}
		if got := len(c.kept[0].Unstepped) == 1; got != tc.want {
			t.Errorf("%s: unstepped %q, want it %v", tc.name, c.kept[0].Unstepped, tc.want)
		}
	}
}

// clockStepFinished runs finish on a check holding kept steps after msgs
// messages, with the bag's stamp jumps and their previous record times.
func clockStepFinished(c *clockStepCheck, jumps []ClockJump, prevLog []int64) *Report {
	a := clockStepAnalyzer(Config{})
	for i := range jumps {
		if i < len(prevLog) {
			jumps[i].PrevLogTimeNS = prevLog[i]
		}
	}
	a.rep.StampJumps = jumps
	c.finish(a)
	return &a.rep
}

// TestClockStepFinishPauses: a forward jump is judged only with
// stepMinMsgs messages on each side; confirmed by /clock or by an
// unstepped topic.
func TestClockStepFinishPauses(t *testing.T) {
	fwd := func(msgsAt int, clockOK bool, unstepped []string) recordStep {
		return recordStep{ClockStep: ClockStep{Source: StepRecordTime, Kind: "forward", LogTimeNS: 9_000_000_000,
			FromNS: 5_000_000_000, ToNS: 9_000_000_000, StepS: 4, Stepped: []string{}, Unstepped: unstepped}, msgsAt: msgsAt, clockOK: clockOK}
	}
	for _, tc := range []struct {
		name      string
		st        recordStep
		msgs      int
		steps     int
		confirmed bool
	}{
		{"50 before, 50 after", fwd(stepMinMsgs, true, []string{}), 2 * stepMinMsgs, 1, true},
		{"49 before", fwd(stepMinMsgs-1, true, []string{}), 2 * stepMinMsgs, 0, false},
		{"49 after", fwd(stepMinMsgs, true, []string{}), 2*stepMinMsgs - 1, 0, false},
		{"not confirmed", fwd(stepMinMsgs, false, []string{}), 2 * stepMinMsgs, 1, false},
		{"confirmed by an unstepped topic", fwd(stepMinMsgs, false, []string{"/u"}), 2 * stepMinMsgs, 1, true},
	} {
		c := &clockStepCheck{kept: []recordStep{tc.st}, msgs: tc.msgs, n: 1}
		rep := clockStepFinished(c, nil, nil)
		if len(rep.ClockSteps) != tc.steps || rep.Counts.ClockSteps != tc.steps {
			t.Errorf("%s: steps %+v (counted %d), want %d", tc.name, rep.ClockSteps, rep.Counts.ClockSteps, tc.steps)
			continue
		}
		if tc.steps > 0 && rep.ClockSteps[0].Confirmed != tc.confirmed {
			t.Errorf("%s: confirmed %v, want %v", tc.name, rep.ClockSteps[0].Confirmed, tc.confirmed)
		}
	}
}

// TestClockStepFinishStamps: stamp jumps of two or more system-time
// series at the same time and by the same amount are a step of the
// publishers' clock, its size less the record time between the two
// messages; one that goes with a record-time step is named there.
func TestClockStepFinishStamps(t *testing.T) {
	const e = EpochThresholdNS
	jump := func(topic string, logNS, from, to int64) ClockJump {
		return ClockJump{Topic: topic, Kind: "forward", LogTimeNS: logNS, FromNS: from, ToNS: to}
	}
	two := func(from, to int64) []ClockJump {
		return []ClockJump{jump("/a", 20_000_000_000, from, to), jump("/b", 20_100_000_000, from, to)}
	}
	for _, tc := range []struct {
		name    string
		jumps   []ClockJump
		prevLog []int64
		want    []float64 // StepS of the steps
	}{
		{"two series, 0.1 s period", two(e, e+5_000_000_000), []int64{19_900_000_000, 20_000_000_000}, []float64{4.9}},
		{"previous record time equal", two(e, e+5_000_000_000), []int64{20_000_000_000, 0}, []float64{5}},
		{"no previous record time", two(e, e+5_000_000_000), []int64{0, 0}, []float64{5}},
		{"previous record time after", two(e, e+5_000_000_000), []int64{20_000_000_001, 0}, []float64{5}},
		{"previous record times unknown", two(e, e+5_000_000_000), nil, []float64{5}},
		{"one series", two(e, e+5_000_000_000)[:1], nil, nil},
		{"from sim time", two(e-1, e+5_000_000_000), nil, nil},
		{"back to sim time", two(e+5_000_000_000, e-1), nil, nil},
		{"back to the epoch", two(e+5_000_000_000, e), nil, []float64{-5}},
		{"two steps, sorted", append(two(e, e+5_000_000_000), jump("/a", 10_000_000_000, e, e+3_000_000_000), jump("/b", 10_000_000_000, e, e+3_000_000_000)), nil, []float64{3, 5}},
	} {
		if tc.name == "back to the epoch" || tc.name == "back to sim time" {
			for i := range tc.jumps {
				tc.jumps[i].Kind = "backward"
			}
		}
		rep := clockStepFinished(&clockStepCheck{}, tc.jumps, tc.prevLog)
		var got []float64
		for _, st := range rep.ClockSteps {
			got = append(got, st.StepS)
			if st.Source != StepStamps || !st.Confirmed || len(st.Stepped) != 2 {
				t.Errorf("%s: step %+v, want a confirmed stamp step of /a and /b", tc.name, st)
			}
		}
		if !reflect.DeepEqual(got, tc.want) || rep.Counts.ClockSteps != len(tc.want) {
			t.Errorf("%s: steps of %v s (counted %d), want %v", tc.name, got, rep.Counts.ClockSteps, tc.want)
		}
	}

	// A record-time step takes the stamp jumps that go with it.
	st := recordStep{ClockStep: ClockStep{Source: StepRecordTime, Kind: "backward", LogTimeNS: 20_000_000_000,
		FromNS: 25_000_000_000, ToNS: 20_000_000_000, StepS: -5, Stepped: []string{}, Unstepped: []string{}, Confirmed: true}, msgsAt: 3}
	rep := clockStepFinished(&clockStepCheck{kept: []recordStep{st}, msgs: 10, n: 1},
		[]ClockJump{jump("/a", 20_000_000_000, e+5_000_000_000, e), jump("/b", 20_100_000_000, e+5_000_000_000, e)}, nil)
	if len(rep.ClockSteps) != 1 || !reflect.DeepEqual(rep.ClockSteps[0].Stepped, []string{"/a", "/b"}) {
		t.Errorf("steps %+v, want the record-time step with /a and /b", rep.ClockSteps)
	}

	// At the same record time as another step, a stamp step comes after
	// the record-time step.
	rep = clockStepFinished(&clockStepCheck{kept: []recordStep{st}, msgs: 10, n: 1},
		[]ClockJump{jump("/c", 20_000_000_000, e, e+3_000_000_000), jump("/d", 20_000_000_000, e, e+3_000_000_000)}, nil)
	if len(rep.ClockSteps) != 2 || rep.ClockSteps[0].Source != StepRecordTime || rep.ClockSteps[1].Source != StepStamps {
		t.Errorf("steps %+v, want the record-time step, then the stamp step", rep.ClockSteps)
	}

	// No stamp steps once maxStepsKept steps are listed.
	var kept []recordStep
	for i := range maxStepsKept {
		kept = append(kept, recordStep{ClockStep: ClockStep{Source: StepRecordTime, Kind: "backward", LogTimeNS: int64(i) * 100_000_000_000,
			FromNS: 1, ToNS: 0, Stepped: []string{}, Unstepped: []string{}, Confirmed: true}})
	}
	rep = clockStepFinished(&clockStepCheck{kept: kept, msgs: 10, n: maxStepsKept}, two(e, e+5_000_000_000), nil)
	if n := len(rep.ClockSteps); n != maxStepsKept {
		t.Errorf("%d steps, want %d", n, maxStepsKept)
	}
}

// TestClockStepSystemStamps: stamps from the epoch on are system time and
// followed; earlier ones (sim time) are not.
func TestClockStepSystemStamps(t *testing.T) {
	for _, tc := range []struct {
		stamp int64
		want  bool
	}{
		{EpochThresholdNS, true},
		{EpochThresholdNS - 1, false},
	} {
		c := &clockStepCheck{}
		c.onStamped(clockStepAnalyzer(Config{}), &stampedMsg{m: &bagread.Message{LogTimeNS: EpochThresholdNS + 5}, topic: &topicState{id: 0}, stamp: tc.stamp})
		if got := len(c.topics) == 1 && c.topics[0].has && c.topics[0].age == 5+EpochThresholdNS-tc.stamp; got != tc.want {
			t.Errorf("stamp %d: followed %v (%+v), want %v", tc.stamp, got, c.topics, tc.want)
		}
	}
}

// TestClockStepUnsteppedCap: at most maxStepTopics unstepped topics are
// named.
func TestClockStepUnsteppedCap(t *testing.T) {
	a := clockStepAnalyzer(Config{})
	c := &clockStepCheck{}
	l0 := EpochThresholdNS + 100_000_000_000
	var topics []*topicState
	for i := range maxStepTopics + 1 {
		topics = append(topics, &topicState{name: fmt.Sprintf("/t%02d", i), id: i})
	}
	send := func(ts *topicState, log, stamp int64) {
		c.onStamped(a, &stampedMsg{m: &bagread.Message{Topic: ts.name, LogTimeNS: log}, topic: ts, stamp: stamp})
	}
	for i, ts := range topics {
		l := l0 + int64(i)*1_000_000
		send(ts, l, l-10_000_000)
	}
	// Record time steps 5 s forward; no topic's stamps step with it.
	l1 := l0 + 5_000_000_000
	for i, ts := range topics {
		l := l1 + int64(i)*1_000_000
		send(ts, l, l-5_000_000_000-10_000_000)
	}
	if len(c.kept) != 1 || len(c.kept[0].Unstepped) != maxStepTopics || c.kept[0].Unstepped[maxStepTopics-1] != "/t15" {
		t.Errorf("steps %+v, want one naming /t00../t15", c.kept)
	}
}

// TestClockStepTickSubsample: once reservoirSize gaps are in, one gap in
// 16 joins the sample, so the median (and the forward threshold, 10× it)
// follows a change of rate slowly but does follow it.
func TestClockStepTickSubsample(t *testing.T) {
	for _, tc := range []struct {
		name string
		slow int // gaps of 0.3 s after reservoirSize gaps of 10 ms
		want []string
	}{
		// 250 of the slow gaps join 512 fast ones: the median is still
		// 10 ms and a gap of 2 s is a step.
		{"after 4000 slow gaps", 4000, []string{"forward"}},
		// 1250 join: the median is 0.3 s, the threshold 3 s.
		{"after 20000 slow gaps", 20000, nil},
	} {
		logs := []int64{10_000_000_000}
		add := func(n int, d int64) {
			for range n {
				logs = append(logs, logs[len(logs)-1]+d)
			}
		}
		add(reservoirSize, 10_000_000)
		add(tc.slow, 300_000_000)
		add(1, 2_000_000_000)
		a := clockStepAnalyzer(Config{})
		c := clockStepRun(a, &clockStepCheck{}, logs...)
		var got []string
		for _, st := range c.kept {
			got = append(got, st.Kind)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: steps %q, want %q (median tick %g)", tc.name, got, tc.want, c.ticks.median())
		}
	}
}

// TestClockStepFindingSubjects: a confirmed step's finding names the
// stepping tf links as links and the topics as topics, by SteppedLinks
// (data), not by an arrow in the name; an unconfirmed step gives none.
func TestClockStepFindingSubjects(t *testing.T) {
	for _, tc := range []struct {
		name          string
		st            ClockStep
		topics, links []string
	}{
		{"topics and a link", ClockStep{Confirmed: true, Topic: "/scan", Stepped: []string{"/scan", "/imu", "odom->base_link"}, SteppedLinks: []string{"odom->base_link"}},
			[]string{"/scan", "/imu"}, []string{"odom->base_link"}},
		{"the first message's topic once", ClockStep{Confirmed: true, Topic: "/scan", Stepped: []string{"/scan"}}, []string{"/scan"}, nil},
		{"unconfirmed", ClockStep{Topic: "/scan", Stepped: []string{"/scan", "odom->base_link"}, SteppedLinks: []string{"odom->base_link"}}, nil, nil},
	} {
		fs := clockStepFindings([]ClockStep{tc.st})
		if tc.topics == nil && tc.links == nil {
			if len(fs) != 0 {
				t.Errorf("%s: %d findings, want none", tc.name, len(fs))
			}
			continue
		}
		if len(fs) != 1 || !reflect.DeepEqual(fs[0].Subjects.Topics, tc.topics) || !reflect.DeepEqual(fs[0].Subjects.Links, tc.links) {
			t.Errorf("%s: %+v, want topics %q links %q", tc.name, fs, tc.topics, tc.links)
		}
	}
}
