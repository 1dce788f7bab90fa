package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// block is one coverage block of a file (go test -coverprofile).
type block struct {
	file           string // base name
	sl, sc, el, ec int
}

func (b block) contains(line, col int) bool {
	return (b.sl < line || b.sl == line && b.sc <= col) && (line < b.el || line == b.el && col <= b.ec)
}

func (b block) size() int { return (b.el-b.sl)*1000 + b.ec - b.sc }

// testRun is one top-level test run alone with coverage.
type testRun struct {
	name    string
	dur     time.Duration
	ok      bool
	covered map[block]bool
}

// coverage maps the package's blocks to the tests that run them.
type coverage struct {
	tests  []*testRun
	blocks map[string][]block // by file
}

// measureCoverage runs each top-level test (and example, and fuzz target's
// seeds) of the coverage build alone.
func measureCoverage(bin, dir string, logf func(string, ...any)) (*coverage, error) {
	out, err := runOut(dir, bin, "-test.list", ".")
	if err != nil {
		return nil, fmt.Errorf("listing tests: %w", err)
	}
	c := &coverage{blocks: map[string][]block{}}
	prof := filepath.Join(filepath.Dir(bin), "cover.out")
	for _, name := range strings.Fields(out) {
		if !strings.HasPrefix(name, "Test") && !strings.HasPrefix(name, "Example") && !strings.HasPrefix(name, "Fuzz") {
			continue
		}
		start := time.Now()
		_, err := runOut(dir, bin, "-test.run", "^"+name+"$", "-test.short", "-test.count=1", "-test.coverprofile", prof)
		t := &testRun{name: name, dur: time.Since(start), ok: err == nil, covered: map[block]bool{}}
		if err != nil {
			logf("baseline: %s fails when run alone (left out of the selection): %v", name, err)
		}
		if err := c.read(prof, t); err != nil {
			return nil, err
		}
		c.tests = append(c.tests, t)
		if t.dur > quickBatch {
			logf("baseline: %s takes %s alone", name, t.dur.Round(time.Millisecond))
		}
	}
	logf("coverage: %d tests run alone", len(c.tests))
	return c, nil
}

func (c *coverage) read(path string, t *testRun) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("coverage profile of %s: %w", t.name, err)
	}
	defer f.Close()
	known := len(c.blocks) > 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "mode:") {
			continue
		}
		// path/file.go:L1.C1,L2.C2 stmts count
		colon := strings.LastIndex(line, ":")
		fields := strings.Fields(line[colon+1:])
		if colon < 0 || len(fields) != 3 {
			return fmt.Errorf("coverage profile of %s: bad line %q", t.name, line)
		}
		var b block
		b.file = filepath.Base(line[:colon])
		if _, err := fmt.Sscanf(fields[0], "%d.%d,%d.%d", &b.sl, &b.sc, &b.el, &b.ec); err != nil {
			return fmt.Errorf("coverage profile of %s: bad line %q: %w", t.name, line, err)
		}
		if !known {
			c.blocks[b.file] = append(c.blocks[b.file], b)
		}
		if n, _ := strconv.Atoi(fields[2]); n > 0 {
			t.covered[b] = true
		}
	}
	return sc.Err()
}

// selection is the tests that can kill a site's mutants and why those.
type selection struct {
	tests []*testRun
	scope string // block, func (site outside any block: its function's tests), package (all tests)
}

func (c *coverage) selectTests(s *site, fset *token.FileSet) selection {
	p := fset.Position(s.opPos)
	var in *block
	for i, b := range c.blocks[s.file.name] {
		if b.contains(p.Line, p.Column) && (in == nil || b.size() < in.size()) {
			in = &c.blocks[s.file.name][i]
		}
	}
	if in != nil {
		return selection{c.covering(func(b block) bool { return b == *in }), "block"}
	}
	for i := len(s.parents) - 1; i >= 0; i-- {
		var fn ast.Node
		switch n := s.parents[i].(type) {
		case *ast.FuncDecl:
			fn = n
		case *ast.FuncLit:
			fn = n
		}
		if fn == nil {
			continue
		}
		from, to := fset.Position(fn.Pos()), fset.Position(fn.End())
		return selection{c.covering(func(b block) bool {
			return b.file == s.file.name && b.sl >= from.Line && b.el <= to.Line
		}), "func"}
	}
	return selection{c.covering(func(block) bool { return true }), "package"}
}

func (c *coverage) covering(match func(block) bool) []*testRun {
	var out []*testRun
	for _, t := range c.tests {
		if !t.ok {
			continue
		}
		for b := range t.covered {
			if match(b) {
				out = append(out, t)
				break
			}
		}
	}
	return out
}
