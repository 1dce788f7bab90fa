package inventory

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// headerPayload is a stamped message whose bytes after the header are
// filler: inventory reads only the header.
func headerPayload(sec int32, frame string) []byte {
	b := cdr.AppendLaserScan(nil, &cdr.LaserScan{Header: cdr.Header{Stamp: cdr.Time{Sec: sec, Nanosec: 5}, FrameID: frame}}, binary.LittleEndian)
	return append(b, make([]byte, 64)...)
}

// message is one message of a test bag: its topic, its record time (also
// its publish time) and its payload.
type message struct {
	topic string
	at    int64
	data  []byte
}

// buildBag writes topics ({name, type} pairs) and msgs as a bag in storage
// into t.TempDir() and returns Build's report on it; any error fails the
// test.
func buildBag(t *testing.T, storage string, topics [][2]string, msgs []message) *Report {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bag")
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: storage})
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range topics {
		if err := w.AddTopic(tp[0], tp[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range msgs {
		if err := w.Write(m.topic, m.at, m.at, m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	bag, err := bagread.Open(dir, bagread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bag.Close()
	rep, err := Build(bag)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestBuildStampedTopics writes a bag with a known stamped type, an
// unknown type, a bad payload of each kind, and checks ranges, frames,
// roles and skipped counts in both storage formats.
func TestBuildStampedTopics(t *testing.T) {
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		t.Run(storage, func(t *testing.T) {
			topics := [][2]string{{"/imu", "sensor_msgs/msg/Imu"}, {"/custom", "my_pkg/msg/Custom"},
				{"robot1/odom", "nav_msgs/Odometry"}}
			const s = int64(1e9)
			writes := []message{
				{"/imu", 10 * s, headerPayload(100, "imu_link")},
				{"/custom", 11 * s, []byte{0, 1, 0, 0, 1, 2, 3}},
				{"/imu", 12 * s, headerPayload(102, "imu_link")},
				{"/imu", 13 * s, headerPayload(101, "imu_link2")},
				{"/imu", 14 * s, headerPayload(103, "imu_link")[:10]},    // shorter than its header
				{"/imu", 15 * s, headerPayload(104, "bad\xff\xfeframe")}, // invalid bytes
				{"robot1/odom", 16 * s, headerPayload(0, "odom")},
				{"/custom", 17 * s, []byte{0, 1, 0, 0}},
			}
			rep := buildBag(t, storage, topics, writes)
			by := map[string]Topic{}
			for _, tp := range rep.Topics {
				by[tp.Name] = tp
			}
			imu, custom, odom := by["/imu"], by["/custom"], by["robot1/odom"]
			if imu.Role != "stamped" || !imu.Stamped || !imu.Decoded || imu.StampReason != cdr.ReasonKnownStamped {
				t.Errorf("/imu: %+v", imu)
			}
			if imu.RecordTime != (Range{10 * s, 15 * s, true}) || imu.HeaderStamp != (Range{100*s + 5, 102*s + 5, true}) {
				t.Errorf("/imu ranges: record %+v header %+v", imu.RecordTime, imu.HeaderStamp)
			}
			if strings.Join(imu.Frames, ",") != "imu_link,imu_link2" {
				t.Errorf("/imu frames %q", imu.Frames)
			}
			if imu.Undecodable != 2 || !strings.Contains(imu.FirstError, "topic /imu message 3") ||
				!strings.Contains(imu.FirstError, "unexpected EOF") {
				t.Errorf("/imu skipped %d, first error %q", imu.Undecodable, imu.FirstError)
			}
			if custom.Role != "not_analysed" || custom.Decoded || custom.Stamped || custom.StampReason != cdr.ReasonNoDefinition ||
				custom.RecordTime != (Range{11 * s, 17 * s, true}) || custom.HeaderStamp.Valid || custom.Undecodable != 0 {
				t.Errorf("/custom: %+v", custom)
			}
			if odom.Role != "stamped" || odom.HeaderStamp != (Range{5, 5, true}) || strings.Join(odom.Frames, ",") != "odom" {
				t.Errorf("robot1/odom: %+v", odom)
			}
			if rep.Undecodable != 2 {
				t.Errorf("report undecodable %d", rep.Undecodable)
			}
		})
	}
}

// TestBadFrameIDIsTyped: the invalid-frame error keeps its type through
// the wrapping callers do.
func TestBadFrameIDIsTyped(t *testing.T) {
	var h cdr.Header
	err := cdr.DecodeHeaderInto(&h, headerPayload(1, "a\xffb"), "sensor_msgs/msg/Imu")
	if !errors.Is(err, cdr.ErrBadFrameID) {
		t.Fatalf("%v", err)
	}
}

// TestBuildOlderTypeSpelling: TFMessage and Clock spelled pkg/Type (older
// recorders and conversions) get their stamps and links read, as with
// pkg/msg/Type, in both storage formats.
func TestBuildOlderTypeSpelling(t *testing.T) {
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		t.Run(storage, func(t *testing.T) {
			topics := [][2]string{{"tf", "tf2_msgs/TFMessage"}, {"/robot1/tf_static", "tf2_msgs/TFMessage"}, {"/clock", "rosgraph_msgs/Clock"}}
			tfm := func(sec int32, parent, child string) []byte {
				return cdr.AppendTFMessage(nil, &cdr.TFMessage{Transforms: []cdr.TransformStamped{{
					Header: cdr.Header{Stamp: cdr.Time{Sec: sec}, FrameID: parent}, ChildFrameID: child,
					Transform: cdr.Transform{Rotation: cdr.Quaternion{W: 1}}}}}, binary.LittleEndian)
			}
			const s = int64(1e9)
			rep := buildBag(t, storage, topics, []message{
				{"/clock", 10 * s, cdr.AppendClock(nil, &cdr.Clock{Clock: cdr.Time{Sec: 50}}, binary.LittleEndian)},
				{"/robot1/tf_static", 10 * s, tfm(0, "base_link", "laser")},
				{"tf", 11 * s, tfm(50, "odom", "base_link")},
				{"tf", 12 * s, tfm(51, "odom", "base_link")},
				{"/clock", 12 * s, cdr.AppendClock(nil, &cdr.Clock{Clock: cdr.Time{Sec: 52}}, binary.LittleEndian)},
			})
			want := map[string]struct {
				role   string
				stamps Range
				frames string
			}{
				"tf":                {"tf", Range{50 * s, 51 * s, true}, "odom->base_link"},
				"/robot1/tf_static": {"tf_static", Range{0, 0, true}, "base_link->laser"},
				"/clock":            {"clock", Range{50 * s, 52 * s, true}, ""},
			}
			for _, tp := range rep.Topics {
				w := want[tp.Name]
				if tp.Role != w.role || !tp.Decoded || tp.HeaderStamp != w.stamps || strings.Join(tp.Frames, ",") != w.frames || tp.Undecodable != 0 {
					t.Errorf("%s: role %s decoded %v stamps %+v frames %q undecodable %d; want %+v", tp.Name, tp.Role, tp.Decoded, tp.HeaderStamp, tp.Frames, tp.Undecodable, w)
				}
			}
			if rep.Clock != (Range{50 * s, 52 * s, true}) {
				t.Errorf("clock range %+v", rep.Clock)
			}
		})
	}
}
