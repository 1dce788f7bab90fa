package cdr_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/bagclock/bagclock/cdr"
)

func ExampleDecodeLaserScanHeaderInto() {
	scan := cdr.LaserScan{Header: cdr.Header{Stamp: cdr.Time{Sec: 1700000000, Nanosec: 500000000}, FrameID: "laser"},
		Ranges: make([]float32, 360)}
	data := cdr.AppendLaserScan(nil, &scan, binary.LittleEndian)

	var h cdr.ScanHeader // reuse h across messages: no allocation once the frame id is known
	if err := cdr.DecodeLaserScanHeaderInto(&h, data); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Header.FrameID, h.Header.Stamp.Nanoseconds(), h.NumRanges, h.Info.Size == len(data))
	// Output: laser 1700000000500000000 360 true
}

func ExampleDecodeError() {
	data := cdr.AppendClock(nil, &cdr.Clock{Clock: cdr.Time{Sec: 12}}, binary.LittleEndian)
	_, err := cdr.DecodeClock(data[:10]) // torn message

	var de *cdr.DecodeError
	if errors.As(err, &de) {
		fmt.Println(de.Field, de.Offset, errors.Is(err, io.ErrUnexpectedEOF))
	}
	fmt.Println(err)
	// Output:
	// Clock.clock.nanosec 8 true
	// cannot decode rosgraph_msgs/msg/Clock: Clock.clock.nanosec at byte 8: need 4 bytes, have 2: unexpected EOF
}
