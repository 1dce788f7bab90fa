package wire

import (
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/ros1msg"
)

// TestROS1 decodes ROS 1 bytes through the boundary and gets cdr values:
// stamps, frame ids as recorded, Log levels in rcl's scale, reused slices.
func TestROS1(t *testing.T) {
	d := Decoder{ROS1: true}
	tfm := &ros1msg.TFMessage{Transforms: []ros1msg.TransformStamped{
		{Header: ros1msg.Header{Seq: 9, Stamp: ros1msg.Time{Sec: 100, Nsec: 5}, FrameID: "/map"}, ChildFrameID: "odom",
			Transform: ros1msg.Transform{Rotation: ros1msg.Quaternion{W: 1}}},
	}}
	var got cdr.TFMessage
	if err := d.TF(&got, ros1msg.AppendTFMessage(nil, tfm)); err != nil {
		t.Fatal(err)
	}
	want := cdr.TransformStamped{Header: cdr.Header{Stamp: cdr.Time{Sec: 100, Nanosec: 5}, FrameID: "/map"}, ChildFrameID: "odom",
		Transform: cdr.Transform{Rotation: cdr.Quaternion{W: 1}}}
	if len(got.Transforms) != 1 || got.Transforms[0] != want {
		t.Fatalf("TF %+v", got)
	}
	if err := d.TF(&got, []byte{5, 0, 0, 0}); err == nil || len(got.Transforms) != 0 {
		t.Fatalf("lying count: %v, %d transforms left", err, len(got.Transforms))
	}
	for _, tc := range []struct{ ros1, rcl uint8 }{{1, 10}, {2, 20}, {4, 30}, {8, 40}, {16, 50}, {3, 3}} {
		l, err := d.Log(ros1msg.AppendLog(nil, &ros1msg.Log{Level: tc.ros1, Name: "/n", Msg: "Dropped 50.00% of messages so far."}))
		if err != nil || l.Level != tc.rcl || l.Name != "/n" {
			t.Errorf("level %d: %+v %v, want %d", tc.ros1, l, err, tc.rcl)
		}
	}
	c, err := d.Clock(ros1msg.AppendClock(nil, ros1msg.Clock{Clock: ros1msg.Time{Sec: 7, Nsec: 8}}))
	if err != nil || c.Nanoseconds() != 7_000_000_008 {
		t.Errorf("clock %v %v", c, err)
	}
	var h cdr.Header
	if err := d.Header(&h, ros1msg.AppendHeader(nil, ros1msg.Header{Seq: 1, Stamp: ros1msg.Time{Sec: 3}, FrameID: "laser"}), "sensor_msgs/Imu"); err != nil || h.FrameID != "laser" || h.Stamp.Sec != 3 {
		t.Errorf("header %+v %v", h, err)
	}
	var s cdr.ScanHeader
	scan := ros1msg.AppendLaserScan(nil, ros1msg.Header{FrameID: "laser"}, 0, 0, []float32{1, 2}, nil)
	if err := d.ScanPrefix(&s, scan, int64(len(scan))); err != nil || s.NumRanges != 2 || s.NumIntensities != 0 || s.Info.Trailing != 0 {
		t.Errorf("scan %+v %v", s, err)
	}
	// The zero Decoder reads CDR.
	var cd Decoder
	if _, err := cd.Clock(ros1msg.AppendClock(nil, ros1msg.Clock{})); err == nil {
		t.Errorf("CDR decoder accepted 8 ROS 1 bytes as a Clock")
	}
}
