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
		{"bz2", "scan_on_system_time", string(LaserOnSystemClock), "/hokuyo_node publishes /scan with system time while tf follows /clock: in ROS 1, set the global parameter /use_sim_time to true and restart /hokuyo_node"},
		{"none", "zero_stamps", "zero_stamp", "400 scans stamped 0: /hokuyo_node uses sim time"},
	}
	for _, tc := range cases {
		t.Run(tc.comp+"-"+tc.scenario, func(t *testing.T) {
			bag, err := bagread.Open(ros1Bag(t, tc.comp, tc.scenario), bagread.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer bag.Close()
			reasons := map[string]int{}
			rep, err := analyzeFinished(bag, Config{}, func(r *ScanRow) error {
				// noetic's tf2_ros::MessageFilter: its enum's reasons, no
				// drop line of its own.
				reasons[r.FilterOutcome+"/"+r.FilterReason]++
				if r.FilterLogLine != "" {
					t.Errorf("scan %d: log line %q claimed for a ROS 1 consumer", r.ScanIndex, r.FilterLogLine)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for k := range reasons {
				if !ros1Reasons[k] {
					t.Errorf("outcome/reason %q is not ROS 1's (%v)", k, reasons)
				}
			}
			if tc.scenario == "scan_on_system_time" && reasons["dropped_queue_full/Unknown"] == 0 {
				t.Errorf("system-stamped scans never pushed out of the queue as Unknown: %v", reasons)
			}
			// No ROS 2 reason string or drop line in the advice.
			for _, s := range append([]string{rep.Verdict.Sentence}, rep.Verdict.Evidence...) {
				for _, ros2 := range []string{"Message Filter dropping", "discarding message because", "earlier than all the data"} {
					if strings.Contains(s, ros2) {
						t.Errorf("ROS 2 filter wording %q in a ROS 1 verdict: %s", ros2, s)
					}
				}
			}
			if tc.scenario == "scan_on_system_time" && !strings.Contains(strings.Join(rep.Verdict.Evidence, " "), "with reason Unknown and no log line") {
				t.Errorf("evidence lacks ROS 1's queue-full wording: %q", rep.Verdict.Evidence)
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
			if rep.Summary.Verdict != rep.Verdict.Sentence {
				t.Errorf("summary verdict %q is not the verdict's sentence", rep.Summary.Verdict)
			}
			// The node table lists every publisher the connections name.
			var nodes []string
			for _, n := range rep.Nodes {
				nodes = append(nodes, n.Node+":"+strings.Join(n.Publishes, ","))
			}
			if got := strings.Join(nodes, " "); got != "/hokuyo_node:/scan /play:/clock /robot_base:/tf /robot_state_publisher:/tf_static /rosout:/rosout" {
				t.Errorf("nodes: %s", got)
			}
			for _, c := range rep.Verdict.Commands {
				if strings.HasPrefix(c, "ros2 ") {
					t.Errorf("ROS 2 command in a ROS 1 verdict: %s", c)
				}
			}
			if tc.class != VerdictNoProblem && !contains(rep.Verdict.Commands, "rosparam get /use_sim_time") {
				t.Errorf("commands %q lack rosparam get /use_sim_time", rep.Verdict.Commands)
			}
			if len(rep.TFTree) != 4 {
				t.Errorf("tf tree: %d links, want 4 (two static, two dynamic)", len(rep.TFTree))
			}
		})
	}
}

// ros1Reasons are the outcomes a ROS 1 consumer's filter can give, with
// the tf2_ros::filter_failure_reasons value it signals.
var ros1Reasons = map[string]bool{
	"passed/": true, "passed_after_wait/": true, "pending_at_end/": true,
	"dropped_queue_full/Unknown": true, "dropped_unknown/Unknown": true,
	"dropped_out_the_back/OutTheBack": true, "dropped_empty_frame/EmptyFrameID": true,
}

// TestROS1Split: the files of a split ROS 1 recording, written by Debian's
// rosbag as rosbag record --split leaves them, each analysed alone. The
// first has the latched /tf_static; a later one has it only when recorded
// with --repeat-latched (then it starts with a copy), and without it the
// verdict says where the static transforms went instead of blaming the
// frame_id.
func TestROS1Split(t *testing.T) {
	ros1Bag(t, "none", "tiny") // skips without the peer
	script, _ := filepath.Abs("../internal/ros1peer/rosbag_peer.py")
	dir := t.TempDir()
	for _, repeat := range []string{"repeat", "no"} {
		if out, err := exec.Command("/usr/bin/python3", script, "split", filepath.Join(dir, repeat), "lz4", repeat).CombinedOutput(); err != nil {
			t.Fatalf("rosbag split: %v\n%s", err, out)
		}
	}
	for _, tc := range []struct {
		file, class string
		want        []string // in the sentence
		passed      int      // scans passed, out of 200
	}{
		{"no_0.bag", VerdictNoProblem, nil, 199},
		{"repeat_1.bag", VerdictNoProblem, nil, 199},
		{"no_1.bag", VerdictFrameNotInTree, []string{"first file (no_0.bag)", "--repeat-latched"}, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			bag, err := bagread.Open(filepath.Join(dir, tc.file), bagread.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer bag.Close()
			passed := 0
			rep, err := analyzeFinished(bag, Config{}, func(r *ScanRow) error {
				if r.FilterOutcome == "passed" {
					passed++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict.Class != tc.class {
				t.Errorf("verdict %s: %s", rep.Verdict.Class, rep.Verdict.Sentence)
			}
			for _, w := range tc.want {
				if !strings.Contains(rep.Verdict.Sentence, w) {
					t.Errorf("sentence lacks %q: %s", w, rep.Verdict.Sentence)
				}
			}
			if tc.class == VerdictNoProblem && strings.Contains(rep.Verdict.Sentence, "split") {
				t.Errorf("split advice on a complete file: %s", rep.Verdict.Sentence)
			}
			// The first scan of each file precedes its first transform.
			if passed != tc.passed {
				t.Errorf("%d of 200 scans passed, want %d", passed, tc.passed)
			}
		})
	}
}
