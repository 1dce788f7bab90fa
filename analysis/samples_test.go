package analysis

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/bagclock/bagclock/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func analyzeDir(t testing.TB, dir string, cfg Config) (*Report, []ScanRow) {
	t.Helper()
	bag, err := bagread.Open(dir, bagread.Options{})
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	defer bag.Close()
	var rows []ScanRow
	rep, err := analyzeFinished(bag, cfg, func(r *ScanRow) error { rows = append(rows, *r); return nil })
	if err != nil {
		t.Fatalf("analyze %s: %v", dir, err)
	}
	return rep, rows
}

// TestSamples checks every committed clock-case sample (both formats)
// against the scenario's ground truth, which the generator derives from the
// spec without running the analysis.
func TestSamples(t *testing.T) {
	root := filepath.Join(testenv.RepoRoot(t), "testdata", "samples")
	for _, s := range scenario.Samples() {
		s := s
		if filepath.Dir(s.Dir) != "mcap" && filepath.Dir(s.Dir) != "sqlite3" {
			continue
		}
		t.Run(s.Dir, func(t *testing.T) {
			dir := filepath.Join(root, s.Dir)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("committed sample missing (regenerate with go run ./cmd/baggen --samples testdata/samples): %v", err)
			}
			truth := s.Spec.Truth()
			rep, rows := analyzeDir(t, dir, Config{})
			if rep.Summary.Scans != truth.Scans || rep.Summary.Classes[truth.Class] != truth.Scans {
				t.Errorf("scans %d classes %v, want all %d %s", rep.Summary.Scans, rep.Summary.Classes, truth.Scans, truth.Class)
			}
			if rep.Counts.BackwardJumps != truth.BackwardJumps {
				t.Errorf("backward jumps %d, want %d (%+v)", rep.Counts.BackwardJumps, truth.BackwardJumps, rep.ClockJumps)
			}
			if rep.ZeroStamp.Count != truth.ZeroStampScans {
				t.Errorf("zero stamps %d, want %d", rep.ZeroStamp.Count, truth.ZeroStampScans)
			}
			if len(rows) > 0 && !math.IsNaN(truth.DiffS) && rows[0].HasTF {
				tol := 0.05 + 1e-6*math.Abs(truth.DiffS)
				if d := rows[0].DiffS - truth.DiffS; math.Abs(d) > tol {
					t.Errorf("first diff %g s, want ≈ %g", rows[0].DiffS, truth.DiffS)
				}
			}
			if rep.Summary.Skipped != 0 {
				t.Errorf("skipped %v", rep.Skipped)
			}
		})
	}
}

// TestGolden compares the Report of two samples with testdata/*.json.
func TestGolden(t *testing.T) {
	root := filepath.Join(testenv.RepoRoot(t), "testdata", "samples")
	for _, c := range []struct{ sample, golden string }{
		{"demo", "demo.report.json"},
		{"sqlite3/laser_sim_tf_system", "laser_sim_tf_system.report.json"},
	} {
		t.Run(c.sample, func(t *testing.T) {
			dir := filepath.Join(root, c.sample)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("committed sample missing (regenerate with go run ./cmd/baggen --samples testdata/samples): %v", err)
			}
			rep, _ := analyzeDir(t, dir, Config{})
			// Paths depend on the checkout.
			rep.Bag.Path = c.sample
			for i, f := range rep.Bag.Files {
				rep.Bag.Files[i] = filepath.Base(f)
			}
			got, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", c.golden)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %s", path)
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./analysis -run TestGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("report differs from %s; run with -update and review the diff", path)
			}
		})
	}
}
