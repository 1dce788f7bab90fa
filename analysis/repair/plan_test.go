package repair

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/finding"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// planFor generates the case's bag, analyses it and builds its plan.
func planFor(t *testing.T, spec scenario.Spec, storage string) *Plan {
	t.Helper()
	dir, err := scenario.Write(filepath.Join(t.TempDir(), "bag"), spec, bagwrite.Options{Storage: storage})
	if err != nil {
		t.Fatal(err)
	}
	bag, err := bagread.Open(dir, bagread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bag.Close()
	rep, err := analysis.Analyze(bag, analysis.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Sample(bag)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := HashBag(bag)
	if err != nil {
		t.Fatal(err)
	}
	return Build(rep, s, ref, "test")
}

func shortSpec(t *testing.T, name string, sensors bool) scenario.Spec {
	t.Helper()
	s, err := scenario.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	s.Duration = 6 * time.Second
	s.Ranges = 30
	s.Sensors = sensors
	return s
}

func TestPlanCases(t *testing.T) {
	cases := []struct {
		name    string
		sensors bool
		ref     string
		// mapped: subjects the plan maps, and how (kind or "zero").
		mapped map[string]string
	}{
		{scenario.BothSim, false, ClockSim, nil},
		{scenario.BothSystem, false, ClockSystem, nil},
		{scenario.LaserSystemTFSim, false, ClockSim, map[string]string{"/scan": MapSystemToSim}},
		{scenario.LaserSimTFSystem, false, ClockSim, map[string]string{"/tf odom->base_link": MapSystemToSim}},
		{scenario.LaserZeroStamp, false, ClockSim, map[string]string{"/scan": "zero"}},
		{scenario.Skew2500ms, false, ClockSystem, map[string]string{"/scan": MapOffset}},
		{scenario.TFDetectorSystem, false, ClockSim, map[string]string{"/tf base_link->object_1": MapSystemToSim}},
		{scenario.LaserSystemTFSim, true, ClockSim, map[string]string{"/scan": MapSystemToSim, "/points": MapSystemToSim, "/imu": MapSystemToSim, "/camera/image_raw": MapSystemToSim}},
		{scenario.ClockLoop, false, ClockSim, nil},
		{scenario.ReRecorded, false, ClockSystem, nil},
	}
	for _, c := range cases {
		name := c.name
		if c.sensors {
			name += "_sensors"
		}
		t.Run(name, func(t *testing.T) {
			p := planFor(t, shortSpec(t, c.name, c.sensors), bagwrite.StorageMCAP)
			var text strings.Builder
			p.WriteText(&text)
			t.Log(text.String())
			if p.Reference != c.ref {
				t.Errorf("reference %s, want %s", p.Reference, c.ref)
			}
			got := map[string]string{}
			for _, e := range p.Entries {
				if e.Action != ActionMap {
					continue
				}
				k := "zero"
				if e.Map != nil {
					k = e.Map.Kind
				}
				got[e.Subject().String()] = k
			}
			for s, k := range c.mapped {
				if got[s] != k {
					t.Errorf("%s: mapped %q, want %q", s, got[s], k)
				}
			}
			for s, k := range got {
				if _, ok := c.mapped[s]; !ok {
					t.Errorf("%s: mapped %q, want left", s, k)
				}
			}
		})
	}
}

// TestClockMapToSystemInvertsToSim: through a /clock fit with a
// simulator at 0.5x, a stall and a reset, ToSystem undoes ToSim to within
// a nanosecond of rounding per piece, refuses a stalled piece (every
// system time in it shows the same sim time), and stays in the segment of
// the record time it is asked at.
func TestClockMapToSystemInvertsToSim(t *testing.T) {
	const ms = int64(1_000_000)
	var f clockFitter
	rec, clk := int64(1_790_000_000_000*ms), int64(0)
	for i := 0; i < 400; i++ { // 4 s at 0.5x
		f.add(rec, clk)
		rec += 10 * ms
		clk += 5 * ms
	}
	stallFrom := clk
	for i := 0; i < 100; i++ { // 1 s paused
		f.add(rec, clk)
		rec += 10 * ms
	}
	resetAt := rec
	clk = 500 * ms
	for i := 0; i < 300; i++ { // reset to 0.5 s, then 1x
		f.add(rec, clk)
		rec += 10 * ms
		clk += 10 * ms
	}
	m := f.finish()
	if len(m.Segments) != 2 {
		t.Fatalf("%d segments, want 2 (the reset splits them)", len(m.Segments))
	}
	for _, tc := range []struct{ sys, at int64 }{
		{m.Segments[0].FirstRecordNS + 1234*ms, m.Segments[0].FirstRecordNS + 1234*ms},
		{m.Segments[0].FirstRecordNS + 3*ms, m.Segments[0].FirstRecordNS + 100*ms},
		{resetAt + 2000*ms + 7, resetAt + 2000*ms},
	} {
		v, ok := m.ToSim(tc.sys, tc.at)
		if !ok {
			t.Fatalf("ToSim(%d) not ok", tc.sys)
		}
		back, ok := m.ToSystem(v, tc.at)
		if !ok || abs64(back-tc.sys) > 2 {
			t.Errorf("ToSystem(ToSim(%d)) = %d, %v", tc.sys, back, ok)
		}
	}
	if _, ok := m.ToSystem(stallFrom, resetAt-50*ms); ok {
		t.Errorf("a sim time /clock stood at for a second mapped back to one system time")
	}
	if _, ok := m.ToSystem(0, m.Segments[0].FirstRecordNS-1); ok {
		t.Error("mapped before the first /clock")
	}
}

// TestDiagnosesFromFindings: an offset is read from the typed findings
// (skew constant_offset, age ahead, rows of class clock_skew) on the
// topics they name, not from other findings' words; a tf link's offset
// from the skew table, which findings do not name links in.
func TestDiagnosesFromFindings(t *testing.T) {
	rep := &analysis.Report{
		Findings: []finding.Finding{
			{Kind: finding.Skew, Detail: analysis.SkewConstantOffset, Subjects: finding.Subjects{Topics: []string{"/a"}}},
			{Kind: finding.Skew, Detail: analysis.AgeAhead, Subjects: finding.Subjects{Topics: []string{"/b"}}},
			{Kind: finding.ClockMismatch, Detail: string(analysis.ClockSkew), Subjects: finding.Subjects{Topics: []string{"/c"}}},
			{Kind: finding.ClockMismatch, Detail: string(analysis.LaserOnSystemClock), Subjects: finding.Subjects{Topics: []string{"/d"}},
				Sentence: "skew constant_offset, age ahead, clock_skew: words are not findings"},
			{Kind: finding.Stale, Detail: analysis.AgeStale, Subjects: finding.Subjects{Topics: []string{"/e"}}},
		},
		Skew: []analysis.Skew{{Topic: "/tf", Link: "map->odom", Kind: analysis.SkewConstantOffset}, {Topic: "/tf", Link: "odom->base", Kind: analysis.SkewOK}},
	}
	d := diagnoses(rep)
	for subj, want := range map[Subject]bool{{Topic: "/a"}: true, {Topic: "/b"}: true, {Topic: "/c"}: true, {Topic: "/d"}: false,
		{Topic: "/e"}: false, {Topic: "/tf", Link: "map->odom"}: true, {Topic: "/tf", Link: "odom->base"}: false} {
		if got := d[subj].isOffset(); got != want {
			t.Errorf("%s: offset %v, want %v (diagnosis %q)", subj, got, want, d[subj].String())
		}
	}
	if got := d[Subject{Topic: "/d"}].String(); got != "clock-mismatch "+string(analysis.LaserOnSystemClock) {
		t.Errorf("/d diagnosis %q", got)
	}
}
