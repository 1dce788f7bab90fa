package analysis

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// Boundary tests of the stuck-zero check (issue 15): how many stamps of 0
// over how long make a stuck node, its kind and its cause.

// stuckZeroFeed feeds one analysed topic's stamps at record times (ns
// since a bag start of 100 s); /clock is first seen at clockAt when not 0.
func stuckZeroFeed(c *stuckZeroCheck, a *analyzer, clockAt int64, logs, stamps []int64) {
	ts := a.topics.list[0]
	for i, l := range logs {
		if clockAt != 0 && l >= clockAt && !a.clock.seen {
			a.clock.seen, a.clock.n, a.clock.firstLog = true, 1, clockAt
		}
		c.onStamped(a, &stampedMsg{m: &bagread.Message{LogTimeNS: l}, topic: ts, stamp: stamps[i]})
	}
}

// TestStuckZeroBoundary: two stamps of 0 at least stuckMinNS apart make a
// stuck topic, stamped 0 its whole life or until the first /clock.
func TestStuckZeroBoundary(t *testing.T) {
	const s = int64(1_000_000_000)
	const t0 = 100 * s // the bag start
	for _, tc := range []struct {
		name     string
		hasClock bool
		clockAt  int64
		logs     []int64
		stamps   []int64
		kind     string // "" when not reported
		cause    string
	}{
		{"two zeros 1 s apart, no /clock", false, 0, []int64{t0 + s, t0 + 2*s}, []int64{0, 0}, StuckWholeLife,
			"use_sim_time:=true without a /clock publisher: the bag has no /clock"},
		{"two zeros under 1 s apart", false, 0, []int64{t0 + s, t0 + 2*s - 1}, []int64{0, 0}, "", ""},
		{"one zero", false, 0, []int64{t0 + s, t0 + 3*s}, []int64{0, 5}, "", ""},
		{"zeros until /clock", true, t0 + 3*s, []int64{t0 + s, t0 + 2*s, t0 + 3*s}, []int64{0, 0, 7}, StuckUntilClock,
			"use_sim_time:=true and /clock starts later (+3.0 s): the node had no time until then"},
		{"zeros until /clock, then a zero again", true, t0 + 3*s, []int64{t0 + s, t0 + 2*s, t0 + 3*s, t0 + 4*s}, []int64{0, 0, 7, 0}, "", ""},
		{"zeros all before /clock", true, t0 + 2*s + 1, []int64{t0 + s, t0 + 2*s}, []int64{0, 0}, StuckWholeLife,
			"use_sim_time:=true and /clock starts later (+2.0 s), after the topic's last message"},
		{"zeros to /clock's first record time", true, t0 + 2*s, []int64{t0 + s, t0 + 2*s}, []int64{0, 0}, StuckWholeLife,
			"use_sim_time:=true and /clock never reached the node, although the bag has /clock from +2.0 s"},
	} {
		a := &analyzer{clock: &clockState{}, startNS: t0, hasClock: tc.hasClock, msgs: 2}
		a.topics.list = []*topicState{{name: "/scan", role: roleStamped, id: 0}}
		c := &stuckZeroCheck{}
		stuckZeroFeed(c, a, tc.clockAt, tc.logs, tc.stamps)
		if tc.hasClock && !a.clock.seen {
			a.clock.n, a.clock.firstLog = 1, tc.clockAt
		}
		c.finish(a)
		if tc.kind == "" {
			if len(a.rep.StuckZero) != 0 {
				t.Errorf("%s: %+v, want nothing", tc.name, a.rep.StuckZero)
			}
			continue
		}
		if len(a.rep.StuckZero) != 1 {
			t.Errorf("%s: %+v, want one", tc.name, a.rep.StuckZero)
			continue
		}
		z := a.rep.StuckZero[0]
		// Without nodes with time 0 the sentence ends at the timers.
		if z.Kind != tc.kind || !strings.HasPrefix(z.Cause, tc.cause) || !strings.HasSuffix(z.Sentence, "does nothing on a timer.") {
			t.Errorf("%s: kind %s, cause %q; want %s, %q", tc.name, z.Kind, z.Cause, tc.kind, tc.cause)
		}
		zeros := 0
		for _, st := range tc.stamps {
			if st == 0 {
				zeros++
			}
		}
		if z.Messages != len(tc.logs) || z.Zero != zeros || z.FirstLogTimeNS != tc.logs[0] || z.FirstS != float64(tc.logs[0]-t0)/1e9 {
			t.Errorf("%s: counts %+v", tc.name, z)
		}
		if (z.ClockStartS != nil) != tc.hasClock || tc.hasClock && *z.ClockStartS != float64(tc.clockAt-t0)/1e9 {
			t.Errorf("%s: clock start %v, want one: %v", tc.name, z.ClockStartS, tc.hasClock)
		}
	}
}

// TestStuckZeroSentence: the sentence gives the life, the count, the
// window and the nodes whose own stamps are 0.
func TestStuckZeroSentence(t *testing.T) {
	const s = int64(1_000_000_000)
	a := &analyzer{clock: &clockState{}, startNS: 100 * s, msgs: 2}
	a.topics.list = []*topicState{{name: "/scan", role: roleStamped, id: 0}}
	a.rep.Nodes = []NodeClock{{Node: "/lidar", StampClock: "zero", UseSimTime: "true"}, {Node: "/cam", StampClock: "zero"}, {Node: "/ok", StampClock: "system"}}
	c := &stuckZeroCheck{}
	stuckZeroFeed(c, a, 0, []int64{101 * s, 102 * s, 103500 * s / 1000}, []int64{0, 0, 0})
	c.finish(a)
	want := "/scan is stamped 0 its whole life in the bag (3 messages, +1.0 s .. +3.5 s): its node's ROS time is stuck at 0 (use_sim_time:=true without a /clock publisher: the bag has no /clock); timers on the node's clock never fire, so the node does nothing on a timer. Nodes the bag shows with time 0: /lidar (use_sim_time=true), /cam."
	if len(a.rep.StuckZero) != 1 || a.rep.StuckZero[0].Sentence != want {
		t.Fatalf("%+v, want sentence %q", a.rep.StuckZero, want)
	}
	if got := a.rep.StuckZero[0].Nodes; !reflect.DeepEqual(got, []string{"/lidar (use_sim_time=true)", "/cam"}) {
		t.Errorf("nodes %q", got)
	}
}
