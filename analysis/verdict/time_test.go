package verdict

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// verdictTimeReport has n of each time finding, and n unconfirmed steps
// and constant ages as remarks (analysis's tests of the findings build
// the same report).
func verdictTimeReport(n int) analysis.Report {
	var r analysis.Report
	for i := range n {
		r.ClockSteps = append(r.ClockSteps, analysis.ClockStep{Confirmed: true, Sentence: fmt.Sprintf("step %d.", i)},
			analysis.ClockStep{Sentence: fmt.Sprintf("jump %d.", i)})
		r.StuckZero = append(r.StuckZero, analysis.StuckZero{Topic: fmt.Sprintf("/z%d", i), Sentence: fmt.Sprintf("zero %d.", i)})
		r.TimerClocks = append(r.TimerClocks, analysis.TimerClock{Topic: fmt.Sprintf("/w%d", i), Flagged: true, Sentence: fmt.Sprintf("wall %d.", i),
			WallRateHz: 20, SimRateHz: 40, Confidence: 0.9}, analysis.TimerClock{Topic: "/sim"})
		r.Ages = append(r.Ages, analysis.TopicAge{Topic: fmt.Sprintf("/s%d", i), Kind: analysis.AgeStale, Sentence: fmt.Sprintf("stale %d.", i)},
			analysis.TopicAge{Kind: analysis.AgeConstantOffset, Sentence: fmt.Sprintf("offset %d.", i)})
	}
	return r
}

// TestTimeSentencesBoundary: three lines of each finding, then a count of
// the steps left out; three unconfirmed steps as remarks; every constant
// age as a remark.
func TestTimeSentencesBoundary(t *testing.T) {
	wall := func(i int) string {
		return fmt.Sprintf("wall %d. (20.0 Hz in wall time, 40.0 Hz in sim time; confidence 0.90)", i)
	}
	for _, tc := range []struct {
		n                 int
		findings, remarks []string
	}{
		{0, nil, nil},
		{1, []string{"step 0.", "zero 0.", wall(0), "stale 0."}, []string{"jump 0.", "offset 0."}},
		{3, []string{"step 0.", "step 1.", "step 2.", "zero 0.", "zero 1.", "zero 2.", wall(0), wall(1), wall(2), "stale 0.", "stale 1.", "stale 2."},
			[]string{"jump 0.", "jump 1.", "jump 2.", "offset 0.", "offset 1.", "offset 2."}},
		{4, []string{"step 0.", "step 1.", "step 2.", "1 more system clock steps (clock_steps).", "zero 0.", "zero 1.", "zero 2.", wall(0), wall(1), wall(2), "stale 0.", "stale 1.", "stale 2."},
			[]string{"jump 0.", "jump 1.", "jump 2.", "offset 0.", "offset 1.", "offset 2.", "offset 3."}},
	} {
		r := verdictTimeReport(tc.n)
		heads, remarks := deciderFor(&r).timeSentences()
		var findings []string
		for _, h := range heads {
			findings = append(findings, h.String())
		}
		if !reflect.DeepEqual(findings, tc.findings) || !reflect.DeepEqual(remarks, tc.remarks) {
			t.Errorf("%d of each:\nfindings %q\n    want %q\nremarks %q\n   want %q", tc.n, findings, tc.findings, remarks, tc.remarks)
		}
	}
}

// TestTimeLeadCommandsEach: the commands of the first finding in
// timeSentences' order; a stuck topic's node is asked for its
// use_sim_time when the bag names one.
func TestTimeLeadCommandsEach(t *testing.T) {
	two := verdictTimeReport(2)
	for _, tc := range []struct {
		name string
		rep  analysis.Report
		want []string
	}{
		{"none", analysis.Report{}, []string{}},
		{"a step", two, []string{"chronyc tracking", "journalctl -b -u chrony -u chronyd -u systemd-timesyncd"}},
		{"an unconfirmed step, a stuck topic", analysis.Report{ClockSteps: two.ClockSteps[1:2], StuckZero: two.StuckZero},
			[]string{"ros2 topic info /clock --verbose", "ros2 topic info /z0 --verbose"}},
		{"a stuck topic with nodes", analysis.Report{StuckZero: []analysis.StuckZero{{Topic: "/z", Nodes: []string{"/n (use_sim_time=true)", "/m"}}}},
			[]string{"ros2 topic info /clock --verbose", "ros2 topic info /z --verbose", "ros2 param get /n (use_sim_time=true) use_sim_time"}},
		{"a wall timer", analysis.Report{TimerClocks: two.TimerClocks[1:], Ages: two.Ages},
			[]string{"ros2 topic hz /w1", "ros2 topic hz /clock", "ros2 topic info /w1 --verbose"}},
		// The link's frames come as data: its name is not split.
		{"a tf link ahead", analysis.Report{Ages: []analysis.TopicAge{{Topic: "/tf", Link: "odom->base_link", Parent: "odom", Child: "base_link", Kind: analysis.AgeAhead}}},
			[]string{"chronyc tracking", "chronyc sources -v", "ros2 run tf2_ros tf2_echo odom base_link"}},
		{"a topic ahead", analysis.Report{Ages: []analysis.TopicAge{{Topic: "/odom", Kind: analysis.AgeAhead}}},
			[]string{"chronyc tracking", "chronyc sources -v", "ros2 topic echo /odom --field header.stamp --once"}},
		{"stale data", analysis.Report{TimerClocks: two.TimerClocks[1:2], Ages: two.Ages[1:]},
			[]string{"ros2 topic delay /s1", "ros2 topic info /s1 --verbose"}},
	} {
		if got := lines(deciderFor(&tc.rep).timeLeadCommands()); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTimeLeadTakes: the first finding leads when asked to and when there
// is one; the rows' headline becomes evidence, demoted (no "no clock
// problem") and, under a clock fault, with its drops blamed on it.
func TestTimeLeadTakes(t *testing.T) {
	healthy := func() headline {
		return built(text("/a and tf are on the same clock"), part{partNoClockProblem, noClockProblem})
	}
	drops := func() headline {
		return built(text("/a and tf are on the same clock, yet 3 scans were dropped"), part{partNotClockProblem, ": not a clock problem; look at the queue size"})
	}
	stuck := analysis.Report{StuckZero: []analysis.StuckZero{{Topic: "/z", Sentence: "zero."}}}
	step := analysis.Report{ClockSteps: []analysis.ClockStep{{Confirmed: true, Sentence: "stepped."}}}
	for _, tc := range []struct {
		name     string
		rep      analysis.Report
		head     headline
		lead     bool
		sentence string
		evidence []string
		commands []string
		ask      ask
	}{
		{"nothing to lead with", analysis.Report{}, healthy(), true,
			"/a and tf are on the same clock: no clock problem in this bag.", nil, []string{"ros2 run tf2_tools view_frames"}, askNothing},
		{"a stuck topic, not asked", stuck, healthy(), false,
			"/a and tf are on the same clock: no clock problem in this bag.", []string{"zero."}, []string{"ros2 run tf2_tools view_frames"}, askNothing},
		{"a stuck topic", stuck, healthy(), true,
			"zero.", []string{"Sensor topics and tf: /a and tf are on the same clock."},
			[]string{"ros2 topic info /clock --verbose", "ros2 topic info /z --verbose"}, suspectSimTimeWithoutClock},
		{"drops under a stuck topic: not a clock fault", stuck, drops(), true,
			"zero.", []string{"Sensor topics and tf: /a and tf are on the same clock, yet 3 scans were dropped: not a clock problem; look at the queue size."},
			[]string{"ros2 topic info /clock --verbose", "ros2 topic info /z --verbose"}, suspectSimTimeWithoutClock},
		{"drops under a clock step: its consequence", step, drops(), true,
			"stepped.", []string{"Sensor topics and tf: /a and tf are on the same clock, yet 3 scans were dropped: the headline's clock fault makes them wait for tf until the filter drops them."},
			[]string{"chronyc tracking", "journalctl -b -u chrony -u chronyd -u systemd-timesyncd"}, askNothing},
	} {
		v := draft{head: tc.head}
		v.cmds = []command{viewFrames()}
		led := deciderFor(&tc.rep).timeLead(&v, tc.lead, nil)
		if led != (tc.sentence != tc.head.String()) || v.head.String() != tc.sentence || !reflect.DeepEqual(v.Evidence, tc.evidence) || !reflect.DeepEqual(lines(v.cmds), tc.commands) || v.head.ask != tc.ask {
			t.Errorf("%s: led %v, %q %q %q (ask %d); want %q %q %q (ask %d)", tc.name, led, v.head, v.Evidence, lines(v.cmds), v.head.ask, tc.sentence, tc.evidence, tc.commands, tc.ask)
		}
	}
}

// TestZeroStampNeverHadClock: the zero-stamp headline says "never
// received /clock" rather than "published before it received /clock"
// when every topic with stamp-0 rows stays at 0 its whole life; topics
// without such rows do not matter.
func TestZeroStampNeverHadClock(t *testing.T) {
	const before = "/z has 3 scans stamped 0: the laser driver uses sim time but published before it received /clock; tf2 pairs those scans with the latest pose."
	const never = "/z has 3 scans stamped 0: the laser driver uses sim time but never received /clock; tf2 pairs those scans with the latest pose."
	const beforeTwo = "/z and /y are stamped 0 (4 messages): their drivers use sim time but published before they received /clock; tf2 pairs those messages with the latest pose."
	const neverTwo = "/z and /y are stamped 0 (4 messages): their drivers use sim time but never received /clock; tf2 pairs those messages with the latest pose."
	whole := func(topics ...string) []analysis.StuckZero {
		var out []analysis.StuckZero
		for _, tp := range topics {
			out = append(out, analysis.StuckZero{Topic: tp, Kind: analysis.StuckWholeLife})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		stuck []analysis.StuckZero
		pairs []analysis.PairSummary
		want  string
	}{
		{"whole life", whole("/z"), pairs(pairWith("/z", analysis.ZeroStamp, 0, 3), pairWith("/ok", analysis.SameClock, 5, 0)), never},
		{"another topic with zero rows", whole("/z"), pairs(pairWith("/z", analysis.ZeroStamp, 0, 3), pairWith("/y", analysis.ZeroStamp, 5, 1)), before},
		{"until /clock", []analysis.StuckZero{{Topic: "/z", Kind: analysis.StuckUntilClock}}, pairs(pairWith("/z", analysis.ZeroStamp, 0, 3)), before},
		{"no stuck topic", nil, pairs(pairWith("/z", analysis.ZeroStamp, 0, 3)), before},
		{"two topics, both whole life", whole("/z", "/y"), pairs(pairWith("/z", analysis.ZeroStamp, 0, 3), pairWith("/y", analysis.ZeroStamp, 0, 1)), neverTwo},
		{"two topics, one whole life", whole("/z"), pairs(pairWith("/z", analysis.ZeroStamp, 0, 3), pairWith("/y", analysis.ZeroStamp, 0, 1)), beforeTwo},
	} {
		r := sensorReport(tc.pairs)
		r.StuckZero = tc.stuck
		r.ZeroStamp.Count = 4
		var v draft
		deciderFor(r).zeroStampVerdict(&v, &r.Pairs[0], 3)
		if got := v.head.String(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
