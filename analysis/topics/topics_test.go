package topics

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/testenv"
)

func TestOf(t *testing.T) {
	const stampedDef = "std_msgs/Header header\nfloat64 x\n"
	for _, tc := range []struct {
		name, typ, enc, def string
		role                Role
		usual               bool
	}{
		{"/tf", "tf2_msgs/msg/TFMessage", "", "", TF, true},
		{"tf", "tf2_msgs/msg/TFMessage", "", "", TF, true},
		{"/robot1/tf", "tf2_msgs/TFMessage", "", "", TF, true},
		{"/tf_static", "tf2_msgs/msg/TFMessage", "", "", TFStatic, true},
		{"tf_static", "tf2_msgs/msg/TFMessage", "", "", TFStatic, true},
		{"/robot1/tf_static", "tf2_msgs/msg/TFMessage", "", "", TFStatic, true},
		{"/tf_relay", "tf2_msgs/msg/TFMessage", "", "", TF, false},
		{"/tf", "std_msgs/msg/String", "", "", Unstamped, false},
		{"/clock", "rosgraph_msgs/msg/Clock", "", "", Clock, true},
		{"clock", "rosgraph_msgs/Clock", "", "", Clock, true},
		{"/sim/clock", "rosgraph_msgs/msg/Clock", "", "", Clock, true},
		{"/clock_relay", "rosgraph_msgs/msg/Clock", "", "", Clock, false},
		{"/rosout", "rcl_interfaces/msg/Log", "", "", Rosout, true},
		{"/robot1/rosout", "rcl_interfaces/Log", "", "", Rosout, true},
		{"/parameter_events", "rcl_interfaces/msg/ParameterEvent", "", "", ParameterEvents, true},
		{"parameter_events", "rcl_interfaces/ParameterEvent", "", "", ParameterEvents, true},
		{"/scan", "sensor_msgs/msg/LaserScan", "", "", Stamped, false},
		{"/camera/image_raw", "sensor_msgs/Image", "", "", Stamped, false},
		{"/cmd_vel", "geometry_msgs/msg/Twist", "", "", Unstamped, false},
		{"/detections", "my_pkg/msg/Detections", "ros2msg", stampedDef, Stamped, false},
		{"/status", "my_pkg/msg/Status", "ros2msg", "uint8 level\n", Unstamped, false},
		{"/custom", "my_pkg/msg/Custom", "", "", NotAnalysed, false},
		{"/broken", "my_pkg/msg/Broken", "ros2msg", "std_msgs/Header\n", NotAnalysed, false},
	} {
		got := Of(tc.name, tc.typ, tc.enc, tc.def)
		if got.Role != tc.role || got.Usual != tc.usual || got.Name != tc.name || got.Type != tc.typ {
			t.Errorf("Of(%q, %q) = %+v, want role %s usual %v", tc.name, tc.typ, got, tc.role, tc.usual)
		}
		if got.Role == NotAnalysed && got.Stamp.Reason == "" {
			t.Errorf("%s: not analysed without a reason", tc.name)
		}
	}
}

func TestWithRole(t *testing.T) {
	infos := []TopicInfo{Of("/clock_relay", "rosgraph_msgs/msg/Clock", "", ""), Of("/scan", "sensor_msgs/msg/LaserScan", "", ""),
		Of("/clock", "rosgraph_msgs/msg/Clock", "", "")}
	got := WithRole(infos, Clock)
	if len(got) != 2 || got[0].Name != "/clock" || got[1].Name != "/clock_relay" {
		t.Fatalf("%+v", got)
	}
}

// TestClassifyBags checks roles on real bags: one sqlite schema-3 bag
// (no definitions: the built-in table decides) and one MCAP whose schemas
// carry definitions.
func TestClassifyBags(t *testing.T) {
	for _, tc := range []struct {
		bag  string
		want map[string]Role
	}{
		{"tb3-walker-simstart", map[string]Role{
			"/rosout": Rosout, "/tf_static": TFStatic, "/tf": TF, "/clock": Clock, "/parameter_events": ParameterEvents,
			"/robot_description": Unstamped, "/performance_metrics": Stamped, "/events/write_split": Unstamped,
			"/cmd_vel": Unstamped, "/imu": Stamped, "/scan": Stamped, "/odom": Stamped, "/joint_states": Stamped,
		}},
		{"rerun-rosbag2-humble-mcap", map[string]Role{
			"/rosout": Rosout, "/parameter_events": ParameterEvents, "/events/write_split": Unstamped,
			"/battery_state": Stamped, "/point_field": Unstamped, "/laser_echo": Unstamped, "/image": Stamped,
			"/point_cloud2": Stamped, "/nav_sat_fix/gps": Stamped, "/range": Stamped, "/joy_feedback_array": Unstamped,
		}},
	} {
		b, err := bagread.Open(testenv.SharedBag(t, tc.bag), bagread.Options{})
		if err != nil {
			t.Fatal(err)
		}
		infos := Classify(b)
		b.Close()
		if len(infos) != len(b.Topics) {
			t.Fatalf("%s: %d infos for %d topics", tc.bag, len(infos), len(b.Topics))
		}
		seen := map[string]bool{}
		for _, ti := range infos {
			if want, ok := tc.want[ti.Name]; ok {
				seen[ti.Name] = true
				if ti.Role != want {
					t.Errorf("%s %s (%s): role %s, want %s (%s)", tc.bag, ti.Name, ti.Type, ti.Role, want, ti.Stamp.Reason)
				}
			}
			if ti.Role == NotAnalysed && !strings.Contains(ti.Stamp.Reason, "not analysed") && !strings.HasPrefix(ti.Stamp.Reason, "definition does not parse") {
				t.Errorf("%s %s: reason %q", tc.bag, ti.Name, ti.Stamp.Reason)
			}
		}
		for name := range tc.want {
			if !seen[name] {
				t.Errorf("%s: topic %s missing", tc.bag, name)
			}
		}
	}
}
