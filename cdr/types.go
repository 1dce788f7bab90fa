// Package cdr decodes and encodes the few ROS 2 message types bagclock needs
// (LaserScan, TFMessage, Clock, rcl_interfaces/Log and ParameterEvent and
// their parts, and the std_msgs/Header at the start of any stamped type)
// from XCDR1 bytes as rmw writes them, by hand. LookupStamped says which
// types are header-first, from a built-in table or the bag's own ros2msg
// or ros2idl definition, never from the bytes. It imports no other
// bagclock package and never panics on bad input.
//
// Every decoder takes a whole serialized message, 4-byte encapsulation
// header included (plain CDR, little or big endian; XCDR2 and PL_CDR are
// refused by name). Failures are *DecodeError values naming the type, the
// field path and the byte offset; errors.Is tells short input
// (io.ErrUnexpectedEOF) from lying length prefixes (ErrBadLength) and
// unsupported encodings (ErrUnsupportedEncapsulation). A length prefix is
// checked against the bytes left before anything is allocated for it.
//
// DecodeX returns fresh values. DecodeXInto reuses the destination's slices
// and unchanged strings, for hot loops; the destination's slices are then
// valid only until the next call with it. Strings never alias the input.
// Frame ids are kept byte for byte (invalid UTF-8 included); CheckFrameID
// says what is wrong with one. AppendX encodes in the Append shape of
// encoding/binary, laid out byte for byte as rmw_fastrtps and rmw_cyclonedds
// write, with padding zeroed (recorded messages often carry leftover bytes
// there; the decoders ignore padding).
package cdr

// Time is builtin_interfaces/msg/Time.
type Time struct {
	Sec     int32
	Nanosec uint32
}

// Nanoseconds returns sec·1e9 + nanosec as int64 (no range checks, like tf2).
func (t Time) Nanoseconds() int64 { return int64(t.Sec)*1_000_000_000 + int64(t.Nanosec) }

// Header is std_msgs/msg/Header (ROS 2: no seq).
type Header struct {
	Stamp   Time
	FrameID string
}

// LaserScan is sensor_msgs/msg/LaserScan.
type LaserScan struct {
	Header         Header
	AngleMin       float32
	AngleMax       float32
	AngleIncrement float32
	TimeIncrement  float32
	ScanTime       float32
	RangeMin       float32
	RangeMax       float32
	Ranges         []float32
	Intensities    []float32
}

// Vector3 is geometry_msgs/msg/Vector3.
type Vector3 struct{ X, Y, Z float64 }

// Quaternion is geometry_msgs/msg/Quaternion (x, y, z, w order on the wire).
type Quaternion struct{ X, Y, Z, W float64 }

// Transform is geometry_msgs/msg/Transform.
type Transform struct {
	Translation Vector3
	Rotation    Quaternion
}

// TransformStamped is geometry_msgs/msg/TransformStamped.
type TransformStamped struct {
	Header       Header
	ChildFrameID string
	Transform    Transform
}

// TFMessage is tf2_msgs/msg/TFMessage.
type TFMessage struct {
	Transforms []TransformStamped
}

// Clock is rosgraph_msgs/msg/Clock.
type Clock struct {
	Clock Time
}

// Log is rcl_interfaces/msg/Log (what /rosout carries).
type Log struct {
	Stamp    Time
	Level    uint8
	Name     string
	Msg      string
	File     string
	Function string
	Line     uint32
}

// ROS type names of the decoded types, as they appear in bags.
const (
	TypeLaserScan = "sensor_msgs/msg/LaserScan"
	TypeTFMessage = "tf2_msgs/msg/TFMessage"
	TypeClock     = "rosgraph_msgs/msg/Clock"
	TypeLog       = "rcl_interfaces/msg/Log"
)
