package verdict

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

func TestROS1Command(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ros2 param get /laser use_sim_time", "rosparam get /use_sim_time"},
		{listUseSimTimeCmd, "rosparam get /use_sim_time"},
		{"ros2 topic echo /scan --field header.stamp --once", "rostopic echo -n 1 /scan/header/stamp"},
		{"ros2 topic echo /clock --once", "rostopic echo -n 1 /clock"},
		{"ros2 topic info /tf --verbose", "rostopic info /tf"},
		{"ros2 topic hz /cmd_vel", "rostopic hz /cmd_vel"},
		{"ros2 topic delay /late", "rostopic delay /late"},
		{"ros2 run tf2_ros tf2_echo odom laser  " + tf2EchoNote, "rosrun tf tf_echo odom laser"},
		{"ros2 run tf2_tools view_frames", "rosrun tf2_tools view_frames.py"},
		{"ros2 bag info x", ""},
		{"date -u", "date -u"},
	} {
		if got := ros1Command(tc.in); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := ros1Commands([]string{"ros2 param get /a use_sim_time", "ros2 param get /b use_sim_time", "ros2 bag info x"}); len(got) != 1 {
		t.Errorf("commands %q: want one rosparam get", got)
	}
}

// TestROS1FilterWording: the ROS 2 filter's reason strings and drop line
// in the verdict become what a ROS 1 consumer shows.
func TestROS1FilterWording(t *testing.T) {
	for _, tc := range []struct{ sentence, evidence, want string }{
		{sentence: `/scan has 3 messages with an empty frame_id: tf2_ros::MessageFilter drops every one ("Message Filter dropping message: frame '' at time … for reason 'the frame id of the message is empty'"); set the frame_id`,
			want: "ROS 1's tf2_ros::MessageFilter drops every one with reason EmptyFrameID and logs nothing"},
		{evidence: `A scan stamped ~1.79e9 s ahead of tf waits for a transform that never comes; the filter drops it when the queue is full ("discarding message because the queue is full").`,
			want: "with reason Unknown and no log line"},
		{evidence: `A scan ~1.79e9 s behind tf is more than the cache time (10 s) older than the latest transform: dropped at once as "earlier than all the data in the transform cache".`,
			want: `"Message removed because it is too old (frame=[…], stamp=[…])"`},
	} {
		v := &analysis.Verdict{Sentence: tc.sentence, Evidence: []string{tc.evidence}}
		ros1Wording(v, &analysis.Report{}, "")
		got := v.Sentence + " " + v.Evidence[0]
		if !strings.Contains(got, tc.want) {
			t.Errorf("%q: want %q", got, tc.want)
		}
		for _, ros2 := range []string{"Message Filter dropping", "discarding message because", "earlier than all the data"} {
			if strings.Contains(got, ros2) {
				t.Errorf("ROS 2 wording %q left in %q", ros2, got)
			}
		}
	}
}

func TestROS1FirstSplit(t *testing.T) {
	for _, tc := range []struct {
		path      string
		tfStatic  int
		wantFirst string
	}{
		{"/d/run_2026-01-01-10-00-00_3.bag", 0, "run_2026-01-01-10-00-00_0.bag"},
		{"/d/run_1.bag.active", 0, "run_0.bag"},
		{"/d/run_0.bag", 0, ""},
		{"/d/run_00.bag", 0, ""},
		{"/d/run_1.bag", 2, ""},
		{"/d/run.bag", 0, ""},
	} {
		rep := &analysis.Report{Bag: analysis.BagSummary{Path: tc.path}}
		if tc.tfStatic > 0 {
			rep.Topics = []analysis.TopicSummary{{Topic: "/tf_static", Role: "tf_static", Messages: tc.tfStatic}}
		}
		if got := ros1FirstSplit(rep); got != tc.wantFirst {
			t.Errorf("%s (tf_static %d): %q, want %q", tc.path, tc.tfStatic, got, tc.wantFirst)
		}
	}
}

// TestROS1NamesGuessedPublisher: in a ROS 1 bag the node the headline
// guessed from the topic's type ("the laser driver") is named from the
// connection records, for the topic the rule says it guessed and no
// other; a headline about several topics, or a publisher the bag does
// not name, keeps the noun.
func TestROS1NamesGuessedPublisher(t *testing.T) {
	ros1 := func(r *analysis.Report, pubs map[string][]string) *analysis.Report {
		r.Bag.Storage = analysis.StorageROS1
		r.Pass.Publishers = pubs
		return r
	}
	laser := func(topics ...string) []analysis.PairSummary {
		var ps []analysis.PairSummary
		for _, tp := range topics {
			ps = append(ps, pairWith(tp, analysis.LaserOnSystemClock, 0, 10))
		}
		return ps
	}
	for _, tc := range []struct {
		name string
		rep  *analysis.Report
		want string
	}{
		{"one driver, named by the bag", ros1(sensorReport(laser("/scan"), 1.79e9), map[string][]string{"/scan": {"/hokuyo_node"}}), "/hokuyo_node publishes /scan with system time while tf follows /clock: in ROS 1, set the global parameter /use_sim_time to true and restart /hokuyo_node (a ROS 1 node reads /use_sim_time once, when it starts)."},
		{"one driver, two callerids", ros1(sensorReport(laser("/scan"), 1.79e9), map[string][]string{"/scan": {"/a_node", "/b_node"}}), "/a_node or /b_node publishes /scan with system time while tf follows /clock: in ROS 1, set the global parameter /use_sim_time to true and restart /a_node or /b_node (a ROS 1 node reads /use_sim_time once, when it starts)."},
		{"one driver, not named", ros1(sensorReport(laser("/scan"), 1.79e9), map[string][]string{"/other": {"/x"}}), "The laser driver publishes /scan with system time while tf follows /clock: in ROS 1, set the global parameter /use_sim_time to true and restart the node publishing /scan."},
		{"two drivers", ros1(sensorReport(laser("/a", "/b"), 1.79e9, 1.79e9), map[string][]string{"/a": {"/na"}, "/b": {"/nb"}}), "The drivers of /a and /b publish with system time while tf follows /clock: set use_sim_time:=true on the nodes publishing them."},
		{"a headline that guesses no publisher", ros1(sensorReport(pairs(pairWith("/scan", analysis.ClockSkew, 0, 10)), 1), map[string][]string{"/scan": {"/hokuyo_node"}}), "/scan and tf (odom->laser) are 1.000 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP)."},
		{"stamped 0, one topic", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/scan", analysis.ZeroStamp, 0, 10)), -100)
			r.ZeroStamp.Count = 10
			return ros1(r, map[string][]string{"/scan": {"/hokuyo_node"}})
		}(), "/scan has 10 scans stamped 0: /hokuyo_node uses sim time but published before it received /clock; tf2 pairs those scans with the latest pose."},
	} {
		v := Decide(tc.rep)
		if v.Sentence != tc.want {
			t.Errorf("%s: %q\nwant %q", tc.name, v.Sentence, tc.want)
		}
	}
}
