package analysis

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestSensorClockStepBack: the sensor machine's clock steps back 0.8 s
// while tf's does not (a bag without /clock). The scans are then 0.8 s
// old when recorded, which is the step, not stale data: the scans' stamps
// went back and went on from there, which no delay does, so the verdict
// leads with the step of the clock stamping /scan and says tf did not
// step; no stale finding is raised.
func TestSensorClockStepBack(t *testing.T) {
	for _, storage := range []string{"mcap", "sqlite3"} {
		t.Run(storage, func(t *testing.T) {
			rep := robotReport(t, storage, scenario.Noise{Seed: 3, Steps: []scenario.Step{{Machine: scenario.MachineSensors, At: 4 * time.Second, By: -800 * time.Millisecond}}}, nil)
			if slices.Contains(rep.Summary.Findings, "stale") || !slices.Contains(rep.Summary.Findings, "jump") || !slices.Contains(rep.Summary.Findings, "clock-step") {
				t.Errorf("findings %v, want a jump, a clock step and no stale", rep.Summary.Findings)
			}
			i := slices.IndexFunc(rep.Ages, func(ag TopicAge) bool { return ag.Topic == "/scan" })
			if i < 0 || rep.Ages[i].Kind != AgeClockOffset {
				t.Errorf("/scan age %+v, want clock_offset after the step", rep.Ages)
			}
			if !strings.HasPrefix(rep.Verdict.Sentence, "The clock stamping /scan stepped back by 80") || !strings.Contains(rep.Verdict.Sentence, "odom->base_link did not step") {
				t.Errorf("verdict does not lead with the step: %s", rep.Verdict.Sentence)
			}
			if !slices.ContainsFunc(rep.Verdict.Evidence, func(e string) bool { return strings.Contains(e, "odom->base_link did not jump") }) {
				t.Errorf("evidence does not say tf kept its lag: %q", rep.Verdict.Evidence)
			}
		})
	}
}
