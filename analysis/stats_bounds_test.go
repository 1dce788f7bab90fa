package analysis

import (
	"math"
	"reflect"
	"testing"
)

// Boundary tests of stats.go's bounded summaries (issue 15): the
// reservoir's sample size and median cache, nearest rank, and the
// downsampled series' bucket limits, each pinned at and beside its value.

// TestRankOfBoundary: nearest rank is the ceil(q·n)-th value, clamped to
// the sample.
func TestRankOfBoundary(t *testing.T) {
	s := []float64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}
	for _, tc := range []struct {
		q, want float64
	}{
		{0, 10},
		{0.05, 10},
		{0.1, 10},
		{0.11, 20},
		{0.5, 50},
		{0.51, 60},
		{0.95, 100},
		{1, 100},
		{1.5, 100},
	} {
		if got := rankOf(s, tc.q); got != tc.want {
			t.Errorf("rankOf(q=%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if got := nearestRank([]float64{3, 1, 2}, 0.5); got != 2 {
		t.Errorf("nearestRank of 3,1,2 = %v, want 2", got)
	}
	r := &reservoir{}
	if got := r.quantiles(0.5, 0.95); !reflect.DeepEqual(got, []float64{0, 0}) {
		t.Errorf("empty quantiles = %v, want zeros", got)
	}
	for _, v := range []float64{5, 1, 4, 2, 3} {
		r.add(v)
	}
	if got := r.quantiles(0, 0.5, 1); !reflect.DeepEqual(got, []float64{1, 3, 5}) {
		t.Errorf("quantiles(0, 0.5, 1) of 1..5 = %v, want [1 3 5]", got)
	}
	if got := r.median(); got != 3 {
		t.Errorf("median of 1..5 = %v, want 3", got)
	}
}

// TestReservoirMinMax: min and max are exact, NaN is kept, and a signed
// zero counts as math.Min and math.Max order it.
func TestReservoirMinMax(t *testing.T) {
	for _, tc := range []struct {
		name     string
		vs       []float64
		min, max float64
		minNeg   bool // math.Signbit(min): tells -0 from +0
		maxNeg   bool
	}{
		{"plain", []float64{3, -2, 7, 7, -2}, -2, 7, true, false},
		{"equal values", []float64{4, 4}, 4, 4, false, false},
		{"-0 then +0", []float64{math.Copysign(0, -1), 0}, 0, 0, true, false},
		{"+0 then -0", []float64{0, math.Copysign(0, -1)}, 0, 0, true, false},
		{"NaN", []float64{1, math.NaN(), 2}, math.NaN(), math.NaN(), false, false},
	} {
		r := &reservoir{}
		for _, v := range tc.vs {
			r.add(v)
		}
		if r.n != len(tc.vs) {
			t.Errorf("%s: n = %d, want %d", tc.name, r.n, len(tc.vs))
		}
		if math.IsNaN(tc.min) {
			if !math.IsNaN(r.min) || !math.IsNaN(r.max) {
				t.Errorf("%s: min, max = %v, %v; want NaN, NaN", tc.name, r.min, r.max)
			}
			continue
		}
		if r.min != tc.min || r.max != tc.max || math.Signbit(r.min) != tc.minNeg || math.Signbit(r.max) != tc.maxNeg {
			t.Errorf("%s: min, max = %v (neg %v), %v (neg %v); want %v (neg %v), %v (neg %v)", tc.name,
				r.min, math.Signbit(r.min), r.max, math.Signbit(r.max), tc.min, tc.minNeg, tc.max, tc.maxNeg)
		}
	}
}

// TestReservoirSampleBoundary: the sample holds reservoirSize values and
// then replaces them uniformly: its median tracks the whole stream's.
func TestReservoirSampleBoundary(t *testing.T) {
	r := &reservoir{}
	for i := 1; i <= reservoirSize; i++ {
		r.add(float64(i))
	}
	if len(r.s) != reservoirSize {
		t.Fatalf("sample of %d values holds %d", reservoirSize, len(r.s))
	}
	r.add(reservoirSize + 1)
	if len(r.s) != reservoirSize || r.n != reservoirSize+1 {
		t.Fatalf("sample after %d values holds %d (n %d), want %d", reservoirSize+1, len(r.s), r.n, reservoirSize)
	}
	for i := reservoirSize + 2; i <= 20000; i++ {
		r.add(float64(i))
	}
	if r.min != 1 || r.max != 20000 {
		t.Errorf("min, max = %v, %v; want 1, 20000", r.min, r.max)
	}
	// A uniform sample of 512 has its median within a few percent of
	// the stream's (10000); the first 512 values alone would give 256.
	if m := r.median(); m < 9000 || m > 11000 {
		t.Errorf("median of a sample of 1..20000 = %v, want about 10000", m)
	}
}

// TestApproxMedianCache: the median is exact below 64 values, then
// recomputed only once 256 values were added since it last was.
func TestApproxMedianCache(t *testing.T) {
	r := &reservoir{}
	// 63 values 100..162, each followed by a query: exact every time.
	for i := range 63 {
		r.add(float64(100 + i))
		if got, want := r.approxMedian(), r.median(); got != want {
			t.Fatalf("n=%d: approxMedian = %v, exact %v", r.n, got, want)
		}
	}
	cached := r.approxMedian() // 131, computed at n=63
	if cached != 131 {
		t.Fatalf("median of 100..162 = %v, want 131", cached)
	}
	// Values below the median move it down, but from n=64 on the cache
	// holds until n = 63+256.
	for r.n < 63+255 {
		r.add(0)
		if got := r.approxMedian(); got != cached {
			t.Fatalf("n=%d: approxMedian = %v, want the cached %v", r.n, got, cached)
		}
	}
	r.add(0) // n = 319: 256 values since the cache
	if got := r.approxMedian(); got != 0 {
		t.Errorf("n=%d: approxMedian = %v, want the recomputed 0", r.n, got)
	}
	// Asked again without an addition, the value stays.
	if got := r.approxMedian(); got != 0 {
		t.Errorf("second call: approxMedian = %v, want 0", got)
	}
}

// TestFloorDiv2 rounds toward minus infinity.
func TestFloorDiv2(t *testing.T) {
	for _, tc := range []struct{ v, want int64 }{
		{-4, -2}, {-3, -2}, {-2, -1}, {-1, -1}, {0, 0}, {1, 0}, {2, 1}, {3, 1},
	} {
		if got := floorDiv2(tc.v); got != tc.want {
			t.Errorf("floorDiv2(%d) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// TestDownsamplerWidth: a thousandth of the span, 1 ms for an empty or
// unknown span.
func TestDownsamplerWidth(t *testing.T) {
	for _, tc := range []struct{ span, want float64 }{
		{10, 0.01}, {2000, 2}, {0, 1e-3}, {-5, 1e-3}, {math.NaN(), 1e-3},
	} {
		if got := newDownsampler(tc.span).width; got != tc.want {
			t.Errorf("newDownsampler(%v).width = %v, want %v", tc.span, got, tc.want)
		}
	}
	for _, tc := range []struct{ span, want float64 }{
		{10, 0.04}, {0, 1e-3}, {-5, 1e-3},
	} {
		if got := newOutcomeSeries(tc.span).width; got != tc.want {
			t.Errorf("newOutcomeSeries(%v).width = %v, want %v", tc.span, got, tc.want)
		}
	}
}

// TestDownsamplerBucket: points of one bucket keep the first lowest and
// the first highest; a point of an older bucket joins the newest; NaN and
// infinities are left out; lo and hi come out in x order.
func TestDownsamplerBucket(t *testing.T) {
	d := &downsampler{width: 1}
	d.add(0.1, 5)
	d.add(0.2, 5) // equal: the first stays lo and hi
	d.add(0.3, 2) // new lo
	d.add(0.4, 2) // equal lo: the first stays
	d.add(0.5, 9) // new hi
	d.add(0.6, 9) // equal hi: the first stays
	d.add(0.7, math.NaN())
	d.add(0.8, math.Inf(1))
	d.add(0.9, math.Inf(-1))
	want := []Point{{X: 0.3, Y: 2}, {X: 0.5, Y: 9}}
	if got := d.points(); !reflect.DeepEqual(got, want) {
		t.Errorf("one bucket: points %v, want %v", got, want)
	}
	// hi before lo in x: points come out hi first.
	d = &downsampler{width: 1}
	d.add(2.1, 1)
	d.add(2.2, 8)
	d.add(1.5, 9) // older bucket: joins bucket 2 as its hi
	want = []Point{{X: 1.5, Y: 9}, {X: 2.1, Y: 1}}
	if got := d.points(); !reflect.DeepEqual(got, want) {
		t.Errorf("late point: points %v, want %v", got, want)
	}
	// lo and hi at the same x: lo first.
	d = &downsampler{width: 1}
	d.add(3.5, 4)
	d.add(3.5, 6)
	want = []Point{{X: 3.5, Y: 4}, {X: 3.5, Y: 6}}
	if got := d.points(); !reflect.DeepEqual(got, want) {
		t.Errorf("same x: points %v, want %v", got, want)
	}
	// A single point is listed once.
	d = &downsampler{width: 1}
	d.addScan(0.5, 1, 7, 99)
	want = []Point{{X: 0.5, Y: 1, Index: 7, StampNS: 99}}
	if got := d.points(); !reflect.DeepEqual(got, want) {
		t.Errorf("single: points %v, want %v", got, want)
	}
	d.addScan(0.6, math.NaN(), 8, 100)
	if got := d.points(); !reflect.DeepEqual(got, want) {
		t.Errorf("NaN scan: points %v, want %v", got, want)
	}
}

// TestDownsamplerMergeBoundary: maxBuckets buckets are kept as they are;
// one more doubles the width and merges neighbours, keeping the first
// lowest and first highest point of each pair.
func TestDownsamplerMergeBoundary(t *testing.T) {
	d := &downsampler{width: 1}
	for i := range maxBuckets {
		d.add(float64(i)+0.5, float64(i%3))
	}
	if len(d.buckets) != maxBuckets || d.width != 1 {
		t.Fatalf("%d points in as many buckets: %d buckets of width %v", maxBuckets, len(d.buckets), d.width)
	}
	d.add(maxBuckets+0.5, 0)
	if len(d.buckets) != (maxBuckets+2)/2 || d.width != 2 {
		t.Fatalf("one more: %d buckets of width %v, want %d of 2", len(d.buckets), d.width, (maxBuckets+2)/2)
	}
	// Buckets 0 and 1 (y 0 and 1) merged: lo from 0, hi from 1.
	b := d.buckets[0]
	if b.idx != 0 || b.lo != (Point{X: 0.5, Y: 0}) || b.hi != (Point{X: 1.5, Y: 1}) {
		t.Errorf("first merged bucket %+v", b)
	}
	// Buckets 2 and 3 (y 2 and 0): lo from 3, hi from 2.
	b = d.buckets[1]
	if b.idx != 1 || b.lo != (Point{X: 3.5, Y: 0}) || b.hi != (Point{X: 2.5, Y: 2}) {
		t.Errorf("second merged bucket %+v", b)
	}

	// Equal values in merged buckets: the earlier bucket's points stay.
	d = &downsampler{width: 1}
	d.add(0.5, 1)
	d.add(1.5, 1)
	d.merge()
	if len(d.buckets) != 1 || d.buckets[0].lo.X != 0.5 || d.buckets[0].hi.X != 0.5 {
		t.Errorf("equal merge: %+v, want one bucket with lo and hi at 0.5", d.buckets)
	}
	// Negative x merges toward minus infinity: -1 and -2 pair, 0 and 1.
	d = &downsampler{width: 1}
	for _, x := range []float64{-1.5, -0.5, 0.5} {
		d.add(x, x)
	}
	d.merge()
	var idx []int64
	for _, b := range d.buckets {
		idx = append(idx, b.idx)
	}
	if !reflect.DeepEqual(idx, []int64{-1, 0}) {
		t.Errorf("negative merge: bucket indexes %v, want [-1 0]", idx)
	}
}

// TestDownsamplerDecide: the outcome lands on the kept point with the
// scan's index and x, in the x's bucket or a later one only.
func TestDownsamplerDecide(t *testing.T) {
	d := &downsampler{width: 1}
	d.addScan(0.5, 1, 1, 0)
	d.addScan(1.5, 3, 2, 0)
	d.addScan(1.6, 3, 3, 0) // equal to bucket 1's lo and hi: not kept
	d.addScan(2.5, 5, 4, 0)
	d.addScan(1.4, 9, 5, 0) // late: joins bucket 2 as its hi
	d.decide(0.5, 1, "ok", "")
	d.decide(1.5, 2, "dropped_queue", "line")
	d.decide(1.6, 3, "ok", "")
	d.decide(1.4, 5, "late", "")
	d.decide(2.5, 1, "wrong", "") // index 1 is not at x 2.5
	got := map[uint64]string{}
	for _, p := range d.points() {
		got[p.Index] = p.Outcome + "|" + p.LogLine
	}
	want := map[uint64]string{1: "ok|", 2: "dropped_queue|line", 4: "|", 5: "late|"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("outcomes %v, want %v", got, want)
	}
	// The bucket of x is searched, not only later ones.
	d = &downsampler{width: 1}
	d.addScan(0.5, 1, 1, 0)
	d.addScan(1.5, 1, 2, 0)
	d.decide(0.5, 1, "first", "")
	if p := d.points()[0]; p.Outcome != "first" {
		t.Errorf("first bucket: outcome %q, want first", p.Outcome)
	}
	// Buckets 2 wide: x 3 is in bucket 1, searched from bucket 2 back.
	d = &downsampler{width: 2}
	for i, x := range []float64{1, 3, 5} {
		d.addScan(x, 1, uint64(i), 0)
	}
	d.decide(3, 1, "mid", "")
	if p := d.points()[1]; p.Outcome != "mid" {
		t.Errorf("width 2: outcome %q, want mid", p.Outcome)
	}
}

// TestOutcomeSeriesBoundary: maxOutcomeBuckets buckets are kept; one more
// doubles the width and sums neighbours' counts; points are at each
// bucket's start, outcomes sorted.
func TestOutcomeSeriesBoundary(t *testing.T) {
	o := &outcomeSeries{width: 2}
	o.add(0.5, "ok")
	o.add(0.7, "dropped_queue")
	o.add(1.9, "ok")
	o.add(0.2, "ok") // late: joins the newest bucket
	o.add(3.5, "ok")
	o.add(1.5, "ok") // late: joins bucket 1
	want := []OutcomePoint{{X: 0, Outcome: "dropped_queue", Count: 1}, {X: 0, Outcome: "ok", Count: 3}, {X: 2, Outcome: "ok", Count: 2}}
	if got := o.points(); !reflect.DeepEqual(got, want) {
		t.Errorf("points %v, want %v", got, want)
	}

	o = &outcomeSeries{width: 1}
	for i := range maxOutcomeBuckets {
		o.add(float64(i)+0.5, "ok")
	}
	if len(o.buckets) != maxOutcomeBuckets || o.width != 1 {
		t.Fatalf("%d buckets: have %d of width %v", maxOutcomeBuckets, len(o.buckets), o.width)
	}
	o.add(maxOutcomeBuckets+0.5, "late")
	if len(o.buckets) != (maxOutcomeBuckets+2)/2 || o.width != 2 {
		t.Fatalf("one more: %d buckets of width %v, want %d of 2", len(o.buckets), o.width, (maxOutcomeBuckets+2)/2)
	}
	pts := o.points()
	if pts[0] != (OutcomePoint{X: 0, Outcome: "ok", Count: 2}) || pts[1] != (OutcomePoint{X: 2, Outcome: "ok", Count: 2}) {
		t.Errorf("merged points start %v", pts[:2])
	}
	last := pts[len(pts)-2:]
	if last[0] != (OutcomePoint{X: 248, Outcome: "ok", Count: 2}) || last[1] != (OutcomePoint{X: 250, Outcome: "late", Count: 1}) {
		t.Errorf("merged points end %v", last)
	}

	// Negative x: buckets pair toward minus infinity.
	o = &outcomeSeries{width: 1}
	for _, x := range []float64{-1.5, -0.5, 0.5} {
		o.add(x, "ok")
	}
	for i := 1; o.width == 1; i++ {
		o.add(float64(i)+0.5, "ok")
	}
	if o.width != 2 || o.buckets[0].idx != -1 || o.buckets[0].counts["ok"] != 2 {
		t.Errorf("negative merge: width %v, first bucket %+v", o.width, o.buckets[0])
	}
}

// TestTally counts keys in first-seen order and adds to a map.
func TestTally(t *testing.T) {
	var tl tally
	for _, k := range []string{"a", "b", "a", "a", "c", "b"} {
		tl.inc(k)
	}
	if !reflect.DeepEqual(tl.keys, []string{"a", "b", "c"}) || !reflect.DeepEqual(tl.n, []int{3, 2, 1}) {
		t.Errorf("tally %v %v", tl.keys, tl.n)
	}
	m := map[string]int{"a": 1, "z": 4}
	tl.addTo(m)
	if want := map[string]int{"a": 4, "b": 2, "c": 1, "z": 4}; !reflect.DeepEqual(m, want) {
		t.Errorf("addTo: %v, want %v", m, want)
	}
}
