package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeMaxBytes is the front page's budget: a newcomer reads it in five
// minutes, and the reference lives in docs/.
const readmeMaxBytes = 12 * 1024

// twoCommands returns the indented command lines of README's "The two
// commands" section, in order.
func twoCommands(t *testing.T, readme string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "\n## The two commands\n")
	if !ok {
		t.Fatal(`README.md has no "## The two commands" section`)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	var cmds []string
	for line := range strings.SplitSeq(rest, "\n") {
		if cmd, ok := strings.CutPrefix(line, "    "); ok && strings.TrimSpace(cmd) != "" {
			cmds = append(cmds, strings.TrimSpace(cmd))
		}
	}
	return cmds
}

// TestREADMEFreshClone clones the repository's committed tree into a
// temporary folder and runs README's first command there exactly as
// written, as a newcomer would; the second command must be the one
// .ci/run runs. It checks what a committed tree holds, so changes not yet
// committed are not seen (CI runs on a clean clone).
func TestREADMEFreshClone(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and builds the binary")
	}
	root, err := exec.Command("git", "-C", "../..", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not a git checkout (%v): nothing to clone", err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(readme) > readmeMaxBytes {
		t.Errorf("README.md is %d bytes, over the %d budget: move reference to docs/", len(readme), readmeMaxBytes)
	}
	cmds := twoCommands(t, string(readme))
	if len(cmds) != 2 {
		t.Fatalf("README's two commands section shows %d commands, want 2: %q", len(cmds), cmds)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains("\n"+string(ci)+"\n", "\n"+cmds[1]+"\n") {
		t.Errorf(".ci/run does not run README's test command %q as a line of its own", cmds[1])
	}
	if !strings.HasPrefix(cmds[0], "go run ") {
		t.Fatalf("README's first command %q does not start with go run", cmds[0])
	}

	clone := filepath.Join(t.TempDir(), "bagclock")
	if out, err := exec.Command("git", "clone", "-q", "--no-hardlinks", strings.TrimSpace(string(root)), clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	sh := exec.Command("sh", "-c", cmds[0])
	sh.Dir = clone
	var stderr bytes.Buffer
	sh.Stdout, sh.Stderr = &stderr, &stderr
	if err := sh.Run(); err != nil {
		t.Fatalf("README's first command %q in a fresh clone: %v\n%s", cmds[0], err, stderr.String())
	}
	out := outputOf(t, cmds[0])
	if out == "" {
		t.Fatalf("README's first command %q names no -o file: the main job writes the HTML report", cmds[0])
	}
	report, err := os.ReadFile(filepath.Join(clone, out))
	if err != nil {
		t.Fatalf("README's first command wrote no %s: %v\n%s", out, err, stderr.String())
	}
	if !bytes.HasPrefix(bytes.ToLower(bytes.TrimSpace(report)), []byte("<!doctype html>")) || !bytes.Contains(report, []byte("</html>")) {
		t.Errorf("%s is not a whole HTML page (%d bytes)", out, len(report))
	}
	if !strings.Contains(stderr.String(), "laser driver publishes /scan with system time") {
		t.Errorf("the demo bag's verdict is not on stderr:\n%s", stderr.String())
	}
	if !bytes.Contains(report, []byte("laser driver publishes /scan with system time")) {
		t.Errorf("%s does not carry the demo bag's verdict", out)
	}
}

// outputOf is the -o argument of a command line, or "".
func outputOf(t *testing.T, cmd string) string {
	t.Helper()
	f := strings.Fields(cmd)
	for i, a := range f {
		if (a == "-o" || a == "--output") && i+1 < len(f) {
			return f[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--output="); ok {
			return v
		}
	}
	return ""
}
