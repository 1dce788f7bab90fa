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
