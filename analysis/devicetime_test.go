package analysis

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis/finding"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestDeviceTime: a laser driver that passes its device's clock (an hour
// since it booted) in a bag without /clock, tf and the recorder on system
// time, is neither sim time nor a stamp of 0: the verdict names the
// sensor's clock, not tf's ("a tf publisher stamps with system time"), and
// a clock-mismatch finding says device_time. A whole recording on sim time
// without /clock recorded is not a device clock, nor is a healthy robot.
func TestDeviceTime(t *testing.T) {
	cases := []struct {
		name   string
		spec   func() scenario.Spec
		device bool
	}{
		{"laser on device time", func() scenario.Spec {
			s, _ := scenario.Get(scenario.BothSystem)
			s.Laser.OffsetNS = -(scenario.DefaultSystemStartNS - 3600e9)
			return s
		}, true},
		// The driver ran before the recorder: its first 3 s of scans arrive
		// in one burst, so first-to-last stamps advance 1.4 s per second of
		// record time; the lag's lower envelope does not bend.
		{"laser on device time, start-up backlog", func() scenario.Spec {
			s, _ := scenario.Get(scenario.BothSystem)
			s.Laser.OffsetNS = -(scenario.DefaultSystemStartNS - 3600e9)
			s.Noise = &scenario.Noise{Backlog: &scenario.Backlog{Machine: scenario.MachineSensors, Age: 3 * time.Second, Burst: 400 * time.Millisecond, Lag: 5 * time.Millisecond}}
			return s
		}, true},
		{"sim time, /clock not recorded", func() scenario.Spec { s, _ := scenario.Get(scenario.SimNoClock); return s }, false},
		{"healthy robot", func() scenario.Spec { s, _ := scenario.Get(scenario.BothSystem); return s }, false},
	}
	for _, c := range cases {
		for _, storage := range []string{"mcap", "sqlite3"} {
			t.Run(c.name+"/"+storage, func(t *testing.T) {
				s := c.spec()
				s.Duration = 10 * time.Second
				rep := analyzeBag(t, specBag(t, s, storage), Config{}, nil)
				if got := len(rep.DeviceClocks) > 0; got != c.device {
					t.Fatalf("device clocks %+v, want %v", rep.DeviceClocks, c.device)
				}
				has := slices.ContainsFunc(rep.Findings, func(f finding.Finding) bool { return f.Detail == "device_time" })
				if has != c.device {
					t.Errorf("device_time finding %v, want %v", has, c.device)
				}
				if !c.device {
					return
				}
				dc := rep.DeviceClocks[0]
				if dc.Topic != "/scan" || dc.FirstS < 3596 || dc.FirstS > 3601 || dc.Rate < 0.995 || dc.Rate > 1.005 {
					t.Errorf("device clock %+v, want /scan from ~3600 s at rate 1", dc)
				}
				if rep.Verdict.Class != VerdictTime || !strings.HasPrefix(rep.Verdict.Sentence, "/scan is stamped on a clock of its own, not system time: its stamps start at 3") ||
					strings.Contains(rep.Verdict.Sentence, "A tf publisher") {
					t.Errorf("verdict %s: %s", rep.Verdict.Class, rep.Verdict.Sentence)
				}
			})
		}
	}
}
