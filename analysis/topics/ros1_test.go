package topics

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// TestOfROS1: ROS 1 connections are classified from their own
// message_definition (ROS 1 Header with seq), with the ROS 1 names of the
// tf and /rosout types.
func TestOfROS1(t *testing.T) {
	hdr := "\n" + strings.Repeat("=", 80) + "\nMSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n"
	ros2hdr := "\n" + strings.Repeat("=", 80) + "\nMSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n"
	tests := []struct {
		name, typ, def string
		role           Role
	}{
		{"/tf", "tf/tfMessage", "geometry_msgs/TransformStamped[] transforms", TF},
		{"/tf_static", "tf2_msgs/TFMessage", "geometry_msgs/TransformStamped[] transforms", TFStatic},
		{"/rosout", "rosgraph_msgs/Log", "byte DEBUG=1\nHeader header\nbyte level" + hdr, Rosout},
		{"/clock", "rosgraph_msgs/Clock", "time clock", Clock},
		{"/scan", "sensor_msgs/LaserScan", "Header header\nfloat32 angle_min" + hdr, Stamped},
		{"/odd", "my_msgs/Odd", "Header header" + ros2hdr, NotAnalysed},
		{"/imu", "sensor_msgs/Imu", "", Stamped}, // no definition: the built-in table
		{"/cmd", "geometry_msgs/Twist", "Vector3 linear\nVector3 angular", Unstamped},
	}
	for _, tc := range tests {
		if got := Of(tc.name, tc.typ, bagread.DefinitionROS1, tc.def); got.Role != tc.role {
			t.Errorf("%s %s: %s (%s), want %s", tc.name, tc.typ, got.Role, got.Stamp.Reason, tc.role)
		}
	}
}
