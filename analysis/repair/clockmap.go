package repair

import (
	"math"
	"sort"
)

// Clock fit parameters.
const (
	// clockToleranceNS bounds how far the piecewise-linear map may pass
	// from any recorded /clock sample: about the jitter of /clock's
	// delivery to the recorder, well under a 10 ms tick.
	clockToleranceNS = 2_000_000
	// maxPieceSamples closes a piece after this many samples, so fitting
	// holds a bounded number of samples whatever the bag length.
	maxPieceSamples = 4096
	// jumpForwardMinNS: /clock moving ahead of record time by more than
	// this (and 20× the record-time step) is a jump, not a fast simulator.
	jumpForwardMinNS = 1_000_000_000
	// maxExtrapolateNS is how far outside a segment's /clock samples a
	// stamp may be mapped by extending its nearest piece.
	maxExtrapolateNS = 1_000_000_000
)

// Knot is one vertex of a piecewise-linear map from record time (system
// time of the recorder) to /clock (sim time).
type Knot struct {
	RecordNS int64 `json:"record_ns"`
	ClockNS  int64 `json:"clock_ns"`
}

// Segment is the /clock between two jumps: a polyline of knots, and how
// closely it follows the recorded samples.
type Segment struct {
	// FirstRecordNS and LastRecordNS are the record times of the
	// segment's first and last /clock message.
	FirstRecordNS int64  `json:"first_record_ns"`
	LastRecordNS  int64  `json:"last_record_ns"`
	Samples       int    `json:"samples"`
	Knots         []Knot `json:"knots"`
	// RealTimeFactor is sim seconds per record second over the segment.
	RealTimeFactor float64 `json:"real_time_factor"`
	// ResidualRMSNS and ResidualMaxNS: the recorded /clock values minus
	// the map, over the segment's samples.
	ResidualRMSNS int64 `json:"residual_rms_ns"`
	ResidualMaxNS int64 `json:"residual_max_ns"`
	// StartsWith says why the segment starts: "first" (the first
	// /clock), "backward_jump" or "forward_jump".
	StartsWith string `json:"starts_with"`
}

// ClockMap is /clock against record time, one Segment per stretch between
// /clock jumps (a looping bag, a simulator reset).
type ClockMap struct {
	Segments []Segment `json:"segments"`
	// IgnoredSamples counts /clock messages recorded out of record-time
	// order (the recorder reorders by a few ms), left out of the fit.
	IgnoredSamples int `json:"ignored_samples"`
}

// segmentAt returns the segment in force at record time rec: the last
// one that started at or before it, or -1 before the first /clock.
func (m *ClockMap) segmentAt(rec int64) int {
	i := sort.Search(len(m.Segments), func(i int) bool { return m.Segments[i].FirstRecordNS > rec })
	return i - 1
}

// ToSim maps a system time t to sim time through the segment in force at
// record time rec. ok is false before the first /clock, or when t lies
// more than maxExtrapolateNS outside the segment's samples.
func (m *ClockMap) ToSim(t, rec int64) (int64, bool) {
	i := m.segmentAt(rec)
	if i < 0 {
		return 0, false
	}
	return m.Segments[i].eval(t)
}

// SimAt is the sim time at record time rec (ToSim(rec, rec)).
func (m *ClockMap) SimAt(rec int64) (int64, bool) { return m.ToSim(rec, rec) }

// ToSystem maps a sim time v back to system time through the segment in
// force at record time rec: the inverse of ToSim. ok is false before the
// first /clock, on a piece where /clock stood still (any system time in it
// gives v), or when the result lies more than maxExtrapolateNS outside the
// segment's samples.
func (m *ClockMap) ToSystem(v, rec int64) (int64, bool) {
	i := m.segmentAt(rec)
	if i < 0 {
		return 0, false
	}
	return m.Segments[i].invert(v)
}

func (s *Segment) invert(v int64) (int64, bool) {
	k := s.Knots
	if len(k) == 0 {
		return 0, false
	}
	var t int64
	if len(k) == 1 {
		t = k[0].RecordNS + (v - k[0].ClockNS)
	} else {
		// Within a segment /clock never goes back: knots are in clock order.
		j := sort.Search(len(k), func(i int) bool { return k[i].ClockNS > v })
		j = min(max(j, 1), len(k)-1)
		a, b := k[j-1], k[j]
		if b.ClockNS == a.ClockNS {
			return 0, false
		}
		slope := float64(b.RecordNS-a.RecordNS) / float64(b.ClockNS-a.ClockNS)
		t = a.RecordNS + int64(math.Round(slope*float64(v-a.ClockNS)))
	}
	if t < s.FirstRecordNS-maxExtrapolateNS || t > s.LastRecordNS+maxExtrapolateNS {
		return 0, false
	}
	return t, true
}

func (s *Segment) eval(t int64) (int64, bool) {
	k := s.Knots
	if len(k) == 0 || t < s.FirstRecordNS-maxExtrapolateNS || t > s.LastRecordNS+maxExtrapolateNS {
		return 0, false
	}
	if len(k) == 1 {
		// One sample: the sim clock runs at the real-time factor 1 from it.
		return k[0].ClockNS + (t - k[0].RecordNS), true
	}
	j := sort.Search(len(k), func(i int) bool { return k[i].RecordNS > t })
	// Use the piece [j-1, j], clamped to the first and last piece.
	j = min(max(j, 1), len(k)-1)
	a, b := k[j-1], k[j]
	slope := float64(b.ClockNS-a.ClockNS) / float64(b.RecordNS-a.RecordNS)
	return a.ClockNS + int64(math.Round(slope*float64(t-a.RecordNS))), true
}

// clockFitter builds a ClockMap from /clock samples in record order: a
// swing filter (every sample within clockToleranceNS of the polyline),
// split at jumps.
type clockFitter struct {
	m       ClockMap
	cur     *Segment
	anchor  Knot
	lo, hi  float64 // feasible slopes from the anchor
	piece   []Knot  // samples since the anchor
	last    Knot
	started bool
	sumSq   float64 // of residuals, per segment
	maxRes  int64
}

func (f *clockFitter) add(rec, clk int64) {
	if !f.started {
		f.startSegment(rec, clk, "first")
		return
	}
	if rec <= f.last.RecordNS {
		if clk < f.last.ClockNS {
			f.closeSegment()
			f.startSegment(rec, clk, "backward_jump")
			return
		}
		f.m.IgnoredSamples++
		return
	}
	dx, dy := rec-f.last.RecordNS, clk-f.last.ClockNS
	switch {
	case dy < 0:
		f.closeSegment()
		f.startSegment(rec, clk, "backward_jump")
		return
	case dy > jumpForwardMinNS && dy > 20*dx:
		f.closeSegment()
		f.startSegment(rec, clk, "forward_jump")
		return
	}
	f.cur.Samples++
	f.cur.LastRecordNS = rec
	f.last = Knot{rec, clk}
	if len(f.piece) >= maxPieceSamples {
		f.closePiece()
	}
	f.extend(Knot{rec, clk})
}

// extend narrows the slope cone by one sample, closing the piece at the
// previous sample when the sample falls outside it.
func (f *clockFitter) extend(p Knot) {
	dx := float64(p.RecordNS - f.anchor.RecordNS)
	lo := (float64(p.ClockNS-f.anchor.ClockNS) - clockToleranceNS) / dx
	hi := (float64(p.ClockNS-f.anchor.ClockNS) + clockToleranceNS) / dx
	nlo, nhi := math.Max(f.lo, lo), math.Min(f.hi, hi)
	if nlo > nhi && len(f.piece) > 0 {
		f.closePiece()
		f.extend(p)
		return
	}
	f.lo, f.hi = nlo, nhi
	f.piece = append(f.piece, p)
}

// closePiece ends the piece at its last sample with the middle slope of
// the cone, adds the knot and starts the next piece there.
func (f *clockFitter) closePiece() {
	if len(f.piece) == 0 {
		return
	}
	slope := (f.lo + f.hi) / 2
	if math.IsInf(slope, 0) || math.IsNaN(slope) {
		slope = 1
	}
	for _, p := range f.piece {
		r := p.ClockNS - (f.anchor.ClockNS + int64(math.Round(slope*float64(p.RecordNS-f.anchor.RecordNS))))
		f.sumSq += float64(r) * float64(r)
		if r < 0 {
			r = -r
		}
		f.maxRes = max(f.maxRes, r)
	}
	end := f.piece[len(f.piece)-1]
	k := Knot{end.RecordNS, f.anchor.ClockNS + int64(math.Round(slope*float64(end.RecordNS-f.anchor.RecordNS)))}
	f.cur.Knots = append(f.cur.Knots, k)
	f.anchor, f.piece = k, f.piece[:0]
	f.lo, f.hi = math.Inf(-1), math.Inf(1)
}

func (f *clockFitter) startSegment(rec, clk int64, why string) {
	f.m.Segments = append(f.m.Segments, Segment{FirstRecordNS: rec, LastRecordNS: rec, Samples: 1, StartsWith: why})
	f.cur = &f.m.Segments[len(f.m.Segments)-1]
	f.anchor = Knot{rec, clk}
	f.cur.Knots = []Knot{f.anchor}
	f.last, f.started = f.anchor, true
	f.lo, f.hi = math.Inf(-1), math.Inf(1)
	f.piece, f.sumSq, f.maxRes = f.piece[:0], 0, 0
}

func (f *clockFitter) closeSegment() {
	f.closePiece()
	s := f.cur
	if s.Samples > 0 {
		s.ResidualRMSNS = int64(math.Round(math.Sqrt(f.sumSq / float64(s.Samples))))
	}
	s.ResidualMaxNS = f.maxRes
	k := s.Knots
	if dx := k[len(k)-1].RecordNS - k[0].RecordNS; dx > 0 {
		s.RealTimeFactor = float64(k[len(k)-1].ClockNS-k[0].ClockNS) / float64(dx)
	}
}

// finish closes the last segment and returns the map.
func (f *clockFitter) finish() ClockMap {
	if f.started {
		f.closeSegment()
	}
	return f.m
}
