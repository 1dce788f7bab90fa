// Command mutants runs gremlins' mutants of one package fast: the same
// mutant set as go-gremlins/gremlins v0.5.0 with its default mutators
// (ARITHMETIC_BASE, CONDITIONALS_BOUNDARY, CONDITIONALS_NEGATION,
// INCREMENT_DECREMENT, INVERT_NEGATIVES), but built once and with only the
// tests that reach each mutant.
//
//	go run ./internal/tools/mutants [-o results.txt] [-gremlins dry.json] ./PKG
//
// On a copy of the module it rewrites the package's non-test files once
// into mutant schemata: every mutated operator becomes a call of a small
// generated function that applies the original operator, or the mutant's
// when BAGCLOCK_MUTANT holds that mutant's number (operands are evaluated
// once, as before; x++ becomes an if/else). The test binary is then built
// once. A coverage build runs each top-level test alone to learn which
// tests run which statement blocks; a mutant runs only the tests covering
// its block (or, outside any block, as in a case list, its function),
// with -test.short -test.failfast. A non-zero exit kills it.
//
// Sites that must stay constant (const declarations, array lengths, untyped
// constant expressions) are tested gremlins' way: the token is swapped in
// the source and the tests rebuilt, one build per mutant. A swap that does
// not compile (a string '+' becoming '-') is NOT VIABLE.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	out := flag.String("o", "", "result file, one mutant a line (default /tmp/bagclock-mutants/PKG.txt)")
	dry := flag.String("gremlins", "", "gremlins `unleash --dry-run -o FILE` JSON of the same package: check the mutant sets are equal")
	only := flag.String("files", "", "comma-separated file names: mutate only these files of the package")
	factor := flag.Float64("timeout-factor", 10, "a mutant times out after this many times its tests' baseline time (plus 5 s)")
	keep := flag.Bool("keep", false, "keep the scratch copy of the module")
	list := flag.Bool("list", false, "list the mutants and how each is tested; run nothing")
	rerun := flag.String("rerun", "", "an earlier result `file` of the same package: keep its killed, timed-out and not-viable mutants of files whose source is unchanged, and run only the rest")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: mutants [flags] ./PKG\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	cfg := config{pkg: filepath.Clean(flag.Arg(0)), out: *out, dry: *dry, factor: *factor, keep: *keep, list: *list, rerun: *rerun}
	if *only != "" {
		cfg.only = strings.Split(*only, ",")
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(1)
	}
}

type config struct {
	pkg, out, dry string
	rerun         string // earlier result file whose settled statuses are kept
	only          []string
	factor        float64
	keep, list    bool
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, time.Now().Format("15:04:05 ")+format+"\n", args...)
}

func run(cfg config) error {
	started := time.Now()
	root, err := runOut(".", "go", "env", "GOMOD")
	if err != nil || strings.TrimSpace(root) == "" || strings.TrimSpace(root) == os.DevNull {
		return fmt.Errorf("not in a Go module: %v", err)
	}
	root = filepath.Dir(strings.TrimSpace(root))
	abs, err := filepath.Abs(cfg.pkg)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("%s is not inside the module at %s", cfg.pkg, root)
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(os.TempDir(), "bagclock-mutants", strings.ReplaceAll(rel, "/", "_")+".txt")
	}

	// The scratch copy: DIR/mod is the module, DIR/shared the module's ../shared.
	scratch, err := os.MkdirTemp("", "bagclock-mutants-")
	if err != nil {
		return err
	}
	if cfg.keep {
		logf("scratch copy kept at %s", scratch)
	} else {
		defer os.RemoveAll(scratch)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-stop
		stopping.Store(true)
		if pid := running.Load(); pid != 0 {
			_ = syscall.Kill(-int(pid), syscall.SIGKILL)
		}
		if !cfg.keep {
			os.RemoveAll(scratch)
		}
		os.Exit(130)
	}()
	mod := filepath.Join(scratch, "mod")
	if err := copyModule(root, mod); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "..", "shared")); err == nil {
		shared, _ := filepath.Abs(filepath.Join(root, "..", "shared"))
		if err := os.Symlink(shared, filepath.Join(scratch, "shared")); err != nil {
			return err
		}
	}
	pkgDir := filepath.Join(mod, rel)
	target := "./" + rel

	p, err := loadPackage(mod, target)
	if err != nil {
		return err
	}
	var sites []*site
	var mutants []*mutant
	for _, f := range p.files {
		if len(cfg.only) > 0 && !contains(cfg.only, f.name) {
			continue
		}
		for _, s := range findSites(f, p.fset) {
			sites = append(sites, s)
			for _, m := range s.mutants {
				m.ID = len(mutants) + 1
				m.File = filepath.ToSlash(filepath.Join(rel, f.name))
				mutants = append(mutants, m)
			}
		}
	}
	logf("%s: %d mutants at %d sites in %d files", rel, len(mutants), len(sites), len(p.files))
	if cfg.dry != "" {
		if err := compareGremlins(cfg.dry, rel, mutants, len(cfg.only) > 0); err != nil {
			return err
		}
	}
	for _, s := range sites {
		classify(s, p.info, p.types)
	}

	// Coverage of the unmutated package, one top-level test at a time.
	coverBin := filepath.Join(scratch, "cover.test")
	if !cfg.list {
		if out, err := runOut(mod, "go", "test", "-c", "-cover", "-covermode=set", "-vet=off", "-o", coverBin, target); err != nil {
			return fmt.Errorf("coverage build: %v\n%s", err, out)
		}
	}

	// The schemata: rewrite, build, and move what does not compile to one build per mutant.
	if err := os.WriteFile(filepath.Join(pkgDir, "zz_bcmut_helper.go"), []byte(helperSource(p.types.Name())), 0o644); err != nil {
		return err
	}
	for round := 1; ; round++ {
		for _, f := range p.files {
			rewrite(f, sites, p.info, p.types)
			if err := os.WriteFile(filepath.Join(pkgDir, f.name), []byte(f.out), 0o644); err != nil {
				return err
			}
		}
		out, err := runOut(mod, "go", "build", "-gcflags=-e", "-o", os.DevNull, target)
		if err == nil {
			break
		}
		moved, err := blameSites(p.files, out)
		if err != nil {
			return fmt.Errorf("schemata round %d: %w", round, err)
		}
		logf("schemata round %d: %d sites do not compile switched; they get a build per mutant", round, moved)
		if round == 20 {
			return fmt.Errorf("schemata still do not compile after %d rounds:\n%s", round, out)
		}
	}
	count := map[string]int{}
	for _, s := range sites {
		count[s.how] += len(s.mutants)
	}
	logf("mutants switched: %d, one build each: %d, not viable: %d", count[howSwitched], count[howBuild], count[howNotViable])
	if cfg.list {
		for _, m := range mutants {
			fmt.Printf("%s:%d:%d\t%s\t%s\t%s\n", m.File, m.Line, m.Col, m.Mutator, m.site.how, m.site.reason)
		}
		return nil
	}
	schemataBin := filepath.Join(scratch, "schemata.test")
	if out, err := runOut(mod, "go", "test", "-c", "-vet=off", "-o", schemataBin, target); err != nil {
		return fmt.Errorf("schemata test build: %v\n%s", err, out)
	}
	cov, err := measureCoverage(coverBin, pkgDir, logf)
	if err != nil {
		return err
	}
	if out, err := runOut(pkgDir, schemataBin, "-test.short", "-test.count=1"); err != nil {
		return fmt.Errorf("the schemata build fails with no mutant switched on: %v\n%s", err, tail(out))
	}
	logf("setup took %s", time.Since(started).Round(time.Second))

	r := &runner{cfg: cfg, mod: mod, pkgDir: pkgDir, target: target, scratch: scratch, bin: schemataBin, fset: p.fset, cov: cov}
	if cfg.rerun != "" {
		if r.prev, err = readPrevious(cfg.rerun); err != nil {
			return err
		}
		r.reuse = r.prev.reusable(mutants)
		for f, ok := range r.reuse {
			if !ok {
				logf("rerun: %s changed since %s: all its mutants run again", f, cfg.rerun)
			}
		}
	}
	results, err := r.runAll(mutants)
	if err != nil {
		return err
	}
	return report(cfg.out, rel, results, time.Since(started))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// copyModule copies the module's files (git's tracked and untracked but not
// ignored ones) to dst.
func copyModule(root, dst string) error {
	out, err := runOut(root, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return fmt.Errorf("listing the module's files: %w", err)
	}
	for _, name := range strings.Split(out, "\x00") {
		if name == "" {
			continue
		}
		src := filepath.Join(root, name)
		info, err := os.Lstat(src)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // deleted in the worktree
			}
			return err
		}
		if !info.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		d := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(d), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(d, data, info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

type loaded struct {
	fset  *token.FileSet
	files []*srcFile
	info  *types.Info
	types *types.Package
}

// loadPackage parses and type-checks the package's non-test files, with
// its imports read from the compiler's export data (go list -export).
func loadPackage(mod, target string) (*loaded, error) {
	out, err := runOut(mod, "go", "list", "-deps", "-export", "-json=ImportPath,Export,Dir,GoFiles,CgoFiles,Name", target)
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, out)
	}
	type pkgInfo struct {
		ImportPath, Export, Dir, Name string
		GoFiles, CgoFiles             []string
	}
	exports := map[string]string{}
	var last pkgInfo
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var p pkgInfo
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		exports[p.ImportPath] = p.Export
		last = p // -deps lists the package itself last
	}
	l := &loaded{fset: token.NewFileSet()}
	var asts []*ast.File
	for _, name := range append(last.GoFiles, last.CgoFiles...) {
		src, err := os.ReadFile(filepath.Join(last.Dir, name))
		if err != nil {
			return nil, err
		}
		a, err := parser.ParseFile(l.fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		f := &srcFile{name: name, src: src, ast: a, tokFile: l.fset.File(a.Pos()), imports: map[string]string{}}
		asts = append(asts, a)
		l.files = append(l.files, f)
	}
	imp := importer.ForCompiler(l.fset, "gc", func(path string) (io.ReadCloser, error) {
		if exports[path] == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(exports[path])
	})
	l.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	// FakeImportC: cgo files (bagread's sqlite blob reader) are checked
	// without cgo's generated code; their C calls are not mutated anyway.
	// Errors in cgo files are left out: with a fake "C" package, values
	// of C types have no type (bagread's batch reader dereferences them).
	cgo := map[string]bool{}
	for _, name := range last.CgoFiles {
		cgo[name] = true
	}
	var typeErrs []error
	conf := types.Config{Importer: imp, FakeImportC: true, Error: func(err error) {
		if te, ok := err.(types.Error); ok && cgo[filepath.Base(te.Fset.Position(te.Pos).Filename)] {
			return
		}
		typeErrs = append(typeErrs, err)
	}}
	l.types, _ = conf.Check(last.ImportPath, l.fset, asts, l.info)
	if len(typeErrs) > 0 {
		return nil, fmt.Errorf("type-checking %s: %w", last.ImportPath, errors.Join(typeErrs...))
	}
	for i, a := range asts {
		for _, is := range a.Imports {
			path, _ := strconv.Unquote(is.Path.Value)
			name := ""
			if is.Name != nil {
				name = is.Name.Name
			} else if p := l.types.Imports(); p != nil {
				for _, ip := range p {
					if ip.Path() == path {
						name = ip.Name()
					}
				}
			}
			l.files[i].imports[path] = name
		}
	}
	return l, nil
}

var errLine = regexp.MustCompile(`(?m)^(?:\./)?(\S+\.go):(\d+):(\d+): (.*)$`)

// blameSites moves each site whose switched code a compiler error points
// into (the innermost one) to one build per mutant.
func blameSites(files []*srcFile, out string) (int, error) {
	moved := 0
	for _, m := range errLine.FindAllStringSubmatch(out, -1) {
		var f *srcFile
		for _, x := range files {
			if x.name == filepath.Base(m[1]) {
				f = x
			}
		}
		if f == nil {
			return moved, fmt.Errorf("compiler error outside the rewritten files:\n%s", out)
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		off := offsetOf(f.out, line, col)
		var in *span
		for i, sp := range f.spans {
			if sp.start <= off && off < sp.end && (in == nil || sp.end-sp.start < in.end-in.start) {
				in = &f.spans[i]
			}
		}
		if in == nil {
			return moved, fmt.Errorf("compiler error outside any switched site: %s", m[0])
		}
		if in.s.how == howSwitched {
			in.s.how, in.s.reason = howBuild, "switched code does not compile: "+m[4]
			moved++
		}
	}
	if moved == 0 {
		return 0, fmt.Errorf("build failed, no site to blame:\n%s", out)
	}
	return moved, nil
}

func offsetOf(text string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return off + col - 1
}

// runOut runs a command in dir and returns its combined output.
func runOut(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	return b.String(), err
}

func tail(s string) string {
	if len(s) > 3000 {
		return "..." + s[len(s)-3000:]
	}
	return s
}

// Result statuses, as gremlins prints them.
const (
	killed     = "KILLED"
	lived      = "LIVED"
	timedOut   = "TIMED OUT"
	notViable  = "NOT VIABLE"
	notCovered = "NOT COVERED"
)

type result struct {
	m      *mutant
	status string
	how    string
	scope  string
	tests  int
	dur    time.Duration
	note   string
}

type runner struct {
	cfg                          config
	mod, pkgDir, target, scratch string
	bin                          string
	fset                         *token.FileSet
	cov                          *coverage
	prev                         *previous       // -rerun's earlier results, nil without it
	reuse                        map[string]bool // per file: prev's statuses still hold
}

func (r *runner) runAll(mutants []*mutant) ([]result, error) {
	var results []result
	// The lines so far, for a run that is stopped: report rewrites the file at the end.
	if err := os.MkdirAll(filepath.Dir(r.cfg.out), 0o755); err != nil {
		return nil, err
	}
	partial, err := os.Create(r.cfg.out)
	if err != nil {
		return nil, err
	}
	defer partial.Close()
	fmt.Fprint(partial, sourceHeader(mutants))
	same := map[string]result{} // site and replacement -> the result of the first mutant that made it
	for i, m := range mutants {
		res := result{m: m, how: m.site.how}
		sel := r.cov.selectTests(m.site, r.fset)
		res.scope, res.tests = sel.scope, len(sel.tests)
		key := fmt.Sprintf("%p %s", m.site, m.To)
		switch {
		case m.site.how == howNotViable:
			res.status, res.note = notViable, m.site.reason
		case len(sel.tests) == 0:
			res.status = notCovered
		case r.prev != nil && r.reuse[m.File] && settled(r.prev.status[mutantKey(m)]):
			res.status, res.note = r.prev.status[mutantKey(m)], "kept from "+filepath.Base(r.prev.path)
		case same[key].m != nil:
			prev := same[key]
			res.status, res.note = prev.status, fmt.Sprintf("same code as mutant %d (%s)", prev.m.ID, prev.m.Mutator)
		default:
			var err error
			res, err = r.one(res, sel)
			if stopping.Load() {
				select {} // the signal handler exits; record nothing more
			}
			if err != nil {
				return nil, err
			}
			same[key] = res
		}
		results = append(results, res)
		fmt.Fprint(partial, res.line())
		logf("[%d/%d] %-11s %s:%d:%d %s (%s, %s, %d tests, %.1fs) %s", i+1, len(mutants), res.status, m.File, m.Line, m.Col,
			m.Mutator, res.how, res.scope, res.tests, res.dur.Seconds(), res.note)
	}
	return results, nil
}

// one runs the selected tests against one mutant: first the quick ones
// together, then each slower one alone, quickest first, so that a mutant
// dies in the cheapest test that kills it.
func (r *runner) one(res result, sel selection) (result, error) {
	m := res.m
	bin := r.bin
	env := []string{"BAGCLOCK_MUTANT=" + strconv.Itoa(m.ID)}
	start := time.Now()
	if m.site.how == howBuild {
		path := filepath.Join(r.pkgDir, m.site.file.name)
		if err := os.WriteFile(path, mutatedSource(m), 0o644); err != nil {
			return res, err
		}
		bin = filepath.Join(r.scratch, "one.test")
		out, err := runOut(r.mod, "go", "test", "-c", "-vet=off", "-o", bin, r.target)
		if err := os.WriteFile(path, []byte(m.site.file.out), 0o644); err != nil {
			return res, err
		}
		if err != nil {
			res.status, res.dur = notViable, time.Since(start)
			res.note = "does not compile: " + firstError(out)
			return res, nil
		}
		env = nil
		res.note = m.site.reason
	}
	res.status = lived
	for _, batch := range batches(sel.tests) {
		if st := r.runTests(bin, env, batch); st != lived {
			res.status = st
			break
		}
	}
	res.dur = time.Since(start)
	return res, nil
}

// running is the process group of the test binary running now, killed
// when the tool is interrupted.
var running atomic.Int64

// stopping is set when the tool is interrupted: the test binary it kills
// then exits non-zero, which must not be recorded as a kill.
var stopping atomic.Bool

// quickBatch is the baseline time under which tests run together.
const quickBatch = time.Second

// batches orders tests by baseline time: the quick ones in one batch, then
// one batch per slower test.
func batches(tests []*testRun) [][]*testRun {
	sorted := append([]*testRun(nil), tests...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].dur < sorted[j].dur })
	var out [][]*testRun
	var quick []*testRun
	var sum time.Duration
	for _, t := range sorted {
		if sum+t.dur <= quickBatch {
			quick = append(quick, t)
			sum += t.dur
			continue
		}
		out = append(out, []*testRun{t})
	}
	if len(quick) > 0 {
		out = append([][]*testRun{quick}, out...)
	}
	return out
}

// runTests runs one batch of tests: killed on a non-zero exit, timed out
// after the timeout factor times their baseline (plus 5 s).
func (r *runner) runTests(bin string, env []string, tests []*testRun) string {
	var names []string
	var base time.Duration
	for _, t := range tests {
		names = append(names, regexp.QuoteMeta(t.name))
		base += t.dur
	}
	timeout := time.Duration(r.cfg.factor*float64(base)) + 5*time.Second
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.short", "-test.failfast", "-test.count=1",
		"-test.run", "^("+strings.Join(names, "|")+")$")
	cmd.Dir = r.pkgDir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	err := cmd.Start()
	if err == nil {
		running.Store(int64(cmd.Process.Pid))
		err = cmd.Wait()
		running.Store(0)
	}
	switch {
	case ctx.Err() != nil:
		return timedOut
	case err == nil:
		return lived
	}
	return killed
}

func firstError(out string) string {
	if m := errLine.FindStringSubmatch(out); m != nil {
		return m[0]
	}
	return strings.TrimSpace(tail(out))
}

func (r result) line() string {
	return fmt.Sprintf("%s\t%s:%d:%d\t%s\t%s\t%s\t%d\t%.2f\t%s\n", r.status, r.m.File, r.m.Line, r.m.Col,
		r.m.Mutator, r.how, r.scope, r.tests, r.dur.Seconds(), r.note)
}

// report writes one line per mutant and prints the totals.
func report(path, pkg string, results []result, took time.Duration) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var b strings.Builder
	n := map[string]int{}
	sort.SliceStable(results, func(i, j int) bool { return results[i].m.ID < results[j].m.ID })
	for _, r := range results {
		n[r.status]++
		b.WriteString(r.line())
	}
	eff := 0.0
	if n[killed]+n[lived] > 0 {
		eff = 100 * float64(n[killed]) / float64(n[killed]+n[lived])
	}
	summary := fmt.Sprintf("%s: %d mutants: killed %d, lived %d, timed out %d, not viable %d, not covered %d; efficacy %.1f%%, killed/all %.1f%%; took %s",
		pkg, len(results), n[killed], n[lived], n[timedOut], n[notViable], n[notCovered], eff,
		100*float64(n[killed])/float64(max(len(results), 1)), took.Round(time.Second))
	var ms []*mutant
	for _, r := range results {
		ms = append(ms, r.m)
	}
	header := "# " + summary + "\n" + sourceHeader(ms) + "# status\tposition\tmutator\thow (switched|build|notviable)\ttests chosen by (block|func|package)\ttests\tseconds\tnote\n"
	if err := os.WriteFile(path, []byte(header+b.String()), 0o644); err != nil {
		return err
	}
	fmt.Println(summary)
	fmt.Println("results:", path)
	return nil
}

// compareGremlins checks that the mutants are the ones gremlins' dry run lists.
func compareGremlins(path, rel string, mutants []*mutant, partial bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var g struct {
		Files []struct {
			FileName  string `json:"file_name"`
			Mutations []struct {
				Type   string
				Line   int
				Column int
			}
		}
	}
	if err := json.Unmarshal(data, &g); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	theirs := map[string]bool{}
	for _, f := range g.Files {
		if strings.Contains(f.FileName, "/") {
			continue // a subpackage: gremlins ./PKG walks the whole tree
		}
		for _, m := range f.Mutations {
			theirs[fmt.Sprintf("%s/%s:%d:%d %s", rel, f.FileName, m.Line, m.Column, m.Type)] = true
		}
	}
	ours := map[string]bool{}
	for _, m := range mutants {
		ours[fmt.Sprintf("%s:%d:%d %s", m.File, m.Line, m.Col, m.Mutator)] = true
	}
	var only []string
	for k := range ours {
		if !theirs[k] {
			only = append(only, "only here: "+k)
		}
	}
	for k := range theirs {
		if !ours[k] && !partial {
			only = append(only, "only in gremlins: "+k)
		}
	}
	sort.Strings(only)
	if len(only) > 0 {
		return fmt.Errorf("mutant set differs from gremlins' dry run %s:\n%s", path, strings.Join(only, "\n"))
	}
	logf("mutant set equals gremlins' dry run (%d mutants)", len(ours))
	return nil
}
