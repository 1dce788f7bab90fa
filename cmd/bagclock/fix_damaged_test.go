package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestFixDamagedInput: a truncated MCAP and a cut db3 are repaired as far
// as they could be read: the copy holds every message read, its stamps
// repaired, and both the printed summary and the copy's metadata.yaml
// say the input was damaged.
func TestFixDamagedInput(t *testing.T) {
	for _, in := range []string{"mcap", "sqlite3"} {
		for _, out := range []string{"mcap", "sqlite3"} {
			t.Run(in+"_to_"+out, func(t *testing.T) {
				bag := caseBag(t, scenario.LaserSystemTFSim, in)
				full := len(mustReadAll(t, bag))
				ext := map[string]string{"mcap": ".mcap", "sqlite3": ".db3"}[in]
				files, _ := filepath.Glob(filepath.Join(bag, "*"+ext))
				if len(files) != 1 {
					t.Fatalf("want one %s file, found %v", ext, files)
				}
				st, err := os.Stat(files[0])
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(files[0], st.Size()*6/10); err != nil {
					t.Fatal(err)
				}
				sum := bagSum(t, bag)
				dst := filepath.Join(t.TempDir(), "fixed")
				code, stdout, stderr := runCLI(t, "fix", bag, "-o", dst, "--storage", out)
				if code != exitOK {
					t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
				}
				if bagSum(t, bag) != sum {
					t.Fatal("the input changed")
				}
				if !strings.Contains(stdout, "damaged input: repaired as far as it was read") || !strings.Contains(stdout, "cut short") {
					t.Errorf("the summary does not say the input was damaged:\n%s", stdout)
				}
				md, err := os.ReadFile(filepath.Join(dst, "metadata.yaml"))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(md), "bagclock.fix.input_damage") || !strings.Contains(string(md), "cut short") {
					t.Errorf("metadata.yaml does not say the input was damaged:\n%s", md)
				}
				read := len(mustReadAll(t, bag))
				if read == 0 || read >= full {
					t.Fatalf("the cut bag reads %d of %d messages: not a partial bag", read, full)
				}
				if got := len(mustReadAll(t, dst)); got != read {
					t.Errorf("the copy has %d messages, %d could be read from the input", got, read)
				}
				if compareCopies(t, bag, dst) == 0 {
					t.Error("no stamp changed")
				}
				after := analyzeReport(t, dst)
				for _, f := range after.Summary.Findings {
					if f == "clock-mismatch" || f == "drop" || f == "zero-stamp" {
						t.Errorf("repaired bag still finds %s: %s", f, after.Verdict.Sentence)
					}
				}
				checkOutputStorage(t, dst, out)
			})
		}
	}
}

// mustReadAll lists the readable messages of a bag (record time order),
// stopping at the first unreadable one as a cut bag ends.
func mustReadAll(t *testing.T, path string) []copied {
	t.Helper()
	b, err := bagread.Open(path, bagread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var out []copied
	it := b.Messages(bagread.ReadOptions{Order: bagread.TimeOrder})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			continue
		}
		out = append(out, copied{m.LogTimeNS, m.PublishTimeNS, nil})
	}
	return out
}
