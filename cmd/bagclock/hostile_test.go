package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/bombs"
	"github.com/bagclock/bagclock/internal/testenv"
)

// within runs f and fails the test when it has not returned by the
// deadline.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s still running after %v", what, d)
	}
}

// TestScanAndInfoRefuseFIFO: a FIFO named like a bag becomes an error
// row in scan and a clear error in info and analyze, instead of a hang.
func TestScanAndInfoRefuseFIFO(t *testing.T) {
	arch := t.TempDir()
	fifo := filepath.Join(arch, "p.mcap")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	demo := testenv.CopyTree(t, filepath.Join(testenv.RepoRoot(t), "testdata", "samples", "demo"))
	if err := os.Rename(demo, filepath.Join(arch, "demo")); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var code int
	var log string
	within(t, 60*time.Second, "scan over a FIFO", func() {
		code, log = scanInto(t, context.Background(), analyzeBag, out, archive.Shard{}, 1, arch)
	})
	if code != exitFailure {
		t.Errorf("scan exit %d, want %d (one bag could not be analysed)\n%s", code, exitFailure, log)
	}
	rows := readIndex(t, out)
	var fifoRow *archive.Row
	for i := range rows {
		if rows[i].Path == fifo {
			fifoRow = &rows[i]
		}
	}
	if fifoRow == nil || fifoRow.Status != archive.StatusError || !strings.Contains(fifoRow.Error, "not a regular file") {
		t.Fatalf("FIFO row = %+v, want an error row saying it is not a regular file", fifoRow)
	}
	if len(rows) != 2 {
		t.Errorf("index has %d rows, want the FIFO and the demo bag", len(rows))
	}
	for _, args := range [][]string{{"info", fifo}, {"analyze", fifo}} {
		e, errb := testEnv()
		within(t, 10*time.Second, strings.Join(args, " "), func() { code = run(args, e) })
		if code != exitFailure || !strings.Contains(errb.String(), "not a regular file: it is a FIFO") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestScanInterruptStopsStuckBag: after Ctrl-C a bag that never looks at
// the context (a long read) does not keep the scan: within a second it
// writes the index of what finished, says it was interrupted and exits 3.
func TestScanInterruptStopsStuckBag(t *testing.T) {
	arch := t.TempDir()
	for _, n := range []string{"a.mcap", "b.mcap", "c.mcap"} {
		if err := os.WriteFile(filepath.Join(arch, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	release, released := make(chan struct{}), make(chan struct{})
	an := func(p string, c analysis.Config, s ...analysis.ScanSink) (*analysis.Report, error) {
		if filepath.Base(p) == "b.mcap" {
			defer close(released)
			cancel()  // Ctrl-C while b is analysed
			<-release // and b never returns by itself
			return nil, context.Canceled
		}
		return &analysis.Report{Bag: analysis.BagSummary{Path: p}}, nil
	}
	out, err := os.MkdirTemp("", "stuck-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Let the abandoned bag end (a process would just exit) before
		// its output directory goes.
		close(release)
		<-released
		time.Sleep(100 * time.Millisecond)
		os.RemoveAll(out)
	})
	var code int
	var log string
	start := time.Now()
	within(t, 5*time.Second, "interrupted scan", func() {
		code, log = scanInto(t, ctx, an, out, archive.Shard{}, 1, arch)
	})
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("interrupted scan took %v, want about %v", took, abandonAfter)
	}
	if code != exitFailure || !strings.Contains(log, "INTERRUPTED") {
		t.Errorf("exit %d, log %q", code, log)
	}
	for _, r := range readIndex(t, out) {
		want := archive.StatusNotAnalysed // b was abandoned, c never started
		if filepath.Base(r.Path) == "a.mcap" {
			want = archive.StatusOK // finished before Ctrl-C
		}
		if r.Status != want {
			t.Errorf("%s: status %s, want %s", filepath.Base(r.Path), r.Status, want)
		}
	}
	for _, f := range []string{"index.html", "index.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s not written after the interruption: %v", f, err)
		}
	}
}

// TestScanBombs scans the three kinds of decompression bomb with a small
// --decode-budget: the MCAP chunk and the MESSAGE-mode row are skipped and
// shown as damage (a problem naming file, offset and sizes; a skipped
// message), the FILE-mode bag of concatenated frames is an error row, and
// the exit code says a bag could not be analysed.
func TestScanBombs(t *testing.T) {
	const budget = 4 << 20
	arch := t.TempDir()
	big, err := bombs.Zeros(4*budget, false)
	if err != nil {
		t.Fatal(err)
	}
	withSize, err := bombs.Zeros(budget-1, true)
	if err != nil {
		t.Fatal(err)
	}
	off, err := bombs.MCAPChunk(filepath.Join(arch, "chunk.mcap"), 1024, big)
	if err != nil {
		t.Fatal(err)
	}
	if err := bombs.MessageModeDB3(filepath.Join(arch, "rows.db3"), big); err != nil {
		t.Fatal(err)
	}
	if err := bombs.FileModeDB3(filepath.Join(arch, "file.db3.zstd"), withSize, withSize, withSize); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	e, errb := testEnv()
	code := run([]string{"scan", "-q", "--decode-budget", "4MiB", "-o", out, arch}, e)
	if code != exitFailure {
		t.Errorf("exit %d, want %d (the FILE-mode bomb could not be analysed)\n%s", code, exitFailure, errb)
	}
	rows := map[string]archive.Row{}
	for _, r := range readIndex(t, out) {
		rows[filepath.Base(r.Path)] = r
	}
	cases := []struct {
		name, status, problem string
		skipped               int
	}{
		{"chunk.mcap", archive.StatusDamaged, "zstd chunk declares 1024 bytes, decodes to more than 4194304 bytes", 1},
		{"rows.db3", archive.StatusDamaged, "", 1},
		{"file.db3.zstd", archive.StatusError, "decompresses past 4194304 bytes", 0},
	}
	for _, c := range cases {
		r, ok := rows[c.name]
		if !ok {
			t.Errorf("%s: no index row", c.name)
			continue
		}
		text := r.Error + strings.Join(r.Problems, "\n")
		if r.Status != c.status || !strings.Contains(text, c.problem) || r.Skipped != c.skipped {
			t.Errorf("%s: status %s, skipped %d, problems %q; want %s, %d skipped, %q", c.name, r.Status, r.Skipped, text, c.status, c.skipped, c.problem)
		}
		if c.name == "chunk.mcap" && !strings.Contains(text, filepath.Join(arch, c.name)+fmt.Sprintf(": skipped at byte %d (reading went on): MCAP chunk at byte %d skipped", off, off)) {
			t.Errorf("%s: problem does not name the file and offset: %q", c.name, text)
		}
	}
	// One budget per bag: the default is back for the next command.
	if decodeBudget != 4<<20 {
		t.Errorf("decodeBudget = %d after scan --decode-budget 4MiB", decodeBudget)
	}
	budgetFlag(pflag.NewFlagSet("x", pflag.ContinueOnError))
	if decodeBudget != bagread.DefaultMaxRecordBytes {
		t.Errorf("budgetFlag does not reset the budget: %d", decodeBudget)
	}
}
