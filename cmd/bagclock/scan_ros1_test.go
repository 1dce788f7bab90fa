package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/testenv"
)

// TestScanMixedROS1AndROS2: an archive of rosbag2 bags and ROS 1 bags
// written by Debian's rosbag (bz2, lz4, uncompressed, a .bag.active a crash
// left, a ROS 1 bag inside a rosbag2 bag directory) is scanned into one
// index: every ROS 1 file is a row of its own with storage rosbag_v2 and
// format ros1, every rosbag2 bag format ros2; the .bag.active is analysed as
// damaged with the linear-scan note; the faulty bag's verdict names its node
// from callerid. Sharded scans merged give the single run's index byte for
// byte.
func TestScanMixedROS1AndROS2(t *testing.T) {
	arch := t.TempDir()
	root := testenv.RepoRoot(t)
	place := func(src, dst string) {
		t.Helper()
		c := testenv.CopyTree(t, src)
		if err := os.Rename(c, filepath.Join(arch, dst)); err != nil {
			t.Fatal(err)
		}
	}
	place(filepath.Join(root, "testdata", "samples", "variants"), "ros2")
	ros1 := map[string]string{ // rel -> wanted status
		"ros1/bz2-laser-on-system-time.bag": archive.StatusOK,
		"ros1/lz4-healthy.bag":              archive.StatusOK,
		"ros1/none-zero-stamps.bag":         archive.StatusOK,
		"ros1/crash/run.bag.active":         archive.StatusDamaged,
		"ros2/sqlite3-split/legacy.bag":     archive.StatusOK,
	}
	for _, w := range []struct{ rel, comp, scenario, active string }{
		{"ros1/bz2-laser-on-system-time.bag", "bz2", "scan_on_system_time", ""},
		{"ros1/lz4-healthy.bag", "lz4", "healthy", "ros1/crash/run.bag.active"},
		{"ros1/none-zero-stamps.bag", "none", "zero_stamps", ""},
		{"ros2/sqlite3-split/legacy.bag", "none", "healthy", ""},
	} {
		active := ""
		if w.active != "" {
			active = filepath.Join(arch, w.active)
			if err := os.MkdirAll(filepath.Dir(active), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if !writeROS1Bag(t, filepath.Join(arch, w.rel), w.comp, w.scenario, active) {
			t.Skip("no ROS 1 bags without Debian's python3-rosbag")
		}
	}

	base := t.TempDir()
	whole := filepath.Join(base, "whole")
	if code, stderr := scanInto(t, context.Background(), analyzeBag, whole, archive.Shard{}, 2, arch); code != exitOK {
		t.Fatalf("scan exit %d\n%s", code, stderr)
	}
	rows := readIndex(t, whole)
	seen := map[string]bool{}
	nROS2 := 0
	for _, r := range rows {
		want, isROS1 := ros1[r.Rel]
		switch {
		case isROS1:
			seen[r.Rel] = true
			if r.Status != want || r.Storage != bagread.StorageROS1 || r.Format != archive.FormatROS1 {
				t.Errorf("%s: status %s storage %q format %q, want %s rosbag_v2 ros1 (%s)", r.Rel, r.Status, r.Storage, r.Format, want, r.Error)
			}
			if r.Scans == 0 || r.Skipped != 0 {
				t.Errorf("%s: %d scans, %d skipped", r.Rel, r.Scans, r.Skipped)
			}
		default:
			nROS2++
			if r.Format != archive.FormatROS2 {
				t.Errorf("%s: storage %q format %q, want ros2", r.Rel, r.Storage, r.Format)
			}
		}
		if strings.HasSuffix(r.Rel, ".active") && !strings.Contains(strings.Join(r.Problems, "; "), "linear scan") {
			t.Errorf("%s: problems %q do not say it was read by a linear scan", r.Rel, r.Problems)
		}
		if r.Rel == "ros1/bz2-laser-on-system-time.bag" && !strings.Contains(r.Verdict, "/hokuyo_node publishes /scan with system time") {
			t.Errorf("%s: verdict %q does not name the node", r.Rel, r.Verdict)
		}
	}
	if len(seen) != len(ros1) || nROS2 == 0 {
		t.Errorf("ROS 1 rows %v of %d, %d ROS 2 rows", seen, len(ros1), nROS2)
	}

	// index.csv carries the format column.
	recs, err := csv.NewReader(bytes.NewReader(mustRead(t, filepath.Join(whole, "index.csv")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, c := range recs[0] {
		if c == "format" {
			col = i
		}
	}
	formats := map[string]int{}
	for _, rec := range recs[1:] {
		if col >= 0 {
			formats[rec[col]]++
		}
	}
	if col < 0 || formats["ros1"] != len(ros1) || formats["ros2"] != nROS2 {
		t.Errorf("index.csv format column %d: %v", col, formats)
	}
	if html := mustRead(t, filepath.Join(whole, "index.html")); !bytes.Contains(html, []byte("<th>format</th>")) || !bytes.Contains(html, []byte("<td>ros1</td>")) {
		t.Error("index.html has no format column with ros1")
	}

	// Shards merged equal the single run.
	var outs []string
	for i := 1; i <= 2; i++ {
		o := filepath.Join(base, "shard", string(rune('0'+i)))
		scanInto(t, context.Background(), analyzeBag, o, archive.Shard{Index: i, Count: 2}, 1, arch)
		outs = append(outs, o)
	}
	merged := filepath.Join(base, "merged")
	e, errb := testEnv()
	if code := run(append([]string{"merge", "--out", merged}, outs...), e); code != exitOK {
		t.Fatalf("merge exit %d\n%s", code, errb)
	}
	for _, name := range []string{"index.jsonl", "index.csv"} {
		if a, b := mustRead(t, filepath.Join(merged, name)), mustRead(t, filepath.Join(whole, name)); len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("merged %s differs from the single run's", name)
		}
	}
}
