package analysis

import "math"

// offsetTrack measures the stamp offset between two synchronizer inputs:
// for each message of the slower topic (fewer messages in the bag), the
// other topic's nearest stamp among its recent ones. A message waits
// (bounded) until the other topic has caught up with its stamp, so a
// partner that arrives later is still found.
type offsetTrack struct {
	from, to int // input indexes; offset = to's stamp − from's
	slow     int // 0: sample on from's messages, 1: on to's
	ring     [2]stampRing
	pend     [offsetPending]int64
	np       int
	all      reservoir
	bins     []reservoir
	binStart int64
	binWidth int64
	samples  int
	equal    int
}

const (
	offsetRing    = 16
	offsetPending = 8
	offsetBins    = 20
)

// stampRing holds a topic's latest stamps.
type stampRing struct {
	s    [offsetRing]int64
	n    int
	next int
	max  int64
}

func (r *stampRing) push(v int64) {
	r.s[r.next] = v
	r.next = (r.next + 1) % offsetRing
	if r.n < offsetRing {
		r.n++
	}
	if r.n == 1 || v > r.max {
		r.max = v
	}
}

// nearest returns the stamp closest to v (false when empty).
func (r *stampRing) nearest(v int64) (int64, bool) {
	best, ok := int64(0), false
	var bd uint64
	for i := 0; i < r.n; i++ {
		d := absDiff(r.s[i], v)
		if !ok || d < bd {
			best, bd, ok = r.s[i], d, true
		}
	}
	return best, ok
}

func absDiff(a, b int64) uint64 {
	if a > b {
		return uint64(a) - uint64(b)
	}
	return uint64(b) - uint64(a)
}

func newOffsetTrack(from, to int, fromCount, toCount uint64, startNS, endNS int64) *offsetTrack {
	o := &offsetTrack{from: from, to: to, slow: 1, bins: make([]reservoir, offsetBins), binStart: startNS}
	if fromCount > 0 && fromCount < toCount {
		o.slow = 0
	}
	o.binWidth = (endNS - startNS + offsetBins) / offsetBins
	if o.binWidth <= 0 {
		o.binWidth = 1
	}
	return o
}

// add takes a message of side (0 from, 1 to); stamps of 0 say nothing of
// an offset and are left out.
func (o *offsetTrack) add(side int, stamp, recvNS int64) {
	if stamp == 0 {
		return
	}
	o.ring[side].push(stamp)
	if side == o.slow {
		if o.np == offsetPending {
			o.eval(o.pend[0], recvNS)
			copy(o.pend[:], o.pend[1:])
			o.np--
		}
		o.pend[o.np] = stamp
		o.np++
	}
	// Pending messages whose stamp the other side has reached.
	other := &o.ring[1-o.slow]
	k := 0
	for _, p := range o.pend[:o.np] {
		if other.n > 0 && other.max >= p {
			o.eval(p, recvNS)
			continue
		}
		o.pend[k] = p
		k++
	}
	o.np = k
}

// flush evaluates what still waits at the end of the bag.
func (o *offsetTrack) flush(recvNS int64) {
	for _, p := range o.pend[:o.np] {
		o.eval(p, recvNS)
	}
	o.np = 0
}

func (o *offsetTrack) eval(p, recvNS int64) {
	q, ok := o.ring[1-o.slow].nearest(p)
	if !ok {
		return
	}
	var d int64
	if o.slow == 1 {
		d = p - q
	} else {
		d = q - p
	}
	o.samples++
	if d == 0 {
		o.equal++
	}
	v := float64(d) / 1e9
	o.all.add(v)
	i := int((recvNS - o.binStart) / o.binWidth)
	i = max(0, min(len(o.bins)-1, i))
	o.bins[i].add(v)
}

// drift is how much the offset moves over the bag (s), from the first to
// the last stretch with samples, and that per second elapsed (ppm). The
// slope is Theil–Sen's (the median of the slopes between every two
// stretches' medians), so one odd stretch (a start-up where messages
// waited for their partner) cannot make a steady offset look like two
// clocks drifting apart.
func (o *offsetTrack) drift() (float64, float64) {
	var xs []int
	var ms []float64
	for i := range o.bins {
		if o.bins[i].n >= 3 {
			xs = append(xs, i)
			ms = append(ms, o.bins[i].median())
		}
	}
	if len(xs) < 2 {
		return 0, 0
	}
	var slopes []float64 // s per stretch
	for a := range xs {
		for b := a + 1; b < len(xs); b++ {
			slopes = append(slopes, (ms[b]-ms[a])/float64(xs[b]-xs[a]))
		}
	}
	slope := nearestRank(slopes, 0.5)
	d := slope * float64(xs[len(xs)-1]-xs[0])
	return d, slope / (float64(o.binWidth) / 1e9) * 1e6
}

// series is the median offset per stretch (x: its centre, s since start).
func (o *offsetTrack) series(startNS int64) []SyncOffsetPoint {
	out := []SyncOffsetPoint{}
	for i := range o.bins {
		b := &o.bins[i]
		if b.n == 0 {
			continue
		}
		x := float64(o.binStart-startNS+int64(i)*o.binWidth+o.binWidth/2) / 1e9
		out = append(out, SyncOffsetPoint{XS: x, MedianS: b.median(), N: b.n})
	}
	return out
}

// quantilesAbs is the q-th quantile of the offsets' magnitude.
func (o *offsetTrack) quantileAbs(q float64) float64 {
	if len(o.all.s) == 0 {
		return 0
	}
	s := make([]float64, len(o.all.s))
	for i, v := range o.all.s {
		s[i] = math.Abs(v)
	}
	return nearestRank(s, q)
}
