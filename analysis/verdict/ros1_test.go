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
		ros1Wording(v, &analysis.Report{})
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
