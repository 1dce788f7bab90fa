package analysis

import (
	"math"
	"sort"
)

// reservoirSize bounds every distribution summary: median and p95 of a
// uniform sample of this many values are within about ±2 percentile points
// of the exact ones, which is all a skew table needs.
const reservoirSize = 512

// reservoir is a bounded uniform sample (Vitter's algorithm R) with exact
// count, min and max. Its random source is a fixed-seed xorshift so that
// reports (and golden files) are reproducible.
type reservoir struct {
	n        int
	min, max float64
	s        []float64
	rng      uint64
	// approxMedian cache: value and the n it was computed at.
	med     float64
	medAtN  int
	scratch []float64 // approxMedian's sort buffer, kept between calls
}

// approxMedian is the median, recomputed only every 256 additions once
// the sample is large: thresholds derived from it (jump, stall) are asked
// for on every message.
func (r *reservoir) approxMedian() float64 {
	if r.medAtN == 0 || r.n < 64 || r.n-r.medAtN >= 256 {
		if r.n != r.medAtN {
			r.scratch = append(r.scratch[:0], r.s...)
			r.med, r.medAtN = nearestRank(r.scratch, 0.5), r.n
		}
	}
	return r.med
}

func (r *reservoir) add(v float64) {
	if r.n == 0 {
		r.min, r.max = v, v
		r.rng = 0x9e3779b97f4a7c15
	}
	// Plain compares; math.Min and Max only where they differ from them
	// (NaN, and the sign of zero).
	if v < r.min {
		r.min = v
	} else if v != v || v == 0 {
		r.min = math.Min(r.min, v)
	}
	if v > r.max {
		r.max = v
	} else if v != v || v == 0 {
		r.max = math.Max(r.max, v)
	}
	r.n++
	if len(r.s) < reservoirSize {
		r.s = append(r.s, v)
		return
	}
	r.rng ^= r.rng << 13
	r.rng ^= r.rng >> 7
	r.rng ^= r.rng << 17
	if j := r.rng % uint64(r.n); j < reservoirSize {
		r.s[j] = v
	}
}

// quantiles returns the sample's values at the given fractions (0..1),
// nearest rank.
func (r *reservoir) quantiles(qs ...float64) []float64 {
	out := make([]float64, len(qs))
	if len(r.s) == 0 {
		return out
	}
	s := append([]float64(nil), r.s...)
	sort.Float64s(s)
	for i, q := range qs {
		out[i] = rankOf(s, q)
	}
	return out
}

// nearestRank sorts s in place and returns its value at fraction q, as
// quantiles does for one q (s must not be empty).
func nearestRank(s []float64, q float64) float64 {
	sort.Float64s(s)
	return rankOf(s, q)
}

func rankOf(s []float64, q float64) float64 {
	k := int(math.Ceil(q*float64(len(s)))) - 1
	k = max(0, min(len(s)-1, k))
	return s[k]
}

func (r *reservoir) median() float64 { return r.quantiles(0.5)[0] }

// maxBuckets bounds a downsampled series: each bucket keeps its minimum and
// maximum point, so a series has at most 2·maxBuckets points.
const maxBuckets = 1000

// downsampler buckets points by x (record time) and keeps the lowest and
// highest y of each bucket, so spikes and jumps survive downsampling. When
// there are too many buckets their width doubles and neighbours merge.
type downsampler struct {
	width   float64
	buckets []mmBucket
}

type mmBucket struct {
	idx    int64
	lo, hi Point
}

func newDownsampler(spanS float64) *downsampler {
	w := spanS / maxBuckets
	if !(w > 0) {
		w = 1e-3
	}
	return &downsampler{width: w}
}

// reserve makes room for the buckets of n points (at most maxBuckets+1,
// the most a series holds before it merges), so that a long series is
// allocated once instead of grown by doubling: on the benchmark VM the
// copies and the fresh pages they touch were a tenth of the replay.
func (d *downsampler) reserve(n uint64) {
	n = min(n, maxBuckets+1)
	if uint64(cap(d.buckets)) < n {
		d.buckets = append(make([]mmBucket, 0, n), d.buckets...)
	}
}

func (d *downsampler) add(x, y float64) {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return
	}
	d.addPoint(Point{X: x, Y: y})
}

func (d *downsampler) addPoint(p Point) {
	x, y := p.X, p.Y
	idx := int64(math.Floor(x / d.width))
	if n := len(d.buckets); n > 0 && idx <= d.buckets[n-1].idx {
		// Record order is close to time order; a late point joins the
		// newest bucket rather than reopening an old one.
		b := &d.buckets[n-1]
		if y < b.lo.Y {
			b.lo = p
		}
		if y > b.hi.Y {
			b.hi = p
		}
		return
	}
	d.buckets = append(d.buckets, mmBucket{idx: idx, lo: p, hi: p})
	for len(d.buckets) > maxBuckets {
		d.merge()
	}
}

// addScan is add for a diff point that names its scan.
func (d *downsampler) addScan(x, y float64, index uint64, stampNS int64) {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return
	}
	d.addPoint(Point{X: x, Y: y, Index: index, StampNS: stampNS})
}

// decide records the filter outcome of the scan with this index at x on
// the kept point, if downsampling kept it. The filter decides a scan
// after it was added, so only buckets from x's onwards are searched.
func (d *downsampler) decide(x float64, index uint64, outcome, logLine string) {
	idx := int64(math.Floor(x / d.width))
	for i := len(d.buckets) - 1; i >= 0 && d.buckets[i].idx >= idx; i-- {
		b := &d.buckets[i]
		for _, p := range []*Point{&b.lo, &b.hi} {
			if p.Index == index && p.X == x {
				p.Outcome, p.LogLine = outcome, logLine
			}
		}
	}
}

func (d *downsampler) merge() {
	d.width *= 2
	out := d.buckets[:0]
	for _, b := range d.buckets {
		b.idx = floorDiv2(b.idx)
		if n := len(out); n > 0 && out[n-1].idx == b.idx {
			o := &out[n-1]
			if b.lo.Y < o.lo.Y {
				o.lo = b.lo
			}
			if b.hi.Y > o.hi.Y {
				o.hi = b.hi
			}
			continue
		}
		out = append(out, b)
	}
	d.buckets = out
}

func floorDiv2(v int64) int64 {
	if v < 0 {
		return (v - 1) / 2
	}
	return v / 2
}

func (d *downsampler) points() []Point {
	out := make([]Point, 0, 2*len(d.buckets))
	for _, b := range d.buckets {
		switch {
		case b.lo == b.hi:
			out = append(out, b.lo)
		case b.lo.X <= b.hi.X:
			out = append(out, b.lo, b.hi)
		default:
			out = append(out, b.hi, b.lo)
		}
	}
	return out
}

// maxOutcomeBuckets bounds the outcome series: at most this many time
// buckets, each with one point per outcome seen in it.
const maxOutcomeBuckets = 250

// outcomeSeries counts filter outcomes per record-time bucket.
type outcomeSeries struct {
	width   float64
	buckets []outcomeBucket
}

type outcomeBucket struct {
	idx    int64
	counts map[string]int
}

func newOutcomeSeries(spanS float64) *outcomeSeries {
	w := spanS / maxOutcomeBuckets
	if !(w > 0) {
		w = 1e-3
	}
	return &outcomeSeries{width: w}
}

func (o *outcomeSeries) add(x float64, outcome string) {
	idx := int64(math.Floor(x / o.width))
	if n := len(o.buckets); n > 0 && idx <= o.buckets[n-1].idx {
		o.buckets[n-1].counts[outcome]++
		return
	}
	o.buckets = append(o.buckets, outcomeBucket{idx: idx, counts: map[string]int{outcome: 1}})
	for len(o.buckets) > maxOutcomeBuckets {
		o.width *= 2
		out := o.buckets[:0]
		for _, b := range o.buckets {
			b.idx = floorDiv2(b.idx)
			if n := len(out); n > 0 && out[n-1].idx == b.idx {
				for k, v := range b.counts {
					out[n-1].counts[k] += v
				}
				continue
			}
			out = append(out, b)
		}
		o.buckets = out
	}
}

func (o *outcomeSeries) points() []OutcomePoint {
	var out []OutcomePoint
	for _, b := range o.buckets {
		keys := make([]string, 0, len(b.counts))
		for k := range b.counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			// X is the bucket's start, in seconds since the bag start.
			out = append(out, OutcomePoint{X: float64(b.idx) * o.width, Outcome: k, Count: b.counts[k]})
		}
	}
	return out
}

// tally counts string keys without a map write per increment: the few
// distinct keys (classes, filter outcomes) sit in a slice.
type tally struct {
	keys []string
	n    []int
}

func (t *tally) inc(k string) {
	for i, have := range t.keys {
		if have == k {
			t.n[i]++
			return
		}
	}
	t.keys = append(t.keys, k)
	t.n = append(t.n, 1)
}

// addTo adds the counts to m.
func (t *tally) addTo(m map[string]int) {
	for i, k := range t.keys {
		m[k] += t.n[i]
	}
}

// Sample is a reservoir for medians over the report's tables outside this
// package (the verdict's): the same sampling and nearest rank as the
// report's own medians, so both agree.
type Sample struct{ r reservoir }

// Add adds v to the sample.
func (s *Sample) Add(v float64) { s.r.add(v) }

// Len is how many values were added.
func (s *Sample) Len() int { return s.r.n }

// Median is the sample's median (nearest rank); 0 when empty.
func (s *Sample) Median() float64 { return s.r.median() }
