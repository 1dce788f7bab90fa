package ros1msg

import (
	"errors"
	"io"
	"reflect"
	"testing"
)

// The fuzz targets decode arbitrary bytes: no panic, failures are
// *DecodeErrors with a documented cause and a field, and a message that
// decodes re-encodes to the bytes it used (ROS 1 has one layout, so the
// encoding of a decoded value is exactly its input). Crashers found by
// `go test -fuzz` are kept in testdata/fuzz/FuzzXxx/.

func checkErr(t *testing.T, err error) {
	t.Helper()
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("not a *DecodeError: %v", err)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, ErrBadLength) && !errors.Is(err, ErrBadFrameID) {
		t.Fatalf("undocumented cause: %v", err)
	}
	if de.Field == "" || de.Offset < 0 || de.Need < 0 || de.Have < 0 {
		t.Fatalf("incomplete error: %+v", de)
	}
}

func FuzzDecodeTFMessage(f *testing.F) {
	b := AppendTFMessage(nil, sampleTF())
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add([]byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var m TFMessage
		in, err := DecodeTFMessageInto(&m, data)
		if err != nil {
			checkErr(t, err)
			return
		}
		if re := AppendTFMessage(nil, &m); string(re) != string(data[:in.Size]) {
			t.Fatalf("re-encoding differs")
		}
		var again TFMessage
		again.Transforms = make([]TransformStamped, 0, 1) // reuse path
		if _, err := DecodeTFMessageInto(&again, data); err != nil || !reflect.DeepEqual(eqNaN(again), eqNaN(m)) {
			t.Fatalf("second decode: %v", err)
		}
	})
}

// FuzzTransformStampedFast: the fast path reads exactly what the checked
// path reads (fields and bytes used) whenever it answers, and declines
// only inputs the checked path rejects.
func FuzzTransformStampedFast(f *testing.F) {
	b := AppendTFMessage(nil, sampleTF())[4:]
	f.Add(b, "")
	f.Add(b[:len(b)-1], "odom")
	f.Add(b[:20], "")
	f.Fuzz(func(t *testing.T, data []byte, oldFrame string) {
		fast := TransformStamped{Header: Header{FrameID: oldFrame}}
		checked := fast
		cf := cursor{b: data, typ: TypeTFMessage}
		cc := cf
		ok := cf.transformStampedFast(&fast)
		err := cc.transformStampedChecked(&checked)
		if !ok {
			if err == nil {
				t.Fatalf("fast path declined what the checked path reads")
			}
			return
		}
		if err != nil {
			t.Fatalf("fast path read what the checked path rejects: %v", err)
		}
		if cf.pos != cc.pos || eqNaN(TFMessage{Transforms: []TransformStamped{fast}}) != eqNaN(TFMessage{Transforms: []TransformStamped{checked}}) {
			t.Fatalf("fast %+v at %d, checked %+v at %d", fast, cf.pos, checked, cc.pos)
		}
	})
}

// eqNaN makes NaN payloads comparable by re-encoding.
func eqNaN(m TFMessage) string { return string(AppendTFMessage(nil, &m)) }

func FuzzDecodeLog(f *testing.F) {
	b := AppendLog(nil, &Log{Header: Header{Seq: 1, Stamp: Time{2, 3}, FrameID: "f"}, Level: 2, Name: "/n", Msg: "hello", Line: 4, Topics: []string{"/a", "/b"}})
	f.Add(b)
	f.Add(b[:len(b)-2])
	f.Fuzz(func(t *testing.T, data []byte) {
		l, in, err := DecodeLog(data)
		if err != nil {
			checkErr(t, err)
			return
		}
		if re := AppendLog(nil, &l); string(re) != string(data[:in.Size]) {
			t.Fatalf("re-encoding differs")
		}
	})
}

func FuzzDecodeStamped(f *testing.F) {
	f.Add(AppendLaserScan(nil, Header{Seq: 3, Stamp: Time{10, 20}, FrameID: "laser"}, 0.001, 0.1, []float32{1, 2, 3}, []float32{4}))
	f.Add(AppendClock(nil, Clock{Time{1, 2}}))
	f.Add(AppendHeader(nil, Header{FrameID: "/base_link"}))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s ScanHeader
		if err := DecodeLaserScanHeaderInto(&s, data); err != nil {
			checkErr(t, err)
		} else if want := 12 + 4 + len(s.Header.FrameID) + 28 + 8 + 4*(s.NumRanges+s.NumIntensities); s.Info.Size != want || s.Info.Size+s.Info.Trailing != len(data) {
			t.Fatalf("scan info %+v, want size %d", s.Info, want)
		}
		// A prefix read agrees with the whole read where it can see.
		var p ScanHeader
		if err := DecodeLaserScanPrefixInto(&p, data[:len(data)/2], int64(len(data))); err == nil {
			if s.NumRanges >= 0 && p.Header == s.Header && (p.NumRanges != -1 && p.NumRanges != s.NumRanges) {
				t.Fatalf("prefix ranges %d, whole %d", p.NumRanges, s.NumRanges)
			}
		} else {
			checkErr(t, err)
		}
		var h Header
		if err := DecodeHeaderInto(&h, data, TypeLaserScan); err != nil {
			checkErr(t, err)
		} else if re := AppendHeader(nil, h); string(re) != string(data[:len(re)]) {
			t.Fatalf("header re-encoding differs")
		}
		if c, in, err := DecodeClock(data); err != nil {
			checkErr(t, err)
		} else if string(AppendClock(nil, c)) != string(data[:in.Size]) {
			t.Fatalf("clock re-encoding differs")
		}
	})
}

func FuzzStampedFromDefinition(f *testing.F) {
	f.Add("Header header\n================================================================================\nMSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n")
	f.Add("byte A=1\nfloat32[] x # c\n")
	f.Fuzz(func(t *testing.T, def string) {
		si := StampedFromDefinition("p/T", def)
		if si.Reason == "" || (si.Stamped && !si.Known) {
			t.Fatalf("%+v", si)
		}
	})
}
