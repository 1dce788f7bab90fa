package cdr

import (
	"errors"
	"unicode/utf8"
)

// Problems CheckFrameID reports. The decoder itself keeps such strings as
// they are: rmw does not validate string bytes and neither does tf2, so a
// bad frame id is data for analysis to flag, not a decode failure.
var (
	ErrFrameIDEmpty        = errors.New("frame id is empty")
	ErrFrameIDInvalidUTF8  = errors.New("frame id is not valid UTF-8")
	ErrFrameIDLeadingSlash = errors.New("frame id starts with '/'")
	ErrFrameIDControlChar  = errors.New("frame id contains a control character or NUL")
)

// CheckFrameID reports the first problem of a decoded frame id, or nil.
// A leading '/' is reported although tf2 strips one (tf2-semantics.md §2):
// it is legal on the wire but usually a ROS 1 habit worth a warning.
func CheckFrameID(id string) error {
	switch {
	case id == "":
		return ErrFrameIDEmpty
	case !utf8.ValidString(id):
		return ErrFrameIDInvalidUTF8
	case id[0] == '/':
		return ErrFrameIDLeadingSlash
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x20 || id[i] == 0x7f {
			return ErrFrameIDControlChar
		}
	}
	return nil
}
