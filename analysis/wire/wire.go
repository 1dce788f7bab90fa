// Package wire is the analysis's decode boundary: one call per message
// kind (stamped header, LaserScan header, TFMessage, Clock, Log) for
// either serialization a bag may hold, ROS 2 CDR (package cdr) or ROS 1
// (package ros1msg), answering in cdr's types so the checks need not know
// which. A ROS 1 bag is one serialization throughout, so callers choose
// by the bag's storage (bagread.StorageROS1).
//
// ROS 1 values are mapped as follows: the header's seq is dropped (no
// check reads it); time's uint32 seconds become cdr.Time's int32 (exact
// up to 2038-01-19, past which ROS 1 stamps would read as negative); Log
// levels are mapped to the rcl values (ROS 1 rosgraph_msgs/Log: DEBUG=1,
// INFO=2, WARN=4, ERROR=8, FATAL=16; rcl_interfaces/Log: 10..50).
// Frame ids are kept as recorded, leading '/' included: the analysis
// strips one where tf2 does (ROS 1 geometry2 noetic,
// tf2/src/buffer_core.cpp, BufferCore::setTransformImpl strips frame_id
// and child_frame_id; tf2_ros::MessageFilter strips the message's frame
// and its target frames), so "/base_link" and "base_link" are one frame
// in ROS 1 as in ROS 2.
package wire

import (
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/ros1msg"
)

// Decoder decodes one stream of messages; it keeps the ROS 1 scratch
// values whose strings and slices it reuses, so it is not for concurrent
// use. The zero Decoder decodes CDR.
type Decoder struct {
	ROS1 bool
	h    ros1msg.Header
	s    ros1msg.ScanHeader
	tf   ros1msg.TFMessage
}

func time1(t ros1msg.Time) cdr.Time { return cdr.Time{Sec: int32(t.Sec), Nanosec: t.Nsec} }

// Header is cdr.DecodeHeaderInto, or ros1msg.DecodeHeaderInto.
func (d *Decoder) Header(dst *cdr.Header, data []byte, typ string) error {
	if !d.ROS1 {
		return cdr.DecodeHeaderInto(dst, data, typ)
	}
	err := ros1msg.DecodeHeaderInto(&d.h, data, typ)
	dst.Stamp, dst.FrameID = time1(d.h.Stamp), d.h.FrameID
	return err
}

// ScanPrefix is cdr.DecodeLaserScanPrefixInto or
// ros1msg.DecodeLaserScanPrefixInto (size: the payload's full size when
// data is a prefix).
func (d *Decoder) ScanPrefix(dst *cdr.ScanHeader, data []byte, size int64) error {
	if !d.ROS1 {
		return cdr.DecodeLaserScanPrefixInto(dst, data, size)
	}
	err := ros1msg.DecodeLaserScanPrefixInto(&d.s, data, size)
	dst.Header.Stamp, dst.Header.FrameID = time1(d.s.Header.Stamp), d.s.Header.FrameID
	dst.NumRanges, dst.NumIntensities = d.s.NumRanges, d.s.NumIntensities
	dst.Info = cdr.Info{Size: d.s.Info.Size, Trailing: d.s.Info.Trailing}
	return err
}

// TF is cdr.DecodeTFMessageInto, or ros1msg.DecodeTFMessageInto (either
// tf2_msgs/TFMessage or tf/tfMessage), reusing dst.Transforms.
func (d *Decoder) TF(dst *cdr.TFMessage, data []byte) error {
	if !d.ROS1 {
		_, err := cdr.DecodeTFMessageInto(dst, data)
		return err
	}
	_, err := ros1msg.DecodeTFMessageInto(&d.tf, data)
	if err != nil {
		dst.Transforms = dst.Transforms[:0]
		return err
	}
	n := len(d.tf.Transforms)
	if cap(dst.Transforms) < n {
		dst.Transforms = make([]cdr.TransformStamped, n)
	}
	dst.Transforms = dst.Transforms[:n]
	for i := range d.tf.Transforms {
		s, t := &d.tf.Transforms[i], &dst.Transforms[i]
		t.Header = cdr.Header{Stamp: time1(s.Header.Stamp), FrameID: s.Header.FrameID}
		t.ChildFrameID = s.ChildFrameID
		tr, q := s.Transform.Translation, s.Transform.Rotation
		t.Transform = cdr.Transform{Translation: cdr.Vector3{X: tr.X, Y: tr.Y, Z: tr.Z}, Rotation: cdr.Quaternion{X: q.X, Y: q.Y, Z: q.Z, W: q.W}}
	}
	return nil
}

// Clock decodes a rosgraph_msgs/Clock of either serialization.
func (d *Decoder) Clock(data []byte) (cdr.Time, error) {
	if !d.ROS1 {
		c, err := cdr.DecodeClock(data)
		return c.Clock, err
	}
	c, _, err := ros1msg.DecodeClock(data)
	return time1(c.Clock), err
}

// Log decodes /rosout: rcl_interfaces/Log, or ROS 1 rosgraph_msgs/Log
// with its level mapped to rcl's.
func (d *Decoder) Log(data []byte) (cdr.Log, error) {
	if !d.ROS1 {
		return cdr.DecodeLog(data)
	}
	l, _, err := ros1msg.DecodeLog(data)
	if err != nil {
		return cdr.Log{}, err
	}
	return cdr.Log{Stamp: time1(l.Header.Stamp), Level: level1(l.Level), Name: l.Name, Msg: l.Msg,
		File: l.File, Function: l.Function, Line: l.Line}, nil
}

// level1 maps a ROS 1 log level (a bit each) to rcl's.
func level1(l uint8) uint8 {
	switch l {
	case 1:
		return 10
	case 2:
		return 20
	case 4:
		return 30
	case 8:
		return 40
	case 16:
		return 50
	}
	return l
}
