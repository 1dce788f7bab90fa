package analysis

import (
	"math"
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
)

// Boundary tests of the tf-tree checks' small helpers (issue 15): each
// threshold at its value and just on each side.

// TestFamilyBoundary: a stamp is on system time from EpochThresholdNS on,
// either sign.
func TestFamilyBoundary(t *testing.T) {
	for _, tc := range []struct {
		stamp int64
		want  int
	}{
		{0, 0},
		{EpochThresholdNS - 1, 0},
		{EpochThresholdNS, 1},
		{EpochThresholdNS + 1, 1},
		{-EpochThresholdNS + 1, 0},
		{-EpochThresholdNS, 1},
		{-EpochThresholdNS - 1, 1},
	} {
		if got := family(tc.stamp); got != tc.want {
			t.Errorf("family(%d) = %d, want %d", tc.stamp, got, tc.want)
		}
	}
}

// TestFmtDurBoundary: minutes from 120 s, hours from 2 h, days from 2 days,
// the same for negative durations.
func TestFmtDurBoundary(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want string
	}{
		{0.5, "500.0 ms"},
		{119.5, "119.500 s"},
		{120, "2.0 min"},
		{-120, "-2.0 min"},
		{7199.9, "120.0 min"},
		{7200, "2.0 h"},
		{-7200, "-2.0 h"},
		{172799, "48.0 h"},
		{172800, "2.0 days"},
		{-172800, "-2.0 days"},
		{4.8 * 86400, "4.8 days"},
	} {
		if got := FmtDur(tc.s); got != tc.want {
			t.Errorf("fmtDur(%g) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// TestLinkListBoundary: eight names in full, from nine on the rest counted.
func TestLinkListBoundary(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "a"},
		{8, "a, b, c, d, e, f, g, h"},
		{9, "a, b, c, d, e, f, g, h and 1 more"},
		{10, "a, b, c, d, e, f, g, h and 2 more"},
	} {
		if got := linkList(names[:tc.n]); got != tc.want {
			t.Errorf("linkList of %d = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestFmtDistBoundary: centimetres below a metre, metres from one.
func TestFmtDistBoundary(t *testing.T) {
	for _, tc := range []struct {
		m    float64
		want string
	}{
		{0.08, "8.0 cm"},
		{0.9999, "100.0 cm"},
		{1, "1.000 m"},
		{2.5, "2.500 m"},
	} {
		if got := fmtDist(tc.m); got != tc.want {
			t.Errorf("fmtDist(%g) = %q, want %q", tc.m, got, tc.want)
		}
	}
}

// TestSameTransformBoundary: values up to staticTolM and staticTolRad apart
// are the same mount; q and −q are one rotation.
func TestSameTransformBoundary(t *testing.T) {
	id := tf.Quat{W: 1}
	about := func(rad float64) tf.Quat { return tf.Quat{Z: math.Sin(rad / 2), W: math.Cos(rad / 2)} }
	at := func(x, y, z float64, q tf.Quat) tf.Transform {
		return tf.Transform{Translation: tf.Vec3{X: x, Y: y, Z: z}, Rotation: q}
	}
	for _, tc := range []struct {
		name string
		x, y tf.Transform
		want bool
	}{
		{"equal", at(1, 2, 3, id), at(1, 2, 3, id), true},
		{"x at tolerance", at(0, 0, 0, id), at(staticTolM, 0, 0, id), true},
		{"y at tolerance", at(0, 0, 0, id), at(0, staticTolM, 0, id), true},
		{"z at tolerance", at(0, 0, 0, id), at(0, 0, staticTolM, id), true},
		{"x twice the tolerance", at(0, 0, 0, id), at(2*staticTolM, 0, 0, id), false},
		{"y twice the tolerance", at(0, 0, 0, id), at(0, 2*staticTolM, 0, id), false},
		{"z twice the tolerance", at(0, 0, 0, id), at(0, 0, 2*staticTolM, id), false},
		{"x, y, z each under, together over", at(0, 0, 0, id), at(0.8*staticTolM, 0.8*staticTolM, 0.8*staticTolM, id), false},
		{"minus q", at(0, 0, 0, about(0.5)), at(0, 0, 0, tf.Quat{Z: -about(0.5).Z, W: -about(0.5).W}), true},
		{"rotation half the tolerance", at(0, 0, 0, id), at(0, 0, 0, about(staticTolRad/2)), true},
		{"rotation 1 mrad", at(0, 0, 0, id), at(0, 0, 0, about(1e-3)), false},
	} {
		if got := sameTransform(tc.x, tc.y); got != tc.want {
			t.Errorf("%s: sameTransform = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRotationAngle: the angle between two rotations, whatever their norm;
// a zero quaternion (no rotation given) counts as no difference.
func TestRotationAngle(t *testing.T) {
	for _, tc := range []struct {
		name string
		p, q tf.Quat
		want float64
	}{
		{"identity", tf.Quat{W: 1}, tf.Quat{W: 1}, 0},
		{"90° about z", tf.Quat{W: 1}, tf.Quat{Z: math.Sqrt2 / 2, W: math.Sqrt2 / 2}, math.Pi / 2},
		{"90° about x, unnormalised", tf.Quat{W: 2}, tf.Quat{X: 3, W: 3}, math.Pi / 2},
		{"90° about y, minus q", tf.Quat{W: 1}, tf.Quat{Y: -1, W: -1}, math.Pi / 2},
		{"180° about z", tf.Quat{W: 1}, tf.Quat{Z: 1}, math.Pi},
		{"zero p", tf.Quat{}, tf.Quat{Z: 1}, 0},
		{"zero q", tf.Quat{Z: 1}, tf.Quat{}, 0},
	} {
		if got := rotationAngle(tc.p, tc.q); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: rotationAngle = %g, want %g", tc.name, got, tc.want)
		}
	}
}

// TestJoinTopics: one topic by name, several as a list.
func TestJoinTopics(t *testing.T) {
	if got := joinTopics([]string{"/tf"}); got != "/tf" {
		t.Errorf("one topic: %q", got)
	}
	if got := joinTopics([]string{"/a/tf", "/tf"}); got != "[/a/tf /tf]" {
		t.Errorf("two topics: %q", got)
	}
}
