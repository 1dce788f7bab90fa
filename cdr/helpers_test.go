package cdr

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"
)

// unhex decodes hex with spaces and newlines, failing the test on bad input.
func unhex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		tb.Fatalf("bad hex in test: %v", err)
	}
	return b
}

// The comparisons below treat floats by bit pattern: NaN equals NaN with the
// same payload and -0 differs from +0, which is what a byte-exact round
// trip must preserve.

func sameF32s(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func sameF64(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

func sameLaserScan(a, b *LaserScan) bool {
	return a.Header == b.Header &&
		sameF32s([]float32{a.AngleMin, a.AngleMax, a.AngleIncrement, a.TimeIncrement, a.ScanTime, a.RangeMin, a.RangeMax},
			[]float32{b.AngleMin, b.AngleMax, b.AngleIncrement, b.TimeIncrement, b.ScanTime, b.RangeMin, b.RangeMax}) &&
		sameF32s(a.Ranges, b.Ranges) && sameF32s(a.Intensities, b.Intensities)
}

func sameTransform(a, b *TransformStamped) bool {
	ta, tb := a.Transform, b.Transform
	return a.Header == b.Header && a.ChildFrameID == b.ChildFrameID &&
		sameF64(ta.Translation.X, tb.Translation.X) && sameF64(ta.Translation.Y, tb.Translation.Y) &&
		sameF64(ta.Translation.Z, tb.Translation.Z) && sameF64(ta.Rotation.X, tb.Rotation.X) &&
		sameF64(ta.Rotation.Y, tb.Rotation.Y) && sameF64(ta.Rotation.Z, tb.Rotation.Z) &&
		sameF64(ta.Rotation.W, tb.Rotation.W)
}

func sameTF(a, b *TFMessage) bool {
	if len(a.Transforms) != len(b.Transforms) {
		return false
	}
	for i := range a.Transforms {
		if !sameTransform(&a.Transforms[i], &b.Transforms[i]) {
			return false
		}
	}
	return true
}

// sampleScan returns a scan with n ranges and intensities, NaN and Inf
// included, as a LiDAR driver produces them.
func sampleScan(n int, frame string) LaserScan {
	m := LaserScan{
		Header:   Header{Stamp: Time{Sec: 1_790_000_000, Nanosec: 123_456_789}, FrameID: frame},
		AngleMin: -math.Pi, AngleMax: math.Pi, AngleIncrement: 2 * math.Pi / float32(n),
		TimeIncrement: 1e-4, ScanTime: 0.05, RangeMin: 0.1, RangeMax: 30,
		Ranges: make([]float32, n), Intensities: make([]float32, n),
	}
	for i := range m.Ranges {
		m.Ranges[i] = 0.5 + float32(i%100)*0.25
		m.Intensities[i] = float32(i % 7)
	}
	if n > 3 {
		m.Ranges[1] = float32(math.NaN())
		m.Ranges[2] = float32(math.Inf(1))
	}
	return m
}

// sampleTF returns a TFMessage with the transforms a TurtleBot publishes.
func sampleTF() TFMessage {
	return TFMessage{Transforms: []TransformStamped{
		{Header: Header{Stamp: Time{Sec: 12, Nanosec: 500_000_000}, FrameID: "odom"}, ChildFrameID: "base_footprint",
			Transform: Transform{Translation: Vector3{X: 1.25, Y: -0.5}, Rotation: Quaternion{Z: 0.3826834323650898, W: 0.9238795325112867}}},
		{Header: Header{Stamp: Time{Sec: 12, Nanosec: 510_000_000}, FrameID: "base_link"}, ChildFrameID: "wheel_left_link",
			Transform: Transform{Translation: Vector3{Y: 0.08, Z: 0.023}, Rotation: Quaternion{X: -0.7071067811865475, W: 0.7071067811865476}}},
		{Header: Header{Stamp: Time{Sec: 12, Nanosec: 510_000_000}, FrameID: "base_link"}, ChildFrameID: "wheel_right_link",
			Transform: Transform{Translation: Vector3{Y: -0.08, Z: 0.023}, Rotation: Quaternion{X: 0.7071067811865475, W: 0.7071067811865476}}},
	}}
}
