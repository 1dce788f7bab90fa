package cdr

import (
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// TestSuspiciousTrailing: more than 3 trailing bytes, or any non-zero one,
// is suspicious; an Info whose Size does not fit data is not judged.
func TestSuspiciousTrailing(t *testing.T) {
	tests := []struct {
		name string
		info Info
		data string
		want bool
	}{
		{"3 zero bytes", Info{Size: 2, Trailing: 3}, "aa bb 00 00 00", false},
		{"4 zero bytes", Info{Size: 1, Trailing: 4}, "aa 00 00 00 00", true},
		{"non-zero byte", Info{Size: 2, Trailing: 1}, "00 00 01", true},
		{"all trailing", Info{Size: 0, Trailing: 2}, "00 01", true},
		{"nothing trailing", Info{Size: 2}, "01 01", false},
		{"size past the data", Info{Size: 3}, "01 01", false},
		{"negative size", Info{Size: -1, Trailing: 3}, "01 01", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.info.SuspiciousTrailing(unhex(t, tt.data)); got != tt.want {
				t.Errorf("SuspiciousTrailing = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestEmptyTFMessage: an empty TFMessage is the 4-byte count 0 in either
// byte order; a big-endian one must not pass for little endian (a count of
// 0 reads the same both ways).
func TestEmptyTFMessage(t *testing.T) {
	for _, tt := range []struct {
		hex string
		enc Encapsulation
	}{
		{"00 00 00 00  00 00 00 00", CDRBE},
		{"00 01 00 00  00 00 00 00", CDRLE},
		{"00 00 00 00  00 00 00 00  00 00", CDRBE},
	} {
		data := unhex(t, tt.hex)
		m := sampleTF()
		info, err := DecodeTFMessageInto(&m, data)
		want := Info{Encapsulation: tt.enc, Size: 8, Trailing: len(data) - 8}
		if err != nil || len(m.Transforms) != 0 || info != want {
			t.Errorf("%s: %d transforms, %+v, %v; want none, %+v", tt.hex, len(m.Transforms), info, err, want)
		}
	}
}

// TestTFCountBeyondData: a transform count the bytes cannot hold is
// refused before anything is allocated for it, by the fast path and the
// general cursor alike (71 bytes after the count: one short of the
// smallest transform).
func TestTFCountBeyondData(t *testing.T) {
	for _, enc := range []byte{0, 1} {
		var data []byte
		if enc == 1 {
			data = binary.LittleEndian.AppendUint32([]byte{0, 1, 0, 0}, 1)
		} else {
			data = binary.BigEndian.AppendUint32([]byte{0, 0, 0, 0}, 1)
		}
		data = append(data, make([]byte, minTransformStamped-1)...)
		var m TFMessage
		_, err := DecodeTFMessageInto(&m, data)
		checkDecodeError(t, err, &DecodeError{Field: "TFMessage.transforms", Offset: 4, Need: 72, Have: 71,
			Detail: "count 1", Err: ErrBadLength})
		if m.Transforms != nil {
			t.Errorf("encapsulation %d: transforms allocated: %+v", enc, m.Transforms)
		}
	}
}

// TestDecodeErrorText pins the message layout: need and have appear only
// when one of them is non-zero.
func TestDecodeErrorText(t *testing.T) {
	tests := []struct {
		err  DecodeError
		want string
	}{
		{DecodeError{Type: TypeClock, Field: "encapsulation", Detail: "CDR2_LE (0x0007)", Err: ErrUnsupportedEncapsulation},
			"cannot decode rosgraph_msgs/msg/Clock: encapsulation at byte 0: CDR2_LE (0x0007): unsupported CDR encapsulation"},
		{DecodeError{Field: "x", Offset: 8, Need: 4, Err: io.ErrUnexpectedEOF},
			"cannot decode x at byte 8: need 4 bytes, have 0: unexpected EOF"},
		{DecodeError{Field: "x", Offset: 8, Have: 3, Detail: "count 0"},
			"cannot decode x at byte 8: need 0 bytes, have 3: count 0"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q\nwant       %q", got, tt.want)
		}
	}
}

// TestReadEncapsulation: four bytes are enough to read the id, three are
// not.
func TestReadEncapsulation(t *testing.T) {
	if enc, err := ReadEncapsulation([]byte{0, 1, 0, 0}); enc != CDRLE || err != nil {
		t.Errorf("4 bytes: %v, %v", enc, err)
	}
	_, err := ReadEncapsulation([]byte{0, 1, 0})
	checkDecodeError(t, err, &DecodeError{Field: "encapsulation", Need: 4, Have: 3, Err: io.ErrUnexpectedEOF})
}

// TestTFReuseBigEndian: the general cursor (big endian here) reuses
// dst.Transforms' array and its frame id strings, as the fast path does.
func TestTFReuseBigEndian(t *testing.T) {
	data := AppendTFMessage(nil, ptr(sampleTF()), binary.BigEndian)
	var m TFMessage
	if _, err := DecodeTFMessageInto(&m, data); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { _, _ = DecodeTFMessageInto(&m, data) }); n != 0 {
		t.Errorf("%v allocations per decode into a reused value", n)
	}
	if want := sampleTF(); !sameTF(&m, &want) {
		t.Errorf("decoded %+v", m)
	}
}

// TestShortTransform: a transform cut inside its seven float64 names the
// first one missing, with the bytes left from it.
func TestShortTransform(t *testing.T) {
	full := unhex(t, hexTFBE) // translation.x at 44, rotation.w at 92
	for _, tt := range []struct {
		cut   int
		field string
		off   int
		have  int
	}{
		{42, "transform.translation.x", 44, 0}, // cut in the padding before it
		{44, "transform.translation.x", 44, 0},
		{51, "transform.translation.x", 44, 7},
		{52, "transform.translation.y", 52, 0},
		{99, "transform.rotation.w", 92, 7},
	} {
		c, _, err := newCursor(full[:tt.cut], TypeTFMessage)
		if err != nil {
			t.Fatal(err)
		}
		c.pos = 8 // transforms[0]
		var ts TransformStamped
		err = c.transformStamped(&ts)
		checkDecodeError(t, err, &DecodeError{Field: tt.field, Offset: tt.off, Need: 8, Have: tt.have, Err: io.ErrUnexpectedEOF})
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("cut %d: %v", tt.cut, err)
		}
	}
}
