package analysis

import (
	"encoding/binary"
	"errors"
	"github.com/bagclock/bagclock/analysis/wire"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// TestDecodeOneRoles (issue 15): what decodeOne fills for each role: read
// errors and unread topics are passed on undecoded, a header cut by the
// prefix read says how much was read, and raw bytes are copied only when
// the slot must own them.
func TestDecodeOneRoles(t *testing.T) {
	clock := cdr.AppendClock(nil, &cdr.Clock{Clock: cdr.Time{Sec: 3, Nanosec: 5}}, binary.LittleEndian)
	readErr := errors.New("read failed")
	for _, tc := range []struct {
		name    string
		m       bagread.Message
		ts      *topicState
		clock   int64
		errPart string // "" no error
	}{
		{"clock", bagread.Message{Data: clock}, &topicState{role: roleClock}, 3e9 + 5, ""},
		{"read error", bagread.Message{Data: clock, Err: readErr}, &topicState{role: roleClock}, 0, ""},
		{"topic not read", bagread.Message{Data: clock}, nil, 0, ""},
		{"cut header, prefix read", bagread.Message{Data: []byte{0, 1, 0, 0, 1, 0}, Size: 900, Prefix: true},
			&topicState{role: roleStamped, typ: "sensor_msgs/msg/Imu"}, 0, "(the first 6 of 900 bytes were read)"},
		{"cut header, whole message", bagread.Message{Data: []byte{0, 1, 0, 0, 1, 0}, Size: 6},
			&topicState{role: roleStamped, typ: "sensor_msgs/msg/Imu"}, 0, "Imu."},
		{"record time only", bagread.Message{Data: clock}, &topicState{role: roleTimeOnly}, 0, ""},
	} {
		var x decoded
		x.err = errors.New("stale")
		decodeOne(&x, &wire.Decoder{}, &tc.m, tc.ts, true, nil)
		if x.topic != tc.ts || x.clock != tc.clock || x.msg.Data != nil {
			t.Errorf("%s: topic %p clock %d data %v; want %p %d nil", tc.name, x.topic, x.clock, x.msg.Data, tc.ts, tc.clock)
		}
		switch {
		case tc.errPart == "" && x.err != nil:
			t.Errorf("%s: error %v, want none", tc.name, x.err)
		case tc.errPart != "" && (x.err == nil || !strings.Contains(x.err.Error(), tc.errPart)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, x.err, tc.errPart)
		case tc.errPart == "Imu." && strings.Contains(x.err.Error(), "bytes were read"):
			t.Errorf("%s: error %v names a prefix read", tc.name, x.err)
		}
		if x.msg.Err != tc.m.Err {
			t.Errorf("%s: read error %v not passed on", tc.name, x.msg.Err)
		}
	}
	// Raw-hook topics: with own the bytes are copied into the slot.
	for _, own := range []bool{true, false} {
		data := []byte{1, 2, 3}
		var x decoded
		decodeOne(&x, &wire.Decoder{}, &bagread.Message{Data: data}, &topicState{role: roleRosout}, own, nil)
		data[0] = 9
		if want := map[bool]byte{true: 1, false: 9}[own]; len(x.msg.Data) != 3 || x.msg.Data[0] != want {
			t.Errorf("own %v: data %v, want first byte %d", own, x.msg.Data, want)
		}
	}
}
