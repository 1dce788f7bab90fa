package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// runMainVar makes the test binary run bagclock's main instead of the
// tests, so a test can start a real bagclock process and signal it.
const runMainVar = "BAGCLOCK_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainVar) == "1" {
		os.Args = append([]string{"bagclock"}, os.Args[1:]...)
		main()
		return
	}
	os.Exit(m.Run())
}

// bagclockProcess starts the test binary as bagclock with args.
func bagclockProcess(t *testing.T, stderr *bytes.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), runMainVar+"=1")
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// TestScanSIGINTIndexSaysSo sends SIGINT to a real scan process once it
// has finished its first bag, then reads what it wrote: the index must say
// at its top that the scan was interrupted, after how many of how many
// bags and how to resume (index.html note, stderr), and every bag it did
// not reach must be a not_analysed row in index.csv and index.jsonl. A
// rerun resumes: the finished bags are reused, the rest analysed.
func TestScanSIGINTIndexSaysSo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: generates and scans an archive in a child process")
	}
	arch := t.TempDir()
	spec, err := scenario.Get(scenario.BothSim)
	if err != nil {
		t.Fatal(err)
	}
	spec.Duration = 60 * time.Second
	const bags = 8
	for i := range bags {
		st := bagwrite.StorageMCAP
		if i%2 == 1 {
			st = bagwrite.StorageSQLite3
		}
		if _, err := scenario.Write(filepath.Join(arch, fmt.Sprintf("bag%d", i)), spec, bagwrite.Options{Storage: st}); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	var errb bytes.Buffer
	cmd := bagclockProcess(t, &errb, "scan", "-q", "-j", "1", "-o", out, arch)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(5 * time.Minute)
	for signalled := false; !signalled; {
		select {
		case err := <-exited:
			t.Fatalf("scan ended before its first bag was seen finished (%v):\n%s", err, errb.String())
		case <-deadline:
			cmd.Process.Kill()
			t.Fatal("no bag finished within 5 minutes")
		case <-time.After(20 * time.Millisecond):
		}
		if b, _ := os.ReadFile(filepath.Join(out, "index.jsonl")); bytes.Count(b, []byte("\n")) >= 1 {
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			signalled = true
		}
	}
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("scan still running 30 s after SIGINT:\n%s", errb.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != exitFailure {
		t.Errorf("exit code %d after SIGINT, want %d", code, exitFailure)
	}
	stderr := errb.String()

	rows := readIndex(t, out)
	if len(rows) != bags {
		t.Fatalf("index.jsonl has %d rows, want one per bag (%d):\n%s", len(rows), bags, stderr)
	}
	done, left := 0, 0
	for _, r := range rows {
		switch r.Status {
		case archive.StatusNotAnalysed:
			left++
			if !strings.Contains(r.Error, "rerun the same bagclock scan command to resume") || r.ReportHTML != "" {
				t.Errorf("not-analysed row %s: error %q, report %q", r.Rel, r.Error, r.ReportHTML)
			}
		case archive.StatusOK, archive.StatusDamaged:
			done++
		default:
			t.Errorf("row %s: status %s (%s)", r.Rel, r.Status, r.Error)
		}
	}
	if done < 1 || left < 1 {
		t.Fatalf("%d bags analysed, %d not: the signal did not land mid-scan\n%s", done, left, stderr)
	}
	note := fmt.Sprintf("INTERRUPTED: this scan analysed %d of %d bags; %d not analysed", done, bags, left)
	if !strings.Contains(stderr, note) || !strings.Contains(stderr, "Rerun the same bagclock scan command") {
		t.Errorf("stderr lacks %q and how to resume:\n%s", note, stderr)
	}
	if strings.Contains(stderr, "stopped by") {
		t.Errorf("scan was ended by the hard stop, not by finishing its index:\n%s", stderr)
	}

	html := string(mustRead(t, filepath.Join(out, "index.html")))
	at, totals := strings.Index(html, note), strings.Index(html, `id="totals"`)
	if at < 0 || totals < 0 || at > totals {
		t.Errorf("index.html does not say %q above its totals (at %d, totals at %d)", note, at, totals)
	}
	if !strings.Contains(html, fmt.Sprintf("%d not analysed", left)) {
		t.Errorf("index.html totals do not count the %d bags not analysed", left)
	}

	f, err := os.Open(filepath.Join(out, "index.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != bags+1 {
		t.Fatalf("index.csv: %d records, %v", len(recs), err)
	}
	status, errCol := -1, -1
	for i, c := range recs[0] {
		switch c {
		case "status":
			status = i
		case "error":
			errCol = i
		}
	}
	csvLeft := 0
	for _, r := range recs[1:] {
		if r[status] == archive.StatusNotAnalysed {
			csvLeft++
			if !strings.Contains(r[errCol], fmt.Sprintf("interrupted after %d of %d bags", done, bags)) {
				t.Errorf("index.csv not_analysed row says %q", r[errCol])
			}
		}
	}
	if csvLeft != left {
		t.Errorf("index.csv has %d not_analysed rows, index.jsonl %d", csvLeft, left)
	}

	// The rerun resumes: finished bags reused, the rest analysed.
	errb.Reset()
	cmd = bagclockProcess(t, &errb, "scan", "-q", "-j", "1", "-o", out, arch)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("rerun: %v\n%s", err, errb.String())
	}
	if want := fmt.Sprintf("%d bags (%d analysed, %d unchanged)", bags, left, done); !strings.Contains(errb.String(), want) {
		t.Errorf("rerun: want %q in\n%s", want, errb.String())
	}
	for _, r := range readIndex(t, out) {
		if r.Status == archive.StatusNotAnalysed {
			t.Errorf("after the rerun %s is still not analysed", r.Rel)
		}
	}
	if strings.Contains(string(mustRead(t, filepath.Join(out, "index.html"))), "INTERRUPTED") {
		t.Error("the rerun's index.html still says INTERRUPTED")
	}
}

// TestScanSummaryNamesOnlyWrittenFiles: when index files cannot be
// written (here index.html is a directory, which stops even root; without
// root the whole --out is also made read-only) the summary line does not
// name them as written, the exit code says so, and no .tmp file is left.
func TestScanSummaryNamesOnlyWrittenFiles(t *testing.T) {
	arch := t.TempDir()
	for _, n := range []string{"a.mcap", "b.mcap"} {
		if err := os.WriteFile(filepath.Join(arch, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	an := func(p string, c analysis.Config, s ...analysis.ScanSink) (*analysis.Report, error) {
		return &analysis.Report{Bag: analysis.BagSummary{Path: p}}, nil
	}
	cases := []struct {
		name      string
		block     func(t *testing.T, out string)
		wantLine  string
		notInLine string
	}{
		{"index.html is a directory", func(t *testing.T, out string) {
			if err := os.MkdirAll(filepath.Join(out, "index.html", "x"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, "index written only in part: index.html NOT written (see above); index.jsonl, index.csv in ", "index in "},
		{"read-only --out", func(t *testing.T, out string) {
			if os.Geteuid() == 0 {
				t.Skip("root writes into read-only directories")
			}
			if err := os.Chmod(out, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(out, 0o755) })
		}, "", "index in "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			// A first scan leaves reports/ and an index behind, as a
			// rerun into the same --out finds them.
			if code, log := scanInto(t, context.Background(), an, out, archive.Shard{}, 1, arch); code != exitOK {
				t.Fatalf("first scan: exit %d\n%s", code, log)
			}
			os.Remove(filepath.Join(out, "index.html"))
			tc.block(t, out)
			code, log := scanInto(t, context.Background(), an, out, archive.Shard{}, 1, arch)
			if code != exitFailure {
				t.Errorf("exit %d, want %d\n%s", code, exitFailure, log)
			}
			if strings.Contains(log, tc.notInLine) || !strings.Contains(log, tc.wantLine) {
				t.Errorf("summary names a file that was not written (want %q, not %q):\n%s", tc.wantLine, tc.notInLine, log)
			}
			filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".tmp") {
					t.Errorf("stray %s", p)
				}
				return nil
			})
		})
	}
}
