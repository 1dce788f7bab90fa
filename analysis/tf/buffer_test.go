package tf

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func tfAt(parent, child string, stamp int64, x float64) Stamped {
	return Stamped{Parent: parent, Child: child, Stamp: stamp,
		Transform: Transform{Translation: Vec3{X: x}, Rotation: identityQuat}}
}

func mustSet(t *testing.T, b *Buffer, s Stamped, static bool) {
	t.Helper()
	if err := b.SetTransform(s, "test", static); err != nil {
		t.Fatalf("SetTransform(%+v): %v", s, err)
	}
}

func stamps(b *Buffer, frame string) []int64 {
	f := &b.frames[b.ids[frame]]
	var out []int64
	for i := 0; i < f.dyn.n; i++ {
		out = append(out, f.dyn.at(i).stamp)
	}
	return out
}

const sec = int64(1_000_000_000)

// TestGenerations pins the three TimeCache insert/prune rules (doc §3).
func TestGenerations(t *testing.T) {
	type step struct {
		stamp  int64
		x      float64
		reject bool
	}
	seq := []step{{100, 0, false}, {101, 1, false}, {105, 2, false}, {111, 3, false},
		{101, 9, false}, // out of order: 101 >= 111-10, kept with the first 101 (not identical)
		{100, 0, true},  // 100 < 111-10: TF_OLD_DATA
		{111, 3, false}, // exact copy
		{112, 4, false}, // prunes
	}
	cases := []struct {
		gen  Generation
		want []int64 // stamps in seconds, oldest first
	}{
		// Current: prune against the newest before inserting, so 101 s
		// (older than 112-10) survives until the next insert.
		{GenerationCurrent, []int64{101, 101, 105, 111, 112}},
		// Prune after inserting, against 112: 101 s is gone.
		{GenerationPruneAfter, []int64{105, 111, 112}},
		// Legacy: same pruning, and the exact copy of 111 s is stored.
		{GenerationLegacy, []int64{105, 111, 111, 112}},
	}
	for _, c := range cases {
		t.Run(c.gen.String(), func(t *testing.T) {
			b := NewBuffer(Options{Generation: c.gen})
			for _, s := range seq {
				err := b.SetTransform(tfAt("odom", "base", s.stamp*sec, s.x), "test", false)
				var re *RejectError
				if got := errors.As(err, &re) && re.Code == TFOldData; got != s.reject || (err != nil && !s.reject) {
					t.Fatalf("set %d s: err %v, want reject=%v", s.stamp, err, s.reject)
				}
			}
			var got []int64
			for _, s := range stamps(b, "base") {
				got = append(got, s/sec)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("cached stamps %v, want %v", got, c.want)
			}
		})
	}
}

// TestOldDataBoundary: a stamp exactly cache_time older than the newest is
// accepted, one nanosecond older is not.
func TestOldDataBoundary(t *testing.T) {
	for _, gen := range []Generation{GenerationCurrent, GenerationPruneAfter, GenerationLegacy} {
		b := NewBuffer(Options{Generation: gen})
		mustSet(t, b, tfAt("a", "b", 20*sec, 0), false)
		if err := b.SetTransform(tfAt("a", "b", 10*sec, 0), "x", false); err != nil {
			t.Errorf("%v: boundary rejected: %v", gen, err)
		}
		if err := b.SetTransform(tfAt("a", "b", 10*sec-1, 0), "x", false); err == nil {
			t.Errorf("%v: older than the boundary accepted", gen)
		}
	}
}

// TestRepeatedStamp: ROS 2 keeps a same-stamp entry with new data; lookups
// inside use the one inserted last, at the oldest stamp the first one, at
// the newest stamp the last one.
func TestRepeatedStamp(t *testing.T) {
	b := NewBuffer(Options{})
	mustSet(t, b, tfAt("odom", "base", 120*sec, 0), false)
	mustSet(t, b, tfAt("odom", "base", 120*sec, 1), false)
	mustSet(t, b, tfAt("odom", "base", 121*sec, 2), false)
	mustSet(t, b, tfAt("odom", "base", 121*sec, 4), false)
	for _, c := range []struct {
		at   int64
		want float64
	}{
		{120 * sec, 0}, // oldest: tf2 returns the list's back, the first inserted
		{121 * sec, 4}, // newest: the list's front, the last inserted
		// between: the older neighbour is the 120 s entry inserted last (x=1),
		// the newer one the 121 s entry inserted first (x=2)
		{120*sec + sec/2, 1.5},
		{0, 4}, // latest
	} {
		s, err := b.LookupTransform("odom", "base", c.at)
		if err != nil || math.Abs(s.Transform.Translation.X-c.want) > 1e-12 {
			t.Errorf("at %d: %v %v, want x=%v", c.at, s.Transform.Translation, err, c.want)
		}
	}
	if n := b.CacheLen("base"); n != 4 {
		t.Errorf("CacheLen = %d, want 4", n)
	}
	// an exact copy is dropped silently
	mustSet(t, b, tfAt("odom", "base", 121*sec, 4), false)
	if n := b.CacheLen("base"); n != 4 {
		t.Errorf("after exact copy CacheLen = %d, want 4", n)
	}
}

func TestSetTransformValidation(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name  string
		in    Stamped
		codes []RejectCode
		texts []string
	}{
		{"self", Stamped{Parent: "/a", Child: "a", Transform: Transform{Rotation: identityQuat}},
			[]RejectCode{TFSelfTransform},
			[]string{`TF_SELF_TRANSFORM: Ignoring transform from authority "auth" with frame_id and  child_frame_id "a" because they are the same`}},
		{"both empty", Stamped{Transform: Transform{Rotation: identityQuat}},
			[]RejectCode{TFSelfTransform, TFNoChildFrameID, TFNoFrameID},
			[]string{`TF_SELF_TRANSFORM: Ignoring transform from authority "auth" with frame_id and  child_frame_id "" because they are the same`,
				`TF_NO_CHILD_FRAME_ID: Ignoring transform from authority "auth" because child_frame_id not set `,
				`TF_NO_FRAME_ID: Ignoring transform with child_frame_id ""  from authority "auth" because frame_id not set`}},
		{"no parent", Stamped{Child: "b", Transform: Transform{Rotation: identityQuat}},
			[]RejectCode{TFNoFrameID},
			[]string{`TF_NO_FRAME_ID: Ignoring transform with child_frame_id "b"  from authority "auth" because frame_id not set`}},
		{"nan translation", Stamped{Parent: "a", Child: "b", Transform: Transform{Translation: Vec3{X: nan}, Rotation: identityQuat}},
			[]RejectCode{TFNaNInput},
			[]string{`TF_NAN_INPUT: Ignoring transform for child_frame_id "b" from authority "auth" because of a nan value in the transform (nan 0.000000 0.000000) (0.000000 0.000000 0.000000 1.000000)`}},
		{"nan rotation", Stamped{Parent: "a", Child: "b", Transform: Transform{Rotation: Quat{W: nan}}},
			[]RejectCode{TFNaNInput, TFDenormalizedQuaternion},
			[]string{`TF_NAN_INPUT: Ignoring transform for child_frame_id "b" from authority "auth" because of a nan value in the transform (0.000000 0.000000 0.000000) (0.000000 0.000000 0.000000 nan)`,
				`TF_DENORMALIZED_QUATERNION: Ignoring transform for child_frame_id "b" from authority "auth" because of an invalid quaternion in the transform (0.000000 0.000000 0.000000 nan)`}},
		{"denormalized", Stamped{Parent: "a", Child: "b", Transform: Transform{Rotation: Quat{W: 1.5}}},
			[]RejectCode{TFDenormalizedQuaternion},
			[]string{`TF_DENORMALIZED_QUATERNION: Ignoring transform for child_frame_id "b" from authority "auth" because of an invalid quaternion in the transform (0.000000 0.000000 0.000000 1.500000)`}},
		{"infinite rotation", Stamped{Parent: "a", Child: "b", Transform: Transform{Rotation: Quat{X: math.Inf(-1), W: 1}}},
			[]RejectCode{TFDenormalizedQuaternion},
			[]string{`TF_DENORMALIZED_QUATERNION: Ignoring transform for child_frame_id "b" from authority "auth" because of an invalid quaternion in the transform (-inf 0.000000 0.000000 1.000000)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBuffer(Options{})
			err := b.SetTransform(c.in, "auth", false)
			var re *RejectError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v", err)
			}
			all := append([]RejectError{{Code: re.Code, Text: re.Text}}, re.Also...)
			if len(all) != len(c.codes) {
				t.Fatalf("got %d rejections (%v), want %d", len(all), err, len(c.codes))
			}
			for i := range all {
				if all[i].Code != c.codes[i] || all[i].Text != c.texts[i] {
					t.Errorf("rejection %d = %v %q\nwant %v %q", i, all[i].Code, all[i].Text, c.codes[i], c.texts[i])
				}
			}
			if err.Error() != strings.Join(c.texts, "\n") {
				t.Errorf("Error() = %q", err.Error())
			}
			if len(b.Frames()) != 0 {
				t.Errorf("rejected transform interned frames %v", b.Frames())
			}
		})
	}
	// An infinite translation is accepted, as in tf2.
	b := NewBuffer(Options{})
	mustSet(t, b, Stamped{Parent: "a", Child: "b", Transform: Transform{Translation: Vec3{X: math.Inf(1)}, Rotation: identityQuat}}, false)
}

// TestOldDataInternsParent: tf2 interns the parent before TF_OLD_DATA.
func TestOldDataInternsParent(t *testing.T) {
	b := NewBuffer(Options{})
	mustSet(t, b, tfAt("odom", "base", 100*sec, 0), false)
	err := b.SetTransform(tfAt("/other", "/base", 50*sec, 0), "auth", false)
	var re *RejectError
	want := "TF_OLD_DATA ignoring data from the past for frame base at time 50.000000 according to authority auth\nPossible reasons are listed at http://wiki.ros.org/tf/Errors%20explained"
	if !errors.As(err, &re) || re.Code != TFOldData || re.Text != want {
		t.Fatalf("err = %v", err)
	}
	if !b.HasFrame("other") || b.HasFrame("/other") {
		t.Errorf("frames %v: want the slash-stripped parent interned", b.Frames())
	}
}

// TestStaticDynamicFlip: ROS 2 replaces a frame's cache when the kind
// changes (ROS 1 0.7.6 keeps the first kind and stores into it).
func TestStaticDynamicFlip(t *testing.T) {
	b := NewBuffer(Options{})
	mustSet(t, b, tfAt("a", "b", 100*sec, 1), true)
	mustSet(t, b, tfAt("a", "b", 101*sec, 2), false)
	// now dynamic with one entry: other times fail
	_, err := b.LookupTransform("a", "b", 50*sec)
	var te *Error
	if !errors.As(err, &te) || te.Kind != NoDataForExtrapolationError ||
		te.Error() != "Lookup would require extrapolation at time 50.000000, but only time 101.000000 is in the buffer, when looking up transform from frame [b] to frame [a]" {
		t.Errorf("after static→dynamic: %v", err)
	}
	mustSet(t, b, tfAt("a", "b", 102*sec, 3), false)
	mustSet(t, b, tfAt("a", "b", 5*sec, 4), true) // back to static: history gone, time ignored
	if s, err := b.LookupTransform("a", "b", 7*sec); err != nil || s.Transform.Translation.X != 4 || s.Stamp != 7*sec {
		t.Errorf("after dynamic→static: %+v %v", s, err)
	}
	if b.CacheLen("b") != 1 {
		t.Errorf("CacheLen = %d", b.CacheLen("b"))
	}
}

// TestWalk covers walkToTopParent's less obvious rules (doc §6).
func TestWalk(t *testing.T) {
	b := NewBuffer(Options{})
	// map -> odom (dynamic, 100..101 s) -> base (dynamic, 100..110 s) -> laser (static)
	mustSet(t, b, tfAt("map", "odom", 100*sec, 1), false)
	mustSet(t, b, tfAt("map", "odom", 101*sec, 1), false)
	for s := int64(100); s <= 110; s++ {
		mustSet(t, b, tfAt("odom", "base", s*sec, float64(s-100)), false)
	}
	mustSet(t, b, tfAt("base", "laser", 0, 0.5), true)
	// island: x -> y (static)
	mustSet(t, b, tfAt("x", "y", 100*sec, 0), true)

	at := 105 * sec
	cases := []struct {
		name           string
		target, source string
		t              int64
		kind           ErrorKind
		text           string
		x              float64
	}{
		// odom's link fails at 105 s (future), but it lies above the common
		// ancestor odom: the lookup succeeds.
		{"failure above the common ancestor", "odom", "laser", at, 0, "", 5.5},
		{"target is an ancestor whose own link fails", "odom", "base", at, 0, "", 5},
		{"source is an ancestor", "laser", "odom", at, 0, "", -5.5},
		{"failure on the target side", "laser", "map", at, ForwardExtrapolationError,
			"Lookup would require extrapolation into the future.  Requested time 105.000000 but the latest data is at time 101.000000, when looking up transform from frame [map] to frame [laser]", 0},
		{"remembered source failure when not connected", "y", "laser", at, ForwardExtrapolationError,
			"Lookup would require extrapolation into the future.  Requested time 105.000000 but the latest data is at time 101.000000, when looking up transform from frame [laser] to frame [y]", 0},
		{"connectivity", "y", "laser", 100 * sec, ConnectivityError,
			"Could not find a connection between 'y' and 'laser' because they are not part of the same tree.Tf has two or more unconnected trees.", 0},
		{"past", "odom", "laser", 99 * sec, BackwardExtrapolationError,
			"Lookup would require extrapolation into the past.  Requested time 99.000000 but the earliest data is at time 100.000000, when looking up transform from frame [laser] to frame [odom]", 0},
		{"unknown", "odom", "nope", at, LookupError, `"nope" passed to lookupTransform argument source_frame does not exist. `, 0},
		{"empty", "", "odom", at, InvalidArgumentError, `Invalid argument "" passed to lookupTransform argument target_frame - in tf2 frame_ids cannot be empty`, 0},
		{"same frame, unknown", "nope", "nope", at, 0, "", 0},
		// time 0: latest common time of base (110) and laser (static) = 110
		{"time zero", "odom", "laser", 0, 0, "", 10.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := b.LookupTransform(c.target, c.source, c.t)
			if c.kind != 0 {
				var te *Error
				if !errors.As(err, &te) || te.Kind != c.kind || te.Error() != c.text {
					t.Fatalf("err = %v (%v), want %v %q", err, te, c.kind, c.text)
				}
				if b.CanTransform(c.target, c.source, c.t) {
					t.Errorf("CanTransform true")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(s.Transform.Translation.X-c.x) > 1e-12 || s.Parent != c.target || s.Child != c.source {
				t.Errorf("got %+v, want x=%v", s, c.x)
			}
			if !b.CanTransform(c.target, c.source, c.t) || b.CanTransformErr(c.target, c.source, c.t) != nil {
				t.Errorf("CanTransform false")
			}
		})
	}
}

// TestInterpolationAcrossParentChange: neighbours with different parents
// are not interpolated; the older entry (and its parent) is used.
func TestInterpolationAcrossParentChange(t *testing.T) {
	b := NewBuffer(Options{})
	mustSet(t, b, tfAt("p1", "c", 100*sec, 1), false)
	mustSet(t, b, tfAt("p2", "c", 102*sec, 3), false)
	if s, err := b.LookupTransform("p1", "c", 101*sec); err != nil || s.Transform.Translation.X != 1 {
		t.Errorf("p1<-c at 101 s: %+v %v", s, err)
	}
	if _, err := b.LookupTransform("p2", "c", 101*sec); err == nil {
		t.Errorf("p2<-c at 101 s should not connect")
	}
}

func TestSlerp(t *testing.T) {
	half := math.Sqrt(0.5)
	b := NewBuffer(Options{})
	mustSet(t, b, Stamped{Parent: "a", Child: "b", Stamp: 10 * sec, Transform: Transform{Rotation: identityQuat}}, false)
	// 90° about z, given with w < 0: the shortest path goes through 45°.
	mustSet(t, b, Stamped{Parent: "a", Child: "b", Stamp: 12 * sec, Transform: Transform{Translation: Vec3{2, 4, 0}, Rotation: Quat{0, 0, -half, -half}}}, false)
	s, err := b.LookupTransform("a", "b", 11*sec)
	if err != nil {
		t.Fatal(err)
	}
	q, tr := s.Transform.Rotation, s.Transform.Translation
	want := Quat{0, 0, math.Sin(math.Pi / 8), math.Cos(math.Pi / 8)}
	if math.Abs(q.Z-want.Z) > 1e-12 || math.Abs(q.W-want.W) > 1e-12 || tr != (Vec3{1, 2, 0}) {
		t.Errorf("got %+v %+v, want %+v (1,2,0)", q, tr, want)
	}
}

func TestClear(t *testing.T) {
	b := NewBuffer(Options{})
	mustSet(t, b, tfAt("odom", "base", 100*sec, 0), false)
	mustSet(t, b, tfAt("odom", "base", 101*sec, 0), false)
	mustSet(t, b, tfAt("base", "laser", 0, 0.5), true)
	b.Clear()
	if !b.HasFrame("base") || b.CacheLen("base") != 0 || b.CacheLen("laser") != 1 {
		t.Fatalf("after Clear: frames %v, base %d, laser %d", b.Frames(), b.CacheLen("base"), b.CacheLen("laser"))
	}
	// empty cache: Jazzy's TimeCache sets no text, only the suffix remains
	_, err := b.LookupTransform("odom", "laser", 100*sec)
	var te *Error
	if !errors.As(err, &te) || te.Kind != NoDataForExtrapolationError ||
		te.Error() != ", when looking up transform from frame [laser] to frame [odom]" {
		t.Errorf("at 100 s: %v", err)
	}
	// time 0: the empty cache ends the latest-common-time walk: connectivity
	_, err = b.LookupTransform("odom", "laser", 0)
	if !errors.As(err, &te) || te.Kind != ConnectivityError {
		t.Errorf("at 0: %v", err)
	}
	if s, err := b.LookupTransform("base", "laser", 0); err != nil || s.Transform.Translation.X != 0.5 {
		t.Errorf("static link after Clear: %+v %v", s, err)
	}
	// old data is accepted again after the clear
	mustSet(t, b, tfAt("odom", "base", 50*sec, 0), false)
}

func TestLatestCommonTimeAndPath(t *testing.T) {
	b := NewBuffer(Options{})
	mustSet(t, b, tfAt("map", "odom", 90*sec, 0), false)
	mustSet(t, b, tfAt("map", "odom", 95*sec, 0), false)
	mustSet(t, b, tfAt("odom", "base", 100*sec, 0), false)
	mustSet(t, b, tfAt("odom", "base", 102*sec, 0), false)
	mustSet(t, b, tfAt("base", "laser", 7*sec, 0), true)
	mustSet(t, b, tfAt("base", "cam", 7*sec, 0), true)
	mustSet(t, b, tfAt("x", "y", 7*sec, 0), true)

	lt := func(target, source string) (int64, error) { return b.LatestCommonTime(target, source) }
	for _, c := range []struct {
		target, source string
		want           int64
		kind           ErrorKind
	}{
		{"odom", "laser", 102 * sec, 0},
		{"map", "laser", 95 * sec, 0},
		{"laser", "map", 95 * sec, 0},
		{"base", "laser", 0, 0}, // static only
		{"laser", "cam", 0, 0},  // static siblings
		{"base", "base", 102 * sec, 0},
		{"odom", "odom", 95 * sec, 0},
		{"map", "map", 0, 0}, // a root
		{"y", "laser", 0, ConnectivityError},
		{"nope", "laser", 0, LookupError},
		{"/odom", "laser", 0, LookupError},
	} {
		got, err := lt(c.target, c.source)
		var te *Error
		if c.kind != 0 {
			if !errors.As(err, &te) || te.Kind != c.kind {
				t.Errorf("LatestCommonTime(%s, %s) = %d, %v; want %v", c.target, c.source, got, err, c.kind)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("LatestCommonTime(%s, %s) = %d, %v; want %d", c.target, c.source, got, err, c.want)
		}
	}
	_, err := lt("nope", "laser")
	if err.Error() != `"nope" passed to getLatestCommonTime argument target_frame does not exist. ` {
		t.Errorf("text %q", err.Error())
	}

	path, err := b.Path("map", "cam")
	want := []Link{
		{Parent: "base", Child: "cam", Static: true},
		{Parent: "odom", Child: "base", NewestNS: 102 * sec, OldestNS: 100 * sec},
		{Parent: "map", Child: "odom", NewestNS: 95 * sec, OldestNS: 90 * sec},
	}
	if err != nil || !reflect.DeepEqual(path, want) {
		t.Errorf("Path(map, cam) = %+v, %v", path, err)
	}
	// siblings: each side up to the common parent base
	path, err = b.Path("laser", "cam")
	want = []Link{{Parent: "base", Child: "cam", Static: true}, {Parent: "base", Child: "laser", Static: true}}
	if err != nil || !reflect.DeepEqual(path, want) {
		t.Errorf("Path(laser, cam) = %+v, %v", path, err)
	}
	// source is an ancestor: only target-side links
	path, err = b.Path("laser", "odom")
	want = []Link{{Parent: "base", Child: "laser", Static: true}, {Parent: "odom", Child: "base", NewestNS: 102 * sec, OldestNS: 100 * sec}}
	if err != nil || !reflect.DeepEqual(path, want) {
		t.Errorf("Path(laser, odom) = %+v, %v", path, err)
	}
	if _, err := b.Path("y", "cam"); err == nil {
		t.Errorf("Path across trees succeeded")
	}
	if p, err := b.Path("cam", "cam"); err != nil || len(p) != 0 {
		t.Errorf("Path(cam, cam) = %v, %v", p, err)
	}
}

func TestCanTransformErrTexts(t *testing.T) {
	b := NewBuffer(Options{})
	mustSet(t, b, tfAt("a", "b", sec, 0), false)
	for _, c := range []struct{ target, source, want string }{
		{"a", "zz", `Invalid frame ID "zz" passed to canTransform argument source_frame - frame does not exist`},
		{"", "b", `Invalid frame ID "" passed to canTransform argument target_frame - in tf2 frame_ids cannot be empty`},
		{"/a", "b", `Invalid frame ID "/a" passed to canTransform argument target_frame - in tf2 frame_ids cannot start with a '/'`},
		{"a", "b", "Lookup would require extrapolation at time 2.000000, but only time 1.000000 is in the buffer, when looking up transform from frame [b] to frame [a]"},
	} {
		err := b.CanTransformErr(c.target, c.source, 2*sec)
		if err == nil || err.Error() != c.want {
			t.Errorf("CanTransformErr(%q, %q) = %v, want %q", c.target, c.source, err, c.want)
		}
	}
}

func TestLoop(t *testing.T) {
	b := NewBuffer(Options{})
	mustSet(t, b, tfAt("a", "b", sec, 0), false)
	mustSet(t, b, tfAt("b", "a", sec, 0), false)
	mustSet(t, b, tfAt("root", "c", sec, 0), false)
	_, err := b.LookupTransform("c", "a", sec)
	var te *Error
	want := "The tf tree is invalid because it contains a loop.\nFrame b exists with parent a.\nFrame a exists with parent b.\nFrame c exists with parent root.\n\n"
	if !errors.As(err, &te) || te.Kind != LookupError || te.Error() != want || te.Exception() != "LookupException" {
		t.Errorf("err = %q", err)
	}
	if b.CanTransform("c", "a", sec) {
		t.Errorf("CanTransform through a loop")
	}
}

func TestDisplayTime(t *testing.T) {
	for _, c := range []struct {
		ns   int64
		want string
	}{
		{0, "0.000000"},
		{1790000000123456789, "1790000000.123457"},
		{-1_500_000_000, "-1.500000"},
		// past 2038 the int32 seconds wrap, as in tf2's durationToSec
		{2_290_000_001_146_771_997, "-2004967294.853228"},
		{1<<31*sec + 5, "-2147483648.000000"},
	} {
		if got := DisplayTime(c.ns); got != c.want {
			t.Errorf("DisplayTime(%d) = %s, want %s", c.ns, got, c.want)
		}
	}
}

// TestNoAllocs: successful lookups and canTransform never allocate.
func TestNoAllocs(t *testing.T) {
	b, k := odomLaser(t, GenerationCurrent)
	latest := benchBase + (k-1)*benchPeriod
	for name, fn := range map[string]func(){
		"lookup interpolated": func() { b.LookupTransform("odom", "laser", latest-3_000_000) },
		"lookup time 0":       func() { b.LookupTransform("odom", "laser", 0) },
		"lookup same frame":   func() { b.LookupTransform("laser", "laser", 0) },
		"can ok":              func() { b.CanTransform("odom", "laser", latest-3_000_000) },
		"can fail":            func() { b.CanTransform("odom", "laser", latest+3_000_000) },
		"can unknown":         func() { b.CanTransform("odom", "nope", latest) },
		"latest common time":  func() { b.LatestCommonTime("odom", "laser") },
		"set": func() {
			k++
			b.SetTransform(Stamped{Parent: "odom", Child: "base_link", Stamp: benchBase + k*benchPeriod, Transform: pose(k)}, "a", false)
		},
	} {
		if n := testing.AllocsPerRun(200, fn); n != 0 {
			t.Errorf("%s: %v allocs", name, n)
		}
	}
}

func TestClearOnJump(t *testing.T) {
	b := NewBuffer(Options{})
	mustSet(t, b, tfAt("odom", "base", 130*sec, 0), false)
	for _, c := range []struct {
		delta int64
		clear bool
	}{{0, false}, {5 * sec, false}, {-1, true}} {
		mustSet(t, b, tfAt("odom", "base", 130*sec, 0), false)
		if got := b.ClearOnJump(c.delta); got != c.clear || (b.CacheLen("base") == 0) != c.clear {
			t.Errorf("ClearOnJump(%d) = %v, cache %d", c.delta, got, b.CacheLen("base"))
		}
	}
}
