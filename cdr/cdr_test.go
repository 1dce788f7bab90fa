package cdr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
)

// Hex of the worked examples in ../shared/docs/cdr.md §6 (6.1 LaserScan,
// 6.2 TFMessage, 6.3 Clock), copied from the doc's dumps. The big-endian
// versions and the Log message were laid out by hand from §2–§5.
const (
	hexScanLE = `00 01 00 00  00 f1 53 65  00 65 cd 1d  06 00 00 00  6c 61 73 65 72 00  00 00
		00 00 c0 bf  00 00 c0 3f  00 00 c0 3f  00 00 00 00  cd cc cc 3d  cd cc cc 3d  00 00 20 41
		03 00 00 00  00 00 80 3f 00 00 00 40 00 00 40 40  00 00 00 00`
	hexScanBE = `00 00 00 00  65 53 f1 00  1d cd 65 00  00 00 00 06  6c 61 73 65 72 00  00 00
		bf c0 00 00  3f c0 00 00  3f c0 00 00  00 00 00 00  3d cc cc cd  3d cc cc cd  41 20 00 00
		00 00 00 03  3f 80 00 00 40 00 00 00 40 40 00 00  00 00 00 00`
	hexTFLE = `00 01 00 00  01 00 00 00  00 f1 53 65  80 b2 e6 0e  05 00 00 00  6f 64 6f 6d 00  00 00 00
		0a 00 00 00  62 61 73 65 5f 6c 69 6e 6b 00  00 00
		00 00 00 00 00 00 f0 3f  00 00 00 00 00 00 00 40  00 00 00 00 00 00 00 00
		00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
		00 00 00 00 00 00 f0 3f`
	hexTFBE = `00 00 00 00  00 00 00 01  65 53 f1 00  0e e6 b2 80  00 00 00 05  6f 64 6f 6d 00  00 00 00
		00 00 00 0a  62 61 73 65 5f 6c 69 6e 6b 00  00 00
		3f f0 00 00 00 00 00 00  40 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
		00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00
		3f f0 00 00 00 00 00 00`
	hexClockLE = `00 01 00 00  00 f1 53 65  00 00 00 00`
	hexClockBE = `00 00 00 00  65 53 f1 00  00 00 00 00`
	// Log: stamp 1700000000.0, level INFO (20), name "talker", msg "hi",
	// file "a.c", function "f", line 42. level sits at rel 8, so name's
	// length pads to rel 12; line pads from rel 46 to 48; 56 bytes.
	hexLogLE = `00 01 00 00  00 f1 53 65  00 00 00 00  14 00 00 00  07 00 00 00  74 61 6c 6b 65 72 00  00
		03 00 00 00  68 69 00  00  04 00 00 00  61 2e 63 00  02 00 00 00  66 00  00 00  2a 00 00 00`
)

var (
	exampleScan = LaserScan{
		Header:   Header{Stamp: Time{Sec: 1700000000, Nanosec: 500000000}, FrameID: "laser"},
		AngleMin: -1.5, AngleMax: 1.5, AngleIncrement: 1.5, TimeIncrement: 0, ScanTime: 0.1,
		RangeMin: 0.1, RangeMax: 10, Ranges: []float32{1, 2, 3},
	}
	exampleTF = TFMessage{Transforms: []TransformStamped{{
		Header:       Header{Stamp: Time{Sec: 1700000000, Nanosec: 250000000}, FrameID: "odom"},
		ChildFrameID: "base_link",
		Transform:    Transform{Translation: Vector3{X: 1, Y: 2}, Rotation: Quaternion{W: 1}},
	}}}
	exampleClock = Clock{Clock: Time{Sec: 1700000000}}
	exampleLog   = Log{Stamp: Time{Sec: 1700000000}, Level: LogInfo, Name: "talker", Msg: "hi", File: "a.c", Function: "f", Line: 42}
)

func TestWorkedExamples(t *testing.T) {
	tests := []struct {
		name   string
		hex    string
		order  binary.ByteOrder
		size   int
		encode func(binary.ByteOrder) []byte
		decode func(*testing.T, []byte) // decodes and compares with the value
	}{
		{"6.1 LaserScan LE", hexScanLE, binary.LittleEndian, 72,
			func(o binary.ByteOrder) []byte { return AppendLaserScan(nil, &exampleScan, o) }, checkScan},
		{"6.1 LaserScan BE", hexScanBE, binary.BigEndian, 72,
			func(o binary.ByteOrder) []byte { return AppendLaserScan(nil, &exampleScan, o) }, checkScan},
		{"6.2 TFMessage LE", hexTFLE, binary.LittleEndian, 100,
			func(o binary.ByteOrder) []byte { return AppendTFMessage(nil, &exampleTF, o) }, checkTF},
		{"6.2 TFMessage BE", hexTFBE, binary.BigEndian, 100,
			func(o binary.ByteOrder) []byte { return AppendTFMessage(nil, &exampleTF, o) }, checkTF},
		{"6.3 Clock LE", hexClockLE, binary.LittleEndian, 12,
			func(o binary.ByteOrder) []byte { return AppendClock(nil, &exampleClock, o) }, checkClock},
		{"6.3 Clock BE", hexClockBE, binary.BigEndian, 12,
			func(o binary.ByteOrder) []byte { return AppendClock(nil, &exampleClock, o) }, checkClock},
		{"Log LE", hexLogLE, binary.LittleEndian, 56,
			func(o binary.ByteOrder) []byte { return AppendLog(nil, &exampleLog, o) }, checkLog},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := unhex(t, tt.hex)
			if len(want) != tt.size {
				t.Fatalf("test hex has %d bytes, doc says %d", len(want), tt.size)
			}
			got := tt.encode(tt.order)
			if !bytes.Equal(got, want) {
				t.Errorf("encoded\n% x\nwant\n% x", got, want)
			}
			tt.decode(t, want)
		})
	}
}

func checkScan(t *testing.T, data []byte) {
	t.Helper()
	m, err := DecodeLaserScan(data)
	if err != nil {
		t.Fatal(err)
	}
	if !sameLaserScan(&m, &exampleScan) {
		t.Errorf("decoded %+v\nwant %+v", m, exampleScan)
	}
	h, err := DecodeLaserScanHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	want := ScanHeader{Header: exampleScan.Header, NumRanges: 3, NumIntensities: 0, Info: h.Info}
	if h != want || h.Info.Size != 72 || h.Info.Trailing != 0 {
		t.Errorf("header path: %+v, want %+v with size 72", h, want)
	}
}

func checkTF(t *testing.T, data []byte) {
	t.Helper()
	m, err := DecodeTFMessage(data)
	if err != nil {
		t.Fatal(err)
	}
	if !sameTF(&m, &exampleTF) {
		t.Errorf("decoded %+v\nwant %+v", m, exampleTF)
	}
}

func checkClock(t *testing.T, data []byte) {
	t.Helper()
	m, err := DecodeClock(data)
	if err != nil {
		t.Fatal(err)
	}
	if m != exampleClock || m.Clock.Nanoseconds() != 1_700_000_000_000_000_000 {
		t.Errorf("decoded %+v, want %+v", m, exampleClock)
	}
}

func checkLog(t *testing.T, data []byte) {
	t.Helper()
	m, err := DecodeLog(data)
	if err != nil {
		t.Fatal(err)
	}
	if m != exampleLog {
		t.Errorf("decoded %+v, want %+v", m, exampleLog)
	}
}

// TestRelativeAlignment pins the trap of cdr.md §6.2: translation.x sits at
// absolute offset 44, 8-aligned only relative to byte 4. An encoder that
// aligned on the buffer start, or on dst's start instead of the message's,
// would move it.
func TestRelativeAlignment(t *testing.T) {
	for _, prefix := range []int{0, 1, 3, 4, 5} {
		dst := bytes.Repeat([]byte{0xee}, prefix)
		got := AppendTFMessage(dst, &exampleTF, binary.LittleEndian)
		if !bytes.Equal(got[:prefix], dst) {
			t.Fatalf("prefix %d: dst's bytes changed", prefix)
		}
		if want := unhex(t, hexTFLE); !bytes.Equal(got[prefix:], want) {
			t.Errorf("prefix %d: encoding depends on dst's length:\n% x", prefix, got[prefix:])
		}
	}
	data := unhex(t, hexTFLE)
	if x := binary.LittleEndian.Uint64(data[44:]); x != 0x3ff0000000000000 {
		t.Errorf("translation.x at abs 44 = %#x, want 1.0", x)
	}
}

func TestEncapsulation(t *testing.T) {
	tests := []struct {
		head   string
		err    error
		detail string
	}{
		{"00 00", nil, ""},
		{"00 01", nil, ""},
		{"00 02", ErrUnsupportedEncapsulation, "PL_CDR_BE (0x0002)"},
		{"00 03", ErrUnsupportedEncapsulation, "PL_CDR_LE (0x0003)"},
		{"00 06", ErrUnsupportedEncapsulation, "CDR2_BE (0x0006)"},
		{"00 07", ErrUnsupportedEncapsulation, "CDR2_LE (0x0007)"},
		{"00 08", ErrUnsupportedEncapsulation, "D_CDR2_BE (0x0008)"},
		{"00 09", ErrUnsupportedEncapsulation, "D_CDR2_LE (0x0009)"},
		{"00 0a", ErrUnsupportedEncapsulation, "PL_CDR2_BE (0x000a)"},
		{"00 0b", ErrUnsupportedEncapsulation, "PL_CDR2_LE (0x000b)"},
		{"00 0c", ErrUnsupportedEncapsulation, "unknown (0x000c)"},
		{"01 01", ErrUnsupportedEncapsulation, "unknown (0x0101)"},
		{"28 b5", ErrUnsupportedEncapsulation, "unknown (0x28b5)"}, // a zstd frame (MESSAGE mode not undone)
	}
	for _, tt := range tests {
		t.Run(tt.head, func(t *testing.T) {
			data := unhex(t, tt.head+" 00 00  00 f1 53 65  00 00 00 00")
			_, err := DecodeClock(data)
			if tt.err == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var de *DecodeError
			if !errors.As(err, &de) || !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want *DecodeError wrapping %v", err, tt.err)
			}
			if de.Detail != tt.detail || de.Field != "encapsulation" || de.Offset != 0 || de.Type != TypeClock {
				t.Errorf("got %+v", de)
			}
			if !strings.Contains(err.Error(), tt.detail) {
				t.Errorf("message %q lacks %q", err, tt.detail)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	scan := unhex(t, hexScanLE)
	tf3 := AppendTFMessage(nil, &TFMessage{Transforms: sampleTF().Transforms}, binary.LittleEndian)
	// Offset of transforms[2].child_frame_id's length: walk the encoding.
	child2 := bytes.Index(tf3, append([]byte{byte(len("wheel_right_link") + 1), 0, 0, 0}, "wheel_right_link"...))

	put := func(b []byte, off int, v uint32) []byte {
		c := bytes.Clone(b)
		binary.LittleEndian.PutUint32(c[off:], v)
		return c
	}
	tests := []struct {
		name   string
		data   []byte
		decode func([]byte) error
		err    error
		field  string
		offset int
		need   int
		have   int
	}{
		{"empty", nil, decScan, io.ErrUnexpectedEOF, "encapsulation", 0, 4, 0},
		{"header only", scan[:4], decScan, io.ErrUnexpectedEOF, "LaserScan.header.stamp.sec", 4, 4, 0},
		{"torn nanosec", scan[:10], decScan, io.ErrUnexpectedEOF, "LaserScan.header.stamp.nanosec", 8, 4, 2},
		{"frame_id length 1000", put(scan, 12, 1000), decScan, ErrBadLength, "LaserScan.header.frame_id", 12, 1000, 56},
		{"frame_id length 4G", put(scan, 12, 0xffffffff), decScan, ErrBadLength, "LaserScan.header.frame_id", 12, 0xffffffff, 56}, // the length as read
		{"cut in padding", scan[:23], decScan, io.ErrUnexpectedEOF, "LaserScan.angle_min", 24, 4, 0},
		{"cut in range_max", scan[:50], decScan, io.ErrUnexpectedEOF, "LaserScan.range_max", 48, 4, 2},
		{"ranges count 4G", put(scan, 52, 0xffffffff), decScan, ErrBadLength, "LaserScan.ranges", 52, 0xffffffff * 4, 16}, // the count times 4 bytes, as claimed
		{"ranges count 5", put(scan, 52, 5), decScan, ErrBadLength, "LaserScan.ranges", 52, 20, 16},
		{"cut in ranges", scan[:60], decScan, ErrBadLength, "LaserScan.ranges", 52, 12, 4},
		{"no intensities count", scan[:68], decScan, io.ErrUnexpectedEOF, "LaserScan.intensities", 68, 4, 0},
		{"intensities count 1", put(scan, 68, 1), decScan, ErrBadLength, "LaserScan.intensities", 68, 4, 0},
		{"tf count 2", put(unhex(t, hexTFLE), 4, 2), decTF, ErrBadLength, "TFMessage.transforms", 4, 144, 92},
		{"tf count 4G", put(tf3, 4, 0xffffffff), decTF, ErrBadLength, "TFMessage.transforms", 4, 0xffffffff * 72, len(tf3) - 8}, // need: the count times the smallest transform (72 bytes), unclamped
		{"tf child 2 length", put(tf3, child2, 500), decTF, ErrBadLength, "TFMessage.transforms[2].child_frame_id", child2, 500, len(tf3) - child2 - 4},
		{"tf cut in rotation.w", unhex(t, hexTFLE)[:97], decTF, io.ErrUnexpectedEOF, "TFMessage.transforms[0].transform.rotation.w", 92, 8, 5},
		{"tf cut in translation", tf3[:len(tf3)-52], decTF, io.ErrUnexpectedEOF, "TFMessage.transforms[2].transform.translation.x", len(tf3) - 56, 8, 4},
		{"clock torn", unhex(t, hexClockLE)[:11], decClock, io.ErrUnexpectedEOF, "Clock.clock.nanosec", 8, 4, 3},
		{"log msg length", put(unhex(t, hexLogLE), 28, 99), decLog, ErrBadLength, "Log.msg", 28, 99, 24},
		{"log no line", unhex(t, hexLogLE)[:50], decLog, io.ErrUnexpectedEOF, "Log.line", 52, 4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.decode(tt.data)
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want *DecodeError", err)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("err = %v, want it to wrap %v", err, tt.err)
			}
			if de.Field != tt.field || de.Offset != tt.offset || de.Need != tt.need || de.Have != tt.have {
				t.Errorf("got field %q offset %d need %d have %d\nwant field %q offset %d need %d have %d",
					de.Field, de.Offset, de.Need, de.Have, tt.field, tt.offset, tt.need, tt.have)
			}
			msg := err.Error()
			for _, part := range []string{de.Type, tt.field, "at byte " + itoa(uint64(tt.offset))} {
				if !strings.Contains(msg, part) {
					t.Errorf("message %q lacks %q", msg, part)
				}
			}
		})
	}
}

func decScan(b []byte) error {
	_, err := DecodeLaserScan(b)
	_, herr := DecodeLaserScanHeader(b)
	if (err == nil) != (herr == nil) || (err != nil && err.Error() != herr.Error()) {
		return errors.New("header path and full decode disagree: " + errString(err) + " vs " + errString(herr))
	}
	return err
}
func decTF(b []byte) error    { _, err := DecodeTFMessage(b); return err }
func decClock(b []byte) error { _, err := DecodeClock(b); return err }
func decLog(b []byte) error   { _, err := DecodeLog(b); return err }

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestTruncatedEverywhere cuts each example at every length: each cut must
// fail with a *DecodeError meaning "short" or "bad length", never panic and
// never succeed (all four types end with a field that is always present).
func TestTruncatedEverywhere(t *testing.T) {
	for name, tc := range map[string]struct {
		full []byte
		dec  func([]byte) error
	}{
		"scan LE": {unhex(t, hexScanLE), decScan}, "scan BE": {unhex(t, hexScanBE), decScan},
		"tf LE": {unhex(t, hexTFLE), decTF}, "tf BE": {unhex(t, hexTFBE), decTF},
		// Three transforms with long frame ids: cuts past 72 bytes a
		// transform, inside the second and third ones' strings.
		"tf3 LE": {AppendTFMessage(nil, ptr(sampleTF()), binary.LittleEndian), decTF},
		"tf3 BE": {AppendTFMessage(nil, ptr(sampleTF()), binary.BigEndian), decTF},
		// 100-byte ids: the second transform starts well past 72 bytes
		// a transform, so cuts in it pass the count check.
		"tf long ids LE": {AppendTFMessage(nil, &TFMessage{Transforms: []TransformStamped{
			{Header: Header{FrameID: strings.Repeat("f", 100)}, ChildFrameID: strings.Repeat("c", 100)},
			{Header: Header{FrameID: "odom"}, ChildFrameID: "base_link"},
		}}, binary.LittleEndian), decTF},
		"clock": {unhex(t, hexClockLE), decClock}, "log": {unhex(t, hexLogLE), decLog},
	} {
		full := tc.full
		for n := 0; n < len(full); n++ {
			err := tc.dec(full[:n:n])
			var de *DecodeError
			if !errors.As(err, &de) || !(errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrBadLength)) {
				t.Errorf("%s cut at %d: err = %v", name, n, err)
			}
		}
		if err := tc.dec(full); err != nil {
			t.Errorf("%s full: %v", name, err)
		}
	}
}

// TestStrings decodes one transform whose frame id is each case, little
// endian (the TFMessage fast path) and big endian (the general cursor).
func TestStrings(t *testing.T) {
	tf := func(o binary.AppendByteOrder, frameLen uint32, frame []byte) []byte {
		b := []byte{0, 0, 0, 0}
		if o == binary.LittleEndian {
			b[1] = 1
		}
		b = o.AppendUint32(b, 1)
		b = o.AppendUint32(b, 1)
		b = o.AppendUint32(b, 2)
		b = o.AppendUint32(b, frameLen)
		b = append(b, frame...)
		for (len(b)-4)%4 != 0 {
			b = append(b, 0)
		}
		b = o.AppendUint32(b, 6)
		b = append(b, 'c', 'h', 'i', 'l', 'd', 0)
		for (len(b)-4)%8 != 0 {
			b = append(b, 0)
		}
		b = append(b, make([]byte, 48)...)
		return o.AppendUint64(b, 0x3ff0000000000000)
	}
	tests := []struct {
		name     string
		frameLen uint32
		frameB   string
		frame    string
		noNUL    int
		check    error
	}{
		{"length 0 is empty", 0, "", "", 0, ErrFrameIDEmpty},
		{"empty with NUL", 1, "\x00", "", 0, ErrFrameIDEmpty},
		{"normal", 5, "odom\x00", "odom", 0, nil},
		{"missing NUL", 4, "odom", "odom", 1, nil},
		{"invalid UTF-8 kept", 4, "o\xff\xfe\x00", "o\xff\xfe", 0, ErrFrameIDInvalidUTF8},
		{"leading slash", 6, "/odom\x00", "/odom", 0, ErrFrameIDLeadingSlash},
		{"interior NUL kept", 6, "od\x00om\x00", "od\x00om", 0, ErrFrameIDControlChar},
		{"only the last NUL stripped", 3, "a\x00\x00", "a\x00", 0, ErrFrameIDControlChar},
		{"space kept", 4, "a b\x00", "a b", 0, nil},
		{"unit separator", 3, "a\x1f\x00", "a\x1f", 0, ErrFrameIDControlChar},
		{"DEL", 3, "a\x7f\x00", "a\x7f", 0, ErrFrameIDControlChar},
	}
	for _, tt := range tests {
		for _, o := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
			t.Run(tt.name+" "+o.String(), func(t *testing.T) {
				var m TFMessage
				info, err := DecodeTFMessageInto(&m, tf(o, tt.frameLen, []byte(tt.frameB)))
				if err != nil {
					t.Fatal(err)
				}
				if got := m.Transforms[0].Header.FrameID; got != tt.frame {
					t.Errorf("frame %q, want %q", got, tt.frame)
				}
				if m.Transforms[0].ChildFrameID != "child" || m.Transforms[0].Transform.Rotation.W != 1 {
					t.Errorf("rest misread: %+v", m.Transforms[0])
				}
				if info.StringsWithoutNUL != tt.noNUL || info.Trailing != 0 {
					t.Errorf("info %+v, want %d strings without NUL", info, tt.noNUL)
				}
				if err := CheckFrameID(m.Transforms[0].Header.FrameID); err != tt.check {
					t.Errorf("CheckFrameID = %v, want %v", err, tt.check)
				}
			})
		}
	}
}

func TestTrailingBytes(t *testing.T) {
	scan := unhex(t, hexScanLE)
	tests := []struct {
		name       string
		extra      []byte
		suspicious bool
	}{
		{"none", nil, false},
		{"cyclone pad 3", []byte{0, 0, 0}, false},
		{"nonzero pad", []byte{0, 1}, true},
		{"8 bytes", make([]byte, 8), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := append(bytes.Clone(scan), tt.extra...)
			var m LaserScan
			info, err := DecodeLaserScanInto(&m, data)
			if err != nil {
				t.Fatal(err)
			}
			if !sameLaserScan(&m, &exampleScan) {
				t.Errorf("decoded %+v", m)
			}
			if info.Size != 72 || info.Trailing != len(tt.extra) || info.SuspiciousTrailing(data) != tt.suspicious {
				t.Errorf("info %+v suspicious=%v", info, info.SuspiciousTrailing(data))
			}
			h, err := DecodeLaserScanHeader(data)
			if err != nil || h.Info != info {
				t.Errorf("header path info %+v err %v, want %+v", h.Info, err, info)
			}
		})
	}
}

func TestDecodeHeader(t *testing.T) {
	h, err := DecodeHeader(unhex(t, hexScanBE), "sensor_msgs/msg/LaserScan")
	if err != nil || h != exampleScan.Header {
		t.Fatalf("DecodeHeader = %+v, %v", h, err)
	}
	_, err = DecodeHeader(unhex(t, hexScanLE)[:16], "nav_msgs/msg/Odometry")
	var de *DecodeError
	if !errors.As(err, &de) || de.Field != "Odometry.header.frame_id" || !errors.Is(err, ErrBadLength) {
		t.Errorf("err = %v", err)
	}
}

// TestReuse checks that the Into variants give the same values as fresh
// decodes when dst holds a previous, different message.
func TestReuse(t *testing.T) {
	big := sampleScan(1080, "laser_frame")
	small := exampleScan
	var m LaserScan
	for i, src := range []*LaserScan{&big, &small, &big, &exampleScan} {
		data := AppendLaserScan(nil, src, binary.LittleEndian)
		if _, err := DecodeLaserScanInto(&m, data); err != nil {
			t.Fatal(err)
		}
		if !sameLaserScan(&m, src) {
			t.Errorf("step %d: reused decode differs", i)
		}
	}
	tfs := sampleTF()
	one := exampleTF
	var tm TFMessage
	for i, src := range []*TFMessage{&tfs, &one, &tfs, {}} {
		if _, err := DecodeTFMessageInto(&tm, AppendTFMessage(nil, src, binary.BigEndian)); err != nil {
			t.Fatal(err)
		}
		if !sameTF(&tm, src) {
			t.Errorf("step %d: reused decode differs: %+v", i, tm)
		}
	}
}

func TestAllocations(t *testing.T) {
	scanData := AppendLaserScan(nil, ptr(sampleScan(1080, "laser")), binary.LittleEndian)
	tfData := AppendTFMessage(nil, ptr(sampleTF()), binary.LittleEndian)
	var sh ScanHeader
	var sm LaserScan
	var tm TFMessage
	buf := make([]byte, 0, 8192)
	tests := []struct {
		name string
		max  float64
		fn   func()
	}{
		{"DecodeLaserScanHeader (frame id string)", 1, func() { _, _ = DecodeLaserScanHeader(scanData) }},
		{"DecodeLaserScanHeaderInto", 0, func() { _ = DecodeLaserScanHeaderInto(&sh, scanData) }},
		{"DecodeLaserScanInto", 0, func() { _, _ = DecodeLaserScanInto(&sm, scanData) }},
		{"DecodeTFMessageInto", 0, func() { _, _ = DecodeTFMessageInto(&tm, tfData) }},
		{"DecodeClock", 0, func() { _, _ = DecodeClock(clockBytes) }},
		{"AppendLaserScan", 0, func() { buf = AppendLaserScan(buf[:0], &exampleScan, binary.LittleEndian) }},
		{"AppendTFMessage", 0, func() { buf = AppendTFMessage(buf[:0], &tm, binary.LittleEndian) }},
	}
	for _, tt := range tests {
		tt.fn() // warm up the reused values
		if got := testing.AllocsPerRun(50, tt.fn); got > tt.max {
			t.Errorf("%s: %v allocations per run, want <= %v", tt.name, got, tt.max)
		}
	}
}

// clockBytes is hexClockLE, for closures that have no testing.TB.
var clockBytes = []byte{0, 1, 0, 0, 0, 0xf1, 0x53, 0x65, 0, 0, 0, 0}

func ptr[T any](v T) *T { return &v }

// TestCountCap: a count above the cap is refused even when the bytes are
// there (here 2^24+1 intensities of 4 bytes: a 64 MiB message).
func TestCountCap(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 64 MiB")
	}
	data := unhex(t, hexScanLE)
	binary.LittleEndian.PutUint32(data[68:], maxCount+1)
	data = append(data, make([]byte, 4*(maxCount+1))...)
	_, err := DecodeLaserScan(data)
	var de *DecodeError
	if !errors.As(err, &de) || !errors.Is(err, ErrBadLength) || de.Field != "LaserScan.intensities" ||
		!strings.Contains(de.Detail, "cap") {
		t.Fatalf("err = %v", err)
	}
}
