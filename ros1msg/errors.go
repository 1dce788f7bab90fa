package ros1msg

import (
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ErrBadLength: a string length or array count claims more bytes than the
// message holds. Short input unwraps to io.ErrUnexpectedEOF instead.
var ErrBadLength = errors.New("length prefix exceeds message")

// ErrBadFrameID: a header's frame_id holds bytes no frame name can have
// (invalid UTF-8, NUL or another control character). DecodeHeaderInto
// refuses such a header so callers count the message as skipped.
var ErrBadFrameID = errors.New("frame id holds invalid bytes")

// DecodeError reports why and where a message failed to decode. Offset is
// the byte offset in the message of the value that could not be read;
// Need and Have are the bytes it required and the bytes left.
type DecodeError struct {
	Type   string // ROS 1 type, e.g. "sensor_msgs/LaserScan"
	Field  string // field path, e.g. "TFMessage.transforms[2].child_frame_id"
	Offset int
	Need   int
	Have   int
	Detail string
	// Err is io.ErrUnexpectedEOF, ErrBadLength or ErrBadFrameID.
	Err error
}

// Error names the type, the field and the byte offset.
func (e *DecodeError) Error() string {
	s := "cannot decode ROS 1 "
	if e.Type != "" {
		s += e.Type + ": "
	}
	s += e.Field + " at byte " + strconv.Itoa(e.Offset)
	if e.Need > 0 || e.Have > 0 {
		s += fmt.Sprintf(": need %d bytes, have %d", e.Need, e.Have)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *DecodeError) Unwrap() error { return e.Err }

func prefixField(err error, prefix string) error {
	var de *DecodeError
	if errors.As(err, &de) {
		de.Field = prefix + de.Field
	}
	return err
}

func indexed(name string, i int) string { return name + "[" + strconv.Itoa(i) + "]" }

func shortErr(typ, field string, off, need, have int) *DecodeError {
	return &DecodeError{Type: typ, Field: field, Offset: off, Need: need, Have: max(have, 0), Err: io.ErrUnexpectedEOF}
}
