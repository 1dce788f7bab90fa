package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/pflag"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/objstore"
	"github.com/bagclock/bagclock/render"
)

func init() {
	register(&command{
		name:  "scan",
		usage: "scan --out DIR [-j N] [--shard I/N] [analysis flags] DIR...",
		short: "analyse every bag under an archive into one index",
		long: `Scan finds every bag under each DIR (bag directories with or without
metadata.yaml, split bags, loose .db3/.mcap files, compressed bags), analyses
each as 'bagclock analyze' would, in parallel, and writes into --out one HTML
and one JSON report per bag plus index.html, index.csv and index.jsonl.
A DIR may be an s3://BUCKET/PREFIX, swept like a folder by listing and
ranged reads; nothing is written to the bucket (docs/s3.md).

Rerunning over the same archive skips bags unchanged since the last index
(same size, mtime and hash of the first and last MiB of each file, same
settings; for s3:// the objects' sizes and ETags); an interrupted scan
keeps every finished row. --shard I/N scans a deterministic part of the
bags (by hash of the path below DIR), for job arrays; 'bagclock merge'
joins the outputs.

Exit codes: 0 ok; 1 a bag had findings named by --fail-on; 3 a bag could not
be analysed, the output could not be written, or the scan was interrupted.`,
		setup: setupScan,
	})
}

// analyzeFunc is the per-bag analysis; tests inject a fake one.
type analyzeFunc func(path string, cfg analysis.Config, sinks ...analysis.ScanSink) (*analysis.Report, error)

// scanOptions is a parsed scan command line.
type scanOptions struct {
	roots    []string
	out      string
	jobs     int
	shard    archive.Shard
	quiet    bool
	force    bool
	failOn   []string
	cfg      analysis.Config
	analyze  analyzeFunc
	interval time.Duration // plain progress lines (non-terminal)
}

func setupScan(fs *pflag.FlagSet) func(*env, []string) int {
	out := fs.StringP("out", "o", "", "output directory for the reports and the index (required; --output is the same flag)")
	alias(fs, "output", "out")
	af := analysisFlags(fs)
	jobs := fs.IntP("jobs", "j", runtime.NumCPU(), "bags analysed at once, each on one core")
	shard := fs.String("shard", "", "scan only shard I of N (e.g. 2/3), chosen by hash of each bag's path below DIR")
	quiet := fs.BoolP("quiet", "q", false, "no progress output")
	force := fs.Bool("force", false, "analyse every bag again, even when unchanged since the last index")
	return func(e *env, args []string) int {
		cfg, err := af.config()
		if err == nil && *out == "" {
			err = errors.New("--out DIR is required")
		}
		if err == nil && len(args) == 0 {
			err = errors.New("no DIR to scan")
		}
		if err == nil && *jobs < 1 {
			err = fmt.Errorf("-j %d: must be >= 1", *jobs)
		}
		var sh archive.Shard
		if err == nil && *shard != "" {
			sh, err = archive.ParseShard(*shard)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "bagclock scan: %v\nRun 'bagclock scan --help' for usage.\n", err)
			return exitUsage
		}
		// scan stops on Ctrl-C/SIGTERM by itself and writes what finished.
		e.graceful.Store(true)
		ctx := e.context()
		// One goroutine per bag: -j is how many cores a scan uses, and
		// across bags that is cheaper than reading ahead within one.
		cfg.Sequential = true
		return runScan(ctx, e, scanOptions{
			roots: args, out: *out, jobs: *jobs, shard: sh, quiet: *quiet, force: *force,
			failOn: af.failOn, cfg: cfg, analyze: analyzeBag, interval: 10 * time.Second,
		})
	}
}

// bagJob is one discovered bag to scan.
type bagJob struct {
	found bagread.Discovered
	path  string // absolute
	stat  archive.Stat
	old   *archive.Row
	// listed is the listing of a bag in an object store (nil for a
	// local bag).
	listed *objstore.ListedBag
}

// fingerprint identifies the bag's content: for a local bag a hash of its
// files' names, sizes and ends; for a listed one, of its objects' names,
// sizes and ETags.
func (j bagJob) fingerprint() (string, error) {
	if j.listed != nil {
		return listedFingerprint(j.listed), nil
	}
	return fingerprint(j.found.Files)
}

// bagResult is what a worker hands back.
type bagResult struct {
	row         archive.Row
	reused      bool
	interrupted bool
}

// runScan does the work of `bagclock scan`; the first Ctrl-C cancels ctx,
// which stops new bags and aborts running ones, and the index is still
// written from every finished row.
func runScan(ctx context.Context, e *env, o scanOptions) int {
	start := time.Now()
	// Each worker's heap is small (tens of MiB) but allocates fast on
	// sqlite bags; at the default GOGC the collector takes the core a
	// second worker needs. Trade a few MiB per worker for it, unless the
	// user set GOGC.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	logf := func(format string, args ...any) { fmt.Fprintf(e.stderr, "bagclock scan: "+format+"\n", args...) }
	if err := os.MkdirAll(filepath.Join(o.out, "reports"), 0o755); err != nil {
		logf("%v", err)
		return exitFailure
	}
	sr := &scanRoots{}
	var local []string
	for _, r := range o.roots {
		if objstore.IsURL(r) {
			continue
		}
		abs, err := filepath.Abs(r)
		if err != nil {
			logf("%s: %v", r, err)
			return exitFailure
		}
		local = append(local, abs)
	}
	found := bagread.Discover(local...)
	for _, p := range found.Problems {
		sr.problems = append(sr.problems, p)
	}
	for _, b := range found.Bags {
		sr.bags = append(sr.bags, bagJob{found: b, path: b.Path, stat: statFiles(b.Files)})
	}
	sr.roots = append(sr.roots, local...)
	for _, r := range o.roots {
		if objstore.IsURL(r) {
			sr.discoverRemote(ctx, r)
		}
	}
	for _, p := range sr.problems {
		logf("%v", p)
	}
	roots := sr.roots
	indexPath := filepath.Join(o.out, "index.jsonl")
	old, err := readIndexFile(indexPath, logf)
	if err != nil {
		logf("%v", err)
		return exitFailure
	}
	configKey := archive.ConfigKey(o.cfg, version)
	scope := archive.Scope{Roots: roots, Discovered: map[string]bool{}}
	var jobs []bagJob
	var totalBytes int64
	for _, j := range sr.bags {
		if !o.shard.Contains(j.found.Rel) {
			continue
		}
		if prev, ok := old[j.path]; ok && !o.force {
			j.old = &prev
		}
		scope.Discovered[j.path] = true
		totalBytes += j.stat.SizeBytes
		jobs = append(jobs, j)
	}

	// Largest bags first: with -j N the last bag to finish is then a
	// small one, so workers idle less at the end.
	order := append([]bagJob(nil), jobs...)
	sort.SliceStable(order, func(a, b int) bool { return order[a].stat.SizeBytes > order[b].stat.SizeBytes })

	appendFile, err := os.OpenFile(indexPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		logf("%v", err)
		return exitFailure
	}
	prog := newScanProgress(e, o, len(jobs), totalBytes)
	// Buffered so a worker never waits for the collector's fsync.
	results := make(chan bagResult, len(jobs))
	queue := make(chan bagJob)
	var wg sync.WaitGroup
	for w := 0; w < o.jobs && w < max(len(jobs), 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				results <- scanOne(ctx, o, configKey, j, prog)
			}
		}()
	}
	go func() {
		defer close(queue)
		for _, j := range order {
			select {
			case queue <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	fresh := map[string]archive.Row{}
	var analysed, reused, writeErrs int
	// After Ctrl-C a bag deep in one long read may not look at ctx for a
	// while: give running bags abandonAfter, then write the index of what
	// finished without them (their temp files go when the process ends).
	abandon, collected := make(chan struct{}), make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			select {
			case <-time.After(abandonAfter):
				close(abandon)
			case <-collected:
			}
		case <-collected:
		}
	}()
collect:
	for {
		var res bagResult
		select {
		case r, ok := <-results:
			if !ok {
				break collect
			}
			res = r
		case <-abandon:
			break collect
		}
		if res.interrupted {
			continue
		}
		fresh[res.row.Path] = res.row
		if res.reused {
			reused++
		} else {
			analysed++
			// One Write and a Sync per finished bag: a crash or kill
			// loses at most the row being written, which ParseIndex skips.
			if line, err := render.IndexJSONLine(res.row); err != nil {
				writeErrs++
				logf("%v", err)
			} else if _, err := appendFile.Write(line); err != nil {
				writeErrs++
				logf("write %s: %v", indexPath, err)
			} else if err := appendFile.Sync(); err != nil {
				logf("sync %s: %v", indexPath, err)
			}
		}
		prog.bagDone(res.row)
	}
	close(collected)
	prog.finish()
	if err := appendFile.Close(); err != nil {
		writeErrs++
		logf("%v", err)
	}

	interrupted := ctx.Err() != nil
	page := indexPage("bagclock scan of "+strings.Join(roots, ", "), settingsOf(o.cfg))
	var stop interruption
	if interrupted {
		stop = markUnfinished(jobs, old, fresh, configKey)
		page.Notes = append(page.Notes, stop.note())
		logf("%s", stop.note())
	}
	rows := archive.Compose(old, fresh, scope)
	for _, p := range sr.problems {
		page.Problems = append(page.Problems, p.Error())
	}
	written, err := writeIndex(o.out, rows, page)
	if err != nil {
		writeErrs++
		logf("%v", err)
	}
	if !interrupted {
		pruneReports(o.out, rows, logf)
	}
	var here []archive.Row
	for _, r := range rows {
		if scope.Discovered[r.Path] {
			here = append(here, r)
		}
	}
	t := archive.Summarize(here)
	code := exitOK
	findings := 0
	for _, r := range here {
		if len(o.failOn) > 0 && r.HasFinding(o.failOn) {
			findings++
		}
	}
	if findings > 0 {
		code = exitFindings
	}
	if t.Errors > 0 || writeErrs > 0 || interrupted || sr.unlisted > 0 || (len(sr.problems) > 0 && len(jobs) == 0) {
		code = exitFailure
	}
	state, notAnalysed := "", ""
	if interrupted {
		state = fmt.Sprintf(", INTERRUPTED with %d of %d bags done (rerun to resume)", stop.done, stop.total)
		notAnalysed = fmt.Sprintf(", %d not analysed", t.NotAnalysed)
	}
	fmt.Fprintf(e.stderr, "bagclock scan: %d bags (%d analysed, %d unchanged): %d ok, %d damaged, %d errors%s, %d with findings, %s, %s, %s; %s; %s in %s%s; %s\n",
		len(jobs), analysed, reused, t.OK, t.Damaged, t.Errors, notAnalysed, t.WithFindings,
		plural(int64(t.Drops), "predicted drop"), plural(int64(t.ClockJumps), "clock jump"), plural(int64(t.ZeroStampScans), "zero-stamp message"),
		plural(int64(len(sr.problems)), "discovery problem"), humanSize(totalBytes), time.Since(start).Round(time.Millisecond), state,
		written)
	if l := fetchedLine(); l != "" {
		logf("%s", l)
	}
	return code
}

// interruption is what an interrupted scan reached: total bags of the run,
// done (a row of this run), earlier (not reached, an earlier index's row
// kept) and left (not reached and never analysed).
type interruption struct {
	total, done, earlier, left int
}

// markUnfinished gives every bag of jobs that this run did not finish and
// no earlier index analysed a not-analysed row in fresh (replacing such a
// row of an earlier interrupted run), and counts what the run reached.
func markUnfinished(jobs []bagJob, old, fresh map[string]archive.Row, configKey string) interruption {
	st := interruption{total: len(jobs)}
	for _, j := range jobs {
		if _, ok := fresh[j.path]; ok {
			st.done++
			continue
		}
		if prev, ok := old[j.path]; ok && prev.Status != archive.StatusNotAnalysed {
			st.earlier++
			continue
		}
		st.left++
	}
	why := fmt.Sprintf("not analysed: the scan was interrupted after %d of %d bags; rerun the same bagclock scan command to resume", st.done, st.total)
	for _, j := range jobs {
		if _, ok := fresh[j.path]; ok {
			continue
		}
		if prev, ok := old[j.path]; ok && prev.Status != archive.StatusNotAnalysed {
			continue
		}
		fresh[j.path] = archive.NotAnalysedRow(archive.Row{Path: j.path, Rel: j.found.Rel, SizeBytes: j.stat.SizeBytes,
			ModTimeNS: j.stat.ModTimeNS, ConfigKey: configKey, Storage: j.found.Storage}, why)
	}
	return st
}

// note is the line an interrupted index starts with (index.html, stderr).
func (st interruption) note() string {
	s := fmt.Sprintf("INTERRUPTED: this scan analysed %d of %d bags; %d not analysed (status %s)", st.done, st.total, st.left, archive.StatusNotAnalysed)
	if st.earlier > 0 {
		s += fmt.Sprintf(", %d shown from an earlier scan", st.earlier)
	}
	return s + ". Rerun the same bagclock scan command (same --out and settings) to resume: finished bags are kept, the rest is analysed."
}

// scanOne reuses the earlier row of an unchanged bag or analyses it,
// writing its two reports. A panic in the analysis becomes an error row.
func scanOne(ctx context.Context, o scanOptions, configKey string, j bagJob, prog *scanProgress) (res bagResult) {
	name := archive.ReportName(j.found.Rel, j.path)
	row := archive.Row{
		Path: j.path, Rel: j.found.Rel, SizeBytes: j.stat.SizeBytes, ModTimeNS: j.stat.ModTimeNS,
		ConfigKey: configKey, Storage: j.found.Storage,
	}
	if ctx.Err() != nil {
		return bagResult{interrupted: true}
	}
	fp := j.fingerprint
	ok, sum := archive.Reusable(j.old, j.stat, configKey, fp)
	if ok && fileExists(filepath.Join(o.out, filepath.FromSlash(j.old.ReportHTML))) &&
		fileExists(filepath.Join(o.out, filepath.FromSlash(j.old.ReportJSON))) {
		prog.addBytes(j.stat.SizeBytes)
		return bagResult{row: *j.old, reused: true}
	}
	if sum == "" {
		sum, _ = fp() // unreadable files: the analysis says why
	}
	row.Fingerprint = sum
	defer func() {
		if p := recover(); p != nil {
			res = bagResult{row: archive.ErrorRow(row, fmt.Errorf("analysis panicked: %v", p))}
		}
	}()
	var read int64
	cfg := o.cfg
	cfg.Progress = func(done int64) {
		if d := done - read; d > 0 {
			prog.addBytes(d)
			read = done
		}
	}
	defer func() {
		if rest := j.stat.SizeBytes - read; rest > 0 {
			prog.addBytes(rest)
		}
	}()
	rep, err := writeReports(ctx, o, j.path, name, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return bagResult{interrupted: true}
		}
		return bagResult{row: archive.ErrorRow(row, err)}
	}
	if rep.Damage != nil && rep.Damage.Status == analysis.DamageUnreadable {
		// Not one message could be read: an error row, as for a bag that
		// does not open, so the scan's exit code says so.
		return bagResult{row: archive.ErrorRow(row, errors.New(rep.Verdict.Sentence))}
	}
	row.ReportHTML = "reports/" + name + ".html"
	row.ReportJSON = "reports/" + name + ".json"
	return bagResult{row: archive.FromReport(row, rep)}
}

// writeReports analyses one bag, streaming its rows into the JSON report,
// then writes the HTML report. Both are written under temporary names and
// renamed, so a report on disk is always whole.
func writeReports(ctx context.Context, o scanOptions, path, name string, cfg analysis.Config) (*analysis.Report, error) {
	dir := filepath.Join(o.out, "reports")
	jsonPath, htmlPath := filepath.Join(dir, name+".json"), filepath.Join(dir, name+".html")
	trackTemp(jsonPath + ".tmp")
	defer untrackTemp(jsonPath + ".tmp")
	jf, err := os.Create(jsonPath + ".tmp")
	if err != nil {
		return nil, err
	}
	defer os.Remove(jsonPath + ".tmp")
	jw := render.NewJSON(jf)
	sink := func(r *analysis.ScanRow) error {
		if err := ctx.Err(); err != nil {
			return err // Ctrl-C: abort this bag
		}
		return jw.Row(r)
	}
	rep, err := o.analyze(path, cfg, sink)
	if err == nil && rep == nil {
		err = errors.New("analysis returned no report")
	}
	if err == nil {
		err = jw.Finish(rep)
	}
	if err == nil {
		err = jf.Sync()
	}
	if cerr := jf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(htmlPath, func(w io.Writer) error { return render.HTML(w, rep) }); err != nil {
		return nil, err
	}
	if err := os.Rename(jsonPath+".tmp", jsonPath); err != nil {
		return nil, err
	}
	return rep, nil
}

// pruneReports removes report files in out/reports that no row of the
// index links to any more (bags gone from the archive, leftovers of an
// aborted write), so the directory holds exactly what the index shows.
func pruneReports(out string, rows []archive.Row, logf func(string, ...any)) {
	keep := map[string]bool{}
	for _, r := range rows {
		keep[r.ReportHTML], keep[r.ReportJSON] = true, true
	}
	entries, err := os.ReadDir(filepath.Join(out, "reports"))
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		ours := strings.HasSuffix(n, ".html") || strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".tmp")
		if !e.Type().IsRegular() || !ours || keep["reports/"+n] {
			continue
		}
		if err := os.Remove(filepath.Join(out, "reports", n)); err != nil {
			logf("%v", err)
		}
	}
}

// readIndexFile loads the last row per bag of an existing index.jsonl
// (none when absent).
func readIndexFile(path string, logf func(string, ...any)) (map[string]archive.Row, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]archive.Row{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, bad, err := archive.ParseIndex(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if bad > 0 {
		logf("%s: %d unreadable lines skipped (an interrupted write)", path, bad)
	}
	return archive.Latest(rows), nil
}

// indexPage is the header of index.html: this bagclock and the time.
func indexPage(title string, settings []string) render.IndexPage {
	return render.IndexPage{Title: title, Version: version, Settings: settings,
		Generated: time.Now().UTC().Format("2006-01-02 15:04 UTC")}
}

// settingsOf lists the analysis settings a reader of the index needs to
// compare scans.
func settingsOf(c analysis.Config) []string {
	consumer := c.Consumer
	if consumer == "" {
		consumer = "rviz"
	}
	out := []string{"consumer " + consumer}
	if len(c.ScanTopics) > 0 {
		out = append(out, "topics "+strings.Join(c.ScanTopics, " "))
	}
	if len(c.TargetFrames) > 0 {
		out = append(out, "target frames "+strings.Join(c.TargetFrames, " "))
	}
	if c.SetQueueSize {
		out = append(out, fmt.Sprintf("queue size %d", c.QueueSize))
	}
	if c.SetTolerance {
		out = append(out, fmt.Sprintf("tolerance %g s", c.ToleranceS))
	}
	if c.SetCacheTime {
		out = append(out, fmt.Sprintf("tf cache %g s", c.CacheTimeS))
	}
	return out
}

// indexFiles is what writeIndex wrote.
type indexFiles struct {
	out     string
	written []string // base names, in the order written
	failed  []string
}

// writeIndex rewrites index.jsonl (compacted), index.csv and index.html,
// and says which of them it wrote.
func writeIndex(out string, rows []archive.Row, page render.IndexPage) (indexFiles, error) {
	res := indexFiles{out: out}
	var errs []error
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"index.jsonl", func(w io.Writer) error { return render.IndexJSONL(w, rows) }},
		{"index.csv", func(w io.Writer) error { return render.IndexCSV(w, rows) }},
		{"index.html", func(w io.Writer) error { return render.IndexHTML(w, page, rows) }},
	} {
		if err := writeFileAtomic(filepath.Join(out, f.name), f.write); err != nil {
			errs = append(errs, err)
			res.failed = append(res.failed, f.name)
			continue
		}
		res.written = append(res.written, f.name)
	}
	return res, errors.Join(errs...)
}

// String names the index for a summary line: index.html when it was
// written, else what was and was not, never a file that was not written.
func (f indexFiles) String() string {
	if len(f.failed) == 0 {
		return "index in " + filepath.Join(f.out, "index.html")
	}
	if len(f.written) == 0 {
		return "index NOT written (" + strings.Join(f.failed, ", ") + " failed, see above)"
	}
	return fmt.Sprintf("index written only in part: %s NOT written (see above); %s in %s",
		strings.Join(f.failed, ", "), strings.Join(f.written, ", "), f.out)
}

// writeFileAtomic writes path through a temporary file, an fsync and a
// rename, so a reader sees the old file or the new one, never half of
// one, and a report is on disk before the index row that links to it.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	trackTemp(tmp)
	defer untrackTemp(tmp)
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// statFiles sums the sizes and takes the newest mtime of a bag's files
// (following links; broken entries count as nothing).
func statFiles(files []string) archive.Stat {
	var st archive.Stat
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			continue
		}
		st.SizeBytes += fi.Size()
		if m := fi.ModTime().UnixNano(); m > st.ModTimeNS {
			st.ModTimeNS = m
		}
	}
	return st
}

// fingerprintChunk is how much of each end of a file the fingerprint reads.
const fingerprintChunk = 1 << 20

// fingerprint hashes each file's name, size, first MiB and last MiB.
func fingerprint(files []string) (string, error) {
	h := sha256.New()
	buf := make([]byte, fingerprintChunk)
	for _, name := range files {
		f, err := bagread.OpenRegular(name) // a FIFO must not block the scan
		if err != nil {
			return "", err
		}
		fi, err := f.Stat()
		if err == nil {
			fmt.Fprintf(h, "%s\x00%d\x00", filepath.Base(name), fi.Size())
			var n int
			n, err = io.ReadFull(f, buf)
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				err = nil
			}
			h.Write(buf[:n])
			if err == nil && fi.Size() > fingerprintChunk {
				off := max(fi.Size()-fingerprintChunk, int64(n))
				n, err = f.ReadAt(buf[:fi.Size()-off], off)
				if errors.Is(err, io.EOF) {
					err = nil
				}
				h.Write(buf[:n])
			}
		}
		f.Close()
		if err != nil {
			return "", fmt.Errorf("fingerprint %s: %w", name, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// scanProgress shows bags done / total, bytes and ETA: a progress bar on
// a terminal, a plain line every interval otherwise, nothing with --quiet.
type scanProgress struct {
	total      int
	totalBytes int64
	bytes      atomic.Int64
	done       atomic.Int64
	errs       atomic.Int64
	bar        *progressbar.ProgressBar
	w          io.Writer
	stop       chan struct{}
	wg         sync.WaitGroup
	start      time.Time
}

func newScanProgress(e *env, o scanOptions, total int, totalBytes int64) *scanProgress {
	p := &scanProgress{total: total, totalBytes: totalBytes, w: e.stderr, stop: make(chan struct{}), start: time.Now()}
	if o.quiet || total == 0 {
		return p
	}
	tick := o.interval
	if e.isTerminal {
		p.bar = progressbar.NewOptions64(max(totalBytes, 1),
			progressbar.OptionSetWriter(e.stderr),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetDescription(p.describe()))
		tick = 250 * time.Millisecond
	}
	if tick <= 0 {
		tick = 10 * time.Second
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.show()
			}
		}
	}()
	return p
}

func (p *scanProgress) describe() string {
	s := fmt.Sprintf("bags %d/%d", p.done.Load(), p.total)
	if n := p.errs.Load(); n > 0 {
		s += fmt.Sprintf(" (%d errors)", n)
	}
	if remote.store != nil {
		s += ", fetched " + humanSize(remote.store.Fetched())
	}
	return s
}

func (p *scanProgress) show() {
	if p.bar != nil {
		p.bar.Describe(p.describe())
		_ = p.bar.Set64(min(p.bytes.Load(), p.totalBytes))
		return
	}
	line := fmt.Sprintf("bagclock scan: %s, %s of %s", p.describe(), humanSize(p.bytes.Load()), humanSize(p.totalBytes))
	if b := p.bytes.Load(); b > 0 && b < p.totalBytes {
		el := time.Since(p.start)
		eta := time.Duration(float64(el) * float64(p.totalBytes-b) / float64(b))
		line += fmt.Sprintf(", about %s left", eta.Round(time.Second))
	}
	fmt.Fprintln(p.w, line)
}

func (p *scanProgress) addBytes(n int64) { p.bytes.Add(n) }

func (p *scanProgress) bagDone(r archive.Row) {
	p.done.Add(1)
	if r.Status == archive.StatusError {
		p.errs.Add(1)
	}
}

func (p *scanProgress) finish() {
	close(p.stop)
	p.wg.Wait()
	if p.bar != nil {
		p.show()
		_ = p.bar.Finish()
	}
}
