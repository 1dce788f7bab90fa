package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/testenv"
	"github.com/bagclock/bagclock/render"
)

// readerAnalyze stands in for analysis.Analyze while that is not in the
// tree: it really opens and reads every message of the bag through
// bagread, and reports counts that depend on the bag (LaserScan messages
// as scans; MCAP bags get drops so --fail-on has something to find).
// The scan machinery is the same whichever analyzer runs.
func readerAnalyze(path string, cfg analysis.Config, sinks ...analysis.ScanSink) (*analysis.Report, error) {
	bag, err := bagread.Open(path, bagread.Options{})
	if err != nil {
		return nil, err
	}
	defer bag.Close()
	rep := &analysis.Report{Bag: analysis.BagSummary{
		Path: path, Storage: bag.Storage, Messages: bag.MessageCount, StartNS: bag.StartNS, EndNS: bag.EndNS,
		MetadataReconstructed: bag.MetadataReconstructed,
	}}
	for _, f := range bag.Files {
		rep.Bag.Files = append(rep.Bag.Files, filepath.Base(f.Path))
		rep.Bag.SizeBytes += f.Size
		if f.Recovery != nil {
			rep.Bag.Problems = append(rep.Bag.Problems, f.Recovery.Reason)
		}
	}
	it := bag.Messages(bagread.ReadOptions{})
	defer it.Close()
	var row analysis.ScanRow
	scans, skipped := 0, 0
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			skipped++
			continue
		}
		if m.Type != "sensor_msgs/msg/LaserScan" {
			continue
		}
		scans++
		row = analysis.ScanRow{Topic: m.Topic, ScanIndex: m.Index, LogTimeNS: m.LogTimeNS, Class: analysis.SameClock, FilterOutcome: "passed"}
		for _, s := range sinks {
			if err := s(&row); err != nil {
				return nil, err
			}
		}
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	for _, p := range it.Problems() {
		rep.Bag.Problems = append(rep.Bag.Problems, p.Err.Error())
	}
	outcome := "passed"
	if bag.Storage == bagread.StorageMCAP && scans > 0 {
		outcome = "dropped_queue_full"
		rep.Summary.Findings = []string{"drop"}
	}
	rep.Summary.Scans, rep.Summary.Rows, rep.Summary.Skipped = scans, scans, skipped
	rep.Summary.Classes = map[string]int{"same_clock": scans}
	rep.Summary.Filter = map[string]int{outcome: scans}
	rep.Summary.Verdict = "reader-only stand-in verdict"
	return rep, nil
}

// testAnalyzer returns the real pipeline when analysis.Analyze works in
// this tree, else the reader-based stand-in.
func testAnalyzer(t *testing.T, probeBag string) analyzeFunc {
	an, _ := pickAnalyzer(t, probeBag)
	return an
}

// pickAnalyzer is testAnalyzer that also says whether it is the real one.
func pickAnalyzer(t *testing.T, probeBag string) (analyzeFunc, bool) {
	if _, err := analyzeBag(probeBag, analysis.Config{}); err == nil || !strings.Contains(err.Error(), "not implemented") {
		t.Log("using the real analysis")
		return analyzeBag, true
	}
	t.Log("analysis.Analyze not implemented yet: using the bagread-based stand-in analyzer")
	return readerAnalyze, false
}

// buildArchive copies the committed samples and (when ../shared is there)
// some real bags into a temp archive and adds broken bags: truncated MCAP, one whose storage file
// is a dangling symlink, one whose storage "file" is a directory, and one
// chmod 000 (only unreadable when not running as root).
func buildArchive(t *testing.T) (dir string, broken []string) {
	t.Helper()
	dir = t.TempDir()
	root := testenv.RepoRoot(t)
	copyInto := func(src, dst string) {
		c := testenv.CopyTree(t, src)
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, dst)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(c, filepath.Join(dir, dst)); err != nil {
			t.Fatal(err)
		}
	}
	copyInto(filepath.Join(root, "testdata", "samples", "variants"), "generated")
	// Truncated: MCAP files cut to 60%, a committed sample always and the
	// nav2 bag when the shared bags are there.
	cutTo60 := func(src, name string) {
		cut := filepath.Join(dir, "broken", name)
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(cut), 0o755)
		if err := os.WriteFile(cut, data[:len(data)*6/10], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cutTo60(filepath.Join(root, "testdata", "samples", "variants", "mcap-zstd-chunks", "mcap-zstd-chunks_0.mcap"), "truncated-sample.mcap")
	if _, ok := testenv.OptionalSharedDir(t); ok {
		for _, name := range []string{"tb3-walker-simstart", "tb3-amcl-foxy-a", "evo-nav2-turtlebot-mcap", "zstd-file-compressed-humble", "rosbag2-reindex-test-bags/multiple_files"} {
			copyInto(testenv.SharedBag(t, name), filepath.Join("real", name))
		}
		cutTo60(filepath.Join(dir, "real", "evo-nav2-turtlebot-mcap", "nav2_turtlebot.mcap"), "truncated.mcap")
	}
	md := []byte("rosbag2_bagfile_information:\n  version: 5\n  storage_identifier: sqlite3\n  relative_file_paths:\n    - b_0.db3\n")
	for _, b := range []string{"dangling", "isdir", "locked"} {
		p := filepath.Join(dir, "broken", b)
		os.MkdirAll(p, 0o755)
		if err := os.WriteFile(filepath.Join(p, "metadata.yaml"), md, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("gone_0.db3", filepath.Join(dir, "broken", "dangling", "b_0.db3")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "broken", "isdir", "b_0.db3"), 0o755)
	locked := filepath.Join(dir, "broken", "locked", "b_0.db3")
	if err := os.WriteFile(locked, []byte("neither SQLite nor MCAP"), 0o644); err != nil { // an error even for root
		t.Fatal(err)
	}
	os.Chmod(locked, 0)
	t.Cleanup(func() { os.Chmod(locked, 0o644) })
	// A symlink loop, reported and not fatal.
	os.Symlink("..", filepath.Join(dir, "broken", "loop"))
	return dir, []string{"broken/dangling", "broken/isdir", "broken/locked"}
}

func testEnv() (*env, *bytes.Buffer) {
	var errb bytes.Buffer
	return &env{stdout: &bytes.Buffer{}, stderr: &errb, stdin: strings.NewReader("")}, &errb
}

func scanInto(t *testing.T, ctx context.Context, an analyzeFunc, out string, shard archive.Shard, jobs int, roots ...string) (int, string) {
	t.Helper()
	e, errb := testEnv()
	code := runScan(ctx, e, scanOptions{roots: roots, out: out, jobs: jobs, shard: shard, quiet: true, analyze: an, cfg: analysis.Config{Consumer: "rviz"}})
	return code, errb.String()
}

func readIndex(t *testing.T, out string) []archive.Row {
	t.Helper()
	f, err := os.Open(filepath.Join(out, "index.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, bad, err := archive.ParseIndex(f)
	if err != nil || bad != 0 {
		t.Fatalf("index: %d bad lines, %v", bad, err)
	}
	return rows
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestScanArchive(t *testing.T) {
	arch, broken := buildArchive(t)
	an, real := pickAnalyzer(t, filepath.Join(arch, "generated", "mcap-split"))
	out := filepath.Join(t.TempDir(), "out")
	code, log := scanInto(t, context.Background(), an, out, archive.Shard{}, 2, arch)
	if code != exitFailure {
		t.Errorf("exit %d, want %d (error rows present)\n%s", code, exitFailure, log)
	}
	if !strings.Contains(log, "symlink loop") || !strings.Contains(log, "analysed, 0 unchanged") {
		t.Errorf("log lacks loop report or summary:\n%s", log)
	}
	rows := readIndex(t, out)
	disc := bagread.Discover(arch)
	if len(rows) != len(disc.Bags) {
		t.Fatalf("%d rows for %d discovered bags", len(rows), len(disc.Bags))
	}
	byRel := map[string]archive.Row{}
	for _, r := range rows {
		byRel[r.Rel] = r
	}
	for _, b := range broken {
		if r := byRel[b]; r.Status != archive.StatusError || r.Error == "" || r.ReportHTML != "" {
			t.Errorf("%s: want an error row, got %+v", b, r)
		}
	}
	for _, name := range []string{"broken/truncated-sample.mcap", "broken/truncated.mcap"} {
		if !fileExists(filepath.Join(arch, name)) {
			continue // the shared bags are not there
		}
		if r, ok := byRel[name]; !ok || r.Status == archive.StatusOK {
			t.Errorf("truncated bag %s reported ok or missing: %+v", name, r)
		}
	}
	if r := byRel["generated/sqlite3-split"]; r.Status != archive.StatusOK || r.Storage != "sqlite3" {
		t.Errorf("split sample: %+v", r)
	}
	// Every row is the one the bag's own analysis gives, and its JSON
	// report is what analyze writes.
	cfg := analysis.Config{Consumer: "rviz"}
	key := archive.ConfigKey(cfg, version)
	for _, r := range rows {
		t.Run(r.Rel, func(t *testing.T) {
			var jb bytes.Buffer
			jw := render.NewJSON(&jb)
			rep, err := an(r.Path, cfg, jw.Row)
			if err != nil {
				if r.Status != archive.StatusError || r.Error != err.Error() {
					t.Errorf("analyze fails with %v; row %+v", err, r)
				}
				return
			}
			if err := jw.Finish(rep); err != nil {
				t.Fatal(err)
			}
			want := archive.FromReport(archive.Row{
				Path: r.Path, Rel: r.Rel, SizeBytes: r.SizeBytes, ModTimeNS: r.ModTimeNS, Fingerprint: r.Fingerprint,
				ConfigKey: key, ReportHTML: r.ReportHTML, ReportJSON: r.ReportJSON,
			}, rep)
			if !reflect.DeepEqual(r, want) {
				t.Errorf("row\n got %+v\nwant %+v", r, want)
			}
			if got := mustRead(t, filepath.Join(out, r.ReportJSON)); !bytes.Equal(got, jb.Bytes()) {
				t.Errorf("%s differs from the bag's own JSON report", r.ReportJSON)
			}
			if real {
				// The command itself, as a user would run it on this bag.
				own := filepath.Join(t.TempDir(), "own.json")
				e, _ := testEnv()
				run([]string{"analyze", "--format", "json", "-o", own, r.Path}, e)
				if !bytes.Equal(mustRead(t, own), jb.Bytes()) {
					t.Errorf("%s differs from 'bagclock analyze --format json'", r.ReportJSON)
				}
			}
			if html := mustRead(t, filepath.Join(out, r.ReportHTML)); !bytes.Contains(html, []byte("<html")) {
				t.Errorf("%s is not an HTML report", r.ReportHTML)
			}
		})
	}
	csvBefore, htmlBefore := mustRead(t, filepath.Join(out, "index.csv")), mustRead(t, filepath.Join(out, "index.html"))
	jsonlBefore := mustRead(t, filepath.Join(out, "index.jsonl"))

	// A rerun skips every unchanged bag (error rows are retried) and
	// writes the same index.
	var calls atomic.Int64
	counting := func(p string, c analysis.Config, s ...analysis.ScanSink) (*analysis.Report, error) {
		calls.Add(1)
		return an(p, c, s...)
	}
	_, log = scanInto(t, context.Background(), counting, out, archive.Shard{}, 2, arch)
	errorsN := 0
	for _, r := range rows {
		if r.Status == archive.StatusError {
			errorsN++
		}
	}
	if int(calls.Load()) != errorsN {
		t.Errorf("rerun analysed %d bags, want only the %d error rows\n%s", calls.Load(), errorsN, log)
	}
	for name, before := range map[string][]byte{"index.csv": csvBefore, "index.html": htmlBefore, "index.jsonl": jsonlBefore} {
		after := mustRead(t, filepath.Join(out, name))
		if name == "index.html" {
			// The header names the run and its time; the table of bags
			// must not change.
			after, before = bagTable(after), bagTable(before)
		}
		if len(before) == 0 || !bytes.Equal(after, before) {
			t.Errorf("%s changed on a rerun that skipped everything", name)
		}
	}

	// A bag whose content changes (same size, new mtime) is analysed
	// again; a new bag is added; the rest stays skipped.
	target := filepath.Join(arch, "generated", "sqlite3-split", "metadata.yaml")
	later := time.Now().Add(time.Hour)
	os.Chtimes(target, later, later)
	cpNew := testenv.CopyTree(t, filepath.Join(arch, "generated", "mcap-split"))
	os.Rename(cpNew, filepath.Join(arch, "new-bag"))
	calls.Store(0)
	scanInto(t, context.Background(), counting, out, archive.Shard{}, 1, arch)
	if int(calls.Load()) != errorsN+2 {
		t.Errorf("incremental run analysed %d bags, want %d", calls.Load(), errorsN+2)
	}
	if n := len(readIndex(t, out)); n != len(rows)+1 {
		t.Errorf("index has %d rows after adding a bag, want %d", n, len(rows)+1)
	}

	// A bag removed from the archive leaves the index and its reports go.
	var gone archive.Row
	for _, r := range readIndex(t, out) {
		if r.Rel == "new-bag" {
			gone = r
		}
	}
	os.RemoveAll(filepath.Join(arch, "new-bag"))
	scanInto(t, context.Background(), an, out, archive.Shard{}, 2, arch)
	if n := len(readIndex(t, out)); n != len(rows) {
		t.Errorf("index has %d rows after removing a bag, want %d", n, len(rows))
	}
	if gone.ReportHTML == "" || fileExists(filepath.Join(out, gone.ReportHTML)) || fileExists(filepath.Join(out, gone.ReportJSON)) {
		t.Errorf("reports of the removed bag %+v still there (or it had none)", gone)
	}
	entries, _ := os.ReadDir(filepath.Join(out, "reports"))
	linked := 0
	for _, r := range readIndex(t, out) {
		if r.ReportHTML != "" {
			linked += 2
		}
	}
	if len(entries) != linked {
		t.Errorf("reports/ holds %d files, the index links %d", len(entries), linked)
	}
}

func TestScanShardsMergeToOneRunsIndex(t *testing.T) {
	arch, _ := buildArchive(t)
	an := testAnalyzer(t, filepath.Join(arch, "generated", "mcap-split"))
	base := t.TempDir()
	whole := filepath.Join(base, "whole")
	scanInto(t, context.Background(), an, whole, archive.Shard{}, 2, arch)
	var outs []string
	total := 0
	for i := 1; i <= 3; i++ {
		o := filepath.Join(base, "shard", string(rune('0'+i)))
		scanInto(t, context.Background(), an, o, archive.Shard{Index: i, Count: 3}, 1, arch)
		n := len(readIndex(t, o))
		if n == 0 {
			t.Errorf("shard %d/3 is empty", i)
		}
		total += n
		outs = append(outs, o)
	}
	if want := len(readIndex(t, whole)); total != want {
		t.Errorf("shards hold %d rows, one run %d", total, want)
	}
	merged := filepath.Join(base, "merged")
	e, errb := testEnv()
	if code := run(append([]string{"merge", "--out", merged}, outs...), e); code != exitFailure {
		t.Errorf("merge exit %d, want %d (error rows)\n%s", code, exitFailure, errb)
	}
	for _, name := range []string{"index.jsonl", "index.csv", "index.html"} {
		a, b := mustRead(t, filepath.Join(merged, name)), mustRead(t, filepath.Join(whole, name))
		if name == "index.html" {
			// The header names the run (title, time); the table of
			// bags must be the same.
			a, b = bagTable(a), bagTable(b)
		}
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("merged %s differs from the single run's", name)
		}
	}
	for _, r := range readIndex(t, merged) {
		if r.ReportHTML != "" && !fileExists(filepath.Join(merged, r.ReportHTML)) {
			t.Errorf("merged output lacks %s", r.ReportHTML)
		}
	}
}

func TestScanInterruptKeepsFinishedRows(t *testing.T) {
	arch, _ := buildArchive(t)
	an := testAnalyzer(t, filepath.Join(arch, "generated", "mcap-split"))
	base := t.TempDir()
	whole := filepath.Join(base, "whole")
	scanInto(t, context.Background(), an, whole, archive.Shard{}, 1, arch)
	want := readIndex(t, whole)

	out := filepath.Join(base, "resumed")
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	interrupting := func(p string, c analysis.Config, s ...analysis.ScanSink) (*analysis.Report, error) {
		if n.Add(1) == 4 {
			cancel() // Ctrl-C while the fourth bag runs
		}
		return an(p, c, s...)
	}
	code, log := scanInto(t, ctx, interrupting, out, archive.Shard{}, 1, arch)
	if code != exitFailure || !strings.Contains(log, "INTERRUPTED") {
		t.Errorf("interrupted scan: exit %d\n%s", code, log)
	}
	var kept []archive.Row
	for _, r := range readIndex(t, out) {
		if r.Status != archive.StatusNotAnalysed {
			kept = append(kept, r)
		}
	}
	// Three bags finished before Ctrl-C; the fourth may finish too (it
	// is aborted only at its next scan row); no later bag starts. The
	// others are in the index as not analysed.
	if len(kept) < 3 || len(kept) > 4 || len(kept) >= len(want) {
		t.Fatalf("interrupted scan kept %d rows of %d, want 3 or 4", len(kept), len(want))
	}
	for _, r := range kept {
		if r.Status == "" || r.Error == context.Canceled.Error() {
			t.Errorf("row %+v records the interruption", r)
		}
	}
	// The rerun finishes the rest and ends with the one-run index.
	scanInto(t, context.Background(), an, out, archive.Shard{}, 2, arch)
	got := readIndex(t, out)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resumed index differs from a single run: %d vs %d rows", len(got), len(want))
	}
}

func TestScanFailOnAndProgress(t *testing.T) {
	dir := t.TempDir()
	root := testenv.RepoRoot(t)
	for _, name := range []string{"mcap-split", "sqlite3-split"} {
		c := testenv.CopyTree(t, filepath.Join(root, "testdata", "samples", "variants", name))
		os.Rename(c, filepath.Join(dir, name))
	}
	an, realAnalysis := pickAnalyzer(t, filepath.Join(dir, "sqlite3-split"))
	cases := []struct {
		name     string
		failOn   []string
		quiet    bool
		wantCode int
	}{
		{"no fail-on", nil, false, exitOK},
		{"fail-on something the stand-in finds", []string{"drop"}, false, -1},
		{"fail-on something absent", []string{"skew"}, true, exitOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, errb := testEnv()
			code := runScan(context.Background(), e, scanOptions{roots: []string{dir}, out: t.TempDir(), jobs: 2, quiet: tc.quiet,
				failOn: tc.failOn, analyze: an, cfg: analysis.Config{}, interval: time.Millisecond})
			out := errb.String()
			want := tc.wantCode
			if want == -1 {
				// With the stand-in the MCAP sample has drops; the real
				// analysis decides for itself, but only 0 or 1 is right.
				want = exitFindings
				if realAnalysis && code == exitOK {
					want = exitOK
				}
			}
			if code != want {
				t.Errorf("exit %d, want %d\n%s", code, want, out)
			}
			lines := strings.Count(out, "bagclock scan: bags ")
			if tc.quiet && lines != 0 || !tc.quiet && lines == 0 && !strings.Contains(out, "2 bags") {
				t.Errorf("quiet=%v but %d progress lines:\n%s", tc.quiet, lines, out)
			}
			if !strings.Contains(out, "bagclock scan: 2 bags (2 analysed, 0 unchanged)") {
				t.Errorf("summary line missing:\n%s", out)
			}
		})
	}
}

func TestScanUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"scan", "dir"}, "--out DIR is required"},
		{[]string{"scan", "--out", "o"}, "no DIR"},
		{[]string{"scan", "--out", "o", "-j", "0", "d"}, "-j 0"},
		{[]string{"scan", "--out", "o", "--shard", "4/3", "d"}, "shard"},
		{[]string{"scan", "--out", "o", "--fail-on", "bogus", "d"}, "bogus"},
		{[]string{"merge", "a"}, "need --out"},
		{[]string{"merge", "--out", "o", "--fail-on", "x", "a"}, "unknown category"},
	}
	for _, tc := range cases {
		e, errb := testEnv()
		if code := run(tc.args, e); code != exitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, errb, exitUsage, tc.want)
		}
	}
}

func TestFingerprint(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("a"), 3<<20)
	p := filepath.Join(dir, "x_0.mcap")
	os.WriteFile(p, big, 0o644)
	a, err := fingerprint([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		change func([]byte) []byte
		same   bool
	}{
		{"unchanged", func(b []byte) []byte { return b }, true},
		{"first MiB", func(b []byte) []byte { b[10] = 'b'; return b }, false},
		{"last MiB", func(b []byte) []byte { b[len(b)-10] = 'b'; return b }, false},
		{"middle (not hashed, size and mtime catch most edits)", func(b []byte) []byte { b[len(b)/2] = 'b'; return b }, true},
		{"length", func(b []byte) []byte { return b[:len(b)-1] }, false},
	}
	for _, tc := range cases {
		b := tc.change(append([]byte(nil), big...))
		os.WriteFile(p, b, 0o644)
		got, err := fingerprint([]string{p})
		if err != nil || (got == a) != tc.same {
			t.Errorf("%s: fingerprint %s vs %s (err %v), want same=%v", tc.name, got, a, err, tc.same)
		}
	}
	if _, err := fingerprint([]string{filepath.Join(dir, "absent")}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
}

// BenchmarkScanJobs times a whole scan with 1 and 2 workers over the
// archive in $BAGCLOCK_BENCH_ARCHIVE (scripts/bench-scan.sh makes one) or,
// without it, two copies of the committed samples. Until analysis.Analyze
// lands it runs the bagread-based stand-in, which reads every message.
func BenchmarkScanJobs(b *testing.B) {
	arch := os.Getenv("BAGCLOCK_BENCH_ARCHIVE")
	if arch == "" {
		arch = b.TempDir()
		src := filepath.Join(testenv.RepoRoot(b), "testdata", "samples", "variants")
		for _, copyName := range []string{"a", "b"} {
			os.Rename(testenv.CopyTree(b, src), filepath.Join(arch, copyName))
		}
	}
	an := readerAnalyze
	if _, err := analyzeBag(filepath.Join(testenv.RepoRoot(b), "testdata", "samples", "variants", "sqlite3-split"), analysis.Config{}); err == nil {
		an = analyzeBag
	}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("j%d", jobs), func(b *testing.B) {
			for b.Loop() {
				e, _ := testEnv()
				runScan(context.Background(), e, scanOptions{roots: []string{arch}, out: b.TempDir(), jobs: jobs, quiet: true, force: true, analyze: an})
			}
		})
	}
}

func TestScanProgressBarOnTerminal(t *testing.T) {
	dir := t.TempDir()
	c := testenv.CopyTree(t, filepath.Join(testenv.RepoRoot(t), "testdata", "samples", "variants", "sqlite3-split"))
	os.Rename(c, filepath.Join(dir, "bag"))
	slow := func(p string, cfg analysis.Config, s ...analysis.ScanSink) (*analysis.Report, error) {
		time.Sleep(600 * time.Millisecond) // long enough for the bar to draw
		return readerAnalyze(p, cfg, s...)
	}
	e, errb := testEnv()
	e.isTerminal = true
	code := runScan(context.Background(), e, scanOptions{roots: []string{dir}, out: t.TempDir(), jobs: 1, analyze: slow})
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	if out := errb.String(); !strings.Contains(out, "bags 0/1") || !strings.Contains(out, "B/") {
		t.Errorf("no progress bar (bags done/total and bytes) on a terminal:\n%q", out)
	}
}

// bagTable is the <table id="bags"> … </table> part of index.html.
func bagTable(page []byte) []byte {
	i := bytes.Index(page, []byte(`<table id="bags">`))
	j := bytes.Index(page, []byte("</table>"))
	if i < 0 || j < i {
		return nil
	}
	return page[i:j]
}
