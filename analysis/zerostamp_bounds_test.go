package analysis

import (
	"math"
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// Boundary tests of zerostamp.go (issue 15): the cost of a stamp-0
// message (pose distance), when its real time is known, and when the
// wait for its pose is given up.

// TestPoseDistance: translation distance and rotation angle, for
// unnormalised and opposite quaternions too.
func TestPoseDistance(t *testing.T) {
	id := tf.Quat{W: 1}
	s := math.Sqrt(0.5)
	for _, tc := range []struct {
		name       string
		p, q       tf.Transform
		dist, degs float64
	}{
		{"translation", tf.Transform{Translation: tf.Vec3{X: 1, Y: 2, Z: 3}, Rotation: id}, tf.Transform{Translation: tf.Vec3{X: 4, Y: 6, Z: 15}, Rotation: id}, 13, 0},
		{"90 deg about z", tf.Transform{Rotation: tf.Quat{Z: s, W: s}}, tf.Transform{Rotation: id}, 0, 90},
		{"120 deg, all components", tf.Transform{Rotation: tf.Quat{X: 0.5, Y: 0.5, Z: 0.5, W: 0.5}}, tf.Transform{Rotation: tf.Quat{X: 0.5, Y: -0.5, Z: 0.5, W: 0.5}}, 0, 120},
		{"unnormalised", tf.Transform{Rotation: tf.Quat{X: 1, Y: 1, Z: 1, W: 1}}, tf.Transform{Rotation: tf.Quat{X: 1, Y: -1, Z: 1, W: 1}}, 0, 120},
		{"unnormalised, other scales", tf.Transform{Rotation: tf.Quat{X: 1, Y: 1, Z: 1, W: 1}}, tf.Transform{Rotation: tf.Quat{X: 0.25, Y: -0.25, Z: 0.25, W: 0.25}}, 0, 120},
		{"opposite quaternions", tf.Transform{Rotation: tf.Quat{X: 0.5, Y: 0.5, Z: 0.5, W: 0.5}}, tf.Transform{Rotation: tf.Quat{X: -0.5, Y: -0.5, Z: -0.5, W: -0.5}}, 0, 0},
		{"zero quaternion first", tf.Transform{}, tf.Transform{Rotation: id}, 0, 0},
		{"zero quaternion second", tf.Transform{Rotation: id}, tf.Transform{}, 0, 0},
	} {
		d, r := poseDistance(tc.p, tc.q)
		// Written so that NaN fails.
		if !(math.Abs(d-tc.dist) <= 1e-9) || !(math.Abs(r-tc.degs) <= 1e-6) {
			t.Errorf("%s: poseDistance = %v m, %v deg; want %v, %v", tc.name, d, r, tc.dist, tc.degs)
		}
	}
}

// zeroStampBuf is a buffer with odom->base at x = s m for each stamp s
// in seconds.
func zeroStampBuf(t *testing.T, stampsS ...int64) *tf.Buffer {
	t.Helper()
	b := tf.NewBuffer(tf.Options{CacheTimeNS: 10e9})
	for _, s := range stampsS {
		zeroStampSet(t, b, s)
	}
	return b
}

func zeroStampSet(t *testing.T, b *tf.Buffer, s int64) {
	t.Helper()
	err := b.SetTransform(tf.Stamped{Parent: "odom", Child: "base", Stamp: s * 1e9,
		Transform: tf.Transform{Translation: tf.Vec3{X: float64(s)}, Rotation: tf.Quat{W: 1}}}, "test", false)
	if err != nil {
		t.Fatal(err)
	}
}

// TestZeroStampCostNoClock: without /clock the real time is the record
// time; the cost is the distance to the latest pose.
func TestZeroStampCostNoClock(t *testing.T) {
	a := &analyzer{clock: &clockState{}, cache: 10e9}
	z := &zeroStamps{}
	buf := zeroStampBuf(t, 1, 2, 4)
	z.noteZeroStamp(a, &bagread.Message{LogTimeNS: 2e9}, buf, "/base", "odom") // real pose x=2, latest x=4
	z.noteZeroStamp(a, &bagread.Message{LogTimeNS: 3e9}, buf, "base", "odom")  // x=3
	z.noteZeroStamp(a, &bagread.Message{LogTimeNS: 4e9}, buf, "base", "odom")  // x=4
	z.noteZeroStamp(a, &bagread.Message{LogTimeNS: 5e9}, buf, "nowhere", "odom")
	z.finish(a)
	s := a.rep.ZeroStamp
	want := ZeroStampSummary{Count: 4, FirstLogTimeNS: 2e9, LastLogTimeNS: 5e9, MaxDisplacementM: 2, MedianDisplacementM: 1, Costed: 3}
	if s != want || a.rep.Summary.ZeroStampScans != 4 || z.lost != 1 {
		t.Errorf("summary %+v (scans %d, lost %d), want %+v, 4 scans, 1 lost", s, a.rep.Summary.ZeroStampScans, z.lost, want)
	}
}

// TestZeroStampBeforeFirstClock: messages before the first /clock wait
// for it; only the first /clock value resolves them.
func TestZeroStampBeforeFirstClock(t *testing.T) {
	a := &analyzer{clock: &clockState{}, cache: 10e9, hasClock: true}
	z := &zeroStamps{}
	buf := zeroStampBuf(t, 1, 5)
	z.noteZeroStamp(a, &bagread.Message{LogTimeNS: 100}, buf, "base", "odom")
	z.noteZeroStamp(a, &bagread.Message{LogTimeNS: 200}, buf, "base", "odom")
	if len(z.wait) != 2 || z.sum.BeforeFirstClock != 2 || z.sum.Costed != 0 {
		t.Fatalf("before /clock: %d waiting, %d before first clock, %d costed; want 2, 2, 0", len(z.wait), z.sum.BeforeFirstClock, z.sum.Costed)
	}
	a.clock.seen, a.clock.ns, a.clock.n = true, 3e9, 1
	z.onClock(a, nil, 3e9)
	for _, zp := range z.wait {
		if !zp.known || zp.tReal != 3e9 {
			t.Errorf("after the first /clock: %+v, want known at 3 s", zp)
		}
	}
	zeroStampSet(t, buf, 6)
	z.onTF(a, &bagread.Message{LogTimeNS: 300}, true)
	// Their latest pose was x=5 when they arrived, the pose at 3 s x=3.
	if len(z.wait) != 0 || z.sum.Costed != 2 || z.sum.MaxDisplacementM != 2 {
		t.Errorf("after tf: %d waiting, %d costed, max %v m; want 0, 2, 2", len(z.wait), z.sum.Costed, z.sum.MaxDisplacementM)
	}
	// With /clock seen, a message takes its value at once; a second
	// /clock does not rewrite waiting messages.
	z.noteZeroStamp(a, &bagread.Message{LogTimeNS: 400}, buf, "base", "odom")
	if z.sum.BeforeFirstClock != 2 || z.sum.Costed != 3 || z.sum.MaxDisplacementM != 3 {
		t.Errorf("after /clock: %d before first clock, %d costed, max %v m; want 2, 3, 3", z.sum.BeforeFirstClock, z.sum.Costed, z.sum.MaxDisplacementM)
	}
	z.wait = append(z.wait, zeroPending{tReal: 7})
	a.clock.n = 2
	z.onClock(a, nil, 9e9)
	if z.wait[0].tReal != 7 || z.wait[0].known {
		t.Errorf("second /clock changed a waiting message: %+v", z.wait[0])
	}
	// tf not stored: nothing is resolved.
	z.wait = []zeroPending{{buf: buf, target: "odom", frame: "base", tReal: 6e9, known: true, logNS: 400}}
	z.onTF(a, &bagread.Message{LogTimeNS: 500}, false)
	if len(z.wait) != 1 {
		t.Errorf("unstored tf resolved a waiting message")
	}
}

// TestZeroStampGiveUp: a message whose pose is still in the future waits
// up to the cache length of record time, then counts as lost; one whose
// real time is older than the buffer is lost at once; the queue holds
// maxZeroPending.
func TestZeroStampGiveUp(t *testing.T) {
	for _, tc := range []struct {
		name    string
		nowLog  int64
		waiting int
		lost    int
	}{
		{"waited the cache length", 1e9 + 10e9, 1, 0},
		{"waited longer", 1e9 + 10e9 + 1, 0, 1},
	} {
		a := &analyzer{clock: &clockState{}, cache: 10e9}
		z := &zeroStamps{}
		buf := zeroStampBuf(t, 1, 2)
		z.wait = []zeroPending{{buf: buf, target: "odom", frame: "base", tReal: 30e9, known: true, logNS: 1e9}}
		z.resolveZero(a, tc.nowLog)
		if len(z.wait) != tc.waiting || z.lost != tc.lost {
			t.Errorf("%s: %d waiting, %d lost; want %d, %d", tc.name, len(z.wait), z.lost, tc.waiting, tc.lost)
		}
	}
	a := &analyzer{clock: &clockState{}, cache: 10e9}
	z := &zeroStamps{}
	buf := zeroStampBuf(t, 20, 21)
	z.wait = []zeroPending{{buf: buf, target: "odom", frame: "base", tReal: 1e9, known: true, logNS: 1e9}}
	z.resolveZero(a, 1e9)
	if len(z.wait) != 0 || z.lost != 1 {
		t.Errorf("real time before the buffer: %d waiting, %d lost; want 0, 1", len(z.wait), z.lost)
	}

	// The queue: maxZeroPending waiting messages (before the first
	// /clock); one more drops the oldest.
	a = &analyzer{clock: &clockState{}, cache: 10e9, hasClock: true}
	z = &zeroStamps{}
	for i := range maxZeroPending {
		z.noteZeroStamp(a, &bagread.Message{LogTimeNS: int64(i)}, buf, "base", "odom")
	}
	if len(z.wait) != maxZeroPending || z.lost != 0 {
		t.Fatalf("%d messages: %d waiting, %d lost", maxZeroPending, len(z.wait), z.lost)
	}
	z.noteZeroStamp(a, &bagread.Message{LogTimeNS: maxZeroPending}, buf, "base", "odom")
	if len(z.wait) != maxZeroPending || z.lost != 1 || z.wait[0].logNS != 1 || z.wait[maxZeroPending-1].logNS != maxZeroPending {
		t.Errorf("one more: %d waiting (first at %d), %d lost; want %d from 1, 1 lost", len(z.wait), z.wait[0].logNS, z.lost, maxZeroPending)
	}
}

// TestZeroStampOnStamped: a stamp of 0 counts with a frame id, or
// without one on a sensor type; a stamp of 1 ns does not.
func TestZeroStampOnStamped(t *testing.T) {
	buf := zeroStampBuf(t, 1)
	for _, tc := range []struct {
		name     string
		stamp    int64
		frame    string
		anyFrame bool
		want     int
	}{
		{"zero with frame", 0, "base", false, 1},
		{"zero without frame, sensor", 0, "", true, 1},
		{"zero without frame, other type", 0, "", false, 0},
		{"1 ns", 1, "base", true, 0},
	} {
		a := &analyzer{clock: &clockState{}, cache: 10e9}
		z := &zeroStamps{}
		ts := &topicState{name: "/t", role: roleStamped, anyFrame: tc.anyFrame, tf: &tfReplay{buf: buf}, targets: []string{"odom"}}
		z.onStamped(a, &stampedMsg{m: &bagread.Message{LogTimeNS: 1e9}, topic: ts, stamp: tc.stamp, frame: tc.frame})
		if z.sum.Count != tc.want {
			t.Errorf("%s: count %d, want %d", tc.name, z.sum.Count, tc.want)
		}
	}
}
