package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// runCLI runs the command line in-process and returns exit code, stdout and
// stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &env{stdout: &out, stderr: &errOut, stdin: strings.NewReader("")})
	return code, out.String(), errOut.String()
}

type infoJSON struct {
	Storage               string `json:"storage"`
	Files                 []any  `json:"files"`
	Messages              uint64 `json:"messages"`
	StartNS               int64  `json:"start_ns"`
	EndNS                 int64  `json:"end_ns"`
	MetadataReconstructed bool   `json:"metadata_reconstructed"`
	Recovery              []string
	Topics                []struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Count       uint64 `json:"count"`
		Undecodable int    `json:"undecodable"`
		HeaderStamp struct {
			MinNS int64 `json:"min_ns"`
			MaxNS int64 `json:"max_ns"`
		} `json:"header_stamp"`
	} `json:"topics"`
}

// TestInfoSharedBags checks `info --json` against facts listed in
// ../shared/bags/PROVENANCE.md, which were obtained with other tools.
func TestInfoSharedBags(t *testing.T) {
	tests := []struct {
		bag           string
		storage       string
		messages      uint64
		reconstructed bool
		topic         string
		count         uint64
		stampMinNS    int64 // header stamp range of topic (ms precision)
		stampMaxNS    int64
	}{
		{"tb3-walker-humble-nitesh", "sqlite3", 8542, false, "/scan", 127, 567e6, 25767e6},
		{"tb3-walker-corrupt-metadata", "sqlite3", 7911, true, "/scan", 118, 6353e6, 29753e6},
		{"tb3-unclean-wal-no-metadata", "sqlite3", 2457, true, "/clock", 225, 1383493e6, 1405960e6},
		{"evo-nav2-turtlebot-mcap", "mcap", 8197, true, "/tf", 5422, 9288e8, 10264e8},
		{"tb3-roomba-v4-empty-scan", "sqlite3", 10078, false, "/scan", 0, 0, 0},
		// The two deliberately empty bags: a FILE-compressed Foxy bag and
		// rosbag2's own empty test bag (with -wal and -shm).
		{"rosbag2-compressed-bag-foxy", "sqlite3", 0, false, "/rosout", 0, 0, 0},
		{"rosbag2-head/ros2bag/test/resources/empty_bag", "sqlite3", 0, false, "/rosout", 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.bag, func(t *testing.T) {
			path := testenv.SharedBag(t, tc.bag)
			var got infoJSON
			runInfoJSON(t, path, &got)
			if got.Storage != tc.storage || got.Messages != tc.messages || got.MetadataReconstructed != tc.reconstructed {
				t.Errorf("storage %q messages %d reconstructed %v; want %q %d %v",
					got.Storage, got.Messages, got.MetadataReconstructed, tc.storage, tc.messages, tc.reconstructed)
			}
			if len(got.Files) == 0 || got.StartNS > got.EndNS {
				t.Errorf("files %d, start %d end %d", len(got.Files), got.StartNS, got.EndNS)
			}
			found := false
			for _, top := range got.Topics {
				if top.Name != tc.topic {
					continue
				}
				found = true
				if top.Count != tc.count || top.Undecodable != 0 {
					t.Errorf("%s: count %d undecodable %d; want %d, 0", tc.topic, top.Count, top.Undecodable, tc.count)
				}
				if tc.count > 0 && (abs(top.HeaderStamp.MinNS-tc.stampMinNS) > 1e6 || abs(top.HeaderStamp.MaxNS-tc.stampMaxNS) > 1e6) {
					t.Errorf("%s: header stamps %d..%d; want %d..%d (±1 ms)", tc.topic,
						top.HeaderStamp.MinNS, top.HeaderStamp.MaxNS, tc.stampMinNS, tc.stampMaxNS)
				}
			}
			if !found {
				t.Errorf("topic %s missing", tc.topic)
			}
		})
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestInfoTruncatedMCAP cuts MCAP files (a committed sample always, the
// nav2 bag when the shared bags are there) and expects info to report the
// recovery instead of failing.
func TestInfoTruncatedMCAP(t *testing.T) {
	srcs := []string{filepath.Join(testenv.RepoRoot(t), "testdata", "samples", "variants", "mcap-zstd-chunks", "mcap-zstd-chunks_0.mcap")}
	if shared, ok := testenv.OptionalSharedDir(t); ok {
		srcs = append(srcs, filepath.Join(shared, "bags", "evo-nav2-turtlebot-mcap", "nav2_turtlebot.mcap"))
	}
	for _, src := range srcs {
		t.Run(filepath.Base(src), func(t *testing.T) {
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			cut := filepath.Join(t.TempDir(), "cut.mcap")
			if err := os.WriteFile(cut, data[:len(data)*2/3], 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runCLI(t, "info", cut)
			if code != exitOK {
				t.Fatalf("exit %d, stderr: %s", code, errOut)
			}
			if !strings.Contains(out, "Recovered:") {
				t.Errorf("no recovery line in:\n%s", out)
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, exitUsage, "Usage"},
		{[]string{"nosuch"}, exitUsage, "unknown command"},
		{[]string{"info"}, exitUsage, "exactly one BAG"},
		{[]string{"info", "--bogus", "x"}, exitUsage, "unknown flag"},
		{[]string{"info", "/nonexistent/bag"}, exitFailure, "/nonexistent/bag"},
		{[]string{"--version"}, exitOK, "bagclock "},
		{[]string{"info", "--help"}, exitOK, "Usage: bagclock info"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d (want %d); output does not contain %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
}
