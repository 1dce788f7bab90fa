package bagread

import (
	"encoding/binary"
	"testing"
)

func ros1Field(name string, v []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(name)+1+len(v)))
	return append(append(append(b, name...), '='), v...)
}

func ros1Header(fields ...[]byte) []byte {
	var h []byte
	for _, f := range fields {
		h = append(h, f...)
	}
	return h
}

// TestParseROS1Message: the message-record fast path gives what the general
// parser gives whenever it answers, in every field order, and declines
// every other header.
func TestParseROS1Message(t *testing.T) {
	op := ros1Field("op", []byte{ros1OpMessage})
	conn := ros1Field("conn", binary.LittleEndian.AppendUint32(nil, 7))
	tm := ros1Field("time", binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 1700000000), 250))
	cases := []struct {
		name string
		h    []byte
		fast bool
	}{
		{"python rosbag order (op, conn, time)", ros1Header(op, conn, tm), true},
		{"C++ rosbag order (conn, op, time)", ros1Header(conn, op, tm), true},
		{"time first", ros1Header(tm, conn, op), true},
		{"chunk op", ros1Header(ros1Field("op", []byte{ros1OpChunk}), conn, tm), false},
		{"no time", ros1Header(op, conn), false},
		{"extra field", ros1Header(op, conn, tm, ros1Field("x", nil)), false},
		{"op twice, a pad field, no conn", ros1Header(op, op, ros1Field("pad", []byte{0, 0}), tm), false},
		{"conn of 3 bytes", ros1Header(op, ros1Field("conn", []byte{1, 2, 3}), ros1Field("time", make([]byte, 9))), false},
		{"field length past the header", append(ros1Header(op, conn), 0xff, 0, 0, 0, 't', 'i', 'm', 'e', '=', 0, 0, 0, 0, 0, 0, 0, 0), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var fast, general ros1Record
			ok := parseROS1Message(tc.h, &fast)
			if ok != tc.fast {
				t.Fatalf("fast path answered %v, want %v", ok, tc.fast)
			}
			if !ok {
				return
			}
			if err := parseROS1Record(tc.h, &general); err != nil {
				t.Fatalf("general parser: %v", err)
			}
			if fast != general {
				t.Errorf("fast %+v, general %+v", fast, general)
			}
		})
	}
}

// FuzzParseROS1Message: whenever the fast path answers, the general parser
// accepts the header and agrees.
func FuzzParseROS1Message(f *testing.F) {
	op := ros1Field("op", []byte{ros1OpMessage})
	conn := ros1Field("conn", []byte{1, 0, 0, 0})
	tm := ros1Field("time", make([]byte, 8))
	f.Add(ros1Header(op, conn, tm))
	f.Add(ros1Header(tm, op, conn))
	f.Fuzz(func(t *testing.T, h []byte) {
		var fast, general ros1Record
		if !parseROS1Message(h, &fast) {
			return
		}
		if err := parseROS1Record(h, &general); err != nil {
			t.Fatalf("fast path accepted a header the parser rejects: %v", err)
		}
		if fast != general {
			t.Fatalf("fast %+v, general %+v", fast, general)
		}
	})
}
