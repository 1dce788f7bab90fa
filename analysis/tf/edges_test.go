package tf

import (
	"math"
	"strconv"
	"testing"
)

// edgeOps builds a hand-written oracle script: every op but reset and clear
// gets an id so that its outcome is compared.
type edgeOps struct{ ops []gop }

func (e *edgeOps) add(g gop) {
	if g.kind != "reset" && g.kind != "clear" {
		g.id = "e" + strconv.Itoa(len(e.ops))
	}
	e.ops = append(e.ops, g)
}

func (e *edgeOps) set(parent, child string, stamp int64, tr Vec3, q Quat) {
	e.add(gop{kind: "set", set: Stamped{Parent: parent, Child: child, Stamp: stamp,
		Transform: Transform{Translation: tr, Rotation: q}}})
}

// queries adds a lookup and a canTransform both ways at each stamp.
func (e *edgeOps) queries(a, b string, at ...int64) {
	for _, s := range at {
		e.add(gop{kind: "lookup", target: a, source: b, stamp: s})
		e.add(gop{kind: "lookup", target: b, source: a, stamp: s})
		e.add(gop{kind: "can", target: a, source: b, stamp: s})
	}
	e.add(gop{kind: "latest", target: a, source: b})
}

// TestOracleEdges states, against tf2 itself, the boundary cases that random
// scenarios rarely hit exactly.
func TestOracleEdges(t *testing.T) {
	bin := buildOracle(t)
	var e edgeOps

	// Interpolation between quaternions whose dot product is exactly 0
	// (tf2's slerp negates the second one only when the dot is < 0), and
	// between quaternions that are not unit length but within tf2's
	// tolerance (slerp divides the dot by the product of the norms), with
	// dot > 0 and dot < 0.
	e.add(gop{kind: "reset", cacheNS: 10 * sec})
	e.set("a", "dot0", 1*sec, Vec3{X: 1}, Quat{W: 1})
	e.set("a", "dot0", 2*sec, Vec3{Y: 1}, Quat{X: 1})
	k0, k1 := math.Sqrt(1.009), math.Sqrt(0.991)
	q0 := Quat{W: k0}
	q1 := Quat{Z: k1 * math.Sin(0.3), W: k1 * math.Cos(0.3)}
	e.set("a", "pos", 1*sec, Vec3{}, q0)
	e.set("a", "pos", 2*sec, Vec3{}, q1)
	e.set("a", "neg", 1*sec, Vec3{}, q0)
	e.set("a", "neg", 2*sec, Vec3{}, Quat{Z: -q1.Z, W: -q1.W})
	for _, c := range []string{"dot0", "pos", "neg"} {
		e.queries("a", c, sec+sec/4, sec+sec/2, 2*sec-1)
	}

	// The cache window at its exact edges: a stamp exactly cache-time older
	// than the newest is kept (and accepted), one nanosecond more is pruned
	// (and rejected as TF_OLD_DATA); lookups exactly at the oldest and
	// newest stamps, one nanosecond outside them, and exactly halfway.
	e.add(gop{kind: "reset", cacheNS: 10 * sec})
	e.set("w", "c", 5*sec, Vec3{X: 5}, Quat{W: 1})
	e.set("w", "c", 15*sec, Vec3{X: 15}, Quat{W: 1})
	e.queries("w", "c", 5*sec-1, 5*sec, 10*sec, 15*sec, 15*sec+1)
	e.set("w", "c", 5*sec-1, Vec3{X: 4}, Quat{W: 1})
	e.set("w", "c", 5*sec+1, Vec3{X: 6}, Quat{W: 1})
	e.queries("w", "c", 5*sec, 5*sec+1)
	e.set("w", "c", 15*sec+1, Vec3{X: 16}, Quat{W: 1})
	e.queries("w", "c", 5*sec, 5*sec+1, 15*sec+1)

	// After a clear, the ring storage still holds the old entries: a full
	// cache of newer stamps, then a stamp and an older one inserted behind
	// it must not meet them.
	e.add(gop{kind: "reset", cacheNS: 10 * sec})
	for i := int64(1); i <= 16; i++ {
		e.set("w", "c", i*sec/10, Vec3{X: float64(i)}, Quat{W: 1})
	}
	e.add(gop{kind: "clear"})
	e.set("w", "c", 1*sec, Vec3{X: 100}, Quat{W: 1})
	e.set("w", "c", 1*sec-sec/20, Vec3{X: 95}, Quat{W: 1})
	e.queries("w", "c", 1*sec-sec/20, 1*sec-sec/40, 1*sec)

	// tf2's MAX_GRAPH_DEPTH: chains around 1000 links, walked from either
	// end and to the middle.
	for _, n := range []int{999, 1000, 1001, 1002} {
		e.add(gop{kind: "reset", cacheNS: 10 * sec})
		for i := 1; i <= n; i++ {
			e.set("k"+strconv.Itoa(i-1), "k"+strconv.Itoa(i), 1*sec, Vec3{X: 1}, Quat{W: 1})
		}
		top, bottom := "k0", "k"+strconv.Itoa(n)
		e.queries(top, bottom, 0, 1*sec)
		e.queries("k1", bottom, 0)
		e.queries("k"+strconv.Itoa(n/2), bottom, 0)
		e.queries("k"+strconv.Itoa(n/2), "k"+strconv.Itoa(n/2+1), 0)
		// a side branch: the common parent is the top of the chain
		e.set(top, "side", 1*sec, Vec3{Y: 1}, Quat{W: 1})
		e.queries("side", bottom, 0, 1*sec)
		e.queries(bottom, "side", 0)
	}

	counts, _ := checkOracle(t, bin, e.ops)
	t.Logf("%d ops; outcomes %v", len(e.ops), counts)
}

// TestSameStampOrder pins where GenerationCurrent (ROS 2) puts a new entry
// whose stamp is already cached with other data: in front of the cached
// ones, so that it is the older neighbour of a later lookup (ROS 2's
// insertData inserts before the first entry whose stamp is <= the new one,
// in its newest-first list). ROS 1 rejects such an entry, so the oracle
// cannot state this. The repeated stamp sits near the newest entry (the
// short linear scan) and deep in the cache (the binary search).
func TestSameStampOrder(t *testing.T) {
	for _, depth := range []int{2, 5, 20} {
		b := NewBuffer(Options{CacheTimeNS: 100 * sec})
		for i := 1; i <= depth+1; i++ {
			mustSet(t, b, tfAt("odom", "base", int64(i)*sec, float64(i)), false)
		}
		mustSet(t, b, tfAt("odom", "base", 2*sec, 10), false)
		// halfway between the new 2 s entry (x=10) and the 3 s one (x=3)
		s, err := b.LookupTransform("odom", "base", 2*sec+sec/2)
		if err != nil || s.Transform.Translation.X != 6.5 {
			t.Errorf("depth %d: at 2.5 s %v %v, want x=6.5", depth, s.Transform.Translation, err)
		}
		// a copy of the older same-stamp entry is dropped too
		mustSet(t, b, tfAt("odom", "base", 2*sec, 2), false)
		if n := b.CacheLen("base"); n != depth+2 {
			t.Errorf("depth %d: CacheLen = %d after a copy, want %d", depth, n, depth+2)
		}
	}
}

func TestStats(t *testing.T) {
	b := NewBuffer(Options{})
	if s := b.Stats(); s != (Stats{}) {
		t.Errorf("empty: %+v", s)
	}
	mustSet(t, b, tfAt("map", "odom", 1*sec, 0), true)
	mustSet(t, b, tfAt("odom", "base", 1*sec, 0), false)
	mustSet(t, b, tfAt("odom", "base", 2*sec, 0), false)
	mustSet(t, b, tfAt("base", "laser", 1*sec, 0), false)
	s := b.Stats()
	want := Stats{Frames: 4, StaticLinks: 1, DynamicLinks: 2, Entries: 3, MaxEntries: 2, CapacityEntries: s.CapacityEntries}
	if s != want || s.CapacityEntries < 3 {
		t.Errorf("Stats = %+v, want %+v with room for 3 entries", s, want)
	}
}

// TestRejectCodeZero: the zero RejectCode (as in a zero RejectError) is
// none of tf2's codes.
func TestRejectCodeZero(t *testing.T) {
	for _, c := range []RejectCode{TFSelfTransform, TFNoChildFrameID, TFNoFrameID, TFNaNInput, TFDenormalizedQuaternion, TFOldData} {
		if c == 0 {
			t.Errorf("%v is the zero RejectCode", c)
		}
	}
	if s := RejectCode(0).String(); s != "RejectCode(0)" {
		t.Errorf("RejectCode(0) = %q", s)
	}
}
