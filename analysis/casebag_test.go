package analysis

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// specBag writes spec as a bag in storage (bagwrite.StorageMCAP or
// StorageSQLite3) into t.TempDir() and returns the bag's directory.
func specBag(t *testing.T, spec scenario.Spec, storage string) string {
	t.Helper()
	dir, err := scenario.Write(filepath.Join(t.TempDir(), "bag"), spec, bagwrite.Options{Storage: storage})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// caseBag is specBag for the scenario case of that name.
func caseBag(t *testing.T, name, storage string) string {
	t.Helper()
	spec, err := scenario.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return specBag(t, spec, storage)
}

// timeCaseBag is caseBag for a time case (scenario.GetTimeCase).
func timeCaseBag(t *testing.T, name, storage string) string {
	t.Helper()
	c, err := scenario.GetTimeCase(name)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := scenario.WriteTimeCase(filepath.Join(t.TempDir(), "bag"), c, bagwrite.Options{Storage: storage})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// analyzeBag opens the bag at dir and analyses it with cfg, handing every
// row to sink (nil for none); any error fails the test.
func analyzeBag(t *testing.T, dir string, cfg Config, sink func(*ScanRow) error) *Report {
	t.Helper()
	bag, err := bagread.Open(dir, bagread.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer bag.Close()
	rep, err := analyzeFinished(bag, cfg, sink)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// robotReport analyses a 10 s healthy robot (scenario.BothSystem, 30
// ranges) in storage, with noise and whatever edit makes it a case.
func robotReport(t *testing.T, storage string, noise scenario.Noise, edit func(*scenario.Spec)) *Report {
	t.Helper()
	s, err := scenario.Get(scenario.BothSystem)
	if err != nil {
		t.Fatal(err)
	}
	s.Duration, s.Ranges = 10*time.Second, 30
	s.Noise = &noise
	if edit != nil {
		edit(&s)
	}
	return analyzeBag(t, specBag(t, s, storage), Config{}, nil)
}
