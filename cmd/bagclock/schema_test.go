package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/bagclock/bagclock/internal/schematest"
	"github.com/bagclock/bagclock/internal/testenv"
)

// TestSchemaValidatesScanOutputs scans every shared bag, every committed
// sample and every generated time case (plus a cut MCAP and a bag that
// cannot be read) with the real analysis, and validates each report in
// reports/*.json against docs/schema/report.schema.json and each line of
// index.jsonl against docs/schema/index-row.schema.json, with an
// independent validator. It also checks that the optional sections were
// exercised, so a schema mistake in one cannot hide behind empty lists.
func TestSchemaValidatesScanOutputs(t *testing.T) {
	root := testenv.RepoRoot(t)
	arch := t.TempDir()
	place := func(src, dst string) {
		t.Helper()
		c := testenv.CopyTree(t, src)
		if err := os.MkdirAll(filepath.Dir(filepath.Join(arch, dst)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(c, filepath.Join(arch, dst)); err != nil {
			t.Fatal(err)
		}
	}
	place(filepath.Join(root, "testdata", "samples"), "samples")
	shared, haveShared := testenv.OptionalSharedDir(t)
	if haveShared {
		place(filepath.Join(shared, "bags"), "shared")
	}
	for _, c := range scenario.TimeCases() {
		if _, err := scenario.WriteTimeCase(filepath.Join(arch, "time", c.Name), c, bagwrite.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	// A cut MCAP (a damaged report) and a bag that is not one (an error row).
	demo := mustRead(t, filepath.Join(root, "testdata", "samples", "demo", "demo_0.mcap"))
	os.MkdirAll(filepath.Join(arch, "broken", "notabag"), 0o755)
	if err := os.WriteFile(filepath.Join(arch, "broken", "cut.mcap"), demo[:len(demo)*6/10], 0o644); err != nil {
		t.Fatal(err)
	}
	md := []byte("rosbag2_bagfile_information:\n  version: 5\n  storage_identifier: sqlite3\n  relative_file_paths:\n    - b_0.db3\n")
	os.WriteFile(filepath.Join(arch, "broken", "notabag", "metadata.yaml"), md, 0o644)
	os.WriteFile(filepath.Join(arch, "broken", "notabag", "b_0.db3"), []byte("neither SQLite nor MCAP"), 0o644)

	writeGarbageBag(t, filepath.Join(arch, "broken", "garbage"))
	haveROS1 := writeROS1Bags(t, filepath.Join(arch, "ros1"), root)

	out := filepath.Join(t.TempDir(), "out")
	scanInto(t, context.Background(), analyzeBag, out, archive.Shard{}, 1, arch)

	rowSchema := schematest.Schema(t, schematest.IndexRow)
	nRows, err := schematest.ValidateLines(rowSchema, mustRead(t, filepath.Join(out, "index.jsonl")))
	if err != nil {
		t.Fatalf("index.jsonl: %s", short(err))
	}
	rows := readIndex(t, out)
	reportSchema := schematest.Schema(t, schematest.Report)
	seen := map[string]bool{} // sections that were non-empty in some report
	statuses, storages := map[string]int{}, map[string]int{}
	nReports, nShared := 0, 0
	for _, r := range rows {
		statuses[r.Status]++
		storages[r.Storage]++
		if r.ReportJSON == "" {
			continue
		}
		data := mustRead(t, filepath.Join(out, filepath.FromSlash(r.ReportJSON)))
		if err := schematest.Validate(reportSchema, data); err != nil {
			t.Errorf("%s (%s): %s", r.ReportJSON, r.Rel, short(err))
			continue
		}
		nReports++
		if strings.HasPrefix(r.Rel, "shared/") {
			nShared++
		}
		var rep map[string]any
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		for k, v := range rep {
			switch v := v.(type) {
			case []any:
				if len(v) > 0 {
					seen[k] = true
				}
			case map[string]any:
				seen[k] = true
			}
		}
		if d, ok := rep["damage"].(map[string]any); ok && d["status"] != "ok" {
			seen["damage:"+d["status"].(string)] = true
		}
	}
	t.Logf("validated %d reports (%d of shared bags) and %d index rows %v %v", nReports, nShared, nRows, statuses, storages)
	if haveROS1 && storages[bagread.StorageROS1] == 0 {
		t.Errorf("no ROS 1 row: %v", storages)
	}
	if nRows != len(rows) || nReports == 0 {
		t.Fatalf("validated %d of %d rows, %d reports", nRows, len(rows), nReports)
	}
	if haveShared && nShared < 61 {
		t.Errorf("only %d reports of shared bags (61 expected)", nShared)
	}
	if statuses[archive.StatusError] == 0 || statuses[archive.StatusDamaged] == 0 {
		t.Errorf("no error or no damaged row validated: %v", statuses)
	}
	var missing []string
	for _, k := range []string{"scans", "nodes", "findings", "clock_jumps", "stamp_jumps", "stalls", "clock_rate",
		"skew", "tf_tree", "tf_findings", "rosout", "skipped", "pairs", "topics", "timer_clocks",
		"real_time_factor_range", "clock_steps", "stuck_zero", "ages", "sync", "damage:damaged"} {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no report had these sections, so their schema was not exercised: %v", missing)
	}
}

// short keeps the first lines of a validation error (one line per
// violating element can run to thousands).
func short(err error) string {
	lines := strings.SplitN(err.Error(), "\n", 13)
	if len(lines) == 13 {
		lines[12] = "..."
	}
	return strings.Join(lines, "\n")
}

// writeGarbageBag writes a db3 bag with one good LaserScan and two
// messages that cannot be decoded (a report with skipped[]).
func writeGarbageBag(t *testing.T, dir string) {
	t.Helper()
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: bagwrite.StorageSQLite3})
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range [][2]string{{"/scan", cdr.TypeLaserScan}, {"/tf", cdr.TypeTFMessage}} {
		if err := w.AddTopic(tp[0], tp[1]); err != nil {
			t.Fatal(err)
		}
	}
	garbage := []byte{0, 1, 0, 0, 0xff, 0xff, 0xff, 0x7f}
	scan := cdr.LaserScan{Header: cdr.Header{FrameID: "laser", Stamp: cdr.Time{Sec: 5}}}
	for i, data := range [][]byte{garbage, cdr.AppendLaserScan(nil, &scan, binary.LittleEndian), garbage} {
		if err := w.Write([]string{"/scan", "/scan", "/tf"}[i], int64(i+1)*1e9, int64(i+1)*1e9, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeROS1Bags writes two ROS 1 bags into dir with Debian's python3-rosbag
// (internal/ros1peer), as analysis's ROS 1 tests do; false when it is not
// installed (a failure under BAGCLOCK_REQUIRE_PEERS=1).
func writeROS1Bags(t *testing.T, dir, root string) bool {
	t.Helper()
	for _, c := range [][2]string{{"bz2", "scan_on_system_time"}, {"none", "zero_stamps"}} {
		if !writeROS1Bag(t, filepath.Join(dir, c[0]+"-"+c[1]+".bag"), c[0], c[1], "") {
			return false
		}
	}
	return true
}

// writeROS1Bag writes one ROS 1 bag with Debian's python3-rosbag
// (internal/ros1peer/rosbag_peer.py write): compression comp, scenario, and
// when active is not "" also the copy a crash mid-recording leaves (no
// index). False when the library is not installed (logged; a failure under
// BAGCLOCK_REQUIRE_PEERS=1).
func writeROS1Bag(t *testing.T, path, comp, scenario, active string) bool {
	t.Helper()
	python := "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import rosbag, sensor_msgs.msg, tf2_msgs.msg, rosgraph_msgs.msg").Run(); err != nil {
		if os.Getenv("BAGCLOCK_REQUIRE_PEERS") == "1" {
			t.Fatalf("BAGCLOCK_REQUIRE_PEERS=1: Debian's python3-rosbag is not installed: %v", err)
		}
		t.Logf("Debian's python3-rosbag is not installed, no ROS 1 bag written: %v", err)
		return false
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(testenv.RepoRoot(t), "internal", "ros1peer", "rosbag_peer.py")
	args := []string{script, "write", path, comp, scenario}
	if active != "" {
		args = append(args, active)
	}
	if out, err := exec.Command(python, args...).CombinedOutput(); err != nil {
		t.Fatalf("rosbag write: %v\n%s", err, out)
	}
	return true
}
