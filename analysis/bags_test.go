package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/testenv"
)

// analyzeShared opens a private copy of ../shared/bags/<name> and analyses it.
func analyzeShared(t *testing.T, name string, cfg Config) (*Report, []ScanRow) {
	t.Helper()
	dir := testenv.CopyTree(t, testenv.SharedBag(t, name))
	bag, err := bagread.Open(dir, bagread.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer bag.Close()
	var rows []ScanRow
	rep, err := analyzeFinished(bag, cfg, func(r *ScanRow) error { rows = append(rows, *r); return nil })
	if err != nil {
		t.Fatalf("analyze %s: %v", name, err)
	}
	return rep, rows
}

func TestDumpShared(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	entries, _ := os.ReadDir(filepath.Join(testenv.SharedDir(t), "bags"))
	for _, e := range entries {
		if !e.IsDir() || !scanBags[e.Name()] {
			continue
		}
		rep, _ := analyzeShared(t, e.Name(), Config{})
		t.Logf("%s: scans=%d classes=%v filter=%v jumps=%d stampjumps=%d zero=%+v findings=%v\n  verdict: %s\n  evidence: %q\n  tf=%d skew=%+v rosout=%d pairs=%+v", e.Name(), rep.Summary.Scans, rep.Summary.Classes, rep.Summary.Filter, rep.Counts.ClockJumps, rep.Counts.StampJumps, rep.ZeroStamp, rep.Summary.Findings, rep.Verdict.Sentence, rep.Verdict.Evidence, len(rep.TFTree), rep.Skew, len(rep.Rosout), rep.Pairs)
	}
}

// scanBags are the shared bags that hold LaserScan messages or topics.
var scanBags = map[string]bool{
	"tb3-walker-humble-nitesh": true, "tb3-walker-humble-sameer": true, "tb3-walker-simstart": true,
	"tb3-walker-no-metadata": true, "tb3-walker-corrupt-metadata": true, "tb3-roomba-v4-empty-scan": true,
	"tb3-amcl-foxy-a": true, "tb3-amcl-foxy-b": true, "tb3-unclean-wal-no-metadata": true,
	"uts-pfms-quiz5": true, "uts-pfms-a3-sample": true, "selfdriving-real-scan-no-tf": true,
	"mumble-isaac-scan": true, "rerun-rosbag2-humble-mcap": true, "evo-nav2-turtlebot-mcap": true,
}

// TestSharedBags asserts facts from ../shared/bags/PROVENANCE.md and what
// the analysis finds in them.
func TestSharedBags(t *testing.T) {
	cases := []struct {
		bag     string
		scans   int
		classes map[string]int
		target  string
		check   func(t *testing.T, rep *Report, rows []ScanRow)
	}{
		// Gazebo sim recorded from sim start: scans and tf both on /clock.
		{bag: "tb3-walker-humble-nitesh", scans: 127, classes: map[string]int{"same_clock": 127}, target: "odom",
			check: func(t *testing.T, rep *Report, rows []ScanRow) {
				noDrops(t, rep)
				// Every sensor topic is analysed: the IMU (5081 messages)
				// on tf's clock, its first 6 dropped before the tree
				// existed (start-up); odometry is in odom, the target.
				imu, odom := pairOf(t, rep, "/imu"), pairOf(t, rep, "/odom")
				if imu.Classes["same_clock"] != 5075 || imu.Classes["no_transform"] != 6 || imu.StartupDrops != 6 ||
					imu.Type != "sensor_msgs/msg/Imu" || imu.Consumer != "rviz-display" {
					t.Errorf("/imu = %+v", imu)
				}
				if odom.FrameID != "odom" || odom.Classes["static_only"] != 745 {
					t.Errorf("/odom = %+v", odom)
				}
				if !strings.HasPrefix(rep.Verdict.Sentence, "/scan, /imu and tf are on the same clock") {
					t.Errorf("verdict %q", rep.Verdict.Sentence)
				}
				if rep.ClockRate == nil || rep.ClockRate.Messages != 255 || rep.Counts.ClockJumps != 0 {
					t.Errorf("clock = %+v, %d jumps; want 255 messages, no jump", rep.ClockRate, rep.Counts.ClockJumps)
				}
				for _, r := range rows {
					if r.Topic != "/scan" {
						continue
					}
					if r.StalestChild != "base_footprint" || r.StalestTopic != "/tf" || r.DiffS < -0.05 || r.DiffS > 0.05 {
						t.Fatalf("row %+v: want odom->base_footprint on /tf within 50 ms", r)
					}
				}
			}},
		{bag: "tb3-walker-simstart", scans: 41, classes: map[string]int{"same_clock": 41}, target: "odom",
			check: func(t *testing.T, rep *Report, _ []ScanRow) { noDrops(t, rep) }},
		{bag: "tb3-walker-no-metadata", scans: 135, classes: map[string]int{"same_clock": 135}, target: "odom"},
		{bag: "tb3-walker-corrupt-metadata", scans: 118, classes: map[string]int{"same_clock": 118}, target: "odom"},
		// map->odom on /tf_static carries a wall-clock stamp (a publisher
		// without use_sim_time) beside sim-time tf: static, so harmless to
		// tf2, and reported as evidence.
		{bag: "tb3-unclean-wal-no-metadata", scans: 114, classes: map[string]int{"same_clock": 114}, target: "odom",
			check: func(t *testing.T, rep *Report, _ []ScanRow) {
				found := false
				for _, l := range rep.TFTree {
					if l.Parent == "map" && l.Child == "odom" {
						found = true
						if !l.Static || l.Topic != "/tf_static" || l.NewestNS/1_000_000 != 1696430108316 {
							t.Errorf("map->odom = %+v, want static on /tf_static stamped 1696430108.316 s", l)
						}
					}
				}
				if !found {
					t.Error("no map->odom link")
				}
				if !containsSub(rep.Verdict.Evidence, "Static link map->odom on /tf_static") {
					t.Errorf("evidence lacks the wall-clock static link: %q", rep.Verdict.Evidence)
				}
			}},
		// /tf_static has no messages: no base_link->base_scan, nothing
		// connects the laser to odom.
		{bag: "tb3-amcl-foxy-b", scans: 10, classes: map[string]int{"no_transform": 10}, target: "odom",
			check: func(t *testing.T, rep *Report, _ []ScanRow) {
				if !strings.HasPrefix(rep.Verdict.Sentence, "No transform in this bag names /scan's frame 'base_scan' (the tf tree has map, odom, base_footprint)") ||
					!containsSub(rep.Verdict.Evidence, "/tf_static was recorded without any message") {
					t.Errorf("verdict = %q, evidence %q", rep.Verdict.Sentence, rep.Verdict.Evidence)
				}
			}},
		{bag: "tb3-roomba-v4-empty-scan", scans: 0, classes: map[string]int{},
			check: func(t *testing.T, rep *Report, _ []ScanRow) {
				// The empty /scan leads, then the tf tree's warning: no
				// "no clock problem" headline over them.
				if !strings.HasPrefix(rep.Verdict.Sentence, "/scan was recorded without a single message (often a QoS mismatch") ||
					!strings.Contains(rep.Verdict.Sentence, "the tf tree has a warning") || strings.Contains(rep.Verdict.Sentence, "no clock problem") {
					t.Errorf("verdict = %q", rep.Verdict.Sentence)
				}
				// The IMU is analysed instead: on tf's clock, 6 start-up drops.
				noDrops(t, rep)
				imu := pairOf(t, rep, "/imu")
				if imu.Classes["same_clock"] != 5181 || imu.StartupDrops != 6 {
					t.Errorf("/imu = %+v", imu)
				}
			}},
		// Real robot, no tf and no /clock; stamps 774 s against wall-clock
		// record times: a clock that is not the recorder's.
		{bag: "selfdriving-real-scan-no-tf", scans: 177, classes: map[string]int{"no_transform": 177}, target: "odom",
			check: func(t *testing.T, rep *Report, _ []ScanRow) {
				// Its only stamped topic is on another clock than the
				// recorder: not a mixture (sim_time), said once.
				if rep.Skew[0].Kind != SkewSimTime || !containsSub(rep.Verdict.Evidence, "the bag has no /clock: it was recorded without /clock") ||
					!strings.HasPrefix(rep.Verdict.Sentence, "This bag has no /tf or /tf_static") || has(rep.Summary.Findings, "drop") {
					t.Errorf("skew %+v evidence %q", rep.Skew[0], rep.Verdict.Evidence)
				}
			}},
		// Isaac Sim with wall-clock stamps: a ~1.5 ms age, ok.
		{bag: "mumble-isaac-scan", scans: 147, classes: map[string]int{"no_transform": 147}, target: "odom",
			check: func(t *testing.T, rep *Report, _ []ScanRow) {
				if s := rep.Skew[0]; s.Kind != SkewOK || s.MedianS > 0.01 || s.MedianS < 0 {
					t.Errorf("skew = %+v", s)
				}
			}},
		// rosbags-converted: record times are sim time; no odom frame, so
		// the root of the laser's tree (world) is the target.
		{bag: "uts-pfms-quiz5", scans: 39, classes: map[string]int{"same_clock": 39}, target: "world",
			check: func(t *testing.T, rep *Report, _ []ScanRow) { noDrops(t, rep) }},
		{bag: "uts-pfms-a3-sample", scans: 2, target: "world"},
		{bag: "rerun-rosbag2-humble-mcap", scans: 1, classes: map[string]int{"no_transform": 1}, target: "odom"},
		{bag: "tb3-amcl-foxy-a", scans: 17, target: "odom"},
		{bag: "tb3-walker-humble-sameer", scans: 102, target: "odom"},
	}
	for _, c := range cases {
		t.Run(c.bag, func(t *testing.T) {
			rep, rows := analyzeShared(t, c.bag, Config{})
			if len(rows) != rep.Summary.Rows {
				t.Errorf("rows %d/%d", len(rows), rep.Summary.Rows)
			}
			// The LaserScan facts from PROVENANCE.md; other sensor topics
			// are checked per bag below.
			scans, classes := 0, map[string]int{}
			for _, r := range rows {
				if r.Type == "sensor_msgs/msg/LaserScan" {
					scans++
					classes[string(r.Class)]++
				}
			}
			if scans != c.scans {
				t.Errorf("%d LaserScan rows, want %d scans", scans, c.scans)
			}
			for k, v := range c.classes {
				if classes[k] != v {
					t.Errorf("LaserScan classes = %v, want %v", classes, c.classes)
				}
			}
			if c.target != "" {
				for _, r := range rows {
					// A topic in the target frame is checked against the
					// root above it (TestDefaultTargetAboveOdom).
					if r.TargetFrame != c.target && r.Topic != "/husky/sonar" && r.FrameID != c.target {
						t.Fatalf("row target %q, want %q", r.TargetFrame, c.target)
					}
				}
			}
			if rep.Verdict.Sentence == "" || rep.Summary.Skipped != 0 {
				t.Errorf("verdict %q, skipped %d", rep.Verdict.Sentence, rep.Summary.Skipped)
			}
			if c.check != nil {
				c.check(t, rep, rows)
			}
		})
	}
}

// noDrops: no drop finding (start-up drops of messages stamped before the
// first transform on their path do not count), and the LaserScan pairs
// drop nothing at all.
func noDrops(t *testing.T, rep *Report) {
	t.Helper()
	if containsSub(rep.Summary.Findings, "drop") {
		t.Errorf("findings %v (filter %v), want no drop", rep.Summary.Findings, rep.Summary.Filter)
	}
	for _, p := range rep.Pairs {
		for k, v := range p.Filter {
			if p.Type == "sensor_msgs/msg/LaserScan" && len(k) > 8 && k[:8] == "dropped_" && v > 0 {
				t.Errorf("%s filter = %v, want no drops", p.Topic, p.Filter)
			}
		}
	}
}

// pairOf returns the pair summary of topic (first target).
func pairOf(t *testing.T, rep *Report, topic string) PairSummary {
	t.Helper()
	for _, p := range rep.Pairs {
		if p.Topic == topic {
			return p
		}
	}
	t.Fatalf("no pair for %s in %+v", topic, rep.Pairs)
	return PairSummary{}
}

func containsSub(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
