package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestManPage: `bagclock help man` is docs/bagclock.1 (go test
// ./cmd/bagclock -run TestManPage -update rewrites it), it quotes every
// command's help, and man(1), when installed, formats it without warnings.
func TestManPage(t *testing.T) {
	code, out, errOut := runCLI(t, "help", "man")
	if code != exitOK || errOut != "" {
		t.Fatalf("help man: exit %d, %s", code, errOut)
	}
	for n := range commands {
		if !strings.Contains(out, ".SS bagclock "+n+"\n") {
			t.Errorf("the man page has no section for %s", n)
		}
	}
	const golden = "../../docs/bagclock.1"
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != out {
		t.Errorf("%s is not what `bagclock help man` prints now; run go test ./cmd/bagclock -run TestManPage -update", golden)
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Log("groff not installed: the page's formatting is not checked")
		return
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-z", golden)
	msg, err := cmd.CombinedOutput()
	if err != nil || len(msg) > 0 {
		t.Errorf("groff -man warns about %s: %v\n%s", golden, err, msg)
	}
}
