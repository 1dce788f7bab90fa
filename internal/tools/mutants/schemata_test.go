package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixtureModule copies testdata/fixture into a module of its own and loads it.
func fixtureModule(t *testing.T) (string, *loaded, []*site) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "fixture", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"go.mod": "module fixture\n\ngo 1.22\n", "main.go": string(src)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")
	p, err := loadPackage(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	var sites []*site
	id := 0
	for _, f := range p.files {
		for _, s := range findSites(f, p.fset) {
			classify(s, p.info, p.types)
			for _, m := range s.mutants {
				id++
				m.ID = id
			}
			sites = append(sites, s)
		}
	}
	return dir, p, sites
}

// The mutants are gremlins' (token, mutators, replacement), and each site
// is switched, built apart or not viable for the stated reason.
func TestSitesAndHow(t *testing.T) {
	_, _, sites := fixtureModule(t)
	got := map[string]string{}
	for _, s := range sites {
		for _, m := range s.mutants {
			key := fmt.Sprintf("%d:%d %s %s->%s", m.Line, m.Col, m.Mutator, m.From, m.To)
			got[key] = s.how
		}
	}
	want := map[string]string{
		"11:13 ARITHMETIC_BASE *->/":         howBuild, // const declaration
		"16:7 INCREMENT_DECREMENT ++->--":    howSwitched,
		"27:15 ARITHMETIC_BASE +->-":         howSwitched,
		"27:20 INVERT_NEGATIVES -->+":        howSwitched,
		"27:20 ARITHMETIC_BASE -->+":         howSwitched,
		"27:25 ARITHMETIC_BASE *->/":         howSwitched,
		"27:30 ARITHMETIC_BASE /->*":         howSwitched,
		"27:35 ARITHMETIC_BASE %->*":         howSwitched,
		"27:39 INVERT_NEGATIVES -->+":        howSwitched,
		"27:43 ARITHMETIC_BASE +->-":         howSwitched,
		"28:16 CONDITIONALS_BOUNDARY <-><=":  howSwitched,
		"28:16 CONDITIONALS_NEGATION <->>=":  howSwitched,
		"28:23 CONDITIONALS_NEGATION <=->>":  howSwitched,
		"28:46 CONDITIONALS_NEGATION ==->!=": howSwitched,
		"29:34 CONDITIONALS_BOUNDARY >=->>":  howSwitched, // a named float type
		"29:52 ARITHMETIC_BASE *->/":         howSwitched, // a float * 0: f / 0 compiles
		"30:21 ARITHMETIC_BASE *->/":         howSwitched,
		"32:15 ARITHMETIC_BASE /->*":         howSwitched,
		"32:34 INVERT_NEGATIVES -->+":        howSwitched, // an untyped constant given type int
		"33:16 ARITHMETIC_BASE -->+":         howSwitched, // a constant of type int64
		"36:25 CONDITIONALS_BOUNDARY >->>=":  howSwitched,
		"36:27 INVERT_NEGATIVES -->+":        howSwitched, // a constant in a condition
		"36:32 INCREMENT_DECREMENT ++->--":   howSwitched, // a for statement's post statement
		"37:4 INCREMENT_DECREMENT ++->--":    howSwitched,
		"40:6 INCREMENT_DECREMENT --->++":    howSwitched,
		"43:9 CONDITIONALS_NEGATION >-><=":   howSwitched, // a case expression
		"46:16 ARITHMETIC_BASE +->-":         howNotViable,
	}
	for key, how := range want {
		if got[key] != how {
			t.Errorf("%s: how %q, want %q", key, got[key], how)
		}
	}
	if len(got) != 47 {
		t.Errorf("%d mutants, want 47:\n%v", len(got), got)
	}
}

// Each switched mutant of the schemata build prints what gremlins' mutant
// (the token swapped in the source, built apart) prints, and with no
// mutant on it prints what the original does.
func TestSchemataBehaveLikeTokenSwaps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds one program per mutant")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir, p, sites := fixtureModule(t)
	f := p.files[0]
	orig := build(t, dir, f.src)
	rewrite(f, sites, p.info, p.types)
	schemata := build(t, dir, []byte(f.out), helperSource("main"))
	if got, want := output(t, schemata, 0), output(t, orig, 0); got != want {
		t.Fatalf("schemata with no mutant on:\n%s\nwant\n%s", got, want)
	}
	for _, s := range sites {
		if s.how != howSwitched {
			continue
		}
		for _, m := range s.mutants {
			want := output(t, build(t, dir, mutatedSource(m)), 0)
			if got := output(t, schemata, m.ID); got != want {
				t.Errorf("mutant %d (%d:%d %s) prints\n%s\nwant (token swapped)\n%s", m.ID, m.Line, m.Col, m.Mutator, got, want)
			}
		}
	}
}

// The rewritten fixture calls next() once per evaluation, as the original.
func TestOperandsEvaluatedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fixture")
	}
	dir, p, sites := fixtureModule(t)
	f := p.files[0]
	rewrite(f, sites, p.info, p.types)
	if !strings.Contains(f.out, "bcmutMul(") || !strings.Contains(f.out, "next()") {
		t.Fatalf("next() * 2 not switched:\n%s", f.out)
	}
	schemata := build(t, dir, []byte(f.out), helperSource("main"))
	for _, m := range sites {
		if m.how != howSwitched || !strings.Contains(string(f.src[m.node.Pos()-1:m.node.End()-1]), "next()") {
			continue
		}
		for _, mu := range m.mutants {
			lines := strings.Split(output(t, schemata, mu.ID), "\n")
			if lines[4] != "1" {
				t.Errorf("mutant %d: next() ran %s times, want 1", mu.ID, lines[4])
			}
		}
	}
}

var builds int

func build(t *testing.T, dir string, src []byte, helper ...string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	hp := filepath.Join(dir, "zz_bcmut_helper.go")
	os.Remove(hp)
	if len(helper) > 0 {
		if err := os.WriteFile(hp, []byte(helper[0]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	builds++
	bin := filepath.Join(dir, fmt.Sprintf("prog%d", builds))
	if out, err := runOut(dir, "go", "build", "-o", bin, "."); err != nil {
		t.Fatalf("build: %v\n%s\n%s", err, out, src)
	}
	return bin
}

func output(t *testing.T, bin string, id int) string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), fmt.Sprintf("BAGCLOCK_MUTANT=%d", id))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Sprintf("%s\nexit: %v", out, err)
	}
	return string(out)
}

// Tests run quickest first: the quick ones together, the slow ones alone.
func TestBatches(t *testing.T) {
	ms := time.Millisecond
	tests := []*testRun{{name: "A", dur: 3 * time.Second}, {name: "B", dur: 10 * ms}, {name: "C", dur: 2 * time.Second}, {name: "D", dur: 500 * ms}}
	var got []string
	for _, b := range batches(tests) {
		var names []string
		for _, t := range b {
			names = append(names, t.name)
		}
		got = append(got, strings.Join(names, "+"))
	}
	if want := "B+D C A"; strings.Join(got, " ") != want {
		t.Errorf("batches %q, want %q", strings.Join(got, " "), want)
	}
}
