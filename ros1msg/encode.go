package ros1msg

import (
	"encoding/binary"
	"math"
)

// The Append functions serialize as roscpp and genpy do (little-endian,
// no padding), in the Append shape of encoding/binary; the tests and the
// test-bag writers use them.

func appendU32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

func appendString(b []byte, s string) []byte { return append(appendU32(b, uint32(len(s))), s...) }

func appendTime(b []byte, t Time) []byte { return appendU32(appendU32(b, t.Sec), t.Nsec) }

// AppendHeader appends a std_msgs/Header.
func AppendHeader(b []byte, h Header) []byte {
	return appendString(appendTime(appendU32(b, h.Seq), h.Stamp), h.FrameID)
}

// AppendTFMessage appends a tf2_msgs/TFMessage (or tf/tfMessage).
func AppendTFMessage(b []byte, m *TFMessage) []byte {
	b = appendU32(b, uint32(len(m.Transforms)))
	for i := range m.Transforms {
		t := &m.Transforms[i]
		b = appendString(AppendHeader(b, t.Header), t.ChildFrameID)
		tr, q := t.Transform.Translation, t.Transform.Rotation
		for _, f := range [...]float64{tr.X, tr.Y, tr.Z, q.X, q.Y, q.Z, q.W} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
		}
	}
	return b
}

// AppendClock appends a rosgraph_msgs/Clock.
func AppendClock(b []byte, c Clock) []byte { return appendTime(b, c.Clock) }

// AppendLog appends a rosgraph_msgs/Log.
func AppendLog(b []byte, l *Log) []byte {
	b = append(AppendHeader(b, l.Header), l.Level)
	for _, s := range [...]string{l.Name, l.Msg, l.File, l.Function} {
		b = appendString(b, s)
	}
	b = appendU32(appendU32(b, l.Line), uint32(len(l.Topics)))
	for _, s := range l.Topics {
		b = appendString(b, s)
	}
	return b
}

// AppendLaserScan appends a sensor_msgs/LaserScan with the given header,
// timing and arrays (the angle and range fields are written as zero).
func AppendLaserScan(b []byte, h Header, timeIncrement, scanTime float32, ranges, intensities []float32) []byte {
	b = AppendHeader(b, h)
	for _, f := range [...]float32{0, 0, 0, timeIncrement, scanTime, 0, 0} {
		b = appendU32(b, math.Float32bits(f))
	}
	for _, a := range [...][]float32{ranges, intensities} {
		b = appendU32(b, uint32(len(a)))
		for _, f := range a {
			b = appendU32(b, math.Float32bits(f))
		}
	}
	return b
}
