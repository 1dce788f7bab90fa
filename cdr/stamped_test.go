package cdr

import (
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
)

const imuMsgDef = `# This is a message to hold data from an IMU
std_msgs/Header header # stamp and frame

geometry_msgs/Quaternion orientation
float64[9] orientation_covariance # Row major about x, y, z axes
================================================================================
MSG: std_msgs/Header
# Standard metadata
builtin_interfaces/Time stamp
string frame_id
================================================================================
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec`

const ros1HeaderDef = `Header header
float64 x
================================================================================
MSG: std_msgs/Header
uint32 seq
time stamp
string frame_id`

const idlDef = `================================================================================
IDL: my_pkg/msg/Tracked
#include "std_msgs/msg/Header.idl"

module my_pkg {
  module msg {
    typedef double double__9[9];
    module Tracked_Constants {
      const uint8 KIND = 1;
    };
    @verbatim (language="comment", text=
      "See http://example.com/a /* not a comment */ here")
    struct Tracked {
      @verbatim (language="comment", text="header; with stamp")
      std_msgs::msg::Header header;

      double__9 covariance;
    };
  };
};
================================================================================
IDL: std_msgs/msg/Header
module std_msgs {
  module msg {
    struct Header {
      builtin_interfaces::msg::Time stamp;
      string frame_id;
    };
  };
};`

func TestLookupStamped(t *testing.T) {
	for _, tc := range []struct {
		typ, enc, def  string
		stamped, known bool
		reason         string // prefix
	}{
		{"sensor_msgs/msg/Imu", "", "", true, true, ReasonKnownStamped},
		{"sensor_msgs/Imu", "", "", true, true, ReasonKnownStamped},
		{"geometry_msgs/msg/PoseWithCovarianceStamped", "", "", true, true, ReasonKnownStamped},
		{"tf2_msgs/msg/TFMessage", "", "", false, true, ReasonKnownUnstamped},
		{"rcl_interfaces/ParameterEvent", "", "", false, true, ReasonKnownUnstamped},
		{"std_msgs/msg/String", "", "", false, true, ReasonKnownUnstamped},
		{"my_pkg/msg/Thing", "", "", false, false, ReasonNoDefinition},
		{"my_pkg/msg/Thing", "ros2msg", imuMsgDef, true, true, ReasonDefStamped},
		{"my_pkg/msg/Thing", "ros2msg", "std_msgs/msg/Header header\nint8 a", true, true, ReasonDefStamped},
		{"my_pkg/msg/Thing", "ros2msg", "int8 KIND=1 # constant first\n\tstd_msgs/Header  header  \n", true, true, ReasonDefStamped},
		{"my_pkg/msg/Thing", "ros2msg", "builtin_interfaces/Time stamp\nstring node", false, true, ReasonDefUnstamped + " (first field: builtin_interfaces/Time stamp)"},
		{"my_pkg/msg/Thing", "ros2msg", "std_msgs/Header[] headers", false, true, ReasonDefUnstamped + " (first field is an array"},
		{"my_pkg/msg/Thing", "ros2msg", "# only comments\n\n", false, true, ReasonDefUnstamped + " (it has no fields)"},
		{"my_pkg/msg/Thing", "ros2msg", ros1HeaderDef, false, false, "definition in the bag starts with Header header, but its std_msgs/Header is not ROS 2's"},
		{"my_pkg/msg/Thing", "ros2msg", "Header header\nint8 x", false, false, "definition in the bag starts with Header header, but the bare type"},
		{"my_pkg/msg/Thing", "ros2msg", "std_msgs/Header\n", false, false, ReasonDefinitionInvalid + ": "},
		{"my_pkg/msg/Thing", "ros2msg", "int8[x] a", false, false, ReasonDefinitionInvalid + ": "},
		{"my_pkg/msg/Thing", "ros2msg", "std::Header h", false, false, ReasonDefinitionInvalid + ": "},
		{"my_pkg/msg/Tracked", "ros2idl", idlDef, true, true, ReasonDefStamped},
		{"my_pkg/Tracked", "ros2idl", idlDef, true, true, ReasonDefStamped},
		{"my_pkg/msg/Other", "ros2idl", idlDef, false, false, ReasonDefinitionInvalid + ": definition does not parse: no IDL block for my_pkg/msg/Other"},
		{"my_pkg/msg/T", "ros2idl", "module my_pkg { module msg { struct T { builtin_interfaces::msg::Time stamp; }; }; };", false, true, ReasonDefUnstamped},
		{"my_pkg/msg/T", "ros2idl", "struct T { sequence<std_msgs::msg::Header> hs; };", false, true, ReasonDefUnstamped},
		{"my_pkg/msg/T", "ros2idl", "struct T { std_msgs::msg::Header header /* unterminated", false, false, ReasonDefinitionInvalid},
		{"my_pkg/msg/T", "ros2idl", "struct T { std_msgs::msg::Header header ", false, false, ReasonDefinitionInvalid},
		{"my_pkg/msg/T", "unknown", "whatever", false, false, `definition encoding "unknown" is not read`},
	} {
		got := LookupStamped(tc.typ, tc.enc, tc.def)
		if got.Stamped != tc.stamped || got.Known != tc.known || !strings.HasPrefix(got.Reason, tc.reason) {
			t.Errorf("LookupStamped(%q, %q, %.30q) = %+v, want stamped %v known %v reason %q...",
				tc.typ, tc.enc, tc.def, got, tc.stamped, tc.known, tc.reason)
		}
	}
}

func TestDecodeHeaderInto(t *testing.T) {
	scan := AppendLaserScan(nil, ptr(sampleScan(4, "base_scan")), binary.LittleEndian)
	var h Header
	// a prefix holding just the header is enough
	if err := DecodeHeaderInto(&h, scan[:4+8+4+len("base_scan")+1], TypeLaserScan); err != nil {
		t.Fatal(err)
	}
	want, _ := DecodeLaserScan(scan)
	if h != want.Header {
		t.Fatalf("got %+v want %+v", h, want.Header)
	}
	if n := testing.AllocsPerRun(100, func() { _ = DecodeHeaderInto(&h, scan, TypeLaserScan) }); n != 0 {
		t.Errorf("%v allocations per decode with an unchanged frame id", n)
	}
	bad := func(id string) []byte {
		return AppendLaserScan(nil, &LaserScan{Header: Header{FrameID: id}}, binary.BigEndian)
	}
	for _, tc := range []struct {
		name   string
		data   []byte
		err    error
		field  string
		offset int
		detail string
	}{
		{"short stamp", scan[:10], io.ErrUnexpectedEOF, "LaserScan.header.stamp.nanosec", 8, ""},
		{"short frame id", scan[:18], ErrBadLength, "LaserScan.header.frame_id", 12, "string length 10"},
		{"xcdr2", append([]byte{0, 7, 0, 0}, scan[4:]...), ErrUnsupportedEncapsulation, "encapsulation", 0, "CDR2_LE (0x0007)"},
		{"invalid utf-8", AppendLaserScan(nil, &LaserScan{Header: Header{FrameID: "a\xffb"}}, binary.LittleEndian), ErrBadFrameID, "LaserScan.header.frame_id", 12, "not valid UTF-8"},
		{"NUL", bad("a\x00b"), ErrBadFrameID, "LaserScan.header.frame_id", 12, "control byte 0x00 at index 1"},
		{"unit separator", bad("ab\x1f"), ErrBadFrameID, "LaserScan.header.frame_id", 12, "control byte 0x1f at index 2"},
		{"DEL", bad("\x7f"), ErrBadFrameID, "LaserScan.header.frame_id", 12, "control byte 0x7f at index 0"},
	} {
		err := DecodeHeaderInto(&h, tc.data, TypeLaserScan)
		var de *DecodeError
		if !errors.Is(err, tc.err) || !errors.As(err, &de) || de.Field != tc.field || de.Offset != tc.offset || de.Detail != tc.detail {
			t.Errorf("%s: %v (want %v at %s, byte %d, %q)", tc.name, err, tc.err, tc.field, tc.offset, tc.detail)
		}
	}
	// empty and slash-led frame ids are legal on the wire, and so is a space
	for _, id := range []string{"", "/map", "a b"} {
		b := AppendLaserScan(nil, &LaserScan{Header: Header{FrameID: id}}, binary.LittleEndian)
		if err := DecodeHeaderInto(&h, b, TypeLaserScan); err != nil || h.FrameID != id {
			t.Errorf("%q: %v %q", id, err, h.FrameID)
		}
	}
}

func FuzzDecodeHeaderInto(f *testing.F) {
	for _, o := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		f.Add(AppendLaserScan(nil, ptr(sampleScan(2, "laser")), o))
		f.Add(AppendTFMessage(nil, &TFMessage{}, o))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var h Header
		err := DecodeHeaderInto(&h, data, "x/msg/Y")
		if err != nil {
			if !errors.Is(err, ErrBadFrameID) {
				checkDecodeErr(t, err)
			}
			return
		}
		// the header is the prefix of a LaserScan: re-encode and compare
		enc := AppendLaserScan(nil, &LaserScan{Header: h}, orderOf(data))
		var h2 Header
		if err := DecodeHeaderInto(&h2, enc, "x/msg/Y"); err != nil || h2 != h {
			t.Fatalf("round trip: %v %+v vs %+v", err, h2, h)
		}
	})
}

func FuzzLookupStamped(f *testing.F) {
	f.Add("my/msg/T", "ros2msg", imuMsgDef)
	f.Add("my/msg/T", "ros2msg", ros1HeaderDef)
	f.Add("my_pkg/msg/Tracked", "ros2idl", idlDef)
	f.Fuzz(func(t *testing.T, typ, enc, def string) {
		got := LookupStamped(typ, enc, def)
		if got.Reason == "" || (got.Stamped && !got.Known) {
			t.Fatalf("%+v", got)
		}
	})
}

// TestMalformedDefinitions: a definition that cannot be read never
// panics and is reported as not analysed with the parse error.
func TestMalformedDefinitions(t *testing.T) {
	const bad = ReasonDefinitionInvalid + ": "
	for _, tc := range []struct {
		enc, def string
		reason   string // prefix; "" = must be decided
		stamped  bool
	}{
		{"ros2msg", "\x00\xff\xfe garbage", bad, false},
		{"ros2msg", "int8[<=x] a", bad, false},
		{"ros2msg", "int8[3 a", bad, false},
		{"ros2msg", "string<= a", bad, false},
		{"ros2msg", "int8 1abc", bad, false},
		{"ros2msg", "a/b/c/d x", bad, false},
		{"ros2msg", "---\nint8 a", bad, false},
		{"ros2msg", "std_msgs/Header header\n" + strings.Repeat("=", 80) + "\nMSG: std_msgs/Header\nbuiltin_interfaces/Time\n", "definition in the bag starts with std_msgs/Header header, but its std_msgs/Header definition does not parse", false},
		{"ros2msg", "std_msgs/Header header\n" + strings.Repeat("=", 80) + "\nMSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id", "definition in the bag starts with std_msgs/Header header, but its std_msgs/Header is not ROS 2's `builtin_interfaces/Time stamp`, `string frame_id` (ROS 1 layout", false},
		{"ros2msg", "std_msgs/Header header\n" + strings.Repeat("=", 80) + "\nMSG: builtin_interfaces/Time\nint64 nanoseconds", "definition in the bag starts with std_msgs/Header header, but its builtin_interfaces/Time is not", false},
		{"ros2msg", "Header header\n" + strings.Repeat("=", 80) + "\nMSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id", "", true},
		{"ros2msg", strings.Repeat("=", 80) + "\nMSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id", "", false},
		{"ros2msg", "\r\n# windows line ends\r\nstd_msgs/msg/Header header\r\nint8 a\r\n", "", true},
		{"ros2idl", "struct T {", bad, false},
		{"ros2idl", "struct T { @verbatim (text=\"x\" std_msgs::msg::Header header; };", bad, false},
		{"ros2idl", "/* never closed", bad, false},
		{"ros2idl", "struct T { string s = \"never closed; };", bad, false},
		{"ros2idl", "module m { };", bad, false},
		{"ros2idl", "struct T { ; };", bad, false},
		{"ros2idl", "struct T { int32 1x; };", bad, false},
		{"ros2idl", "struct T { };", "", false},
		{"ros2idl", "struct T { double d[3]; };", "", false},
		{"ros2idl", "// c\nstruct T { std_msgs::msg::Header header; int8 a; };", "", true},
		{"ros2idl", strings.Repeat("=", 80) + "\nIDL: p/msg/T\nstruct T { std_msgs::msg::Header header; };\n" + strings.Repeat("=", 80) +
			"\nIDL: std_msgs/msg/Header\nstruct Header { uint32 seq; builtin_interfaces::msg::Time stamp; string frame_id; };",
			"definition in the bag starts with std_msgs::msg::Header header, but its std_msgs/Header is not ROS 2's", false},
	} {
		got := LookupStamped("p/msg/T", tc.enc, tc.def)
		switch {
		case tc.reason == "" && (!got.Known || got.Stamped != tc.stamped):
			t.Errorf("%s %.40q: %+v, want decided stamped=%v", tc.enc, tc.def, got, tc.stamped)
		case tc.reason != "" && (got.Known || got.Stamped || !strings.HasPrefix(got.Reason, tc.reason)):
			t.Errorf("%s %.40q: %+v, want not analysed: %q...", tc.enc, tc.def, got, tc.reason)
		}
	}
}

// TestTableKey: "pkg/msg/Type" becomes "pkg/Type"; a name with no package,
// or with more after the type, is kept.
func TestTableKey(t *testing.T) {
	for in, want := range map[string]string{
		"sensor_msgs/msg/LaserScan": "sensor_msgs/LaserScan",
		"sensor_msgs/LaserScan":     "sensor_msgs/LaserScan",
		"/msg/LaserScan":            "/msg/LaserScan",
		"p/msg/a/B":                 "p/msg/a/B",
	} {
		if got := tableKey(in); got != want {
			t.Errorf("tableKey(%q) = %q, want %q", in, got, want)
		}
	}
}
