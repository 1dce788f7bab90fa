package scenario

import (
	"encoding/binary"
	"math"
)

// Types of the time cases' topics without a header.
const (
	TypeTwist   = "geometry_msgs/msg/Twist"
	TypeFloat32 = "std_msgs/msg/Float32"
)

// cdrLE is the encapsulation header of a little-endian plain CDR payload.
var cdrLE = []byte{0x00, 0x01, 0x00, 0x00}

// twistMsg is a geometry_msgs/msg/Twist driving forward at vx and
// turning at wz: six float64, no header.
func twistMsg(vx, wz float64) []byte {
	b := append([]byte(nil), cdrLE...)
	for _, v := range []float64{vx, 0, 0, 0, 0, wz} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// float32Msg is a std_msgs/msg/Float32.
func float32Msg(v float32) []byte {
	return binary.LittleEndian.AppendUint32(append([]byte(nil), cdrLE...), math.Float32bits(v))
}
