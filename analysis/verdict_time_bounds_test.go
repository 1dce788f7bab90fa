package analysis

import (
	"fmt"
	"github.com/bagclock/bagclock/analysis/finding"
	"reflect"
	"testing"
)

// Boundary tests of the time checks in the verdict (issue 15): at most
// maxTimeEvidence lines of each check and a count of the rest, the
// --fail-on categories, and the commands of the finding that leads.

// verdictTimeReport has n of each time finding, and n unconfirmed steps
// and constant ages as remarks.
func verdictTimeReport(n int) Report {
	var r Report
	for i := range n {
		r.ClockSteps = append(r.ClockSteps, ClockStep{Confirmed: true, Sentence: fmt.Sprintf("step %d.", i)},
			ClockStep{Sentence: fmt.Sprintf("jump %d.", i)})
		r.StuckZero = append(r.StuckZero, StuckZero{Topic: fmt.Sprintf("/z%d", i), Sentence: fmt.Sprintf("zero %d.", i)})
		r.TimerClocks = append(r.TimerClocks, TimerClock{Topic: fmt.Sprintf("/w%d", i), Flagged: true, Sentence: fmt.Sprintf("wall %d.", i),
			WallRateHz: 20, SimRateHz: 40, Confidence: 0.9}, TimerClock{Topic: "/sim"})
		r.Ages = append(r.Ages, TopicAge{Topic: fmt.Sprintf("/s%d", i), Kind: AgeStale, Sentence: fmt.Sprintf("stale %d.", i)},
			TopicAge{Kind: AgeConstantOffset, Sentence: fmt.Sprintf("offset %d.", i)})
	}
	return r
}

// TestTimeFindingsEach: each time check's category once, whatever the
// count, and none for what is not a finding.
func TestTimeFindingsEach(t *testing.T) {
	two := verdictTimeReport(2)
	for _, tc := range []struct {
		name string
		rep  Report
		want []string
	}{
		{"none", Report{}, []string{}},
		{"two of each", two, []string{failOnClockStep, failOnStuckZero, failOnWallTimer, failOnStale}},
		{"remarks only", Report{ClockSteps: two.ClockSteps[1:2], TimerClocks: two.TimerClocks[1:2], Ages: two.Ages[1:2]}, []string{}},
		{"one stuck topic", Report{StuckZero: two.StuckZero[:1]}, []string{failOnStuckZero}},
	} {
		a := &analyzer{rep: tc.rep}
		if got := finding.Categories(collectFindings(reportOf(a))); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
