package tf

import (
	"math"
	"strconv"
	"testing"
)

// The benchmarks mirror ../shared/peers/tf2bench (bench.cpp) case by case,
// so that `go test -bench .` can be read beside `sh run.sh 1` there:
// stamps from 1 790 000 000 s, 100 Hz, poses from a precomputed ring (a 2 m
// circle, one turn per 10 s), 10 s cache prefilled with 20 s of data.

const (
	benchBase   int64 = 1_790_000_000_000_000_000
	benchPeriod int64 = 10_000_000 // 100 Hz
)

var poseRing = func() []Transform {
	ring := make([]Transform, 1000)
	for i := range ring {
		a := 2 * math.Pi * float64(i) / float64(len(ring))
		ring[i] = Transform{
			Translation: Vec3{2 * math.Cos(a), 2 * math.Sin(a), 0},
			Rotation:    Quat{0, 0, math.Sin(a / 2), math.Cos(a / 2)},
		}
	}
	return ring
}()

func pose(k int64) Transform { return poseRing[k%int64(len(poseRing))] }

// odomLaser builds odom→base_link (dynamic, 20 s at 100 Hz) and
// base_link→laser (static) and returns the buffer and the next tick.
func odomLaser(tb testing.TB, gen Generation) (*Buffer, int64) {
	b := NewBuffer(Options{Generation: gen})
	if err := b.SetTransform(Stamped{Parent: "base_link", Child: "laser", Stamp: benchBase,
		Transform: Transform{Translation: Vec3{0.25, 0, 0.18}, Rotation: identityQuat}}, "default_authority", true); err != nil {
		tb.Fatal(err)
	}
	var k int64
	for ; k <= 2000; k++ {
		if err := b.SetTransform(Stamped{Parent: "odom", Child: "base_link", Stamp: benchBase + k*benchPeriod, Transform: pose(k)}, "default_authority", false); err != nil {
			tb.Fatal(err)
		}
	}
	return b, k
}

// tree50 describes tf2bench's 50-frame tree: map ← c1 ← … ← c10, a side
// branch c2 ← d1 ← … ← d5, and 34 leaves l00…l33 spread round-robin over
// c1…c10, d1…d5 (l09 under c10, l14 under d5). Every edge is dynamic.
func tree50() (parents, children []string) {
	add := func(p, c string) { parents = append(parents, p); children = append(children, c) }
	prev := "map"
	var hubs []string
	for i := 1; i <= 10; i++ {
		c := "c" + strconv.Itoa(i)
		add(prev, c)
		hubs = append(hubs, c)
		prev = c
	}
	prev = "c2"
	for i := 1; i <= 5; i++ {
		d := "d" + strconv.Itoa(i)
		add(prev, d)
		hubs = append(hubs, d)
		prev = d
	}
	for i := 0; i < 34; i++ {
		add(hubs[i%len(hubs)], "l"+twoDigits(i))
	}
	return parents, children
}

func twoDigits(i int) string {
	if i < 10 {
		return "0" + strconv.Itoa(i)
	}
	return strconv.Itoa(i)
}

// tickTree50 sets every edge of the tree at tick k.
func tickTree50(tb testing.TB, b *Buffer, parents, children []string, k int64) {
	for e := range parents {
		if err := b.SetTransform(Stamped{Parent: parents[e], Child: children[e], Stamp: benchBase + k*benchPeriod,
			Transform: pose(k + int64(e))}, "default_authority", false); err != nil {
			tb.Fatal(err)
		}
	}
}

// (a) setTransform odom→base_link, 100 Hz, cache full (each insert prunes).
func BenchmarkSetTransformFullCache(b *testing.B) {
	buf, k := odomLaser(b, GenerationCurrent)
	b.ReportAllocs()
	for b.Loop() {
		if err := buf.SetTransform(Stamped{Parent: "odom", Child: "base_link", Stamp: benchBase + k*benchPeriod, Transform: pose(k)}, "default_authority", false); err != nil {
			b.Fatal(err)
		}
		k++
	}
}

// (b) lookupTransform(odom, laser, t), t between the two newest samples.
func BenchmarkLookupInterpolated(b *testing.B) {
	buf, k := odomLaser(b, GenerationCurrent)
	latest := benchBase + (k-1)*benchPeriod
	var i int64
	b.ReportAllocs()
	for b.Loop() {
		t := latest - (1+i%9)*1_000_000
		i++
		if s, err := buf.LookupTransform("odom", "laser", t); err != nil || s.Stamp != t {
			b.Fatal(s, err)
		}
	}
}

// (d) lookupTransform(odom, laser, 0): latest common time.
func BenchmarkLookupTimeZero(b *testing.B) {
	buf, k := odomLaser(b, GenerationCurrent)
	latest := benchBase + (k-1)*benchPeriod
	b.ReportAllocs()
	for b.Loop() {
		if s, err := buf.LookupTransform("odom", "laser", 0); err != nil || s.Stamp != latest {
			b.Fatal(s, err)
		}
	}
}

// (c) canTransform(latest + 5 ms) fails and its error text is read.
func BenchmarkCanTransformFailWithText(b *testing.B) {
	buf, k := odomLaser(b, GenerationCurrent)
	t := benchBase + (k-1)*benchPeriod + 5_000_000
	b.ReportAllocs()
	for b.Loop() {
		err := buf.CanTransformErr("odom", "laser", t)
		if err == nil || len(err.Error()) == 0 {
			b.Fatal("expected an error text")
		}
	}
}

// (c2) the same failing canTransform without an error text.
func BenchmarkCanTransformFail(b *testing.B) {
	buf, k := odomLaser(b, GenerationCurrent)
	t := benchBase + (k-1)*benchPeriod + 5_000_000
	b.ReportAllocs()
	for b.Loop() {
		if buf.CanTransform("odom", "laser", t) {
			b.Fatal("expected failure")
		}
	}
}

// (c4) canTransform that succeeds, t as in (b).
func BenchmarkCanTransformOK(b *testing.B) {
	buf, k := odomLaser(b, GenerationCurrent)
	t := benchBase + (k-1)*benchPeriod - 5_000_000
	b.ReportAllocs()
	for b.Loop() {
		if !buf.CanTransform("odom", "laser", t) {
			b.Fatal("expected success")
		}
	}
}

// (e) 50-frame tree, lookupTransform(l09, l14, t) between the two newest
// samples: 11 + 8 edges gathered and interpolated.
func BenchmarkLookupLeafToLeaf50(b *testing.B) {
	buf := NewBuffer(Options{})
	parents, children := tree50()
	var k int64
	for ; k <= 2000; k++ {
		tickTree50(b, buf, parents, children, k)
	}
	latest := benchBase + (k-1)*benchPeriod
	var i int64
	b.ReportAllocs()
	for b.Loop() {
		t := latest - (1+i%9)*1_000_000
		i++
		if s, err := buf.LookupTransform("l09", "l14", t); err != nil || s.Stamp != t {
			b.Fatal(s, err)
		}
	}
}

// (e2) setTransform in the full 50-frame tree, per call.
func BenchmarkSetTransformTree50(b *testing.B) {
	buf := NewBuffer(Options{})
	parents, children := tree50()
	var k int64
	for ; k <= 2000; k++ {
		tickTree50(b, buf, parents, children, k)
	}
	e := 0
	b.ReportAllocs()
	for b.Loop() {
		if err := buf.SetTransform(Stamped{Parent: parents[e], Child: children[e], Stamp: benchBase + k*benchPeriod,
			Transform: pose(k + int64(e))}, "default_authority", false); err != nil {
			b.Fatal(err)
		}
		if e++; e == len(parents) {
			e = 0
			k++
		}
	}
}
