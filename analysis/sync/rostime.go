package sync

import (
	"math"
	"math/big"
)

// RangeError is an exception the library would throw from inside add():
// ROS 1's "Duration is out of dual 32-bit range" or "Time is out of dual
// 32-bit range", or rclcpp's int64 overflow checks. Upstream it escapes the
// subscription callback (the node usually dies); the Sync stops.
type RangeError struct{ What string }

func (e *RangeError) Error() string { return "message_filters threw: " + e.What }

const nsPerSec = 1_000_000_000

// arith does the policies' time arithmetic the way the emulated library
// does. The first exception sticks in err; callers stop acting on it.
type arith struct {
	flavor Flavor
	// rounding is the library whose Duration*double is used; it is flavor
	// except in tests that isolate the rounding difference.
	rounding Flavor
	scale    float64 // 1 + age_penalty, a double in both libraries
	err      error
	x, y     big.Float
}

func (a *arith) fail(what string) {
	if a.err == nil {
		a.err = &RangeError{What: what}
	}
}

// floorSec is floor(ns / 1e9).
func floorSec(ns int64) int64 {
	s := ns / nsPerSec
	if ns%nsPerSec < 0 {
		s--
	}
	return s
}

// sub is Time - Time. ROS 1 (ros/impl/time.h 90-94): an exact int64 ns
// difference stored as int32 s + int32 ns, which throws beyond +-2^31 s
// (ros/impl/duration.h fromNSec 70-81). rclcpp: exact int64 ns.
func (a *arith) sub(x, y int64) int64 {
	d := x - y
	if a.flavor == FlavorROS1 {
		if s := floorSec(d); s < math.MinInt32 || s > math.MaxInt32 {
			a.fail("Duration is out of dual 32-bit range")
			return 0
		}
	} else if (y < 0 && x > math.MaxInt64+y) || (y > 0 && x < math.MinInt64+y) {
		a.fail("time subtraction leads to int64_t overflow")
		return 0
	}
	return d
}

// plus is Time + Duration (the virtual time of an empty topic: last stamp
// plus its lower bound). ROS 1 (ros/impl/time.h 103-113) throws when the
// sum leaves ros::Time's uint32 seconds; rclcpp checks int64 overflow.
func (a *arith) plus(t, d int64) int64 {
	if t > math.MaxInt64-d {
		a.fail("addition leads to int64_t overflow")
		return 0
	}
	s := t + d
	if a.flavor == FlavorROS1 && (s < 0 || s/nsPerSec > math.MaxUint32) {
		a.fail("Time is out of dual 32-bit range")
		return 0
	}
	return s
}

// scaled is Duration * (1 + age_penalty).
//
// ROS 1 (ros/impl/duration.h operator* 88-92): toSec() as a double, times
// the scale, then fromSec: floor for the seconds (int32, else it throws),
// the remainder rounded half away from zero to the ns.
//
// ROS 2 (rclcpp src/rclcpp/duration.cpp Duration::operator*, jazzy
// 226-239): a bounds check against INT64_MAX, then the int64 ns times the
// scale in long double (x86-64: 64-bit significand, round to nearest),
// truncated to int64.
func (a *arith) scaled(d int64) int64 {
	if a.rounding == FlavorROS1 {
		sec, nsec := floorSec(d), d-floorSec(d)*nsPerSec
		// The explicit float64 conversion keeps Go from fusing the
		// multiply and add (the C++ build on x86-64 rounds each step).
		toSec := float64(sec) + float64(1e-9*float64(nsec))
		v := toSec * a.scale
		fs := math.Floor(v)
		if fs < math.MinInt32 || fs > math.MaxInt32 {
			a.fail("Duration is out of dual 32-bit range")
			return 0
		}
		s := int64(fs)
		n := int64(math.Round((v - float64(s)) * 1e9))
		s += n / nsPerSec
		n %= nsPerSec
		return s*nsPerSec + n
	}
	abs := d
	if abs < 0 {
		abs = -abs
	}
	if s := math.Abs(a.scale); s > 1 && uint64(abs) > uint64(float64(math.MaxInt64)/s) {
		a.fail("duration scaling leads to int64_t overflow")
		return 0
	}
	if d == 0 {
		return 0
	}
	a.x.SetPrec(64).SetMode(big.ToNearestEven).SetInt64(d)
	a.y.SetPrec(64).SetFloat64(a.scale)
	a.x.Mul(&a.x, &a.y)
	v, _ := a.x.Int64() // truncates toward zero, as static_cast does
	if fs := floorSec(v); a.flavor == FlavorROS1 && (fs < math.MinInt32 || fs > math.MaxInt32) {
		a.fail("Duration is out of dual 32-bit range") // ROS 1's range with rclcpp's rounding (tests)
		return 0
	}
	return v
}

// representable says whether a stamp can reach the policy: ROS 1's
// ros::Time holds uint32 seconds; rclcpp::Time(msg.header.stamp) throws on
// a negative time point (rclcpp src/rclcpp/time.cpp 70-81), which happens
// in the subscription callback before add().
func representable(f Flavor, ns int64) bool {
	if ns < 0 {
		return false
	}
	return f != FlavorROS1 || ns/nsPerSec <= math.MaxUint32
}
