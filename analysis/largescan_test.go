package analysis

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
)

// TestLargeScansReadAsPrefixes: LaserScan rows are read as header
// prefixes, not whole (issue 10): on a bag whose scans are 1 MiB each,
// analyze asks the kernel for a small share of the bag's bytes, in both
// storage formats, and still gets every scan's row. rchar is counted, not
// time, so the check holds on a loaded machine.
func TestLargeScansReadAsPrefixes(t *testing.T) {
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("no /proc/self/io")
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		t.Run(storage, func(t *testing.T) {
			dir := writeCase(t, filepath.Join(t.TempDir(), "bag"), clockCase{name: "same", scanRanges: 1 << 18}, storage, 1)
			size := dirSize(t, dir)
			r0 := readChars(t)
			rep, rows := analyzeDir(t, dir, Config{})
			read := readChars(t) - r0
			if rep.Summary.Scans != 20 || len(rows) != 20 || rep.Summary.Skipped != 0 {
				t.Fatalf("%d scans, %d rows, %d skipped; want 20, 20, 0", rep.Summary.Scans, len(rows), rep.Summary.Skipped)
			}
			// The scans are 20 MiB of the bag; tf and clock a few kB.
			if share := float64(read) / float64(size); share > 0.05 {
				t.Errorf("analyze read %d of the bag's %d bytes (%.1f%%), want at most 5%%", read, size, 100*share)
			}
		})
	}
}

func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// readChars is this process's rchar: bytes asked of read syscalls.
func readChars(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no rchar in /proc/self/io")
	return 0
}
