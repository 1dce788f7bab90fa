package verdict

import (
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis"
)

// TestStampJumpWords checks the words of stamp jumps on hand-built
// reports: each jump's series, direction, step (the stamps' jump less the
// record time between the two messages) and time, and the series that
// did not jump.
func TestStampJumpWords(t *testing.T) {
	const s = int64(time.Second)
	start := 100 * s
	back := analysis.ClockJump{Topic: "/scan", Kind: "backward", LogTimeNS: start + 10*s, PrevLogTimeNS: start + 10*s - s/20, FromNS: 50 * s, ToNS: 50*s - 3*s/4}
	fwd := analysis.ClockJump{Topic: "/tf", Link: "odom->base_link", Kind: "forward", LogTimeNS: start + 12*s, PrevLogTimeNS: start + 12*s - s/50, FromNS: 60 * s, ToNS: 62 * s}
	base := analysis.Report{Pass: analysis.PassFacts{StartNS: start},
		Topics: []analysis.TopicSummary{{Topic: "/scan", Role: analysis.TopicAnalysed, Messages: 100}, {Topic: "/imu", Role: analysis.TopicAnalysed, Messages: 100}, {Topic: "/empty", Role: analysis.TopicAnalysed}},
		TFTree: []analysis.TFLink{{Parent: "odom", Child: "base_link"}, {Parent: "base_link", Child: "laser", Static: true}}}
	cases := []struct {
		name           string
		jumps          []analysis.ClockJump
		sentence, lead string
	}{
		{"one backward", []analysis.ClockJump{back},
			"No /clock; header stamps jump 1 time: /scan back by 800.0 ms at +10.0 s; /imu and odom->base_link did not jump (a step of one machine's clock moves every series it stamps).",
			"the stamps of /scan jump back by 800.0 ms at +10.0 s"},
		{"two series", []analysis.ClockJump{back, fwd},
			"No /clock; header stamps jump 2 times: /scan back by 800.0 ms at +10.0 s, odom->base_link forward by 1.980 s at +12.0 s; /imu did not jump (a step of one machine's clock moves every series it stamps).",
			"the bag's time jumps 2 times"},
	}
	for _, c := range cases {
		r := base
		r.StampJumps = c.jumps
		r.Counts.StampJumps = len(c.jumps)
		if got := analysis.StampJumpSentence(&r); got != c.sentence {
			t.Errorf("%s: sentence\n got %s\nwant %s", c.name, got, c.sentence)
		}
		if got := jumpClause(&r); got != c.lead {
			t.Errorf("%s: clause %q, want %q", c.name, got, c.lead)
		}
	}
	if got := analysis.StampJumpSentence(&base); got != "" {
		t.Errorf("no jumps: %q", got)
	}
}
