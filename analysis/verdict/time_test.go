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
		findings, remarks := deciderFor(&r).timeSentences()
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
		{"none", analysis.Report{}, nil},
		{"a step", two, []string{"chronyc tracking", "journalctl -b -u chrony -u chronyd -u systemd-timesyncd"}},
		{"an unconfirmed step, a stuck topic", analysis.Report{ClockSteps: two.ClockSteps[1:2], StuckZero: two.StuckZero},
			[]string{"ros2 topic info /clock --verbose", "ros2 topic info /z0 --verbose"}},
		{"a stuck topic with nodes", analysis.Report{StuckZero: []analysis.StuckZero{{Topic: "/z", Nodes: []string{"/n (use_sim_time=true)", "/m"}}}},
			[]string{"ros2 topic info /clock --verbose", "ros2 topic info /z --verbose", "ros2 param get /n (use_sim_time=true) use_sim_time"}},
		{"a wall timer", analysis.Report{TimerClocks: two.TimerClocks[1:], Ages: two.Ages},
			[]string{"ros2 topic hz /w1", "ros2 topic hz /clock", "ros2 topic info /w1 --verbose"}},
		{"stale data", analysis.Report{TimerClocks: two.TimerClocks[1:2], Ages: two.Ages[1:]},
			[]string{"ros2 topic delay /s1", "ros2 topic info /s1 --verbose"}},
	} {
		if got := deciderFor(&tc.rep).timeLeadCommands(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTimeLeadTakes: the first finding leads when asked to and when there
// is one; the rows' sentence becomes evidence.
func TestTimeLeadTakes(t *testing.T) {
	for _, tc := range []struct {
		name string
		rep  analysis.Report
		lead bool
		want analysis.Verdict
		led  bool
	}{
		{"nothing to lead with", analysis.Report{}, true,
			analysis.Verdict{Sentence: "All is well.", Commands: []string{"tf2_echo"}}, false},
		{"a stuck topic, not asked", analysis.Report{StuckZero: []analysis.StuckZero{{Topic: "/z", Sentence: "zero."}}}, false,
			analysis.Verdict{Sentence: "All is well.", Evidence: []string{"zero."}, Commands: []string{"tf2_echo"}}, false},
		{"a stuck topic", analysis.Report{StuckZero: []analysis.StuckZero{{Topic: "/z", Sentence: "zero."}}}, true,
			analysis.Verdict{Sentence: "zero.", Evidence: []string{"Sensor topics and tf: All is well."},
				Commands: []string{"ros2 topic info /clock --verbose", "ros2 topic info /z --verbose"}}, true},
	} {
		v := analysis.Verdict{Sentence: "All is well.", Commands: []string{"tf2_echo"}}
		led := deciderFor(&tc.rep).timeLead(&v, tc.lead)
		if led != tc.led || !reflect.DeepEqual(v, tc.want) {
			t.Errorf("%s: led %v, %+v; want %v, %+v", tc.name, led, v, tc.led, tc.want)
		}
	}
}

// TestStuckZeroWordingWhole: "published before it received /clock"
// becomes "never received /clock" when every topic with stamp-0 rows
// stays at 0 its whole life; topics without such rows do not matter.
func TestStuckZeroWordingWhole(t *testing.T) {
	const before = "/z published before it received /clock."
	zeroRows := func(topic string, n int) analysis.PairSummary {
		return analysis.PairSummary{Topic: topic, Classes: map[string]int{string(analysis.ZeroStamp): n, string(analysis.SameClock): 5}, Filter: map[string]int{}}
	}
	for _, tc := range []struct {
		name  string
		stuck []analysis.StuckZero
		pairs []analysis.PairSummary
		want  string
	}{
		{"whole life", []analysis.StuckZero{{Topic: "/z", Kind: analysis.StuckWholeLife}}, []analysis.PairSummary{zeroRows("/z", 3), zeroRows("/ok", 0)},
			"/z never received /clock."},
		{"another topic with zero rows", []analysis.StuckZero{{Topic: "/z", Kind: analysis.StuckWholeLife}}, []analysis.PairSummary{zeroRows("/z", 3), zeroRows("/y", 1)}, before},
		{"until /clock", []analysis.StuckZero{{Topic: "/z", Kind: analysis.StuckUntilClock}}, []analysis.PairSummary{zeroRows("/z", 3)}, before},
		{"no stuck topic", nil, nil, before},
	} {
		v := analysis.Verdict{Sentence: before}
		deciderFor(&analysis.Report{Pairs: tc.pairs, StuckZero: tc.stuck}).stuckZeroWording(&v)
		if v.Sentence != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, v.Sentence, tc.want)
		}
	}
}
