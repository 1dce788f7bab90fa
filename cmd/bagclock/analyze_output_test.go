package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestChooseFormat(t *testing.T) {
	tests := []struct {
		format  string
		set     bool
		out     string
		want    string
		wantErr string
	}{
		{"csv", false, "", "csv", ""},
		{"csv", false, "-", "csv", ""},
		{"csv", false, "report.html", "html", ""},
		{"csv", false, "REPORT.HTM", "html", ""},
		{"csv", false, "r.json", "json", ""},
		{"csv", false, "rows.csv", "csv", ""},
		{"csv", false, "rows.txt", "csv", ""},
		{"json", true, "rows.txt", "json", ""},
		{"json", true, "r.json", "json", ""},
		{"html", true, "-", "html", ""},
		{"csv", true, "report.html", "", "contradicts"},
		{"json", true, "rows.csv", "", "contradicts"},
		{"xml", true, "", "", "want csv, json or html"},
	}
	for _, tc := range tests {
		got, err := chooseFormat(tc.format, tc.set, tc.out)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("chooseFormat(%q, %v, %q) = %q, %v; want error %q", tc.format, tc.set, tc.out, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("chooseFormat(%q, %v, %q) = %q, %v; want %q", tc.format, tc.set, tc.out, got, err, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	frames := []string{"base_footprint", "base_link", "base_scan", "map", "odom"}
	tests := []struct{ name, want string }{
		{"odm", "odom"},
		{"Odom", "odom"},
		{"/map", "map"},
		{"base_lnk", "base_link"},
		{"laser", ""},
		{"world", ""},
		{"scan", "base_scan"}, // contained
	}
	for _, tc := range tests {
		if got := closest(tc.name, frames); got != tc.want {
			t.Errorf("closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAnalyzeOutputFile: the -o file is replaced only by a complete report;
// the format follows its extension; -o - is stdout.
func TestAnalyzeOutputFile(t *testing.T) {
	dir := t.TempDir()
	prev := []byte("previous report\n")
	keep := func(t *testing.T, name string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, prev, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noTemps := func(t *testing.T) {
		t.Helper()
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".tmp") {
				t.Errorf("temporary file %s left behind", e.Name())
			}
		}
	}

	failures := []struct {
		name string
		args []string
		code int
	}{
		{"unreadable bag", []string{"/nonexistent"}, exitFailure},
		{"unknown target frame", []string{demoBag, "--target-frame", "odm"}, exitUsage},
		{"unknown topic", []string{demoBag, "--scan-topic", "/front_scan"}, exitUsage},
		{"wrong topic type", []string{demoBag, "--scan-topic", "/tf"}, exitUsage},
	}
	for _, tc := range failures {
		for _, ext := range []string{".json", ".csv", ".html"} {
			t.Run(tc.name+ext, func(t *testing.T) {
				p := keep(t, "r"+ext)
				code, out, errOut := runCLI(t, append([]string{"analyze", "-o", p}, tc.args...)...)
				if code != tc.code {
					t.Errorf("exit %d, want %d: %s", code, tc.code, errOut)
				}
				if got, _ := os.ReadFile(p); string(got) != string(prev) {
					t.Errorf("failed run changed %s: %.80q", p, got)
				}
				if out != "" {
					t.Errorf("stdout %.80q, want nothing", out)
				}
				noTemps(t)
			})
		}
	}

	t.Run("extension decides the format, mode kept", func(t *testing.T) {
		for ext, head := range map[string]string{".html": "<!DOCTYPE html>", ".json": "{", ".csv": "topic,scan_index,"} {
			p := keep(t, "ok"+ext)
			if code, _, errOut := runCLI(t, "analyze", demoBag, "-o", p); code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			got, err := os.ReadFile(p)
			if err != nil || !strings.HasPrefix(string(got), head) {
				t.Errorf("%s starts %.40q, want %q", p, got, head)
			}
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("%s mode %v, want the replaced file's 0600", p, fi.Mode())
			}
		}
		noTemps(t)
	})

	t.Run("contradiction refused", func(t *testing.T) {
		p := keep(t, "c.html")
		if code, _, errOut := runCLI(t, "analyze", demoBag, "--format", "csv", "-o", p); code != exitUsage || !strings.Contains(errOut, "contradicts") {
			t.Errorf("exit %d: %s", code, errOut)
		}
		if got, _ := os.ReadFile(p); string(got) != string(prev) {
			t.Errorf("refused run changed %s", p)
		}
	})

	t.Run("dash is stdout", func(t *testing.T) {
		code, out, errOut := runCLI(t, "analyze", demoBag, "--format", "html", "-o", "-")
		if code != exitOK || !strings.HasPrefix(out, "<!DOCTYPE html>") {
			t.Errorf("exit %d, stdout %.40q: %s", code, out, errOut)
		}
		if _, err := os.Stat("-"); err == nil {
			t.Error("a file named - was created")
		}
	})

	t.Run("missing directory fails before reading", func(t *testing.T) {
		code, _, errOut := runCLI(t, "analyze", demoBag, "-o", filepath.Join(dir, "no", "such", "r.json"))
		if code != exitFailure {
			t.Errorf("exit %d: %s", code, errOut)
		}
	})
}

// TestAnalyzeSelectionErrors: names the bag lacks are usage errors that list
// what it has, with the closest match; a name without its slash resolves.
func TestAnalyzeSelectionErrors(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		code  int
		wants []string
	}{
		{"frame typo", []string{"--target-frame", "odm"}, exitUsage, []string{`did you mean "odom"`, "tf frames (3): base_link, laser, odom"}},
		{"frame the bag lacks", []string{"--target-frame", "map"}, exitUsage, []string{"no transform in the bag uses this frame", "base_link, laser, odom"}},
		{"frame with slash", []string{"--target-frame", "/odom", "--format", "json"}, exitOK, []string{"laser driver publishes /scan"}},
		{"topic without slash", []string{"--scan-topic", "scan"}, exitOK, []string{"laser driver publishes /scan"}},
		{"topic typo", []string{"--scan-topic", "sacn"}, exitUsage, []string{`did you mean "/scan"`, "LaserScan topics (1): /scan"}},
		{"wrong type", []string{"--scan-topic", "tf"}, exitUsage, []string{"topic /tf has type tf2_msgs/msg/TFMessage, not sensor_msgs/msg/LaserScan"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, append([]string{"analyze", demoBag}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d: %s", code, tc.code, errOut)
			}
			for _, w := range tc.wants {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
		})
	}
}

// TestAnalyzeUnreadableBag: a bag of which no message can be read is a
// failure (exit 3) even under --fail-on, and leaves no report behind.
func TestAnalyzeUnreadableBag(t *testing.T) {
	dir := t.TempDir()
	bag := filepath.Join(dir, "magic.mcap")
	if err := os.WriteFile(bag, []byte("\x89MCAP0\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.json")
	code, _, errOut := runCLI(t, "analyze", bag, "--fail-on", "drop,damage", "-o", out)
	if code != exitFailure || !strings.Contains(errOut, "Unreadable bag: no message can be read") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a report was written for an unreadable bag")
	}
}

// TestAnalyzeOutputToFIFO: -o naming a FIFO (or a device such as
// /dev/null) writes into it in place; renaming a temporary file over it
// replaced /dev/null with a regular file when run as root.
func TestAnalyzeOutputToFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "report.json")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(p) // blocks until bagclock opens it for writing
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	code, _, stderr := runCLI(t, "analyze", demoBag, "-o", p)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var b []byte
	select {
	case b = <-got:
	case <-time.After(time.Minute):
		t.Fatal("the reader of the FIFO got no end of file")
	}
	if !bytes.HasPrefix(b, []byte(`{"schema_version":`)) {
		t.Errorf("the FIFO carried %.60q, want the JSON report", b)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a FIFO: %v %v", p, fi.Mode(), err)
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Errorf("files beside the FIFO: %v", ents)
	}
}
