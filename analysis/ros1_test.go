package analysis

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// ros1Bag writes a bag with Debian's python3-rosbag (internal/ros1peer);
// a missing peer skips, or fails under BAGCLOCK_REQUIRE_PEERS=1.
func ros1Bag(t *testing.T, comp, scenario string) string {
	t.Helper()
	python := "/usr/bin/python3"
	script, _ := filepath.Abs("../internal/ros1peer/rosbag_peer.py")
	if err := exec.Command(python, "-c", "import rosbag, sensor_msgs.msg, tf2_msgs.msg, rosgraph_msgs.msg").Run(); err != nil {
		if os.Getenv("BAGCLOCK_REQUIRE_PEERS") == "1" {
			t.Fatalf("BAGCLOCK_REQUIRE_PEERS=1: Debian's python3-rosbag is not installed: %v", err)
		}
		t.Skipf("Debian's python3-rosbag is not installed: %v", err)
	}
	path := filepath.Join(t.TempDir(), comp+"-"+scenario+".bag")
	if out, err := exec.Command(python, script, "write", path, comp, scenario).CombinedOutput(); err != nil {
		t.Fatalf("rosbag write: %v\n%s", err, out)
	}
	return path
}

// TestROS1Bags: ROS 1 bags written by the real rosbag library are
// analysed through the ROS 1 deserializer: no message skipped, every scan
// gets a row, and the verdict is the one the scenario was built for (a
// healthy bag, a laser on system time under /clock, zero stamps), in every
// compression and with /tf as the legacy tf/tfMessage.
func TestROS1Bags(t *testing.T) {
	cases := []struct {
		comp, scenario, class, sentence string
	}{
		{"none", "healthy", VerdictNoProblem, "no clock problem"},
		{"lz4", "legacy_tf", VerdictNoProblem, "no clock problem"},
		{"bz2", "scan_on_system_time", string(LaserOnSystemClock), "publishes /scan with system time while tf follows /clock"},
		{"none", "zero_stamps", "zero_stamp", "400 scans stamped 0"},
	}
	for _, tc := range cases {
		t.Run(tc.comp+"-"+tc.scenario, func(t *testing.T) {
			bag, err := bagread.Open(ros1Bag(t, tc.comp, tc.scenario), bagread.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer bag.Close()
			rep, err := Analyze(bag, Config{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Skipped) != 0 {
				t.Errorf("skipped: %+v", rep.Skipped)
			}
			if rep.Summary.Scans != 400 || rep.Summary.Rows != 400 {
				t.Errorf("%d messages, %d rows, want 400", rep.Summary.Scans, rep.Summary.Rows)
			}
			if rep.Verdict.Class != tc.class || !strings.Contains(rep.Verdict.Sentence, tc.sentence) {
				t.Errorf("verdict %s: %s", rep.Verdict.Class, rep.Verdict.Sentence)
			}
			if len(rep.TFTree) != 4 {
				t.Errorf("tf tree: %d links, want 4 (two static, two dynamic)", len(rep.TFTree))
			}
		})
	}
}
