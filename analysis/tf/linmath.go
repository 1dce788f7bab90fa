package tf

import "math"

// The formulas below follow tf2's LinearMath (Bullet) operation by operation,
// so that results agree with tf2 to the last bit or so, not just to 1e-9.

var identityQuat = Quat{W: 1}

// mulQuat is tf2's Quaternion * Quaternion.
func mulQuat(a, b Quat) Quat {
	return Quat{
		X: a.W*b.X + a.X*b.W + a.Y*b.Z - a.Z*b.Y,
		Y: a.W*b.Y + a.Y*b.W + a.Z*b.X - a.X*b.Z,
		Z: a.W*b.Z + a.Z*b.W + a.X*b.Y - a.Y*b.X,
		W: a.W*b.W - a.X*b.X - a.Y*b.Y - a.Z*b.Z,
	}
}

// inverse is tf2's Quaternion::inverse: the conjugate, no normalisation.
func (q Quat) inverse() Quat { return Quat{-q.X, -q.Y, -q.Z, q.W} }

func (q Quat) dot(r Quat) float64 { return q.X*r.X + q.Y*r.Y + q.Z*r.Z + q.W*r.W }

// quatRotate is tf2's quatRotate: (q * v) * q.inverse(), keeping x, y, z.
func quatRotate(q Quat, v Vec3) Vec3 {
	// q * v, with v as a pure quaternion (tf2's operator*(Quaternion, Vector3)).
	px := q.W*v.X + q.Y*v.Z - q.Z*v.Y
	py := q.W*v.Y + q.Z*v.X - q.X*v.Z
	pz := q.W*v.Z + q.X*v.Y - q.Y*v.X
	pw := -q.X*v.X - q.Y*v.Y - q.Z*v.Z
	// (px,py,pz,pw) *= inverse(q)
	ix, iy, iz, iw := -q.X, -q.Y, -q.Z, q.W
	return Vec3{
		X: pw*ix + px*iw + py*iz - pz*iy,
		Y: pw*iy + py*iw + pz*ix - px*iz,
		Z: pw*iz + pz*iw + px*iy - py*ix,
	}
}

func addVec(a, b Vec3) Vec3 { return Vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

func negVec(a Vec3) Vec3 { return Vec3{-a.X, -a.Y, -a.Z} }

// acosClamped is tf2Acos for slerp's argument, |dot|/norms, which is never
// negative: tf2 clamps it to [-1, 1] first, of which only the upper bound
// can apply (rounding can push it past 1).
func acosClamped(x float64) float64 {
	return math.Acos(min(x, 1))
}

// slerp is tf2's Quaternion::slerp: shortest path (the second quaternion
// is negated when the dot product is negative), no renormalisation, and the
// first quaternion unchanged when the half angle is exactly 0.
func slerp(q, r Quat, t float64) Quat {
	s := math.Sqrt(q.dot(q) * r.dot(r))
	d := q.dot(r)
	theta := acosClamped(math.Abs(d) / s)
	if theta == 0 {
		return q
	}
	inv := 1 / math.Sin(theta)
	s0 := math.Sin((1 - t) * theta)
	s1 := math.Sin(t * theta)
	if d < 0 {
		return Quat{
			X: (q.X*s0 + -r.X*s1) * inv,
			Y: (q.Y*s0 + -r.Y*s1) * inv,
			Z: (q.Z*s0 + -r.Z*s1) * inv,
			W: (q.W*s0 + -r.W*s1) * inv,
		}
	}
	return Quat{
		X: (q.X*s0 + r.X*s1) * inv,
		Y: (q.Y*s0 + r.Y*s1) * inv,
		Z: (q.Z*s0 + r.Z*s1) * inv,
		W: (q.W*s0 + r.W*s1) * inv,
	}
}

// lerp is tf2's Vector3::setInterpolate3: (1−r)·a + r·b.
func lerp(a, b Vec3, r float64) Vec3 {
	s := 1 - r
	return Vec3{s*a.X + r*b.X, s*a.Y + r*b.Y, s*a.Z + r*b.Z}
}
