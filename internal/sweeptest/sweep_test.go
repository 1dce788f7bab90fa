package sweeptest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/internal/testenv"
)

// markerVar is set in the environment of every process the test starts
// (daemons, jobs, parallel), so the cleanup finds and kills by pid exactly
// the processes of this run and no other.
const markerVar = "BAGCLOCK_SWEEPTEST_RUN"

// brokenRel is the one bag of the archive that cannot be read.
const brokenRel = "broken/not-a-bag.mcap"

// longRel is a bag long enough (an hour of record time: about a second of
// analysis on a quiet machine, 600 s was under 0.2 s and raced the
// cancel) that a task can be cancelled while it is being analysed and
// other bags of its shard are done. Its name is kept so its shard stays.
const longRel = "long/both-sim-10min"

// sweep is what the Slurm and parallel subtests share: the binaries, the
// generated archive and one unsharded scan of it.
type sweep struct {
	ctx     context.Context
	dir     string // everything of this run lives below
	bin     string // bagclock and baggen
	arch    string // the archive
	single  string // --out of the one-process scan
	rows    map[string]archive.Row
	doc     string // docs/scan.md, where the sweeps are written
	singleT time.Duration
}

// TestSweeps generates an archive with baggen, scans it in one process,
// then sweeps it with docs/scan.md's Slurm job array and GNU parallel
// command, and checks that each merged index is byte-for-byte the one
// process's index.
func TestSweeps(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the scheduler sweeps take about a minute")
	}
	root := testenv.RepoRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, sweepDoc))
	if err != nil {
		t.Fatal(err)
	}
	// Every wait is bounded by the test binary's deadline, with time left
	// for the cleanup: a `go test` timeout panics without running it.
	deadline, ok := t.Deadline()
	if !ok {
		deadline = time.Now().Add(10 * time.Minute)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(-45*time.Second))
	defer cancel()

	dir := t.TempDir()
	// Daemons run as root and jobs write here; munged wants its socket
	// directory reachable by everyone.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := &sweep{ctx: ctx, dir: dir, bin: filepath.Join(dir, "bin"), arch: filepath.Join(dir, "archive"), doc: string(doc)}
	t.Cleanup(func() { killMarked(t, dir, nil) })

	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	begin := time.Now()
	build := s.run(root, nil, goTool, "build", "-o", s.bin+string(filepath.Separator), "./cmd/bagclock", "./cmd/baggen")
	if build.code != 0 {
		t.Fatalf("go build: %s", build)
	}
	built := time.Now()
	s.generate(t)
	t.Logf("built the binaries in %s, generated the archive in %s", built.Sub(begin).Round(100*time.Millisecond), time.Since(built).Round(100*time.Millisecond))

	s.single = filepath.Join(dir, "single")
	one := s.run(dir, nil, "bagclock", "scan", "--quiet", "--out", s.single, s.arch)
	s.singleT = one.dur
	if one.code != 3 {
		t.Fatalf("one-process scan: exit %d, want 3 (the broken bag is an error row): %s", one.code, one)
	}
	s.rows = readRows(t, s.single)
	s.checkArchive(t)
	t.Logf("one-process scan (-j %d) of %d bags: %s: %s", runtime.NumCPU(), len(s.rows), one.dur.Round(time.Millisecond), strings.TrimSpace(one.stderr))

	t.Run("slurm", s.testSlurm)
	t.Run("parallel", s.testParallel)
}

// generate writes the archive: every clock case in both storage formats,
// a few storage variants, one long bag and one file that is no bag.
func (s *sweep) generate(t *testing.T) {
	a := func(p string) string { return filepath.Join(s.arch, filepath.FromSlash(p)) }
	for _, args := range [][]string{
		{"--all", "-o", a("cases")}, // 10 cases x {mcap, sqlite3}
		{"--case", "demo", "--storage", "mcap", "--chunk-compression", "zstd", "-o", a("extra/demo-zstd-chunks")},
		{"--case", "clock_loop", "--storage", "sqlite3", "--split", "10s", "-o", a("extra/clock-loop-split")},
		{"--case", "sim_reset", "--storage", "sqlite3", "--compression", "zstd", "-o", a("extra/sim-reset-zstd")},
		{"--case", "both_sim", "--storage", "sqlite3", "--duration", "3600s", "-o", a(longRel)},
	} {
		if r := s.run(s.dir, nil, "baggen", args...); r.code != 0 {
			t.Fatalf("baggen: %s", r)
		}
	}
	if err := os.MkdirAll(filepath.Dir(a(brokenRel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(a(brokenRel), bytes.Repeat([]byte("not a bag\n"), 100), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkArchive asserts the archive is what the sweeps need: at least 24
// bags in both storage formats, some with findings, exactly one error row
// (the broken bag).
func (s *sweep) checkArchive(t *testing.T) {
	storages, findings, errs := map[string]int{}, 0, 0
	for _, r := range s.rows {
		storages[r.Storage]++
		if len(r.Findings) > 0 {
			findings++
		}
		if r.Status == archive.StatusError {
			errs++
		}
	}
	b := s.rows[brokenRel]
	if len(s.rows) < 24 || storages["mcap"] == 0 || storages["sqlite3"] == 0 || findings == 0 || errs != 1 ||
		b.Status != archive.StatusError || !strings.Contains(b.Error, brokenRel) {
		t.Fatalf("archive: %d bags, storages %v, %d with findings, %d errors, broken bag row %+v; want >= 24 bags, both storages, findings, one error row naming %s",
			len(s.rows), storages, findings, errs, b, brokenRel)
	}
}

// env is the environment of every command: this process's, without any
// Slurm or parallel settings, with the binaries first on PATH and the
// run's marker, plus extra.
func (s *sweep) env(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "SLURM_") || strings.HasPrefix(k, "PARALLEL") || k == markerVar || k == "PATH" || k == "SHARDS" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "PATH="+s.bin+string(os.PathListSeparator)+os.Getenv("PATH"), markerVar+"="+s.dir)
	return append(env, extra...)
}

// result is one finished command.
type result struct {
	cmd            string
	code           int // -1: did not start or was killed
	stdout, stderr string
	dur            time.Duration
	err            error
}

func (r result) String() string {
	return fmt.Sprintf("%s: exit %d (%v) after %s\nstdout:\n%s\nstderr:\n%s", r.cmd, r.code, r.err, r.dur.Round(time.Millisecond), r.stdout, r.stderr)
}

// command prepares name args in dir with s.env(extra), in its own
// process group, killed with the group when ctx ends, and by the kernel
// if the test process dies first.
func (s *sweep) command(ctx context.Context, dir string, extra []string, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	if !strings.ContainsRune(name, filepath.Separator) {
		if p, err := exec.LookPath(filepath.Join(s.bin, name)); err == nil {
			cmd = exec.CommandContext(ctx, p, args...)
		}
	}
	cmd.Dir = dir
	cmd.Env = s.env(extra)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// run runs one command to its end.
func (s *sweep) run(dir string, extra []string, name string, args ...string) result {
	cmd := s.command(s.ctx, dir, extra, name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	return finished(cmd, err, start, out.String(), errb.String())
}

func finished(cmd *exec.Cmd, err error, start time.Time, stdout, stderr string) result {
	r := result{cmd: strings.Join(cmd.Args, " "), code: -1, stdout: stdout, stderr: stderr, dur: time.Since(start), err: err}
	var ee *exec.ExitError
	if err == nil {
		r.code = 0
	} else if errors.As(err, &ee) && ee.Exited() {
		r.code = ee.ExitCode()
	}
	return r
}

// bash runs one line of docs/scan.md with bash (brace expansion, $(...)).
func (s *sweep) bash(dir string, extra []string, line string) result {
	r := s.run(dir, extra, "bash", "-c", line)
	r.cmd = line
	return r
}

// sweepDoc is the file whose fenced blocks the sweeps run; README.md
// shows copies of some of them (TestREADMESweepBlocks keeps them equal).
const sweepDoc = "docs/scan.md"

// docBlock returns the fenced sh block of docs/scan.md that follows the
// marker comment `<!-- sweeptest: NAME -->`.
func (s *sweep) docBlock(t *testing.T, name string) string {
	t.Helper()
	block, err := markedBlock(s.doc, name)
	if err != nil {
		t.Fatalf("%s: %v", sweepDoc, err)
	}
	return block
}

// markedBlock returns the fenced sh block that follows the marker comment
// `<!-- sweeptest: NAME -->` in a Markdown text.
func markedBlock(text, name string) (string, error) {
	marker := "<!-- sweeptest: " + name + " -->\n"
	i := strings.Index(text, marker)
	if i < 0 {
		return "", fmt.Errorf("no %q", strings.TrimSpace(marker))
	}
	if strings.Count(text, marker) > 1 {
		return "", fmt.Errorf("%q twice", strings.TrimSpace(marker))
	}
	rest := text[i+len(marker):]
	const fence = "```sh\n"
	if !strings.HasPrefix(rest, fence) {
		return "", fmt.Errorf("%q is not followed by a ```sh block", strings.TrimSpace(marker))
	}
	rest = rest[len(fence):]
	end := strings.Index(rest, "\n```\n")
	if end < 0 {
		return "", fmt.Errorf("the block after %q does not end", strings.TrimSpace(marker))
	}
	return rest[:end+1], nil
}

// commands splits a block into its commands, joining continued lines.
func commands(block string) []string {
	var cmds []string
	cur := ""
	for _, line := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		cur += line
		if strings.HasSuffix(line, "\\") {
			cur += "\n"
			continue
		}
		if strings.TrimSpace(cur) != "" {
			cmds = append(cmds, cur)
		}
		cur = ""
	}
	return cmds
}

// readRows reads the latest row per bag of out/index.jsonl, by rel.
func readRows(t *testing.T, out string) map[string]archive.Row {
	t.Helper()
	f, err := os.Open(filepath.Join(out, "index.jsonl"))
	if err != nil {
		t.Fatalf("read index: %v", err)
	}
	defer f.Close()
	rows, bad, err := archive.ParseIndex(f)
	if err != nil || bad != 0 {
		t.Fatalf("%s/index.jsonl: %d unreadable lines, %v", out, bad, err)
	}
	byRel := map[string]archive.Row{}
	for _, r := range archive.Latest(rows) {
		byRel[r.Rel] = r
	}
	return byRel
}

// sameOutput asserts that a merged output is the one-process scan:
// index.jsonl, index.csv and every report byte for byte, and the table of
// bags in index.html (its header names the run and the time).
func (s *sweep) sameOutput(t *testing.T, merged string) {
	t.Helper()
	sameOutputAs(t, s.single, merged)
}

// sameOutputAs is sameOutput against the scan in single.
func sameOutputAs(t *testing.T, single, merged string) {
	t.Helper()
	s := struct{ single string }{single}
	for _, name := range []string{"index.jsonl", "index.csv", "index.html"} {
		want, err1 := os.ReadFile(filepath.Join(s.single, name))
		got, err2 := os.ReadFile(filepath.Join(merged, name))
		if err1 != nil || err2 != nil {
			t.Errorf("%s: %v %v", name, err1, err2)
			continue
		}
		if name == "index.html" {
			// The page's header names the run (command, time written);
			// the table of bags must be the same.
			got, want = bagTable(got), bagTable(want)
			if len(got) == 0 {
				t.Errorf("merged index.html has no table of bags")
			}
		}
		if !bytes.Equal(got, want) {
			t.Errorf("merged %s differs from the one-process scan's (%d vs %d bytes)\nmerged: %.600s\nsingle: %.600s", name, len(got), len(want), got, want)
		}
	}
	wantReports, gotReports := listDir(t, filepath.Join(s.single, "reports")), listDir(t, filepath.Join(merged, "reports"))
	if strings.Join(gotReports, "\n") != strings.Join(wantReports, "\n") {
		t.Errorf("merged reports/ holds %d files, the one-process scan %d:\n%v\nvs\n%v", len(gotReports), len(wantReports), gotReports, wantReports)
		return
	}
	for _, n := range wantReports {
		a, _ := os.ReadFile(filepath.Join(s.single, "reports", n))
		b, _ := os.ReadFile(filepath.Join(merged, "reports", n))
		if !bytes.Equal(a, b) {
			t.Errorf("reports/%s differs from the one-process scan's", n)
		}
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Errorf("%v", err)
		return nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// shardOf is the shard of n that README's sharding puts rel in.
func shardOf(rel string, n int) int { return archive.ShardOf(rel, n) }

// wantShards lists, for shards 1..n, the rels of the one-process scan
// that fall in each.
func (s *sweep) wantShards(n int) map[int][]string {
	m := map[int][]string{}
	for rel := range s.rows {
		k := shardOf(rel, n)
		m[k] = append(m[k], rel)
	}
	for k := range m {
		sort.Strings(m[k])
	}
	return m
}

func sortedKeys(m map[string]archive.Row) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// killMarked kills every process whose environment carries this run's
// marker (jobs still running after a failure, stray slurmstepd), except
// this process and the pids in keep.
func killMarked(t *testing.T, dir string, keep map[int]bool) {
	want := []byte(markerVar + "=" + dir + "\x00")
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() || keep[pid] {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(append([]byte{0}, env...), append([]byte{0}, want...)) {
			continue
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err == nil {
			t.Logf("cleanup: killed leftover process %d", pid)
		}
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
