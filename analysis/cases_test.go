package analysis

import (
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// clockCase describes one generated bag of the motivating experiment: sim
// time from 120 s, system time 1.79e9 s, scans at 20 Hz, tf at 50 Hz
// (dynamic odom->base_link, static base_link->laser), /clock at 100 Hz.
type clockCase struct {
	name        string
	laserSystem bool  // laser stamps on system time
	tfSystem    bool  // tf stamps on system time
	laserZero   bool  // laser stamps 0
	laserSkewNS int64 // added to laser stamps
	loopAtS     float64
	scanRanges  int // ranges per scan; 0 means 360
}

const (
	simStartNS = int64(120e9)
	sysStartNS = int64(1_790_000_000e9)
)

func writeCase(t testing.TB, dir string, c clockCase, storage string, durS float64) string {
	t.Helper()
	return writeCaseWith(t, dir, c, bagwrite.Options{Storage: storage}, durS)
}

// writeCaseWith is writeCase with every writer option (chunk size...).
func writeCaseWith(t testing.TB, dir string, c clockCase, opts bagwrite.Options, durS float64) string {
	t.Helper()
	w, err := bagwrite.Create(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range []struct{ n, ty string }{
		{"/clock", cdr.TypeClock}, {"/tf", cdr.TypeTFMessage}, {"/tf_static", cdr.TypeTFMessage}, {"/scan", cdr.TypeLaserScan},
	} {
		if err := w.AddTopic(tp.n, tp.ty); err != nil {
			t.Fatal(err)
		}
	}
	le := binary.LittleEndian
	var buf []byte
	write := func(topic string, logNS int64, data []byte) {
		if err := w.Write(topic, logNS, logNS, data); err != nil {
			t.Fatal(err)
		}
	}
	ts := func(ns int64) cdr.Time { return cdr.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)} }
	static := cdr.TFMessage{Transforms: []cdr.TransformStamped{{
		Header: cdr.Header{Stamp: ts(simStartNS), FrameID: "base_link"}, ChildFrameID: "laser",
		Transform: cdr.Transform{Translation: cdr.Vector3{X: 0.1}, Rotation: cdr.Quaternion{W: 1}},
	}}}
	write("/tf_static", sysStartNS, cdr.AppendTFMessage(buf[:0], &static, le))
	nRanges := 360
	if c.scanRanges > 0 {
		nRanges = c.scanRanges
	}
	scan := cdr.LaserScan{Header: cdr.Header{FrameID: "laser"}, Ranges: make([]float32, nRanges), RangeMax: 10}
	const step = int64(10e6) // 10 ms ticks
	n := int64(durS * 1e9 / float64(step))
	loopAt := int64(c.loopAtS * 1e9 / float64(step))
	for i := int64(0); i < n; i++ {
		elapsed := i * step
		if loopAt > 0 && i >= loopAt {
			elapsed = (i - loopAt) * step
		}
		sim := simStartNS + elapsed
		sys := sysStartNS + i*step + 1_000_000 // record 1 ms after the event
		rec := sys
		write("/clock", rec, cdr.AppendClock(buf[:0], &cdr.Clock{Clock: ts(sim)}, le))
		if i%2 == 0 { // tf 50 Hz
			st := sim
			if c.tfSystem {
				st = sysStartNS + i*step
			}
			x := float64(elapsed) / 1e9 * 0.5 // 0.5 m/s
			m := cdr.TFMessage{Transforms: []cdr.TransformStamped{{
				Header: cdr.Header{Stamp: ts(st), FrameID: "odom"}, ChildFrameID: "base_link",
				Transform: cdr.Transform{Translation: cdr.Vector3{X: x}, Rotation: cdr.Quaternion{W: 1}},
			}}}
			write("/tf", rec+100_000, cdr.AppendTFMessage(buf[:0], &m, le))
		}
		if i%5 == 2 { // scans 20 Hz
			st := sim + c.laserSkewNS
			switch {
			case c.laserZero:
				st = 0
			case c.laserSystem:
				st = sysStartNS + i*step
			}
			scan.Header.Stamp = ts(st)
			write("/scan", rec+200_000, cdr.AppendLaserScan(buf[:0], &scan, le))
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestClockCases(t *testing.T) {
	cases := []struct {
		c        clockCase
		classes  map[string]int // odom target
		jumps    int
		zero     int
		verdict  string
		findings []string
		check    func(t *testing.T, rep *Report)
	}{
		{c: clockCase{name: "same_clock"}, classes: map[string]int{"same_clock": 100}, findings: []string{}},
		{c: clockCase{name: "laser_system", laserSystem: true}, classes: map[string]int{"laser_on_system_clock": 100},
			verdict:  "The laser driver publishes /scan with system time while tf follows /clock: set use_sim_time:=true on the node publishing /scan.",
			findings: []string{"drop", "clock-mismatch"},
			check: func(t *testing.T, rep *Report) {
				if f := rep.Summary.Filter; f["dropped_queue_full"] != 90 || f["pending_at_end"] != 10 {
					t.Errorf("filter = %v, want 90 queue-full drops and 10 pending (queue 10)", f)
				}
			}},
		{c: clockCase{name: "tf_system", tfSystem: true}, classes: map[string]int{"tf_on_system_clock": 100},
			findings: []string{"drop", "clock-mismatch"},
			check: func(t *testing.T, rep *Report) {
				if f := rep.Summary.Filter; f["dropped_out_the_back"] != 100 {
					t.Errorf("filter = %v, want 100 OutTheBack drops", f)
				}
			}},
		{c: clockCase{name: "zero", laserZero: true}, classes: map[string]int{"zero_stamp": 100}, zero: 100,
			findings: []string{"zero-stamp", "stuck-zero"},
			check: func(t *testing.T, rep *Report) {
				if f := rep.Summary.Filter; f["passed"] != 100 {
					t.Errorf("filter = %v, want all passed at once", f)
				}
				// Paired with the latest pose (≤ 20 ms old at 0.5 m/s):
				// displacement stays under a centimetre.
				if z := rep.ZeroStamp; z.Costed == 0 || z.MaxDisplacementM > 0.011 {
					t.Errorf("zero stamp cost = %+v", z)
				}
			}},
		{c: clockCase{name: "skew", laserSkewNS: 2_500_000_000}, classes: map[string]int{"clock_skew": 100},
			findings: []string{"drop", "clock-mismatch", "skew"}},
		{c: clockCase{name: "loop", loopAtS: 2.5}, jumps: 1, findings: []string{"jump"},
			check: func(t *testing.T, rep *Report) {
				j := rep.ClockJumps[0]
				if j.Kind != "backward" || j.FromNS != simStartNS+2_490_000_000 || j.ToNS != simStartNS {
					t.Errorf("jump = %+v", j)
				}
			}},
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, tc := range cases {
			t.Run(storage+"/"+tc.c.name, func(t *testing.T) {
				dir := writeCase(t, filepath.Join(t.TempDir(), "bag"), tc.c, storage, 5)
				rows := 0
				rep := analyzeBag(t, dir, Config{}, func(r *ScanRow) error { rows++; return nil })
				if rep.Summary.Scans != 100 || rows != 100 {
					t.Errorf("scans %d rows %d, want 100", rep.Summary.Scans, rows)
				}
				if got := rep.Settings.TargetFrames; len(got) != 1 || got[0] != "odom" {
					t.Errorf("targets = %v, want [odom]", got)
				}
				if tc.classes != nil {
					for k, v := range tc.classes {
						if rep.Summary.Classes[k] != v {
							t.Errorf("classes = %v, want %v", rep.Summary.Classes, tc.classes)
						}
					}
				}
				if rep.Counts.ClockJumps != tc.jumps || rep.ZeroStamp.Count != tc.zero {
					t.Errorf("jumps %d zero %d, want %d %d", rep.Counts.ClockJumps, rep.ZeroStamp.Count, tc.jumps, tc.zero)
				}
				if tc.verdict != "" && rep.Verdict.Sentence != tc.verdict {
					t.Errorf("verdict = %q", rep.Verdict.Sentence)
				}
				if !equalStrings(rep.Summary.Findings, tc.findings) {
					t.Errorf("findings = %v, want %v", rep.Summary.Findings, tc.findings)
				}
				if tc.check != nil {
					tc.check(t, rep)
				}
				t.Logf("verdict: %s; filter %v", rep.Verdict.Sentence, rep.Summary.Filter)
			})
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
