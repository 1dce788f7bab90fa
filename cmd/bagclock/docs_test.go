package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// helpBlock is a command's --help quoted in docs/: the marker comment, then
// a fenced text block holding exactly what `bagclock help CMD` prints (CMD
// empty: the command list).
var helpBlock = regexp.MustCompile("(?s)<!-- bagclock help ?([a-z-]*) -->\n```text\n(.*?)```\n")

// docFiles returns the Markdown files under the repository's docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("../../docs", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestDocsHelp: every help block in docs/ is what the binary prints now,
// and every command's help is quoted somewhere in docs/, so the reference
// cannot drift from --help (go test ./cmd/bagclock -run TestDocsHelp
// -update rewrites the blocks).
func TestDocsHelp(t *testing.T) {
	quoted := map[string]bool{}
	for _, p := range docFiles(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		fresh := helpBlock.ReplaceAllStringFunc(text, func(block string) string {
			m := helpBlock.FindStringSubmatch(block)
			name := m[1]
			quoted[name] = true
			args := []string{"help"}
			if name != "" {
				if commands[name] == nil {
					t.Errorf("%s quotes the help of %q, which is no command", p, name)
					return block
				}
				args = append(args, name)
			}
			_, out, _ := runCLI(t, args...)
			if !strings.HasSuffix(out, "\n") {
				out += "\n"
			}
			return block[:len(block)-len(m[2])-len("```\n")] + out + "```\n"
		})
		if fresh == text {
			continue
		}
		if *update {
			if err := os.WriteFile(p, []byte(fresh), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s quotes a --help that differs from what bagclock prints now; run go test ./cmd/bagclock -run TestDocsHelp -update", p)
	}
	names := []string{""}
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !quoted[n] {
			t.Errorf("no file in docs/ quotes `bagclock help %s`: add a block <!-- bagclock help %s --> and a ```text fence to docs/cli.md, then run go test ./cmd/bagclock -run TestDocsHelp -update", n, n)
		}
	}
}
