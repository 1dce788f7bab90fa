package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/scenario"
)

// scanStamp is a copied message's header.stamp.
func scanStamp(t *testing.T, data []byte) int64 {
	t.Helper()
	v, err := cdr.Stamp(data, cdr.HeaderStampOffset)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFixReferenceSystem: --reference system maps sim-time stamps back to
// system time through /clock. The laser on /clock beside tf on system
// time gets the tf's clock (no drop left); a healthy sim bag put wholly on
// system time stays clean, its scans stamped within a few ms of their
// record times; --reference sim without /clock is refused.
func TestFixReferenceSystem(t *testing.T) {
	for _, name := range []string{scenario.LaserSimTFSystem, scenario.BothSim} {
		for _, in := range []string{"mcap", "sqlite3"} {
			t.Run(name+"/"+in, func(t *testing.T) {
				spec, err := scenario.Get(name)
				if err != nil {
					t.Fatal(err)
				}
				bag := specBag(t, spec.Sample(), in)
				sum := bagSum(t, bag)
				dst := filepath.Join(t.TempDir(), "fixed")
				code, stdout, stderr := runCLI(t, "fix", bag, "-o", dst, "--reference", "system")
				if code != exitOK {
					t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
				}
				if bagSum(t, bag) != sum {
					t.Fatal("the input changed")
				}
				after := analyzeReport(t, dst)
				for _, f := range after.Summary.Findings {
					if f == "clock-mismatch" || f == "drop" || f == "zero-stamp" {
						t.Errorf("the copy still finds %s: %s", f, after.Verdict.Sentence)
					}
				}
				if d := drops(after); d != 0 {
					t.Errorf("the copy drops %d messages", d)
				}
				if compareCopies(t, bag, dst) == 0 {
					t.Fatal("no stamp changed")
				}
				got, _ := readAll(t, dst)
				for i, m := range got["/scan"] {
					age := m.log - scanStamp(t, m.data)
					if age < 0 || age > 50_000_000 {
						t.Fatalf("/scan message %d: record time − stamp %d ns after mapping back to system time", i, age)
					}
				}
				checkOutputStorage(t, dst, "mcap")
			})
		}
	}
	bag := caseBag(t, scenario.BothSystem, "mcap")
	code, _, stderr := runCLI(t, "fix", bag, "--reference", "sim", "-o", filepath.Join(t.TempDir(), "x"))
	if code != exitFailure || !strings.Contains(stderr, "no /clock") {
		t.Errorf("--reference sim without /clock: exit %d, %s", code, stderr)
	}
	code, _, stderr = runCLI(t, "fix", bag, "--reference", "wall", "--dry-run")
	if code != exitUsage || !strings.Contains(stderr, "--reference") {
		t.Errorf("--reference wall: exit %d, %s", code, stderr)
	}
}
