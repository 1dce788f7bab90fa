// Package ros1msg decodes, by hand, the few ROS 1 message types bagclock
// reads from ROS 1 bags (format 2.0): the std_msgs/Header at the start of
// any stamped type, sensor_msgs/LaserScan's header and array bounds,
// tf2_msgs/TFMessage and the legacy tf/tfMessage, rosgraph_msgs/Clock and
// rosgraph_msgs/Log. StampedFromDefinition says which types are
// header-first from the connection's message_definition, never from the
// bytes. It imports no other bagclock package and never panics on bad
// input.
//
// The ROS 1 wire format (roscpp_serialization, genpy; wiki.ros.org/msg
// and ROS/Message_serialization) differs from ROS 2's CDR: little-endian
// always, no alignment padding, no encapsulation header; a string is a
// uint32 byte count and the bytes (no NUL); a variable array is a uint32
// element count and the elements; time is uint32 secs then uint32 nsecs;
// std_msgs/Header is uint32 seq, time stamp, string frame_id.
//
// Failures are *DecodeError values naming the type, the field path and the
// byte offset; errors.Is tells short input (io.ErrUnexpectedEOF) from
// lying length prefixes (ErrBadLength). A length is checked against the
// bytes left before anything is allocated for it. DecodeXInto reuses the
// destination's slices and unchanged strings; strings never alias the
// input.
package ros1msg
