package cdr

import (
	"encoding/binary"
	"math"
)

// tfMessageLE decodes a little-endian TFMessage whose every field is where
// it should be, with one bounds check per field group instead of one call
// per primitive: /tf is most of a bag's messages. It reports false at the
// first thing out of the ordinary (short data, a huge count, a string
// running past the end) without saying why; the caller then decodes with
// the general cursor, which finds the same values or the exact error. It
// returns the end position and the number of strings without their NUL.
func tfMessageLE(m *TFMessage, b []byte) (end, noNUL int, ok bool) {
	const origin = EncapsulationSize // alignment is relative to the body
	// as cursor.align: the padding is -(p-origin) mod n
	align := func(p, n int) int { return p + ((origin - p) & (n - 1)) }
	p := origin
	if len(b) < p+4 {
		return 0, 0, false
	}
	n := binary.LittleEndian.Uint32(b[p:])
	p += 4
	if n > maxCount || uint64(n)*minTransformStamped > uint64(len(b)-p) {
		return 0, 0, false
	}
	if int(n) <= cap(m.Transforms) {
		m.Transforms = m.Transforms[:n]
	} else {
		old := m.Transforms
		m.Transforms = make([]TransformStamped, n)
		copy(m.Transforms, old)
	}
	str := func(p int, reuse string) (string, int, bool) {
		p = align(p, 4)
		if p > len(b)-4 {
			return "", 0, false
		}
		l := int(binary.LittleEndian.Uint32(b[p:]))
		p += 4
		if l > len(b)-p {
			return "", 0, false
		}
		s := b[p : p+l]
		p += l
		if l > 0 && s[l-1] == 0 {
			s = s[:l-1]
		} else if l > 0 {
			noNUL++
		}
		if string(s) == reuse {
			return reuse, p, true
		}
		return string(s), p, true
	}
	for i := range m.Transforms {
		t := &m.Transforms[i]
		p = align(p, 4)
		if p > len(b)-8 {
			return 0, 0, false
		}
		t.Header.Stamp = Time{Sec: int32(binary.LittleEndian.Uint32(b[p:])), Nanosec: binary.LittleEndian.Uint32(b[p+4:])}
		p += 8
		var good bool
		if t.Header.FrameID, p, good = str(p, t.Header.FrameID); !good {
			return 0, 0, false
		}
		if t.ChildFrameID, p, good = str(p, t.ChildFrameID); !good {
			return 0, 0, false
		}
		p = align(p, 8)
		if p > len(b)-56 {
			return 0, 0, false
		}
		v := b[p : p+56]
		f := func(k int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(v[8*k:])) }
		t.Transform = Transform{Translation: Vector3{X: f(0), Y: f(1), Z: f(2)},
			Rotation: Quaternion{X: f(3), Y: f(4), Z: f(5), W: f(6)}}
		p += 56
	}
	return p, noNUL, true
}
