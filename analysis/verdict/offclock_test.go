package verdict

import (
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestOffClockEvidenceShare: under another headline, an off-clock topic is
// named when a tenth of its rows (or more) tf cannot judge, and not when
// it has no such row or tf judges most of its rows same_clock.
func TestOffClockEvidenceShare(t *testing.T) {
	for _, tc := range []struct {
		name    string
		classes map[analysis.Class]int
		want    bool
	}{
		{"a tenth static_only", map[analysis.Class]int{analysis.StaticOnly: 1, analysis.LaserOnSystemClock: 9}, true},
		{"a tenth no_transform", map[analysis.Class]int{analysis.NoTransform: 2, analysis.LaserOnSystemClock: 18}, true},
		{"under a tenth", map[analysis.Class]int{analysis.StaticOnly: 1, analysis.LaserOnSystemClock: 10}, false},
		{"no row", map[analysis.Class]int{}, false},
		// Mostly same_clock: on tf's clock, its rows without a transform
		// are the start-up before tf arrived.
		{"start-up before tf, then same_clock", map[analysis.Class]int{analysis.NoTransform: 2, analysis.SameClock: 18}, false},
	} {
		p := pair("/imu", tc.classes)
		p.FrameID = "imu_link"
		r := &analysis.Report{Pass: analysis.PassFacts{HasClock: true, ClockSeen: true, ClockFirstNS: 120e9, ClockLastNS: 150e9, StartNS: 1_790_000_000e9},
			Skew: []analysis.Skew{{Topic: "/imu", Count: 5, MedianS: 0.002}}, Pairs: []analysis.PairSummary{p}}
		v := analysis.Verdict{Class: string(analysis.LaserOnSystemClock), Sentence: "The laser driver publishes /scan with system time"}
		deciderFor(r).offClockEvidence(&v)
		if got := containsSub(v.Evidence, "/imu: stamped with system time while /clock runs sim time"); got != tc.want {
			t.Errorf("%s: named %v, want %v (%q)", tc.name, got, tc.want, v.Evidence)
		}
	}
}
