package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/bagclock/bagclock/analysis/sync"
)

// Thresholds of the pair relations (SyncOffset.Clock).
const (
	// An offset of a million seconds or more is two clock epochs (sim
	// time, system time, a clock near 0), not two machines.
	epochApartS = 1e6
	// Drift that makes two machines: at least 1 ms over the bag and 10
	// ppm (crystal clocks without NTP drift 10 to 100 ppm; one clock
	// drifts 0 against itself).
	driftMinS   = 1e-3
	driftMinPPM = 10.0
	// A topic whose least record time − stamp is below −2 ms is stamped
	// by a clock ahead of the recorder's: another machine.
	aheadOfRecorderNS = -2_000_000
)

// summary writes up one synchronizer once the bag is read.
func (r *syncRun) summary(a *analyzer) SyncSummary {
	sp := r.spec
	k := len(sp.Topics)
	s := SyncSummary{Topics: append([]string{}, sp.Topics...), Policy: sp.Policy, QueueSize: sp.QueueSize, Source: sp.Source,
		Received: make([]int64, k), InSets: make([]int64, k), Unused: make([]int64, k),
		ZeroStamps: append([]int64{}, r.zero...), Skipped: append([]int64{}, r.skipped...), Offsets: []SyncOffset{}}
	if sp.MaxIntervalS > 0 && sp.Policy == "approximate" {
		v := sp.MaxIntervalS
		s.MaxIntervalS = &v
	}
	if sp.Policy == "approximate" {
		s.LowerBoundsS = make([]float64, k)
		if len(sp.LowerBoundsS) == k {
			copy(s.LowerBoundsS, sp.LowerBoundsS)
		}
		pen := sync.DefaultAgePenalty
		if sp.AgePenalty != nil {
			pen = *sp.AgePenalty
		}
		s.AgePenalty = &pen
	}
	if r.s != nil {
		for i := 0; i < k; i++ {
			s.Received[i] = r.s.Received[i]
			s.InSets[i] = r.s.InSets[i]
			s.Unused[i] = r.s.Received[i] - r.s.InSets[i]
		}
	}
	if r.haveSet {
		s.Sets = int64(r.spread.n)
		first := float64(r.firstSet-a.startNS) / 1e9
		s.FirstSetS = &first
		q := r.spread.quantiles(0.5, 0.95)
		mx := r.spread.max
		s.SpreadMedianS, s.SpreadP95S, s.SpreadMaxS = &q[0], &q[1], &mx
	}
	for _, o := range r.offsets {
		o.flush(r.lastRecv)
		s.Offsets = append(s.Offsets, r.offsetSummary(a, o))
	}
	s.Fires = s.Sets > 0
	s.Reason, s.Sentence = r.sentence(&s)
	return s
}

// offsetSummary is one pair's offset, its drift and its clock relation.
func (r *syncRun) offsetSummary(a *analyzer, o *offsetTrack) SyncOffset {
	from, to := r.spec.Topics[o.from], r.spec.Topics[o.to]
	out := SyncOffset{From: from, To: to, Samples: o.samples, Clock: SyncClockUnknown, Series: o.series(a.startNS)}
	if o.samples == 0 {
		out.ClockBasis = "no pair of non-zero stamps to compare"
		return out
	}
	out.MedianS = o.all.median()
	out.P95AbsS = o.quantileAbs(0.95)
	out.DriftS, out.DriftPPM = o.drift()
	switch {
	case math.Abs(out.MedianS) >= epochApartS:
		out.Clock = SyncClockDifferent
		out.epochs = fmt.Sprintf("%s is on %s, %s on %s", from, r.epochNoun(a, o.from), to, r.epochNoun(a, o.to))
		out.ClockBasis = fmt.Sprintf("stamps %s apart: %s", FmtS(out.MedianS), out.epochs)
	case 10*o.equal >= 9*o.samples:
		out.Clock = SyncClockOneDriver
		out.ClockBasis = fmt.Sprintf("%d of %d stamps identical: one driver stamps both", o.equal, o.samples)
	case math.Abs(out.DriftS) >= driftMinS && math.Abs(out.DriftPPM) >= driftMinPPM:
		out.Clock = SyncClockTwoMachines
		out.ClockBasis = fmt.Sprintf("the offset drifts %s over the bag (%.0f ppm): two clocks that are not disciplined together", FmtS(out.DriftS), out.DriftPPM)
	case r.aheadOfRecorder(o.from) != r.aheadOfRecorder(o.to):
		ahead, other := from, to
		i := o.from
		if r.aheadOfRecorder(o.to) {
			ahead, other, i = to, from, o.to
		}
		out.Clock = SyncClockTwoMachines
		out.ClockBasis = fmt.Sprintf("%s is stamped ahead of the recorder's clock (least record time − stamp %s) and %s is not: two machines' clocks", ahead, FmtS(float64(r.minAge[i])/1e9), other)
	default:
		out.Clock = SyncClockOneClock
		out.ClockBasis = fmt.Sprintf("a steady offset (median %s, drift %s): one clock, stamped at different points", FmtS(out.MedianS), FmtS(out.DriftS))
	}
	if out.Clock != SyncClockDifferent && out.Clock != SyncClockOneDriver {
		out.Cost = r.poseCost(o, &out)
	}
	return out
}

func (r *syncRun) aheadOfRecorder(i int) bool {
	return r.nearRec[i] > 0 && r.minAge[i] < aheadOfRecorderNS
}

// epochNoun names the clock input i's stamps are on.
func (r *syncRun) epochNoun(a *analyzer, i int) string {
	n := int64(0)
	if r.s != nil {
		n = r.s.Received[i] - r.zero[i]
	}
	switch {
	case n == 0 && r.zero[i] > 0:
		return "stamp 0"
	case n > 0 && 2*r.nearRec[i] > n:
		return "system time"
	case n > 0 && 2*r.nearSim[i] > n:
		return "sim time"
	case !a.hasClock:
		return "a clock far from the recorder's"
	}
	return "a clock that is neither /clock nor the recorder's"
}

// poseCost: what a steady offset costs at the robot's speed, from the
// motion sampled in tf (onStamped). Steady: the middle 90% of offsets
// within half the median (or 4 ms) of each other.
func (r *syncRun) poseCost(o *offsetTrack, off *SyncOffset) *SyncPoseCost {
	mo := &r.motion
	med := off.MedianS
	q := o.all.quantiles(0.05, 0.95)
	if o.samples < 10 || math.Abs(med) < 1e-3 || q[1]-q[0] > math.Max(0.5*math.Abs(med), 4e-3) || mo.speed.n == 0 {
		return nil
	}
	speed, rate := mo.speed.median(), mo.rate.median()
	if speed < 0.01 && rate < 0.01 {
		return nil // the robot stood still: an offset costs nothing
	}
	dt := math.Abs(med)
	c := &SyncPoseCost{OffsetS: med, Target: mo.target, Frame: mo.frame, SpeedMS: speed, RateRadS: rate,
		DisplacementM: dt * speed, RotationDeg: dt * rate * 180 / math.Pi,
		MaxDisplacementM: dt * mo.speed.max, MaxRotationDeg: dt * mo.rate.max * 180 / math.Pi, Samples: mo.speed.n}
	side := "after"
	if med < 0 {
		side = "before"
	}
	c.Sentence = fmt.Sprintf("%s is stamped %s %s %s: at %.2f m/s and %.2f rad/s (median, %s in %s) that is %s, %.1f° of pose error (up to %s, %.1f°).",
		off.To, fmtMS(dt), side, off.From, speed, rate, mo.frame, mo.target, fmtM(c.DisplacementM), c.RotationDeg, fmtM(c.MaxDisplacementM), c.MaxRotationDeg)
	return c
}

func fmtMS(s float64) string {
	if s >= 1 {
		return fmt.Sprintf("%.3f s", s)
	}
	return fmt.Sprintf("%.0f ms", s*1000)
}

func fmtM(m float64) string {
	if m >= 1 {
		return fmt.Sprintf("%.2f m", m)
	}
	return fmt.Sprintf("%.1f cm", m*100)
}

// policyName is the upstream class name.
func policyName(p string, queue int) string {
	if p == "exact" {
		return fmt.Sprintf("ExactTime (queue %d)", queue)
	}
	return fmt.Sprintf("ApproximateTime (queue %d)", queue)
}

// specName is policyName with the ApproximateTime parameters a user set
// (age penalty, inter-message lower bounds), so a sentence says what was
// emulated.
func specName(sp SyncSpec) string {
	name := policyName(sp.Policy, sp.QueueSize)
	var extra []string
	if sp.AgePenalty != nil {
		extra = append(extra, fmt.Sprintf("age penalty %g", *sp.AgePenalty))
	}
	if len(sp.LowerBoundsS) > 0 {
		b := make([]string, len(sp.LowerBoundsS))
		for i, v := range sp.LowerBoundsS {
			b[i] = FmtS(v)
		}
		extra = append(extra, "inter-message lower bounds "+strings.Join(b, ", "))
	}
	if len(extra) == 0 {
		return name
	}
	return strings.TrimSuffix(name, ")") + ", " + strings.Join(extra, ", ") + ")"
}

// sentence says what the synchronizer does, and when it never fires (or
// leaves most messages unused) why.
func (r *syncRun) sentence(s *SyncSummary) (string, string) {
	names := syncJoin(s.Topics)
	pol := specName(r.spec)
	if r.err != nil {
		return SyncReasonNoSet, fmt.Sprintf("%s on %s cannot run: %v.", pol, names, r.err)
	}
	counts := syncCounts(s.Received)
	for i, t := range s.Topics {
		if s.Received[i] == 0 {
			why := "has no messages in the bag"
			if !r.present[i] {
				why = "is not in the bag"
			} else if s.Skipped[i] > 0 {
				why = fmt.Sprintf("has no message that decodes (%s skipped)", Plural(int(s.Skipped[i]), "message"))
			}
			if s.Fires {
				continue
			}
			return SyncReasonEmptyTopic, fmt.Sprintf("%s never pair: %s %s.", names, t, why)
		}
	}
	if !s.Fires {
		for i, t := range s.Topics {
			if s.ZeroStamps[i] == s.Received[i] {
				return SyncReasonZeroStamps, fmt.Sprintf("%s never pair: every %s message is stamped 0 (a sim-time driver that never got /clock, or a header never filled in).", names, t)
			}
		}
		for _, o := range s.Offsets {
			if o.Clock == SyncClockDifferent {
				return SyncReasonDifferentClock, fmt.Sprintf("%s never pair: their stamps are %.3g s apart; %s.", names, math.Abs(o.MedianS), o.epochs)
			}
		}
		for _, o := range s.Offsets {
			if s.Policy == "exact" && o.Samples > 0 {
				return SyncReasonNeverEqual, fmt.Sprintf("%s never pair under ExactTime: %s and %s are never stamped alike (median offset %s); stamp both from one capture time, or use ApproximateTime.", names, o.From, o.To, FmtS(o.MedianS))
			}
			if s.MaxIntervalS != nil && math.Abs(o.MedianS) > *s.MaxIntervalS {
				return SyncReasonOffset, fmt.Sprintf("%s never pair: %s is stamped %s from %s (median), more than the max interval of %s.", names, o.To, FmtS(o.MedianS), o.From, FmtS(*s.MaxIntervalS))
			}
		}
		return SyncReasonNoSet, fmt.Sprintf("%s never pair: %s emits no set from %s.", names, pol, counts)
	}
	minRecv := s.Received[0]
	for _, n := range s.Received {
		minRecv = min(minRecv, n)
	}
	head := fmt.Sprintf("%s pairs %s: %s (first at %.2f s) from %s; stamp spread in a set median %s, max %s; unused %s.",
		pol, names, Plural(int(s.Sets), "set"), *s.FirstSetS, counts, FmtS(*s.SpreadMedianS), FmtS(*s.SpreadMaxS), syncCounts(s.Unused))
	if 2*s.Sets < minRecv {
		return SyncReasonFewSets, fmt.Sprintf("%s pair only %s from %s: most messages are never used. ", names, Plural(int(s.Sets), "time"), counts) + head
	}
	return "", head
}

func syncJoin(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// syncCounts is "300 and 298 messages" (per topic).
func syncCounts(n []int64) string {
	parts := make([]string, len(n))
	for i, v := range n {
		parts[i] = fmt.Sprint(v)
	}
	return syncJoin(parts) + " messages"
}
