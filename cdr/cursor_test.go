package cdr

import (
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// leCursor returns a little-endian cursor on the encapsulation header
// followed by body, positioned after the header.
func leCursor(tb testing.TB, body []byte) cursor {
	tb.Helper()
	c, _, err := newCursor(append([]byte{0, 1, 0, 0}, body...), "t")
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// checkDecodeError compares err with want field by field (Type excepted).
func checkDecodeError(t *testing.T, err error, want *DecodeError) {
	t.Helper()
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v, want %+v", err, want)
	}
	if de.Field != want.Field || de.Offset != want.Offset || de.Need != want.Need || de.Have != want.Have ||
		de.Detail != want.Detail || de.Err != want.Err {
		t.Errorf("err = %+v\nwant  %+v", de, want)
	}
}

// TestCount: a sequence count is accepted up to the cap (2^24) and when
// count × element size is exactly the bytes left; one more element, or one
// byte fewer, is ErrBadLength with the count in Detail, and the cap named
// only for a count above it.
func TestCount(t *testing.T) {
	tests := []struct {
		name    string
		n       uint32
		minSize int
		left    int // bytes after the count
		want    *DecodeError
	}{
		{"exact fit", 2, 4, 8, nil},
		{"one byte short", 2, 4, 7, &DecodeError{Field: "f", Offset: 4, Need: 8, Have: 7, Detail: "count 2", Err: ErrBadLength}},
		{"at the cap", maxCount, 0, 0, nil},
		{"above the cap", maxCount + 1, 0, 0, &DecodeError{Field: "f", Offset: 4, Need: 0, Have: 0,
			Detail: "count 16777217 exceeds the cap of 16777216", Err: ErrBadLength}},
		{"at the cap, too few bytes", maxCount, 1, 3, &DecodeError{Field: "f", Offset: 4, Need: maxCount, Have: 3,
			Detail: "count 16777216", Err: ErrBadLength}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := leCursor(t, append(binary.LittleEndian.AppendUint32(nil, tt.n), make([]byte, tt.left)...))
			n, err := c.count(tt.minSize, "f")
			if tt.want != nil {
				checkDecodeError(t, err, tt.want)
				return
			}
			if err != nil || n != int(tt.n) || c.pos != 8 {
				t.Errorf("count = %d, %v at pos %d, want %d at 8", n, err, c.pos, tt.n)
			}
		})
	}
}

// TestCheckFloat32s: the float32 arrays are checked against count before
// this check runs, so its error path is reached only through a cursor
// positioned by hand. It aligns to 4, accepts exactly n×4 bytes and names
// the first element that does not fit.
func TestCheckFloat32s(t *testing.T) {
	tests := []struct {
		name string
		body int // bytes after the encapsulation header
		rel  int // cursor position relative to byte 4
		n    int
		want *DecodeError
	}{
		{"none at the end", 8, 8, 0, nil},
		{"exact fit", 8, 0, 2, nil},
		{"exact fit after padding", 12, 1, 2, nil},
		{"one element short", 8, 0, 3, &DecodeError{Field: "f[2]", Offset: 12, Need: 4, Have: 0, Err: io.ErrUnexpectedEOF}},
		{"torn element", 10, 0, 3, &DecodeError{Field: "f[2]", Offset: 12, Need: 4, Have: 2, Err: io.ErrUnexpectedEOF}},
		{"padding runs past the end", 2, 1, 1, &DecodeError{Field: "f[0]", Offset: 8, Need: 4, Have: 0, Err: io.ErrUnexpectedEOF}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := leCursor(t, make([]byte, tt.body))
			c.pos += tt.rel
			err := c.checkFloat32s(tt.n, "f")
			if tt.want != nil {
				checkDecodeError(t, err, tt.want)
				return
			}
			if err != nil {
				t.Errorf("err = %v", err)
			}
		})
	}
}

// TestStringBytes: a CDR string through the general cursor (TestStrings
// covers the TFMessage fast path): length 0 is empty, the last NUL is
// dropped, a missing NUL is counted, a length past the end is refused.
func TestStringBytes(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		want  string
		noNUL int
		err   *DecodeError
	}{
		{"length 0", "00 00 00 00", "", 0, nil},
		{"empty with NUL", "01 00 00 00  00", "", 0, nil},
		{"normal", "03 00 00 00  61 62 00", "ab", 0, nil},
		{"missing NUL", "02 00 00 00  61 62", "ab", 1, nil},
		{"length past the end", "03 00 00 00  61 62", "", 0,
			&DecodeError{Field: "s", Offset: 4, Need: 3, Have: 2, Detail: "string length 3", Err: ErrBadLength}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := leCursor(t, unhex(t, tt.body))
			s, err := c.stringBytes("s")
			if tt.err != nil {
				checkDecodeError(t, err, tt.err)
				return
			}
			if err != nil || string(s) != tt.want || c.noNUL != tt.noNUL || c.pos != len(c.b) {
				t.Errorf("got %q, %v, %d without NUL, pos %d; want %q, %d, pos %d",
					s, err, c.noNUL, c.pos, tt.want, tt.noNUL, len(c.b))
			}
		})
	}
}
