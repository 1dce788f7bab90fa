package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// internals are fragments of Go call chains and package prefixes that
// must not reach a user: they say where in the code, not what is wrong.
var internals = []string{"bagread:", "analysis:", "inventory:", "cdr:", "identify storage", "first bytes",
	"stat ", "open ", "parse metadata", " yaml: ", "panic", ".go:"}

// TestErrorsInUsersWords runs info and analyze on bad inputs and checks
// that each message names the file, says what is wrong and what to do,
// without package prefixes or Go call chains.
func TestErrorsInUsersWords(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mkdir := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		path string
		// want are fragments the message must hold (besides the path).
		want []string
	}{
		{"missing path", filepath.Join(dir, "no-such-bag"), []string{"no such file or directory", "Check the path"}},
		{"empty db3", write("empty.db3", nil), []string{"not a ROS bag", "empty (0 bytes)", "BAG is a bag directory"}},
		{"empty mcap", write("empty.mcap", nil), []string{"empty (0 bytes)"}},
		{"text file", write("notes.txt", []byte("hello\n")), []string{"neither a sqlite3 (.db3), an MCAP nor a ROS 1 (.bag) file", "BAG is a bag directory"}},
		{"foreign binary", write("x.mcap", []byte{0x00, 0xff, 0x13, 0x37, 'Z'}), []string{"neither a sqlite3"}},
		{"empty directory", mkdir("emptydir"), []string{"no storage files", "no metadata.yaml"}},
		{"metadata.yaml given", write("bag/metadata.yaml", []byte("rosbag2_bagfile_information:\n  version: 5\n")),
			[]string{"metadata.yaml; pass the directory", "Try: bagclock CMD " + filepath.Join(dir, "bag")}},
		{"bad yaml, no storage", write("badyaml/metadata.yaml", []byte("rosbag2_bagfile_information:\n  version: [\n")),
			[]string{"not valid YAML (line 2", "no storage files"}},
		{"sqlite header, garbage body", write("fake.db3", append([]byte("SQLite format 3\x00"), make([]byte, 600)...)), []string{"sqlite"}},
	}
	for _, tc := range tests {
		for _, command := range []string{"info", "analyze"} {
			t.Run(command+"/"+tc.name, func(t *testing.T) {
				path := tc.path
				if tc.name == "bad yaml, no storage" {
					path = filepath.Dir(path)
				}
				code, _, errOut := runCLI(t, command, path)
				if code != exitFailure {
					t.Errorf("exit %d, want %d", code, exitFailure)
				}
				if !strings.Contains(errOut, path) {
					t.Errorf("message does not name %s:\n%s", path, errOut)
				}
				for _, w := range tc.want {
					w = strings.ReplaceAll(w, "CMD", command)
					if !strings.Contains(errOut, w) {
						t.Errorf("message lacks %q:\n%s", w, errOut)
					}
				}
				for _, bad := range internals {
					if strings.Contains(errOut, bad) {
						t.Errorf("message shows internals (%q):\n%s", bad, errOut)
					}
				}
			})
		}
	}
}

// TestFolderOfBagsSuggestsThem: pointing info at a folder of bags lists
// them and suggests scan.
func TestFolderOfBagsSuggestsThem(t *testing.T) {
	path := testenv.SharedBag(t, "rosbags-rs-test-bags")
	code, _, errOut := runCLI(t, "info", path)
	if code != exitFailure || !strings.Contains(errOut, "holds 2 bags") || !strings.Contains(errOut, "bagclock scan "+path) {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	for _, bad := range internals {
		if strings.Contains(errOut, bad) {
			t.Errorf("message shows internals (%q):\n%s", bad, errOut)
		}
	}
}
