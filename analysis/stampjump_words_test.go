package analysis

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestStampJumpWords checks the words of stamp jumps on hand-built
// reports: each jump's series, direction, step (the stamps' jump less the
// record time between the two messages) and time, and the series that
// did not jump.
func TestStampJumpWords(t *testing.T) {
	const s = int64(time.Second)
	start := 100 * s
	back := ClockJump{Topic: "/scan", Kind: "backward", LogTimeNS: start + 10*s, PrevLogTimeNS: start + 10*s - s/20, FromNS: 50 * s, ToNS: 50*s - 3*s/4}
	fwd := ClockJump{Topic: "/tf", Link: "odom->base_link", Kind: "forward", LogTimeNS: start + 12*s, PrevLogTimeNS: start + 12*s - s/50, FromNS: 60 * s, ToNS: 62 * s}
	base := Report{Pass: PassFacts{StartNS: start},
		Topics: []TopicSummary{{Topic: "/scan", Role: TopicAnalysed, Messages: 100}, {Topic: "/imu", Role: TopicAnalysed, Messages: 100}, {Topic: "/empty", Role: TopicAnalysed}},
		TFTree: []TFLink{{Parent: "odom", Child: "base_link"}, {Parent: "base_link", Child: "laser", Static: true}}}
	cases := []struct {
		name           string
		jumps          []ClockJump
		sentence, lead string
	}{
		{"one backward", []ClockJump{back},
			"No /clock; header stamps jump 1 time: /scan back by 800.0 ms at +10.0 s; /imu and odom->base_link did not jump (a step of one machine's clock moves every series it stamps).",
			"the stamps of /scan jump back by 800.0 ms at +10.0 s"},
		{"two series", []ClockJump{back, fwd},
			"No /clock; header stamps jump 2 times: /scan back by 800.0 ms at +10.0 s, odom->base_link forward by 1.980 s at +12.0 s; /imu did not jump (a step of one machine's clock moves every series it stamps).",
			"the bag's time jumps 2 times"},
	}
	for _, c := range cases {
		r := base
		r.StampJumps = c.jumps
		r.Counts.StampJumps = len(c.jumps)
		if got := StampJumpSentence(&r); got != c.sentence {
			t.Errorf("%s: sentence\n got %s\nwant %s", c.name, got, c.sentence)
		}
		if got := jumpClause(&r); got != c.lead {
			t.Errorf("%s: clause %q, want %q", c.name, got, c.lead)
		}
	}
	if got := StampJumpSentence(&base); got != "" {
		t.Errorf("no jumps: %q", got)
	}
}

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
