package verdict

import (
	"strings"
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
		v := draftSaying("The laser driver publishes /scan with system time", "/scan")
		v.Class = string(analysis.LaserOnSystemClock)
		deciderFor(r).offClockEvidence(&v)
		if got := containsSub(v.Evidence, "/imu: stamped with system time while /clock runs sim time"); got != tc.want {
			t.Errorf("%s: named %v, want %v (%q)", tc.name, got, tc.want, v.Evidence)
		}
	}
}

// offClockLine is the start of offClockEvidence's line.
const offClockLine = ": stamped with system time while /clock runs sim time, on paths tf cannot judge"

// TestOffClockEvidenceNamedTopics: under a headline about another fault,
// the off-clock topics the headline does not name get the line, by the
// topics the headline names as data: /scan is not named by a headline
// about /scan2, though "/scan2" holds "/scan" (the sentence was once
// searched for the topic's name, and /scan went unsaid).
func TestOffClockEvidenceNamedTopics(t *testing.T) {
	// laserOn is a report whose first topic's driver is on system time
	// while tf follows /clock (the headline), and whose other topics are
	// off /clock on static-only paths.
	laserOn := func(lead string, off ...string) *analysis.Report {
		ps := pairs(pairWith(lead, analysis.LaserOnSystemClock, 0, 10))
		for _, tp := range off {
			ps = append(ps, pairWith(tp, analysis.StaticOnly, 0, 10))
		}
		r := sensorReport(ps, 1.79e9)
		r.Pass.StartNS = 1_790_000_000e9
		r.Pass.ClockSeen, r.Pass.ClockFirstNS, r.Pass.ClockLastNS = true, 1e9, 60e9
		for _, tp := range append([]string{lead}, off...) {
			r.Skew = append(r.Skew, analysis.Skew{Topic: tp, Count: 10, MedianS: 0.01, Kind: "ok"})
		}
		return r
	}
	for _, tc := range []struct {
		name     string
		rep      *analysis.Report
		sentence string
		line     string // the evidence line's topics, "" for none
	}{
		{"/scan under a headline about /scan2", laserOn("/scan2", "/scan"),
			"The laser driver publishes /scan2 with system time while tf follows /clock: set use_sim_time:=true on the node publishing /scan2.", "/scan"},
		{"/scan2 under a headline about /scan", laserOn("/scan", "/scan2"),
			"The laser driver publishes /scan with system time while tf follows /clock: set use_sim_time:=true on the node publishing /scan.", "/scan2"},
		{"two under a headline about a third", laserOn("/front", "/scan", "/scan2"),
			"The laser driver publishes /front with system time while tf follows /clock: set use_sim_time:=true on the node publishing /front.", "/scan and /scan2"},
		{"none off /clock but the lead", laserOn("/scan"),
			"The laser driver publishes /scan with system time while tf follows /clock: set use_sim_time:=true on the node publishing /scan.", ""},
	} {
		v := Decide(tc.rep)
		if v.Sentence != tc.sentence {
			t.Errorf("%s: headline %q, want %q", tc.name, v.Sentence, tc.sentence)
		}
		got := ""
		for _, e := range v.Evidence {
			if i := strings.Index(e, offClockLine); i >= 0 {
				got = e[:i]
			}
		}
		if got != tc.line {
			t.Errorf("%s: off-clock line names %q, want %q (%q)", tc.name, got, tc.line, v.Evidence)
		}
	}
}
