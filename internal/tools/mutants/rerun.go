package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strings"
)

// previous is an earlier run's result file: each mutant's status by
// position and mutator, and the source each mutated file had then.
type previous struct {
	path   string
	status map[string]string          // "pkg/file.go:L:C MUTATOR" -> status
	byFile map[string]map[string]bool // "pkg/file.go" -> its keys
	hashes map[string]string          // "pkg/file.go" -> sha256 of its source, when recorded
}

// sourceLine is the result-file header line that records a mutated
// file's source: "# source pkg/file.go sha256 HEX".
const sourceLine = "# source "

func fileHash(src []byte) string {
	h := sha256.Sum256(src)
	return hex.EncodeToString(h[:])
}

// sourceHeader lists the sha256 of every file the mutants come from.
func sourceHeader(mutants []*mutant) string {
	seen := map[string]string{}
	for _, m := range mutants {
		seen[m.File] = fileHash(m.site.file.src)
	}
	var files []string
	for f := range seen {
		files = append(files, f)
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "%s%s sha256 %s\n", sourceLine, f, seen[f])
	}
	return b.String()
}

func readPrevious(path string) (*previous, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("previous results: %w", err)
	}
	defer f.Close()
	p := &previous{path: path, status: map[string]string{}, byFile: map[string]map[string]bool{}, hashes: map[string]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, sourceLine); ok {
			if fs := strings.Fields(rest); len(fs) == 3 && fs[1] == "sha256" {
				p.hashes[fs[0]] = fs[2]
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 3 {
			return nil, fmt.Errorf("previous results %s line %d: %q is not a result line", path, n, line)
		}
		pos := fs[1]
		i := strings.IndexByte(pos, ':')
		if i < 0 {
			return nil, fmt.Errorf("previous results %s line %d: position %q has no file", path, n, pos)
		}
		key := pos + " " + fs[2]
		p.status[key] = fs[0]
		if p.byFile[pos[:i]] == nil {
			p.byFile[pos[:i]] = map[string]bool{}
		}
		p.byFile[pos[:i]][key] = true
	}
	return p, sc.Err()
}

func mutantKey(m *mutant) string {
	return fmt.Sprintf("%s:%d:%d %s", m.File, m.Line, m.Col, m.Mutator)
}

// reusable returns, per file, whether the earlier run's statuses still
// hold for its mutants: the file's source is the same (by its recorded
// sha256), or, in a result file that recorded none, it has exactly the
// same mutant positions (an edit that moves code moves them).
func (p *previous) reusable(mutants []*mutant) map[string]bool {
	keys := map[string]map[string]bool{}
	hash := map[string]string{}
	for _, m := range mutants {
		if keys[m.File] == nil {
			keys[m.File] = map[string]bool{}
			hash[m.File] = fileHash(m.site.file.src)
		}
		keys[m.File][mutantKey(m)] = true
	}
	ok := map[string]bool{}
	for f, ks := range keys {
		if h, recorded := p.hashes[f]; recorded {
			ok[f] = h == hash[f]
			continue
		}
		old := p.byFile[f]
		same := len(old) == len(ks)
		for k := range ks {
			same = same && old[k]
		}
		ok[f] = same
	}
	return ok
}

// settled reports whether an earlier status needs no new run: tests are
// only ever added, so a mutant once killed (or timed out, or not viable)
// stays so; one that lived or was not covered runs again.
func settled(status string) bool {
	return status == killed || status == timedOut || status == notViable
}
