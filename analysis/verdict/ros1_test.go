package verdict

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestCommandFamilies: each command as ROS 2 writes it and as ROS 1
// does (or "" for none), from the same data.
func TestCommandFamilies(t *testing.T) {
	for _, tc := range []struct {
		c          command
		ros2, ros1 string
	}{
		{paramSimTime("/laser"), "ros2 param get /laser use_sim_time", "rosparam get /use_sim_time"},
		{listSimTime(), listUseSimTimeCmd, "rosparam get /use_sim_time"},
		{echo("/scan", "header.stamp"), "ros2 topic echo /scan --field header.stamp --once", "rostopic echo -n 1 /scan/header/stamp"},
		{echo("/clock", ""), "ros2 topic echo /clock --once", "rostopic echo -n 1 /clock"},
		{topicVerb("info", "/tf", true), "ros2 topic info /tf --verbose", "rostopic info /tf"},
		{topicVerb("hz", "/cmd_vel", false), "ros2 topic hz /cmd_vel", "rostopic hz /cmd_vel"},
		{topicVerb("delay", "/late", false), "ros2 topic delay /late", "rostopic delay /late"},
		{tfEcho("odom", "laser", true), "ros2 run tf2_ros tf2_echo odom laser  " + tf2EchoNote, "rosrun tf tf_echo odom laser"},
		{tfEcho("odom", "base_link", false), "ros2 run tf2_ros tf2_echo odom base_link", "rosrun tf tf_echo odom base_link"},
		{viewFrames(), "ros2 run tf2_tools view_frames", "rosrun tf2_tools view_frames.py"},
		{ros2Only("ros2 param list <the driver node> | grep -i -e time -e stamp"), "ros2 param list <the driver node> | grep -i -e time -e stamp", ""},
		{shell("chronyc tracking"), "chronyc tracking", "chronyc tracking"},
	} {
		if got := tc.c.ros2(); got != tc.ros2 {
			t.Errorf("ROS 2: %q, want %q", got, tc.ros2)
		}
		if got := tc.c.ros1(); got != tc.ros1 {
			t.Errorf("ROS 1 of %q: %q, want %q", tc.ros2, got, tc.ros1)
		}
	}
	// ROS 1 says each line once and leaves out what it has no match for;
	// ROS 2 keeps every command, in order.
	cmds := []command{paramSimTime("/a"), paramSimTime("/b"), listSimTime(), ros2Only("ros2 bag info x"), shell("date -u")}
	if got, want := renderCommands(cmds, true), []string{"rosparam get /use_sim_time", "date -u"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ROS 1: %q, want %q", got, want)
	}
	if got := renderCommands(cmds, false); len(got) != len(cmds) {
		t.Errorf("ROS 2: %q, want all %d", got, len(cmds))
	}
	if got := renderCommands(nil, false); got == nil {
		t.Error("no commands must be an empty list (JSON []), not nil")
	}
}

// TestROS1FilterWording: a ROS 1 bag's verdict says what a ROS 1
// consumer's filter shows, not the ROS 2 reason strings and drop line,
// from the sentence on (the family is chosen when the words are written).
func TestROS1FilterWording(t *testing.T) {
	ros1 := func(r *analysis.Report) *analysis.Report {
		r.Bag.Storage = analysis.StorageROS1
		return r
	}
	for _, tc := range []struct {
		name string
		rep  *analysis.Report
		want string
	}{
		{"an empty frame_id", ros1(func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/scan", analysis.NoTransform, 0, 3)))
			r.Pairs[0].Filter["dropped_empty_frame"] = 3
			r.Pairs[0].FrameID, r.Pairs[0].ConnectedAtEnd = "", false
			return r
		}()), "/scan has 3 messages with an empty frame_id: ROS 1's tf2_ros::MessageFilter drops every one with reason EmptyFrameID and logs nothing; set the frame_id"},
		{"a laser ahead of tf", ros1(sensorReport(pairs(pairWith("/scan", analysis.LaserOnSystemClock, 0, 10)), 1.79e9)),
			"A scan stamped ~1.79e9 s ahead of tf waits for a transform that never comes; ROS 1's filter drops it when the queue is full, with reason Unknown and no log line; RViz's display status then shows the tf error (\"For frame […]: No transform to fixed frame […]\")."},
		{"tf ahead of a laser", ros1(sensorReport(pairs(pairWith("/scan", analysis.TFOnSystemClock, 0, 10)), -1.79e9)),
			`A scan ~1.79e9 s behind tf is more than the cache time (10 s) older than the latest transform: dropped at once as OutTheBack; RViz's display status shows "Message removed because it is too old (frame=[…], stamp=[…])".`},
		{"stamped 0 though /clock was there", ros1(sensorReport(pairs(pairWith("/scan", analysis.ZeroStamp, 0, 10)))),
			"None of them arrived before the first recorded /clock: /clock was published, yet the driver never received it (its /clock subscription, or ROS_MASTER_URI differs, or it ignores sim time for stamps)."},
	} {
		v := Decide(tc.rep)
		got := v.Sentence + "\n" + strings.Join(v.Evidence, "\n")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q\nwant %q", tc.name, got, tc.want)
		}
		for _, ros2 := range []string{"Message Filter dropping", "discarding message because", "earlier than all the data", "ROS_DOMAIN_ID", "use_sim_time:=true"} {
			if strings.Contains(got, ros2) {
				t.Errorf("%s: ROS 2 wording %q in %q", tc.name, ros2, got)
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
		// Several drivers: ROS 1's global parameter and a restart, not
		// ROS 2's per-node use_sim_time:=true (which a ROS 1 bag's
		// headline once kept), naming the nodes when the bag names each
		// topic's.
		{"two drivers", ros1(sensorReport(laser("/a", "/b"), 1.79e9, 1.79e9), map[string][]string{"/a": {"/na"}, "/b": {"/nb"}}), "The drivers of /a and /b publish with system time while tf follows /clock: in ROS 1, set the global parameter /use_sim_time to true and restart /na and /nb (a ROS 1 node reads /use_sim_time once, when it starts)."},
		{"two drivers, one not named", ros1(sensorReport(laser("/a", "/b"), 1.79e9, 1.79e9), map[string][]string{"/a": {"/na"}}), "The drivers of /a and /b publish with system time while tf follows /clock: in ROS 1, set the global parameter /use_sim_time to true and restart the nodes publishing them (a ROS 1 node reads /use_sim_time once, when it starts)."},
		{"two drivers off /clock", func() *analysis.Report {
			var ps []analysis.PairSummary
			for _, tp := range []string{"/a", "/b"} {
				ps = append(ps, pairWith(tp, analysis.StaticOnly, 0, 10))
			}
			r := sensorReport(ps)
			r.Pass.StartNS = 1_790_000_000e9
			r.Pass.ClockSeen, r.Pass.ClockFirstNS, r.Pass.ClockLastNS = true, 1e9, 60e9
			for _, tp := range []string{"/a", "/b"} {
				r.Skew = append(r.Skew, analysis.Skew{Topic: tp, Count: 10, MedianS: 0.01, Kind: "ok"})
			}
			return ros1(r, map[string][]string{"/a": {"/na"}, "/b": {"/nb", "/na"}})
		}(), "/a and /b are stamped with system time while /clock runs sim time: their drivers ignore use_sim_time; in ROS 1, set the global parameter /use_sim_time to true and restart /na and /nb (a ROS 1 node reads /use_sim_time once, when it starts)."},
		{"one driver off /clock, named", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/a", analysis.StaticOnly, 0, 10)))
			r.Pass.StartNS = 1_790_000_000e9
			r.Pass.ClockSeen, r.Pass.ClockFirstNS, r.Pass.ClockLastNS = true, 1e9, 60e9
			r.Skew = []analysis.Skew{{Topic: "/a", Count: 10, MedianS: 0.01, Kind: "ok"}}
			return ros1(r, map[string][]string{"/a": {"/na"}})
		}(), "/a is stamped with system time while /clock runs sim time: /na ignores use_sim_time; in ROS 1, set the global parameter /use_sim_time to true and restart /na (a ROS 1 node reads /use_sim_time once, when it starts)."},
		{"a tf publisher on system time", ros1(sensorReport(pairs(pairWith("/scan", analysis.TFOnSystemClock, 0, 10)), -1.79e9), map[string][]string{"/scan": {"/hokuyo_node"}}),
			"A tf publisher stamps odom->laser with system time while /scan follows /clock: in ROS 1, set the global parameter /use_sim_time to true and restart the node publishing odom->laser (robot_state_publisher or the odometry node)."},
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
