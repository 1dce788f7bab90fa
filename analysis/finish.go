package analysis

import (
	"fmt"
	"math"
	"sort"
)

// Skew kinds.
const (
	SkewOK             = "ok"
	SkewConstantOffset = "constant_offset"
	SkewJitter         = "jitter"
	SkewDifferentClock = "different_clock"
)

// jitterThresholdS: a p95 age this far above the median is latency that
// varies (jitter), not a steady offset.
const jitterThresholdS = 0.1

// minSkewSamples: fewer stamps than this cannot show an offset is constant.
const minSkewSamples = 5

// skewKind classifies record time − stamp: a median of at least
// ClockSkewThresholdNS whose spread stays small is a constant offset
// between two clocks; a spread past jitterThresholdS is jitter; an offset
// of an epoch is two clock families.
func skewKind(median, p95, minV float64) string {
	switch {
	case math.Abs(median) >= float64(EpochThresholdNS)/1e9:
		return SkewDifferentClock
	case math.Abs(median) >= float64(ClockSkewThresholdNS)/1e9 && p95-minV < math.Max(jitterThresholdS, 0.1*math.Abs(median)):
		return SkewConstantOffset
	case p95-median > jitterThresholdS:
		return SkewJitter
	default:
		return SkewOK
	}
}

func makeSkew(topic, link string, age, pub *reservoir) Skew {
	q := age.quantiles(0.5, 0.95)
	s := Skew{Topic: topic, Link: link, Count: age.n, MedianS: q[0], P95S: q[1], MaxS: age.max, MinS: age.min}
	if pub.n > 0 {
		s.PublishMedianS = pub.median()
	}
	s.Kind = skewKind(s.MedianS, s.P95S, s.MinS)
	if age.n < minSkewSamples && s.Kind != SkewDifferentClock {
		s.Kind = SkewOK // too few samples to call an offset constant
	}
	return s
}

func (a *analyzer) finish() *Report {
	a.group.Finish()
	for _, name := range a.scanTopics {
		for _, fs := range a.filters[name] {
			a.flush(fs)
			// Rows the filter never decided (not even at Finish) cannot
			// exist; flush whatever is left defensively.
			for i := range fs.rows {
				if !fs.decided[i] {
					fs.rows[i].FilterOutcome = "pending_at_end"
					fs.decided[i] = true
				}
			}
			a.flush(fs)
		}
	}
	if a.clockSeen {
		a.endStall(a.clockLogNS)
	}
	r := &a.rep
	s := &r.Summary
	if s.Classes == nil {
		s.Classes, s.Filter = map[string]int{}, map[string]int{}
	}
	a.rowClasses.addTo(s.Classes)
	a.rowFilter.addTo(s.Filter)
	s.Scans = a.scans
	s.ZeroStampScans = r.ZeroStamp.Count
	s.ClockJumps = r.ClockJumps
	if r.ClockJumps == nil {
		r.ClockJumps = []ClockJump{}
		s.ClockJumps = r.ClockJumps
	}
	if r.StampJumps == nil {
		r.StampJumps = []ClockJump{}
	}
	if r.Stalls == nil {
		r.Stalls = []Stall{}
	}
	z := &r.ZeroStamp
	if a.zeroCost.disp.n > 0 {
		z.MedianDisplacementM = a.zeroCost.disp.median()
		z.MedianRotationDeg = a.zeroCost.rot.median()
	}

	if a.nClock > 0 {
		cr := &ClockRate{Messages: a.nClock, FirstNS: a.firstClockNS, LastNS: a.lastClockNS}
		if a.rtfLog > 0 {
			cr.RealTimeFactor = a.rtfClock / a.rtfLog
		}
		if a.clockTicks.n > 0 {
			cr.MedianTickNS = int64(a.clockTicks.median())
		}
		r.ClockRate = cr
	}

	// Skew: scan topics, then tf links.
	r.Skew = []Skew{}
	for _, name := range a.scanTopics {
		ts := a.topics[name]
		if ts.count == 0 {
			continue
		}
		r.Skew = append(r.Skew, makeSkew(name, "", &ts.age, &ts.pubAge))
	}
	links := make([]*linkStats, 0, len(a.links))
	for _, l := range a.links {
		links = append(links, l)
	}
	sort.Slice(links, func(i, j int) bool {
		x, y := links[i].key, links[j].key
		if x.parent != y.parent {
			return x.parent < y.parent
		}
		if x.child != y.child {
			return x.child < y.child
		}
		return x.topic < y.topic
	})
	r.TFTree = []TFLink{}
	for _, l := range links {
		t := TFLink{Parent: l.key.parent, Child: l.key.child, Topic: l.key.topic, Static: l.static,
			Count: l.count, OldestNS: l.oldest, NewestNS: l.newest, DelayS: l.age.median()}
		if span := l.lastLog - l.firstLog; span > 0 && l.count > 1 {
			t.RateHz = float64(l.count-1) / (float64(span) / 1e9)
		}
		r.TFTree = append(r.TFTree, t)
		if !l.static {
			r.Skew = append(r.Skew, makeSkew(l.key.topic, l.key.parent+"->"+l.key.child, &l.age, &l.pubAge))
		}
	}

	// /rosout beside the predictions.
	r.Rosout = []RosoutLine{}
	matched := 0
	for _, line := range a.rosout {
		switch line.Kind {
		case "filter_drop":
			if k := dropKey(line.Text); k != "" && a.predicted[k] {
				line.Matched = true
				matched++
			}
		case "jump_back":
			for _, j := range r.ClockJumps {
				if j.Kind == "backward" && absI(j.LogTimeNS-line.LogTimeNS) <= 2_000_000_000 {
					line.Matched = true
					break
				}
			}
		}
		r.Rosout = append(r.Rosout, line)
	}

	r.Skipped = []Skipped{}
	for _, sk := range a.skipped {
		r.Skipped = append(r.Skipped, *sk)
		s.Skipped += sk.Count
	}
	sort.Slice(r.Skipped, func(i, j int) bool { return r.Skipped[i].Topic < r.Skipped[j].Topic })

	// Series and per-pair summaries.
	r.Series = Series{Diff: map[string][]Point{}, Clock: a.clockSeries.points(), Outcomes: a.outcomes.points()}
	r.Pairs = []PairSummary{}
	for _, p := range a.pairs {
		ps := PairSummary{Topic: p.topic, TargetFrame: p.target, FrameID: p.frame,
			Classes: map[string]int{}, Filter: map[string]int{}}
		for k, v := range p.classes {
			ps.Classes[string(k)] = v
		}
		for k, v := range p.outcomes {
			ps.Filter[k] = v
		}
		if p.diff.n > 0 {
			ps.MedianDiffS, ps.MinDiffS, ps.MaxDiffS = p.diff.median(), p.diff.min, p.diff.max
		}
		best := 0
		for k, v := range p.stalest {
			if v > best || v == best && k < ps.Stalest {
				best, ps.Stalest = v, k
			}
		}
		r.Pairs = append(r.Pairs, ps)
		r.Series.Diff[p.topic+" → "+p.target] = p.series.points()
	}
	if r.Settings.TargetFrames == nil || len(r.Settings.TargetFrames) == 0 {
		seen := map[string]bool{}
		r.Settings.TargetFrames = []string{}
		for _, p := range a.pairs {
			if !seen[p.target] {
				seen[p.target] = true
				r.Settings.TargetFrames = append(r.Settings.TargetFrames, p.target)
			}
		}
	}

	back := 0
	for _, j := range r.ClockJumps {
		if j.Kind == "backward" {
			back++
		}
	}
	r.Counts = Counts{
		ClockJumps: a.nClockJumps, StampJumps: a.nStampJump, Stalls: a.nStalls,
		RosoutLines: a.nRosout, PredictedDrops: a.nPredicted, MatchedDrops: matched,
		BackwardJumps: back, ClockMessages: a.nClock,
	}
	s.Findings = a.findings()
	r.Verdict = a.verdict()
	s.Verdict = r.Verdict.Sentence
	return r
}

func absI(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// findings lists the --fail-on categories present.
func (a *analyzer) findings() []string {
	r := &a.rep
	c := r.Summary.Classes
	f := []string{}
	drops := 0
	for k, v := range r.Summary.Filter {
		if len(k) > 8 && k[:8] == "dropped_" {
			drops += v
		}
	}
	if drops > 0 {
		f = append(f, "drop")
	}
	if c[string(LaserOnSystemClock)]+c[string(TFOnSystemClock)]+c[string(ClockSkew)] > 0 {
		f = append(f, "clock-mismatch")
	}
	if a.nClockJumps > 0 || a.nStampJump > 0 {
		f = append(f, "jump")
	}
	if r.ZeroStamp.Count > 0 {
		f = append(f, "zero-stamp")
	}
	skew := c[string(ClockSkew)] > 0
	for _, s := range r.Skew {
		if s.Kind == SkewConstantOffset {
			skew = true
		}
	}
	if skew {
		f = append(f, "skew")
	}
	return f
}

func fmtS(s float64) string {
	switch a := math.Abs(s); {
	case a >= 1e6:
		return fmt.Sprintf("%.4g s", s)
	case a >= 1:
		return fmt.Sprintf("%.3f s", s)
	default:
		return fmt.Sprintf("%.1f ms", s*1000)
	}
}
