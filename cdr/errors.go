package cdr

import (
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Sentinel errors a *DecodeError unwraps to. Short input unwraps to
// io.ErrUnexpectedEOF instead, so callers can tell a torn message from a
// malformed one with errors.Is.
var (
	// ErrUnsupportedEncapsulation: the 4-byte encapsulation header is not
	// plain XCDR1 (00 00 or 00 01). XCDR2 and PL_CDR ids are named in
	// DecodeError.Detail; anything else is reported as unknown.
	ErrUnsupportedEncapsulation = errors.New("unsupported CDR encapsulation")
	// ErrBadLength: a string length or sequence count claims more bytes
	// than the message holds, or more elements than any sane message has.
	ErrBadLength = errors.New("length prefix exceeds message")
)

// DecodeError reports why and where a message failed to decode.
//
// Offset is the absolute byte offset in the message (encapsulation header
// included) of the value that could not be read; Need and Have are the bytes
// it required and the bytes left from Offset (for ErrBadLength: the bytes a
// length prefix claims and the bytes left after it).
type DecodeError struct {
	Type   string // ROS type being decoded, e.g. "sensor_msgs/msg/LaserScan"
	Field  string // field path, e.g. "LaserScan.ranges[17]" or "TFMessage.transforms[2].child_frame_id"
	Offset int
	Need   int
	Have   int
	// Detail adds facts the sentinel cannot carry, e.g. "CDR2_LE (0x0007)".
	Detail string
	// Err is io.ErrUnexpectedEOF, ErrUnsupportedEncapsulation or ErrBadLength.
	Err error
}

// Error names the type, the field and the byte offset: "cannot decode
// TYPE: FIELD at byte N: need A bytes, have B: CAUSE".
func (e *DecodeError) Error() string {
	b := make([]byte, 0, 128)
	b = append(b, "cannot decode "...)
	if e.Type != "" {
		b = append(b, e.Type...)
		b = append(b, ": "...)
	}
	b = append(b, e.Field...)
	b = append(b, " at byte "...)
	b = strconv.AppendInt(b, int64(e.Offset), 10)
	if e.Need > 0 || e.Have > 0 {
		b = fmt.Appendf(b, ": need %d bytes, have %d", e.Need, e.Have)
	}
	if e.Detail != "" {
		b = append(b, ": "...)
		b = append(b, e.Detail...)
	}
	if e.Err != nil {
		b = append(b, ": "...)
		b = append(b, e.Err.Error()...)
	}
	return string(b)
}

// Unwrap returns the sentinel (or io.ErrUnexpectedEOF).
func (e *DecodeError) Unwrap() error { return e.Err }

// prefixField prepends prefix to the field path of a *DecodeError so nested
// decoders can report "TFMessage.transforms[2].child_frame_id" while the leaf
// only knows "child_frame_id". Only called on the error path.
func prefixField(err error, prefix string) error {
	var de *DecodeError
	if errors.As(err, &de) {
		de.Field = prefix + de.Field
	}
	return err
}

// indexed renders "name[i]" for error paths.
func indexed(name string, i int) string {
	return name + "[" + strconv.Itoa(i) + "]"
}

// shortErr builds the error for a read that runs past the end.
func shortErr(typ, field string, off, need, have int) *DecodeError {
	return &DecodeError{Type: typ, Field: field, Offset: off, Need: need, Have: max(have, 0), Err: io.ErrUnexpectedEOF}
}
