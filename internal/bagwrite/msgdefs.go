package bagwrite

import "strings"

// Message definitions in the ros2msg encoding rosbag2 stores with each
// schema: the top-level .msg text, then every dependency after a line of 80
// '=' and a "MSG: pkg/Type" line (bag-formats.md §10.4). Comments and
// blank lines of the upstream .msg files are left out: readers never need
// them, and bagclock decodes its types without looking at schemas anyway.

const (
	defTime       = "int32 sec\nuint32 nanosec\n"
	defHeader     = "builtin_interfaces/Time stamp\nstring frame_id\n"
	defVector3    = "float64 x\nfloat64 y\nfloat64 z\n"
	defQuaternion = "float64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n"
	defTransform  = "Vector3 translation\nQuaternion rotation\n"
	defTFStamped  = "std_msgs/Header header\nstring child_frame_id\nTransform transform\n"
)

type msgDep struct{ name, text string }

// messageDefinitions maps a ROS type name to its ros2msg text.
var messageDefinitions = map[string]string{
	"sensor_msgs/msg/LaserScan": ros2msg(
		"std_msgs/Header header\nfloat32 angle_min\nfloat32 angle_max\nfloat32 angle_increment\n"+
			"float32 time_increment\nfloat32 scan_time\nfloat32 range_min\nfloat32 range_max\n"+
			"float32[] ranges\nfloat32[] intensities\n",
		msgDep{"std_msgs/Header", defHeader},
		msgDep{"builtin_interfaces/Time", defTime}),
	"tf2_msgs/msg/TFMessage": ros2msg(
		"geometry_msgs/TransformStamped[] transforms\n",
		msgDep{"geometry_msgs/TransformStamped", defTFStamped},
		msgDep{"std_msgs/Header", defHeader},
		msgDep{"builtin_interfaces/Time", defTime},
		msgDep{"geometry_msgs/Transform", defTransform},
		msgDep{"geometry_msgs/Vector3", defVector3},
		msgDep{"geometry_msgs/Quaternion", defQuaternion}),
	"rosgraph_msgs/msg/Clock": ros2msg(
		"builtin_interfaces/Time clock\n",
		msgDep{"builtin_interfaces/Time", defTime}),
	"rcl_interfaces/msg/Log": ros2msg(
		"byte DEBUG=10\nbyte INFO=20\nbyte WARN=30\nbyte ERROR=40\nbyte FATAL=50\n"+
			"builtin_interfaces/Time stamp\nuint8 level\nstring name\nstring msg\nstring file\n"+
			"string function\nuint32 line\n",
		msgDep{"builtin_interfaces/Time", defTime}),
}

func ros2msg(top string, deps ...msgDep) string {
	var b strings.Builder
	b.WriteString(top)
	for _, d := range deps {
		b.WriteString(strings.Repeat("=", 80))
		b.WriteString("\nMSG: ")
		b.WriteString(d.name)
		b.WriteString("\n")
		b.WriteString(d.text)
	}
	return b.String()
}

// MessageDefinition returns the ros2msg text the writers store for typ, and
// false for a type the package has no definition for (schemas for those get
// rosbag2's "unknown definition" form: empty encoding and data).
func MessageDefinition(typ string) (string, bool) {
	d, ok := messageDefinitions[typ]
	return d, ok
}
