package repair

import (
	"math"
	"sort"
)

// envelopeWindows is how many record-time windows the lower envelope of
// record time − stamp is taken over: one minimum per window, so memory is
// constant per topic or link.
const envelopeWindows = 32

// Offset-fit requirements: fewer samples or windows than these cannot
// tell an offset from latency, and the plan refuses.
const (
	minOffsetMessages = 20
	minOffsetWindows  = 3
	// minOffsetNS: a lower envelope closer to zero than this is latency
	// on the recorder's own clock, not another machine's clock.
	minOffsetNS = 20_000_000
)

// envelope keeps, per window of the bag's record-time span, the smallest
// record time − stamp seen and when.
type envelope struct {
	startNS, spanNS int64
	min             [envelopeWindows]int64
	at              [envelopeWindows]int64
	has             [envelopeWindows]bool
	n               int
}

func newEnvelope(startNS, endNS int64) envelope {
	return envelope{startNS: startNS, spanNS: max(endNS-startNS, 1)}
}

func (e *envelope) add(rec, d int64) {
	w := int((rec - e.startNS) * envelopeWindows / e.spanNS)
	w = min(max(w, 0), envelopeWindows-1)
	if !e.has[w] || d < e.min[w] {
		e.min[w], e.at[w], e.has[w] = d, rec, true
	}
	e.n++
}

// OffsetFit is one machine's clock against the recorder's: record time −
// stamp along the lower envelope, a line of offset and drift.
type OffsetFit struct {
	// OffsetNS is the envelope at AtNS (record time); DriftPPM its slope
	// in parts per million: offset(t) = OffsetNS + DriftPPM·1e-6·(t − AtNS).
	OffsetNS int64   `json:"offset_ns"`
	AtNS     int64   `json:"at_record_ns"`
	DriftPPM float64 `json:"drift_ppm"`
	// Messages is the sample the envelope was taken from, Windows the
	// windows with a minimum; ResidualRMSNS and ResidualMaxNS are the
	// window minima's distances from the line.
	Messages      int   `json:"messages"`
	Windows       int   `json:"windows"`
	ResidualRMSNS int64 `json:"residual_rms_ns"`
	ResidualMaxNS int64 `json:"residual_max_ns"`
}

// At is the offset at record time t.
func (o *OffsetFit) At(t int64) int64 {
	return o.OffsetNS + int64(math.Round(o.DriftPPM*1e-6*float64(t-o.AtNS)))
}

// fit returns the least-squares line through the window minima (times
// relative to the middle one, so the sums stay exact in float64).
func (e *envelope) fit() OffsetFit {
	var xs, ys []float64
	var at []int64
	for w := range e.min {
		if e.has[w] {
			at = append(at, e.at[w])
		}
	}
	if len(at) == 0 {
		return OffsetFit{Messages: e.n}
	}
	sort.Slice(at, func(i, j int) bool { return at[i] < at[j] })
	mid := at[len(at)/2]
	var base int64
	first := true
	for w := range e.min {
		if !e.has[w] {
			continue
		}
		if first {
			base, first = e.min[w], false
		}
		xs = append(xs, float64(e.at[w]-mid))
		ys = append(ys, float64(e.min[w]-base))
	}
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx, my = mx/n, my/n
	var sxx, sxy float64
	for i := range xs {
		sxx += (xs[i] - mx) * (xs[i] - mx)
		sxy += (xs[i] - mx) * (ys[i] - my)
	}
	slope := 0.0
	if sxx > 0 && len(xs) >= minOffsetWindows {
		slope = sxy / sxx
	}
	icept := my - slope*mx // at x = 0, that is at mid
	var ss, worst float64
	for i := range xs {
		r := ys[i] - (icept + slope*xs[i])
		ss += r * r
		worst = math.Max(worst, math.Abs(r))
	}
	return OffsetFit{
		OffsetNS: base + int64(math.Round(icept)), AtNS: mid, DriftPPM: slope * 1e6,
		Messages: e.n, Windows: len(xs),
		ResidualRMSNS: int64(math.Round(math.Sqrt(ss / n))), ResidualMaxNS: int64(math.Round(worst)),
	}
}
