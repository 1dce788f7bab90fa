package ros1msg

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func sampleTF() *TFMessage {
	return &TFMessage{Transforms: []TransformStamped{
		{Header: Header{Seq: 7, Stamp: Time{100, 5}, FrameID: "/map"}, ChildFrameID: "odom",
			Transform: Transform{Translation: Vector3{1, 2, 3}, Rotation: Quaternion{0, 0, 0, 1}}},
		{Header: Header{Stamp: Time{4294967295, 999999999}, FrameID: "odom"}, ChildFrameID: "base_link"},
	}}
}

func TestDecodeTable(t *testing.T) {
	tf := AppendTFMessage(nil, sampleTF())
	scan := AppendLaserScan(nil, Header{Seq: 3, Stamp: Time{10, 20}, FrameID: "laser"}, 0.001, 0.1, []float32{1, 2, 3}, nil)
	log := AppendLog(nil, &Log{Header: Header{Stamp: Time{1, 2}}, Level: 4, Name: "/n", Msg: "m", File: "f.cpp", Function: "g", Line: 9, Topics: []string{"/a"}})
	tests := []struct {
		name    string
		decode  func([]byte) (string, error)
		data    []byte
		want    string
		wantErr error
		field   string
	}{
		{"tf", decTF, tf, "2 /map>odom 100.000000005 odom>base_link 4294967295.999999999", nil, ""},
		{"tf empty", decTF, []byte{0, 0, 0, 0}, "0", nil, ""},
		{"tf short count", decTF, []byte{1, 0}, "", io.ErrUnexpectedEOF, "TFMessage.transforms"},
		{"tf count lies", decTF, []byte{0xff, 0xff, 0xff, 0x7f}, "", ErrBadLength, "TFMessage.transforms"},
		{"tf cut: count no longer fits", decTF, tf[:len(tf)-60], "", ErrBadLength, "TFMessage.transforms"},
		{"tf second child length lies", decTF, patched(tf, 108, 0xff), "", ErrBadLength, "TFMessage.transforms[1].child_frame_id"},
		{"tf cut in rotation", decTF, tf[:len(tf)-4], "", io.ErrUnexpectedEOF, "TFMessage.transforms[1].transform.rotation.w"},
		{"clock", decClock, AppendClock(nil, Clock{Time{5, 6}}), "5.000000006", nil, ""},
		{"clock short", decClock, []byte{1, 2, 3, 4, 5}, "", io.ErrUnexpectedEOF, "Clock.clock"},
		{"scan", decScan, scan, "3 10.000000020 laser 3 0", nil, ""},
		{"scan ranges lie", decScan, scan[:len(scan)-5], "", ErrBadLength, "LaserScan.ranges"},
		{"scan no intensities", decScan, scan[:len(scan)-4], "", io.ErrUnexpectedEOF, "LaserScan.intensities"},
		{"scan prefix", func(b []byte) (string, error) { return decScanPrefix(b[:53], len(b)) }, scan, "3 10.000000020 laser 3 -1", nil, ""},
		{"scan prefix past ranges count", func(b []byte) (string, error) { return decScanPrefix(b[:51], len(b)) }, scan, "3 10.000000020 laser -1 -1", nil, ""},
		{"scan prefix ranges lie", func(b []byte) (string, error) { return decScanPrefix(b[:53], len(b)-5) }, scan, "", ErrBadLength, "LaserScan.ranges"},
		{"log", decLog, log, "4 /n m f.cpp g 9 [/a]", nil, ""},
		{"log cut", decLog, log[:len(log)-3], "", ErrBadLength, "Log.topics"},
		{"log topic length lies", decLog, patched(log, len(log)-6, 0xff), "", ErrBadLength, "Log.topics[0]"},
		{"header bad frame", decHeader, AppendHeader(nil, Header{FrameID: "a\x00b"}), "", ErrBadFrameID, "LaserScan.header.frame_id"},
		{"header frame lies", decHeader, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 'a'}, "", ErrBadLength, "LaserScan.header.frame_id"},
		{"header prefix ok", decHeader, append(AppendHeader(nil, Header{Seq: 1, Stamp: Time{2, 3}, FrameID: "/l"}), 1, 2), "1 2.000000003 /l", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.decode(tc.data)
			if tc.wantErr != nil {
				var de *DecodeError
				if !errors.Is(err, tc.wantErr) || !errors.As(err, &de) || de.Field != tc.field {
					t.Fatalf("err %v (field %q), want %v at %s", err, fieldOf(err), tc.wantErr, tc.field)
				}
				if !strings.Contains(err.Error(), "ROS 1") {
					t.Errorf("error does not say ROS 1: %v", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func fieldOf(err error) string {
	var de *DecodeError
	if errors.As(err, &de) {
		return de.Field
	}
	return ""
}

func fmtTime(t Time) string {
	ns := t.Nanoseconds()
	return itoa(ns/1e9) + "." + pad9(ns%1e9)
}

func itoa(v int64) string { return strings.TrimSpace(strings.Repeat(" ", 0) + formatInt(v)) }

func TestStampedFromDefinition(t *testing.T) {
	sep := "\n" + strings.Repeat("=", 80) + "\nMSG: "
	hdr := sep + "std_msgs/Header\n# comment\nuint32 seq\ntime stamp\nstring frame_id\n"
	tests := []struct {
		name, def      string
		stamped, known bool
		reason         string
	}{
		{"bare Header", "Header header\nfloat32 x" + hdr, true, true, ReasonDefStamped},
		{"std_msgs/Header", "# doc\n\nstd_msgs/Header header  # h\nfloat32 x" + hdr, true, true, ReasonDefStamped},
		{"constants first", "byte DEBUG=1\nstring S = a b\nHeader header" + hdr, true, true, ReasonDefStamped},
		{"no block: standard assumed", "Header header\n", true, true, ReasonDefStamped},
		{"array of headers", "Header[] headers" + hdr, false, true, "array of headers"},
		{"other first", "geometry_msgs/TransformStamped[] transforms" + sep + "geometry_msgs/TransformStamped\nHeader header" + hdr, false, true, "first field: geometry_msgs/TransformStamped[] transforms"},
		{"no fields", "# nothing\nint32 A=1\n", false, true, "no fields"},
		{"ROS 2 header block", "Header header" + sep + "std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n", false, false, "not uint32 seq"},
		{"empty", "  \n", false, false, ReasonNoDefinition},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			si := StampedFromDefinition("p/T", tc.def)
			if si.Stamped != tc.stamped || si.Known != tc.known || !strings.Contains(si.Reason, tc.reason) {
				t.Fatalf("%+v, want stamped %v known %v reason ~%q", si, tc.stamped, tc.known, tc.reason)
			}
		})
	}
}

func patched(b []byte, at int, v byte) []byte {
	c := append([]byte(nil), b...)
	c[at] = v
	return c
}
