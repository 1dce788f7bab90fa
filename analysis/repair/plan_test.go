package repair

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis"
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
