package analysis

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/testenv"
)

// timeSummary is what the time checks (issue 11) report for one bag: the
// findings they add, then one word per topic that is not plain.
func timeSummary(rep *Report) string {
	var parts []string
	for _, f := range rep.Summary.Findings {
		switch f {
		case failOnWallTimer, failOnClockStep, failOnStuckZero, failOnStale:
			parts = append(parts, f)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "none")
	}
	for _, tc := range rep.TimerClocks {
		if tc.Clock == TimerWall || tc.Clock == TimerSim {
			parts = append(parts, fmt.Sprintf("%s:%s", tc.Topic, tc.Clock))
		}
	}
	for _, s := range rep.ClockSteps {
		parts = append(parts, fmt.Sprintf("step:%s:%s:%.3f", s.Source, s.Kind, s.StepS))
	}
	for _, z := range rep.StuckZero {
		parts = append(parts, fmt.Sprintf("%s:%s", z.Topic, z.Kind))
	}
	for _, ag := range rep.Ages {
		if ag.Kind != AgeOK {
			parts = append(parts, fmt.Sprintf("%s:%s", ag.Topic, ag.Kind))
		}
	}
	return strings.Join(parts, " ")
}

// sharedTimeExpect is what every bag under ../shared/bags reports for the
// time checks, and why.
var sharedTimeExpect = map[string]struct{ want, why string }{
	"ait-ros2bag-tools/day_time.bag":                                                  {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"ait-ros2bag-tools/diagnostics.bag":                                               {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"ait-ros2bag-tools/images.bag":                                                    {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"ait-ros2bag-tools/test.bag":                                                      {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"ait-rosbag2-tools/multi_topic.bag":                                               {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"ait-rosbag2-tools/range.bag":                                                     {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"evo-nav2-turtlebot-mcap/nav2_turtlebot.mcap":                                     {"none step:record_time:forward:1.931", "a 1.93 s silence of every topic at +41 s with the stamps jumping along: a step forward or a pause, which the bag cannot tell apart: reported, not a finding"},
	"evo-tf-example":                                                                  {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"jazzy-v9-mcap-chatter":                                                           {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"klintan-sample-oldschema/sample.db3":                                             {"none", "two messages 345 s apart: sparse data, not a step"},
	"mumble-isaac-scan":                                                               {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"rerun-rosbag2-humble-mcap":                                                       {"none", "sample publishers: /range has 10 messages (half older than 0.5 s, latched and late-discovered), too few to call stale; the 1.6 s gap is at the start"},
	"rosbag2-cdr-test-v1":                                                             {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-cdr-test-v3":                                                             {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-compressed-bag-foxy":                                                     {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/ros2bag/test/resources/empty_bag":                                   {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_cpp/test/rosbag2_cpp/bags/only_services.mcap":               {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_cpp/test/rosbag2_cpp/bags/only_topics.mcap":                 {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.db3":          {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.mcap":         {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_py/test/resources/mcap/convert_a":                           {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_py/test/resources/mcap/convert_b":                           {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_py/test/resources/mcap/reindex_test_bags/multiple_files":    {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_py/test/resources/mcap/talker":                              {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_py/test/resources/mcap/wbag":                                {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_py/test/resources/sqlite3/convert_a":                        {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_py/test/resources/sqlite3/convert_b":                        {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_py/test/resources/sqlite3/reindex_test_bags/multiple_files": {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_py/test/resources/sqlite3/talker":                           {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_py/test/resources/sqlite3/wbag":                             {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_tests/resources/mcap/bag_with_topics_and_service_events":    {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_tests/resources/mcap/cdr_test":                              {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_tests/resources/mcap/wrong_rmw_test":                        {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_tests/resources/sqlite3/bag_with_topics_and_service_events": {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_tests/resources/sqlite3/cdr_test":                           {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_tests/resources/sqlite3/wrong_rmw_test":                     {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_transport/test/resources/mcap/rewriter_a":                   {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_transport/test/resources/mcap/rewriter_b":                   {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_transport/test/resources/mcap/test_bag_for_seek":            {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_transport/test/resources/sqlite3/rewriter_a":                {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_transport/test/resources/sqlite3/rewriter_b":                {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-head/rosbag2_transport/test/resources/sqlite3/test_bag_for_seek":         {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-reindex-test-bags/file_compression":                                      {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-reindex-test-bags/message_compression":                                   {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbag2-reindex-test-bags/multiple_files":                                        {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
	"rosbags-rs-test-bags/test_bag_mcap":                                              {"none", "synthetic, 2 messages per topic: the 3.5 s gaps between them are sparse data, not a step (fewer than 50 messages on either side); ages of seconds over 2 messages are too few to call stale"},
	"rosbags-rs-test-bags/test_bag_sqlite3":                                           {"none", "synthetic, 2 messages per topic: the 3.5 s gaps between them are sparse data, not a step (fewer than 50 messages on either side); ages of seconds over 2 messages are too few to call stale"},
	"selfdriving-real-scan-no-tf":                                                     {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"tb3-amcl-foxy-a":                                                                 {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"tb3-amcl-foxy-b":                                                                 {"none /odom:sim", "Gazebo: /odom's sim stamps are regular while its record times are not: sim timer, not flagged"},
	"tb3-roomba-v4-empty-scan":                                                        {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"tb3-unclean-wal-no-metadata":                                                     {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"tb3-walker-corrupt-metadata":                                                     {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"tb3-walker-humble-nitesh":                                                        {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"tb3-walker-humble-sameer":                                                        {"none /imu:sim /odom:sim /scan:sim /cmd_vel:sim /performance_metrics:wall", "Gazebo at a varying real-time factor: /imu, /odom and /scan come from simulator plugins on sim time (regular sim stamps, irregular record times): sim, not flagged; read for record times only: /performance_metrics (Gazebo's real-time-factor report: 4.7 Hz wall with a 3 % spread, 6.4 Hz sim) is on wall time by design, not flagged; /joint_states is faster than the 10 Hz /clock, so sim time does not resolve its intervals, and its rate per 2 s window is steadier in sim time than in wall time: undetermined, not flagged; /cmd_vel (Twist) follows /scan, so its rate per window is steady in sim time: sim"},
	"tb3-walker-no-metadata":                                                          {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"tb3-walker-simstart":                                                             {"none /imu:sim /joint_states:wall", "Gazebo from sim start (real-time factor 0.57..1.0): /imu follows sim time; the 1.4 s wait for the first /clock is at the start, not a step; /joint_states (record times only) is faster than /clock, so sim time does not resolve its period: wall at confidence 0.5, not flagged"},
	"tf-static-only-humble":                                                           {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"uts-pfms-a3-sample":                                                              {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"uts-pfms-quiz5":                                                                  {"none", "real-time factor about 1 (or no /clock): wall and sim timers cannot be told apart; no step, no stuck stamps, no stale topic"},
	"zstd-file-compressed-humble":                                                     {"none", "rosbag2/tool test data: no /clock, no record-time step, no stamp stuck at 0, no analysed topic often older than 0.5 s"},
}

// TestSharedBagsTimeChecks analyses every bag under ../shared/bags and
// compares what the time checks report with sharedTimeExpect.
func TestSharedBagsTimeChecks(t *testing.T) {
	root := filepath.Join(testenv.SharedDir(t), "bags")
	d := bagread.Discover(root)
	got := map[string]string{}
	for _, b := range d.Bags {
		rel := b.Rel
		dir := testenv.CopyTree(t, b.Path)
		bag, err := bagread.Open(dir, bagread.Options{TempDir: t.TempDir()})
		if err != nil {
			got[rel] = "open error"
			continue
		}
		rep, err := analyzeFinished(bag, Config{}, nil)
		bag.Close()
		if rep == nil {
			got[rel] = "analyze error"
			continue
		}
		got[rel] = timeSummary(rep)
		t.Logf("%s: %s\n  verdict: %s\n  timers %+v\n  rtf %+v\n  ages %+v\n  steps %+v", rel, got[rel], rep.Verdict.Sentence, rep.TimerClocks, rep.RealTimeFactorRange, rep.Ages, rep.ClockSteps)
	}
	var names []string
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		e, ok := sharedTimeExpect[n]
		if !ok {
			t.Errorf("%s reports %q: add it to sharedTimeExpect with the reason", n, got[n])
			continue
		}
		if got[n] != e.want {
			t.Errorf("%s reports %q, want %q (%s)", n, got[n], e.want, e.why)
		}
	}
	for n := range sharedTimeExpect {
		if _, ok := got[n]; !ok {
			t.Errorf("%s is expected but not in ../shared/bags", n)
		}
	}
}
