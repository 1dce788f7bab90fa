package main

import (
	"bytes"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestHelpFitsEightyColumns prints every subcommand's --help and the
// command list, and checks that no line is wider than an 80-column
// terminal.
func TestHelpFitsEightyColumns(t *testing.T) {
	names := []string{""}
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var out, errb bytes.Buffer
		e := &env{stdout: &out, stderr: &errb, stdin: strings.NewReader("")}
		args := []string{"help"}
		if n != "" {
			args = append(args, n)
		}
		if code := run(args, e); code != exitOK {
			t.Errorf("help %s: exit %d: %s", n, code, errb.String())
		}
		if out.Len() == 0 {
			t.Errorf("help %s printed nothing", n)
		}
		for i, line := range strings.Split(out.String(), "\n") {
			if w := utf8.RuneCountInString(line); w > helpWidth {
				t.Errorf("help %s line %d is %d columns:\n%s", n, i+1, w, line)
			}
		}
	}
}

// TestOutputFlagSpellings: on every command that writes output, -o, --out
// and --output are one flag (a file for analyze, a directory for scan and
// merge), and --help says so.
func TestOutputFlagSpellings(t *testing.T) {
	for _, name := range []string{"analyze", "scan", "merge"} {
		for _, spelling := range []string{"-o", "--out", "--output"} {
			c := commands[name]
			e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, stdin: strings.NewReader("")}
			fs := newFlagSet(c, e)
			c.setup(fs)
			if err := fs.Parse([]string{spelling, "target"}); err != nil {
				t.Errorf("%s %s: %v", name, spelling, err)
				continue
			}
			f := fs.ShorthandLookup("o")
			if f == nil || f.Value.String() != "target" {
				t.Errorf("%s %s target: -o is %v", name, spelling, f)
			}
		}
		_, out, _ := runCLI(t, "help", name)
		out = strings.Join(strings.Fields(out), " ")
		if !strings.Contains(out, "-o, --") || !strings.Contains(out, "is the same flag") {
			t.Errorf("%s --help does not document -o and its other spelling:\n%s", name, out)
		}
	}
}
