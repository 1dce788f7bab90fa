package cdr

import (
	"errors"
	"unicode/utf8"
)

// ErrBadFrameID: a header's frame_id holds bytes no frame name can have
// (invalid UTF-8, NUL or another control character). DecodeHeaderInto
// refuses such a header so callers count the message as skipped; the
// LaserScan and TFMessage decoders keep the bytes (see CheckFrameID).
var ErrBadFrameID = errors.New("frame id holds invalid bytes")

// DecodeHeaderInto reads the std_msgs/Header at the start of a stamped
// message (any type whose first field is the header: LookupStamped says
// which) into dst. It reads only the encapsulation, stamp and frame_id, so
// data may be a prefix of the payload. When dst.FrameID already holds the
// message's frame id it is kept, so a stream from one sensor decodes
// without allocating. typ names the type in errors.
//
// Errors are *DecodeError: io.ErrUnexpectedEOF when data ends inside the
// header, ErrBadLength for a frame_id length beyond the data,
// ErrUnsupportedEncapsulation, and ErrBadFrameID (with dst filled) when the
// frame id is not valid UTF-8 or holds a control character.
func DecodeHeaderInto(dst *Header, data []byte, typ string) error {
	c, _, err := newCursor(data, typ)
	if err != nil {
		return err
	}
	start := c.pos
	if err := c.header(dst); err != nil {
		return prefixField(err, shortName(typ)+".")
	}
	if why := frameIDBytesProblem(dst.FrameID); why != "" {
		off := start + 8 // stamp, then the frame_id length
		return &DecodeError{Type: typ, Field: shortName(typ) + ".header.frame_id", Offset: off,
			Detail: why, Err: ErrBadFrameID}
	}
	return nil
}

// frameIDBytesProblem says what is wrong with the bytes of a frame id, or
// "". Leading slashes and empty ids are legal on the wire (analysis warns).
func frameIDBytesProblem(id string) string {
	for i := 0; i < len(id); i++ {
		if b := id[i]; b < 0x20 || b == 0x7f {
			return "control byte 0x" + hex2(b) + " at index " + itoa(uint64(i))
		}
	}
	if !utf8.ValidString(id) {
		return "not valid UTF-8"
	}
	return ""
}

func hex2(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&15]})
}
