package analysis

import (
	"reflect"
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// Boundary tests of the skew classification (issue 15): each threshold at
// its value and just on each side.

// TestSkewKindBoundary pins skewKind's three thresholds: an epoch of
// median, 1 s of median with a spread under max(0.1 s, a tenth of it),
// and 0.1 s of p95 above the median.
func TestSkewKindBoundary(t *testing.T) {
	const epochS = float64(EpochThresholdNS) / 1e9
	for _, tc := range []struct {
		name              string
		median, p95, minV float64
		want              string
	}{
		{"an epoch ahead", epochS, epochS, epochS, SkewDifferentClock},
		{"an epoch behind", -epochS, -epochS, -epochS, SkewDifferentClock},
		{"just under an epoch", epochS - 1, epochS - 1, epochS - 1, SkewConstantOffset},
		{"1 s exactly, no spread", 1, 1, 1, SkewConstantOffset},
		{"-1 s exactly, no spread", -1, -1, -1, SkewConstantOffset},
		{"under 1 s, no spread", 0.9375, 0.9375, 0.9375, SkewOK},
		// At 10 s the spread allowed is a tenth of the median, 1 s.
		{"10 s, spread under a tenth", 10, 10.5, 9.625, SkewConstantOffset},
		{"10 s, spread of a tenth", 10, 10.5, 9.5, SkewJitter},
		// At 1 s the floor of 0.1 s holds: 0.09375 is under it.
		{"1 s, spread under 0.1 s", 1, 1.0625, 0.96875, SkewConstantOffset},
		{"1 s, spread over 0.1 s", 1, 1.0625, 0.9375, SkewOK},
		{"p95 0.1 s above the median", 0, 0.1, 0, SkewOK},
		{"p95 over 0.1 s above the median", 0, 0.125, 0, SkewJitter},
		{"p95 0.05 s above a 0.5 s median", 0.5, 0.55, 0.5, SkewOK},
	} {
		if got := skewKind(tc.median, tc.p95, tc.minV); got != tc.want {
			t.Errorf("%s: skewKind(%g, %g, %g) = %s, want %s", tc.name, tc.median, tc.p95, tc.minV, got, tc.want)
		}
	}
}

// skewBoundsAges is a reservoir of n ages of v seconds.
func skewBoundsAges(n int, v float64) *reservoir {
	r := &reservoir{}
	for range n {
		r.add(v)
	}
	return r
}

// TestMakeSkewSamplesBoundary: an offset is called constant from
// minSkewSamples stamps on; different_clock needs none; a publish median
// is given only when there are publish times.
func TestMakeSkewSamplesBoundary(t *testing.T) {
	const epochS = float64(EpochThresholdNS) / 1e9
	for _, tc := range []struct {
		name     string
		n        int
		age      float64
		pub      int
		wantKind string
		wantPub  float64
	}{
		{"4 stamps 2 s old", MinSkewSamples - 1, 2, 0, SkewOK, 0},
		{"5 stamps 2 s old", MinSkewSamples, 2, 0, SkewConstantOffset, 0},
		{"1 stamp an epoch old", 1, epochS, 0, SkewDifferentClock, 0},
		{"publish times 3 s old", MinSkewSamples, 2, 1, SkewConstantOffset, 3},
	} {
		pub := skewBoundsAges(tc.pub, 3)
		s := makeSkew("/scan", "", skewBoundsAges(tc.n, tc.age), pub)
		if s.Kind != tc.wantKind || s.PublishMedianS != tc.wantPub || s.Count != tc.n || s.MedianS != tc.age {
			t.Errorf("%s: makeSkew = %+v, want kind %s, publish median %g", tc.name, s, tc.wantKind, tc.wantPub)
		}
	}
}

// TestClassifyFamiliesBoundary: the reference family is sim time with
// /clock, else the one most rows share (the recorder's on a tie); a row
// off the reference is different_clock, one on it but off the recorder's
// is sim_time or recorder_sim_time; rows without stamps keep their kind.
func TestClassifyFamiliesBoundary(t *testing.T) {
	const epochS = float64(EpochThresholdNS) / 1e9
	// far: an age of an epoch (stamps on the other family than the
	// recorder's, ahead or behind); near: on the recorder's family.
	far := Skew{Count: 1, MedianS: epochS, Kind: "x"}
	behind := Skew{Count: 1, MedianS: -epochS, Kind: "x"}
	near := Skew{Count: 1, MedianS: 2, Kind: "x"}
	empty := Skew{Count: 0, MedianS: epochS, Kind: "x"}
	for _, tc := range []struct {
		name     string
		rows     []Skew
		recorder int
		hasClock bool
		want     []string
	}{
		// Recorder on system time (family 1): a large age is sim-time stamps.
		{"system recorder, clock", []Skew{far, near}, 1, true, []string{SkewSimTime, SkewDifferentClock}},
		{"system recorder, no clock, tie", []Skew{far, near}, 1, false, []string{SkewDifferentClock, "x"}},
		{"system recorder, no clock, two sim rows", []Skew{far, far, near}, 1, false, []string{SkewSimTime, SkewSimTime, SkewDifferentClock}},
		{"system recorder, no clock, two system rows", []Skew{far, near, near}, 1, false, []string{SkewDifferentClock, "x", "x"}},
		// Recorder on sim time (family 0): a large age is system-time stamps.
		{"sim recorder, clock", []Skew{far, near}, 0, true, []string{SkewDifferentClock, "x"}},
		{"sim recorder, no clock, two system rows", []Skew{behind, far, near}, 0, false, []string{SkewRecorderSimTime, SkewRecorderSimTime, SkewDifferentClock}},
		{"rows without stamps neither count nor change", []Skew{empty, empty, near}, 1, false, []string{"x", "x", "x"}},
	} {
		rows := append([]Skew(nil), tc.rows...)
		classifyFamilies(rows, tc.recorder, tc.hasClock)
		for i, w := range tc.want {
			if rows[i].Kind != w {
				t.Errorf("%s: row %d kind %s, want %s", tc.name, i, rows[i].Kind, w)
			}
		}
	}
}

// TestSkewCheckRows: one row per analysed topic with messages (ages in
// seconds, record and publish time), then one per dynamic tf link.
func TestSkewCheckRows(t *testing.T) {
	a := &analyzer{tf: newTFReplay(10_000_000_000), startNS: 5_000_000_000}
	a.topics.list = []*topicState{
		{name: "/scan", role: roleStamped, id: 0, count: 5},
		{name: "/empty", role: roleStamped, id: 3, count: 0},
		{name: "/late", role: roleStamped, id: 1, count: 1}, // past the check's ages
		{name: "/tf", role: roleTF, id: 2, count: 5},
	}
	a.tf.linkList = []*linkStats{
		{key: linkKey{topic: "/tf", parent: "odom", child: "base"}, age: *skewBoundsAges(5, 0.25)},
		{key: linkKey{topic: "/tf_static", parent: "base", child: "laser"}, static: true, age: *skewBoundsAges(5, 0)},
	}
	c := &skewCheck{}
	scan := a.topics.list[0]
	for i := range 5 {
		m := &bagread.Message{LogTimeNS: int64(10+i) * 1_000_000_000, HasPublishTime: i == 0, PublishTimeNS: 9_500_000_000}
		c.onStamped(a, &stampedMsg{m: m, topic: scan, stamp: int64(8+i) * 1_000_000_000})
	}
	c.finish(a)
	want := []Skew{
		{Topic: "/scan", Count: 5, MedianS: 2, P95S: 2, MaxS: 2, MinS: 2, PublishMedianS: 1.5, Kind: SkewConstantOffset},
		{Topic: "/tf", Link: "odom->base", Count: 5, MedianS: 0.25, P95S: 0.25, MaxS: 0.25, MinS: 0.25, Kind: SkewOK},
	}
	if !reflect.DeepEqual(a.rep.Skew, want) {
		t.Errorf("skew rows %+v, want %+v", a.rep.Skew, want)
	}
}
