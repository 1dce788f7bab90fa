package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRerunKeepsOnlySettledStatusesOfUnchangedFiles: -rerun keeps an
// earlier killed, timed-out or not-viable status only where the file's
// source is the one that status was measured on.
func TestRerunKeepsOnlySettledStatusesOfUnchangedFiles(t *testing.T) {
	a := &srcFile{name: "a.go", src: []byte("package p\nfunc f(x int) bool { return x > 1 }\n")}
	b := &srcFile{name: "b.go", src: []byte("package p\nfunc g(x int) int { return x + 1 }\n")}
	mk := func(f *srcFile, line, col int, mut string) *mutant {
		return &mutant{File: "p/" + f.name, Line: line, Col: col, Mutator: mut, site: &site{file: f}}
	}
	mutants := []*mutant{
		mk(a, 2, 32, "CONDITIONALS_BOUNDARY"), mk(a, 2, 32, "CONDITIONALS_NEGATION"),
		mk(b, 2, 30, "ARITHMETIC_BASE"),
	}
	lines := func(header string, body ...string) string {
		return "# p: summary\n" + header + "# status\tposition\n" + strings.Join(body, "\n") + "\n"
	}
	cases := []struct {
		name   string
		file   string
		reuse  map[string]bool
		status map[string]string // key -> status read back
	}{
		{
			name: "hashes recorded, a.go unchanged, b.go edited",
			file: lines(sourceHeader(mutants[:2])+sourceLine+"p/b.go sha256 0000\n",
				"KILLED\tp/a.go:2:32\tCONDITIONALS_BOUNDARY\tswitched", "LIVED\tp/a.go:2:32\tCONDITIONALS_NEGATION\tswitched",
				"KILLED\tp/b.go:2:30\tARITHMETIC_BASE\tswitched"),
			reuse:  map[string]bool{"p/a.go": true, "p/b.go": false},
			status: map[string]string{"p/a.go:2:32 CONDITIONALS_BOUNDARY": killed, "p/a.go:2:32 CONDITIONALS_NEGATION": lived},
		},
		{
			name: "no hashes: same positions reuse, a moved position does not",
			file: lines("",
				"TIMED OUT\tp/a.go:2:32\tCONDITIONALS_BOUNDARY\tswitched", "KILLED\tp/a.go:2:32\tCONDITIONALS_NEGATION\tswitched",
				"KILLED\tp/b.go:3:30\tARITHMETIC_BASE\tswitched"),
			reuse:  map[string]bool{"p/a.go": true, "p/b.go": false},
			status: map[string]string{"p/a.go:2:32 CONDITIONALS_BOUNDARY": timedOut},
		},
		{
			name:  "no hashes: a file with a mutant fewer runs again",
			file:  lines("", "KILLED\tp/a.go:2:32\tCONDITIONALS_BOUNDARY\tswitched", "KILLED\tp/b.go:2:30\tARITHMETIC_BASE\tswitched"),
			reuse: map[string]bool{"p/a.go": false, "p/b.go": true},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "prev.txt")
			if err := os.WriteFile(path, []byte(c.file), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := readPrevious(path)
			if err != nil {
				t.Fatal(err)
			}
			got := p.reusable(mutants)
			for f, want := range c.reuse {
				if got[f] != want {
					t.Errorf("reusable[%s] = %v, want %v", f, got[f], want)
				}
			}
			for k, want := range c.status {
				if p.status[k] != want {
					t.Errorf("status[%s] = %q, want %q", k, p.status[k], want)
				}
			}
		})
	}
}

func TestSettled(t *testing.T) {
	for status, want := range map[string]bool{killed: true, timedOut: true, notViable: true, lived: false, notCovered: false} {
		if settled(status) != want {
			t.Errorf("settled(%q) = %v", status, !want)
		}
	}
}

func TestReadPreviousRejectsGarbage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prev.txt")
	if err := os.WriteFile(path, []byte("KILLED only-two-fields\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readPrevious(path); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("err %v, want one naming line 1", err)
	}
}
