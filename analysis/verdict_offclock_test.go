package analysis

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestOffClockVerdict: a laser driver on system time in a simulation bag
// (with /clock) whose path tf cannot judge, static links only or none at
// all, is named in the headline and in the findings; the same path with
// the laser on /clock, or a bag without /clock, is not. Before, the
// static-only bag said "a clock mismatch is invisible on this path" and
// had no finding: --fail-on clock-mismatch passed it.
func TestOffClockVerdict(t *testing.T) {
	sys := scenario.Publisher{Clock: scenario.ClockSystem}
	sim := scenario.Publisher{Clock: scenario.ClockSim}
	short := func(s *scenario.Spec) {
		s.Duration = 3 * time.Second
	}
	for _, tc := range []struct {
		name     string
		spec     func(s *scenario.Spec)
		class    string
		findings []string
		sentence string // a part of it
		evidence string // a part of one line
		not      string // a part of no evidence line
	}{
		{"static path, laser on system time", func(s *scenario.Spec) { s.TFHz, s.Laser = 0, sys },
			VerdictSensorOnSystemClock, []string{"clock-mismatch"},
			"/scan is stamped with system time while /clock runs sim time: the laser driver ignores use_sim_time; set use_sim_time:=true on the node publishing /scan.",
			"Only static transforms link 'laser' to 'base_link', and tf2 matches those at any time", "follows /clock"},
		{"static path, every sensor on system time", func(s *scenario.Spec) { s.TFHz, s.Laser, s.Sensors = 0, sys, true },
			VerdictSensorOnSystemClock, []string{"clock-mismatch"},
			"are stamped with system time while /clock runs sim time: their drivers ignore use_sim_time",
			"/clock runs 120.000 s .. 122.990 s.", ""},
		{"no tf, laser on system time", func(s *scenario.Spec) { s.NoTF, s.Laser = true, sys },
			VerdictSensorOnSystemClock, []string{"clock-mismatch"},
			"/scan is stamped with system time while /clock runs sim time",
			"tf cannot show the mismatch; /clock does", ""},
		{"static path, laser on /clock", func(s *scenario.Spec) { s.TFHz, s.Laser = 0, sim },
			string(StaticOnly), []string{}, "a clock mismatch is invisible on this path", "", "follows /clock"},
		{"static path, laser on system time, no /clock", func(s *scenario.Spec) { s.TFHz, s.Laser, s.TF, s.ClockHz = 0, sys, sys, 0 },
			string(StaticOnly), []string{}, "a clock mismatch is invisible on this path", "", "follows /clock"},
		// One clock for the laser and tf, but not /clock's: the rows agree,
		// the evidence says nothing follows /clock.
		{"laser and tf on system time beside a sim /clock", func(s *scenario.Spec) { s.Laser, s.TF = sys, sys },
			VerdictNoProblem, []string{}, "no clock problem", "/clock runs sim time (120.000 s .. 122.990 s) but every analysed topic and tf link is stamped with system time: no node in the bag follows /clock.", ""},
		{"laser and tf on /clock", func(s *scenario.Spec) {}, VerdictNoProblem, []string{}, "no clock problem", "", "follows /clock"},
	} {
		for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
			t.Run(storage+"/"+tc.name, func(t *testing.T) {
				spec, err := scenario.Get(scenario.BothSim)
				if err != nil {
					t.Fatal(err)
				}
				short(&spec)
				tc.spec(&spec)
				rep := analyzeBag(t, specBag(t, spec, storage), Config{}, nil)
				v := rep.Verdict
				if v.Class != tc.class || !strings.Contains(v.Sentence, tc.sentence) {
					t.Errorf("verdict %s: %q, want %s: %q", v.Class, v.Sentence, tc.class, tc.sentence)
				}
				if !equalStrings(rep.Summary.Findings, tc.findings) {
					t.Errorf("findings %v, want %v", rep.Summary.Findings, tc.findings)
				}
				if tc.evidence != "" && !containsSub(v.Evidence, tc.evidence) {
					t.Errorf("evidence %q lacks %q", v.Evidence, tc.evidence)
				}
				if tc.not != "" && containsSub(v.Evidence, tc.not) {
					t.Errorf("evidence %q has %q", v.Evidence, tc.not)
				}
			})
		}
	}
}

// TestOffClockTopics: which skew rows count as stamped off /clock, from
// the /clock values and the recorder's clock.
func TestOffClockTopics(t *testing.T) {
	const sysNS = int64(1_790_000_000) * 1e9
	rows := []Skew{
		{Topic: "/near_record", Count: 5, MedianS: 0.002},
		{Topic: "/epoch_behind", Count: 5, MedianS: 1.79e9},
		{Topic: "/empty", Count: 0, MedianS: 0.002},
		{Topic: "/tf", Link: "odom->base_link", Count: 5, MedianS: 0.002},
		// An epoch exactly: the other family than the recorder's.
		{Topic: "/epoch_exactly", Count: 5, MedianS: float64(EpochThresholdNS) / 1e9},
	}
	for _, tc := range []struct {
		name             string
		hasClock, seen   bool
		clockLo, clockHi int64
		recorder         int64
		want             []string
	}{
		{"sim /clock, wall recorder", true, true, 120e9, 150e9, sysNS, []string{"/near_record"}},
		{"sim /clock, recorder on sim time", true, true, 120e9, 150e9, 120e9, []string{"/epoch_behind", "/epoch_exactly"}},
		{"no /clock", false, false, 0, 0, sysNS, nil},
		{"/clock topic without a value", true, false, 0, 0, sysNS, nil},
		{"/clock on system time (re-recorded)", true, true, sysNS, sysNS + 30e9, sysNS, nil},
		{"/clock from sim into system time", true, true, 120e9, sysNS, sysNS, nil},
	} {
		a := &analyzer{hasClock: tc.hasClock, clock: &clockState{seen: tc.seen, firstNS: tc.clockLo, lastNS: tc.clockHi}, startNS: tc.recorder}
		a.rep.Skew = rows
		got := reportOf(a).OffClockTopics()
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for _, w := range tc.want {
			if _, ok := got[w]; !ok {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}

// TestOffClockEvidence: a robot whose laser is on system time beside tf on
// /clock leads the verdict; a third robot whose laser is on system time on
// a static-only path, which no row shows, is named in the evidence.
func TestOffClockEvidence(t *testing.T) {
	specs, err := scenario.RobotsOf([]string{scenario.BothSim, scenario.LaserSystemTFSim, scenario.StaticOnly})
	if err != nil {
		t.Fatal(err)
	}
	for i := range specs {
		specs[i].Duration = 3 * time.Second
	}
	dir, err := scenario.WriteMulti(filepath.Join(t.TempDir(), "bag"), specs, bagwrite.Options{Storage: bagwrite.StorageMCAP})
	if err != nil {
		t.Fatal(err)
	}
	rep := analyzeBag(t, dir, Config{}, nil)
	v := rep.Verdict
	if v.Class != string(LaserOnSystemClock) || !strings.Contains(v.Sentence, "/robot2/scan") {
		t.Fatalf("verdict %s %q, want robot2's laser on system time", v.Class, v.Sentence)
	}
	want := "/robot3/scan: stamped with system time while /clock runs sim time, on paths tf cannot judge"
	if !containsSub(v.Evidence, want) {
		t.Errorf("evidence %q lacks %q", v.Evidence, want)
	}
	if containsSub(v.Evidence, "/robot1/scan: stamped with system time") || containsSub(v.Evidence, "/robot2/scan: stamped with system time") {
		t.Errorf("evidence %q names a robot tf judges", v.Evidence)
	}
}

// TestOffClockPairShare: a pair leads when a tenth of its rows (or more)
// are static_only or no_transform; of two, the one with more such rows. A
// pair whose rows are mostly same_clock is on tf's clock (its path's
// dynamic links are on system time too): its rows without a path are the
// start-up before tf, and it does not lead.
func TestOffClockPairShare(t *testing.T) {
	pairOf := func(topic string, static int, other Class, n int) *pairStats {
		return &pairStats{topic: topic, frame: "laser", target: "odom", classes: map[Class]int{StaticOnly: static, other: n}}
	}
	pair := func(topic string, static, off int) *pairStats { return pairOf(topic, static, LaserOnSystemClock, off) }
	for _, tc := range []struct {
		name  string
		pairs []*pairStats
		want  string
	}{
		{"a tenth", []*pairStats{pair("/scan", 1, 9)}, "/scan"},
		{"under a tenth", []*pairStats{pair("/scan", 1, 10)}, ""},
		{"the most rows", []*pairStats{pair("/scan", 2, 0), pair("/imu", 3, 0)}, "/imu"},
		{"a tie keeps the first", []*pairStats{pair("/scan", 3, 0), pair("/imu", 3, 0)}, "/scan"},
		{"mostly same_clock: on tf's clock", []*pairStats{pairOf("/scan", 2, SameClock, 9)}, ""},
		{"same_clock in half the rows", []*pairStats{pairOf("/scan", 9, SameClock, 9)}, "/scan"},
	} {
		a := &analyzer{hasClock: true, clock: &clockState{seen: true, firstNS: 120e9, lastNS: 150e9}, startNS: 1_790_000_000e9}
		a.rep.Skew = []Skew{{Topic: "/scan", Count: 5, MedianS: 0.002}, {Topic: "/imu", Count: 5, MedianS: 0.002}}
		a.pairs = tc.pairs
		p, _ := reportOf(a).OffClockPair()
		got := ""
		if p != nil {
			got = p.Topic
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
