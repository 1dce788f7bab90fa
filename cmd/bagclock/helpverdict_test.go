package main

import (
	"os"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestAnalyzeHelpTeachesVerdict: analyze --help explains every headline
// class, every --fail-on kind (one line each), the start-up rule and the
// exit codes, and README lists the same classes and kinds.
func TestAnalyzeHelpTeachesVerdict(t *testing.T) {
	_, out, _ := runCLI(t, "help", "analyze")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	classes := []string{string(analysis.LaserOnSystemClock), string(analysis.TFOnSystemClock), string(analysis.ZeroStamp),
		string(analysis.ClockSkew), string(analysis.StaticOnly), string(analysis.NoTransform),
		analysis.VerdictNoProblem, analysis.VerdictNoSensorMessages, analysis.VerdictEmptyTopic, analysis.VerdictTargetIsFrame,
		analysis.VerdictClockJumpBack, analysis.VerdictSameClockDrops, analysis.VerdictNoTF, analysis.VerdictTargetNotInTree,
		analysis.VerdictFrameNotInTree, analysis.VerdictEmptyFrameID, analysis.VerdictTime, analysis.VerdictMissingLink, analysis.VerdictSensorOnSystemClock, analysis.VerdictSync, "tf_tree:"}
	for _, c := range classes {
		if !strings.Contains(out, c) {
			t.Errorf("analyze --help does not explain the headline class %s", c)
		}
		if !strings.Contains(string(readme), "`"+c) {
			t.Errorf("README does not explain the headline class %s", c)
		}
	}
	for _, k := range failOnKinds {
		if !strings.Contains(out, "\n  "+k+" ") {
			t.Errorf("analyze --help has no line for --fail-on %s", k)
		}
		if !strings.Contains(string(readme), "`"+k+"`") && !strings.Contains(string(readme), ","+k) {
			t.Errorf("README does not name --fail-on %s", k)
		}
	}
	for _, want := range []string{"Start-up is not a fault", "Exit codes: 0", "2 usage error", "3 the bag could not be analysed"} {
		if !strings.Contains(out, want) {
			t.Errorf("analyze --help lacks %q", want)
		}
	}
}
