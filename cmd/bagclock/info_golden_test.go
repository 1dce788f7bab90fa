package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bagclock/bagclock/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenInfoBags are shared bags of every kind info meets: sqlite3 and
// MCAP, with and without metadata.yaml, corrupt metadata, FILE
// compression, an unclean WAL, an empty bag, many topics, sim and system
// time.
var goldenInfoBags = []string{
	"tb3-walker-humble-nitesh",
	"tb3-walker-corrupt-metadata",
	"tb3-unclean-wal-no-metadata",
	"evo-nav2-turtlebot-mcap",
	"rerun-rosbag2-humble-mcap",
	"zstd-file-compressed-humble",
	"rosbag2-compressed-bag-foxy",
	"jazzy-v9-mcap-chatter",
}

// TestInfoGolden compares the default `info` text of shared bags with
// testdata/info/NAME.txt (go test -run TestInfoGolden -update rewrites
// them) and checks every line fits 100 columns. The bag is opened through
// a symlink named like it, from its directory, so the text does not depend
// on where the shared material lives.
func TestInfoGolden(t *testing.T) {
	links := t.TempDir()
	golden, err := filepath.Abs(filepath.Join("testdata", "info"))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(golden, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, name := range goldenInfoBags {
		// WAL bags are read from a private copy, never in place.
		if err := os.Symlink(testenv.SharedBag(t, name), filepath.Join(links, name)); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	t.Chdir(links)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "info", name)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for i, line := range strings.Split(out, "\n") {
				if w := utf8.RuneCountInString(line); w > infoWidth {
					t.Errorf("line %d is %d columns:\n%s", i+1, w, line)
				}
			}
			file := filepath.Join(golden, name+".txt")
			if *update {
				if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if out != string(want) {
				t.Errorf("info %s differs from %s (-update rewrites it):\n%s", name, file, lineDiff(string(want), out))
			}
		})
	}
}

// lineDiff shows the first differing lines of two texts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\nwant: " + a + "\ngot:  " + b
		}
	}
	return "(same lines)"
}

// TestInfoFormats: --format json equals --json, contradicting flags are
// refused, --wide prints the full table with exact stamps and sizes in
// bytes, and the default text gives human sizes.
func TestInfoFormats(t *testing.T) {
	bag := "../../testdata/samples/demo"
	_, viaJSON, _ := runCLI(t, "info", "--json", bag)
	code, viaFormat, errOut := runCLI(t, "info", "--format", "json", bag)
	if code != exitOK || viaFormat != viaJSON || !json.Valid([]byte(viaFormat)) {
		t.Errorf("info --format json: exit %d, same as --json %v, valid JSON %v: %s", code, viaFormat == viaJSON, json.Valid([]byte(viaFormat)), errOut)
	}
	var rep struct {
		SizeBytes int64 `json:"size_bytes"`
	}
	if err := json.Unmarshal([]byte(viaJSON), &rep); err != nil || rep.SizeBytes <= 0 {
		t.Errorf("JSON size_bytes %d (%v), want the size in bytes", rep.SizeBytes, err)
	}
	for _, args := range [][]string{{"--format", "yaml"}, {"--format", "text", "--json"}} {
		if code, _, errOut := runCLI(t, append(append([]string{"info"}, args...), bag)...); code != exitUsage {
			t.Errorf("info %v: exit %d, want %d: %s", args, code, exitUsage, errOut)
		}
	}
	_, text, _ := runCLI(t, "info", bag)
	_, wide, _ := runCLI(t, "info", "--wide", bag)
	if !strings.Contains(wide, strconv.FormatInt(rep.SizeBytes, 10)+" bytes") || !strings.Contains(wide, "HEADER STAMP (s)") {
		t.Errorf("info --wide lacks the size in bytes or the full table:\n%s", wide)
	}
	if strings.Contains(text, strconv.FormatInt(rep.SizeBytes, 10)) || !strings.Contains(text, humanBytes(rep.SizeBytes)) {
		t.Errorf("info text should give the size as %s, not in bytes:\n%s", humanBytes(rep.SizeBytes), text)
	}
}

func TestHumanUnits(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{humanBytes(0), "0 bytes"},
		{humanBytes(1), "1 byte"},
		{humanBytes(1023), "1023 bytes"},
		{humanBytes(1024), "1.00 KiB"},
		{humanBytes(3629056), "3.46 MiB"},
		{humanBytes(25 << 30), "25.0 GiB"},
		{humanDuration(26370384048), "26.370 s"},
		{humanDuration(125e9), "125.000 s (2 min 5 s)"},
		{humanDuration(3723370e6), "3723.370 s (1 h 2 min 3 s)"},
		{humanRate(199.63), "200 Hz"},
		{humanRate(48.8), "48.8 Hz"},
		{humanRate(4.987), "4.99 Hz"},
		{humanRate(0.0012), "0.0012 Hz"},
		// Rounding across a power of ten keeps three digits.
		{humanRate(99.96), "100 Hz"},
		{humanRate(99.94), "99.9 Hz"},
		{humanRate(9.997), "10.0 Hz"},
		{humanRate(9.994), "9.99 Hz"},
		{humanBytes(10238), "10.0 KiB"},
		{humanBytes(1048550), "1.00 MiB"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
