package ros1msg

// Time is the ROS 1 time primitive: unsigned seconds and nanoseconds.
type Time struct {
	Sec  uint32
	Nsec uint32
}

// Nanoseconds returns sec·1e9 + nsec (ros::Time::toNSec; a uint32 second
// count always fits).
func (t Time) Nanoseconds() int64 { return int64(t.Sec)*1_000_000_000 + int64(t.Nsec) }

// Header is the ROS 1 std_msgs/Header: unlike ROS 2's it carries seq.
type Header struct {
	Seq     uint32
	Stamp   Time
	FrameID string
}

// ScanHeader is what bagclock reads of a sensor_msgs/LaserScan: the header
// and the timing fields after it, and the array lengths (checked against
// the message's size, never copied).
type ScanHeader struct {
	Header         Header
	TimeIncrement  float32
	ScanTime       float32
	NumRanges      int
	NumIntensities int
	// Info: how the message sat in its bytes.
	Info Info
}

// Vector3 is geometry_msgs/Vector3.
type Vector3 struct{ X, Y, Z float64 }

// Quaternion is geometry_msgs/Quaternion (x, y, z, w on the wire).
type Quaternion struct{ X, Y, Z, W float64 }

// Transform is geometry_msgs/Transform.
type Transform struct {
	Translation Vector3
	Rotation    Quaternion
}

// TransformStamped is geometry_msgs/TransformStamped.
type TransformStamped struct {
	Header       Header
	ChildFrameID string
	Transform    Transform
}

// TFMessage is tf2_msgs/TFMessage, and the legacy tf/tfMessage, whose
// definition and bytes are the same (geometry_msgs/TransformStamped[]
// transforms; both md5sums are 94810edda583a504dfda3829e70d7eec).
type TFMessage struct {
	Transforms []TransformStamped
}

// Clock is rosgraph_msgs/Clock.
type Clock struct {
	Clock Time
}

// Log is rosgraph_msgs/Log, what /rosout and /rosout_agg carry in ROS 1
// (ROS 2 moved it to rcl_interfaces/Log, without header and topics).
type Log struct {
	Header   Header
	Level    uint8
	Name     string
	Msg      string
	File     string
	Function string
	Line     uint32
	// Topics are the topics the node publishes, as rosout reports them.
	Topics []string
}

// Info describes how a message sat in its bytes.
type Info struct {
	// Size is the number of bytes the decoded fields used.
	Size int
	// Trailing is len(data) − Size: ROS 1 has no padding, so any
	// trailing byte hints that the type is not the one decoded.
	Trailing int
}

// ROS 1 type names of the decoded types, as connection records spell them.
const (
	TypeHeader    = "std_msgs/Header"
	TypeLaserScan = "sensor_msgs/LaserScan"
	TypeTFMessage = "tf2_msgs/TFMessage"
	TypeTFLegacy  = "tf/tfMessage"
	TypeClock     = "rosgraph_msgs/Clock"
	TypeLog       = "rosgraph_msgs/Log"
)
