package cdr

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func TestTFStampOffsetsPatch(t *testing.T) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		m := TFMessage{Transforms: []TransformStamped{
			{Header: Header{Stamp: Time{Sec: 5, Nanosec: 7}, FrameID: "odom"}, ChildFrameID: "base_link"},
			{Header: Header{Stamp: Time{Sec: 9, Nanosec: 1}, FrameID: "base"}, ChildFrameID: "l"},
			{Header: Header{Stamp: Time{Sec: 1, Nanosec: 2}, FrameID: ""}, ChildFrameID: "abc"},
		}}
		data := AppendTFMessage(nil, &m, order)
		offs, err := TFStampOffsets(nil, data)
		if err != nil || len(offs) != 3 {
			t.Fatalf("%v: offsets %v, %v", order, offs, err)
		}
		orig := append([]byte(nil), data...)
		want := []int64{1_790_000_000_123_456_789, 42, 0}
		for i, off := range offs {
			if got, _ := Stamp(data, off); got != m.Transforms[i].Header.Stamp.Nanoseconds() {
				t.Fatalf("%v: transform %d: stamp at %d is %d", order, i, off, got)
			}
			if err := PutStamp(data, off, want[i]); err != nil {
				t.Fatal(err)
			}
		}
		got, err := DecodeTFMessage(data)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if got.Transforms[i].Header.Stamp.Nanoseconds() != want[i] {
				t.Errorf("%v: transform %d stamp %d, want %d", order, i, got.Transforms[i].Header.Stamp.Nanoseconds(), want[i])
			}
		}
		// Only the 8 bytes of each stamp changed.
		for i := range data {
			inStamp := false
			for _, off := range offs {
				inStamp = inStamp || (i >= off && i < off+8)
			}
			if !inStamp && data[i] != orig[i] {
				t.Fatalf("%v: byte %d changed outside the stamps", order, i)
			}
		}
	}
}

func TestStampPatchBadInput(t *testing.T) {
	if _, err := TFStampOffsets(nil, []byte{0, 1, 0, 0, 200, 0, 0, 0}); err == nil {
		t.Error("TFStampOffsets accepted a count of 200 transforms in 8 bytes")
	}
	if err := PutStamp([]byte{0, 1, 0, 0, 1, 2, 3}, 4, 1); err == nil {
		t.Error("PutStamp wrote past the end")
	}
	b := []byte{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if err := PutStamp(b, 4, -1); err == nil {
		t.Error("PutStamp wrote a negative time")
	}
	if err := PutStamp(b, 4, 1<<62); err == nil {
		t.Error("PutStamp wrote a time past 2038")
	}
	if !bytes.Equal(b, []byte{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}) {
		t.Error("a refused PutStamp changed bytes")
	}
	if _, err := Stamp([]byte{9, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 4); err == nil {
		t.Error("Stamp read an unknown encapsulation")
	}
}

func FuzzTFStampOffsets(f *testing.F) {
	m := TFMessage{Transforms: []TransformStamped{{Header: Header{FrameID: "a"}, ChildFrameID: "b"}}}
	f.Add(AppendTFMessage(nil, &m, binary.LittleEndian))
	f.Fuzz(func(t *testing.T, data []byte) {
		offs, err := TFStampOffsets(nil, data)
		if err != nil {
			return
		}
		dec, err := DecodeTFMessage(data)
		if err != nil || len(dec.Transforms) != len(offs) {
			t.Fatalf("offsets %d transforms, decoder %d (%v)", len(offs), len(dec.Transforms), err)
		}
		for i, off := range offs {
			if s, err := Stamp(data, off); err != nil || s != dec.Transforms[i].Header.Stamp.Nanoseconds() {
				t.Fatalf("transform %d: stamp %d (%v), decoder %d", i, s, err, dec.Transforms[i].Header.Stamp.Nanoseconds())
			}
		}
	})
}
