package analysis

import (
	"fmt"
	"math"

	"github.com/bagclock/bagclock/analysis/finding"
)

// Skew kinds.
const (
	SkewOK             = "ok"
	SkewConstantOffset = "constant_offset"
	SkewJitter         = "jitter"
	SkewDifferentClock = "different_clock"
	// SkewSimTime: stamps on sim time, record time on wall time (every
	// simulation bag whose recorder ran without use_sim_time): record
	// time − stamp is not an age. Not a fault.
	SkewSimTime = "sim_time"
	// SkewRecorderSimTime: the reverse, stamps on system time and record
	// time on sim time (a recorder with use_sim_time, a converted bag).
	SkewRecorderSimTime = "recorder_sim_time"
)

// jitterThresholdS: a p95 age this far above the median is latency that
// varies (jitter), not a steady offset.
const jitterThresholdS = 0.1

// MinSkewSamples: fewer stamps than this cannot show an offset is constant.
const MinSkewSamples = 5

// skewCheck compares header stamps with record time (and MCAP publish
// time) per analysed topic; the dynamic tf links' ages come from the tf
// replay's link statistics.
type skewCheck struct {
	ages []topicAge // by topic id
}

type topicAge struct{ age, pubAge reservoir }

func init() {
	registerCheck(rankSkew, "skew", func(*analyzer) check { return &skewCheck{} })
}

func (c *skewCheck) onStamped(a *analyzer, s *stampedMsg) {
	for len(c.ages) <= s.topic.id {
		c.ages = append(c.ages, topicAge{})
	}
	t := &c.ages[s.topic.id]
	m := s.m
	t.age.add(float64(m.LogTimeNS-s.stamp) / 1e9)
	if m.HasPublishTime {
		t.pubAge.add(float64(m.PublishTimeNS-s.stamp) / 1e9)
	}
}

// finish lists the analysed topics, then the dynamic tf links.
func (c *skewCheck) finish(a *analyzer) {
	r := &a.rep
	r.Skew = []Skew{}
	for _, ts := range a.topics.analysed() {
		if ts.count == 0 || ts.id >= len(c.ages) {
			continue
		}
		t := &c.ages[ts.id]
		r.Skew = append(r.Skew, makeSkew(ts.name, "", &t.age, &t.pubAge))
	}
	for _, l := range a.tf.sortedLinks() {
		if !l.static {
			r.Skew = append(r.Skew, makeSkew(l.key.topic, l.key.parent+"->"+l.key.child, &l.age, &l.pubAge))
		}
	}
	classifyFamilies(r.Skew, family(a.startNS), a.hasClock)
}

// skewFamily is the clock family (0 sim, 1 system) of a skew row's
// stamps: the recorder's, unless record time − stamp is an epoch.
func skewFamily(s Skew, recorder int) int {
	if math.Abs(s.MedianS) >= float64(EpochThresholdNS)/1e9 {
		return 1 - recorder
	}
	return recorder
}

// classifyFamilies splits the epoch-sized offsets makeSkew calls
// different_clock: a row whose stamps are on the bag's reference clock
// family (sim time when the bag has /clock, else the family most rows
// share) but not on the recorder's is sim_time (or recorder_sim_time), the
// normal state of a simulation bag recorded on wall time; only a row on
// another family than the reference, a real mixture, stays
// different_clock, whatever its age.
func classifyFamilies(rows []Skew, recorder int, hasClock bool) {
	stampFamily := func(s Skew) int { return skewFamily(s, recorder) }
	var n [2]int
	for _, s := range rows {
		if s.Count > 0 {
			n[stampFamily(s)]++
		}
	}
	ref := recorder
	switch {
	case hasClock:
		ref = 0 // sim time
	case n[1-recorder] > n[recorder]:
		ref = 1 - recorder
	}
	for i := range rows {
		s := &rows[i]
		if s.Count == 0 {
			continue
		}
		f := stampFamily(*s)
		switch {
		case f != ref:
			s.Kind = SkewDifferentClock
		case f != recorder && f == 0:
			s.Kind = SkewSimTime
		case f != recorder:
			s.Kind = SkewRecorderSimTime
		}
	}
}

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
	if age.n < MinSkewSamples && s.Kind != SkewDifferentClock {
		s.Kind = SkewOK // too few samples to call an offset constant
	}
	return s
}

// skewTableFindings: a constant offset between record time and the stamps
// of a topic or link (the recorder's clock and the publisher's apart).
func skewTableFindings(skew []Skew) []finding.Finding {
	var out []finding.Finding
	for _, s := range skew {
		if s.Kind != SkewConstantOffset {
			continue
		}
		f := finding.Finding{Kind: finding.Skew, Detail: SkewConstantOffset, Check: "skew", Severity: finding.Warning,
			Confidence: finding.Confidence{Level: finding.Medium,
				Basis:       fmt.Sprintf("record time − stamp stays at %s (p95 %s, min %s) over %d messages", FmtS(s.MedianS), FmtS(s.P95S), FmtS(s.MinS), s.Count),
				Contradicts: "a steady processing delay of the publisher (a stamp taken that long before publishing) looks the same when the clocks agree"},
			Subjects: finding.Subjects{Topics: []string{s.Topic}},
			Numbers: []finding.Number{finding.N("median_age", s.MedianS, "s"), finding.N("p95_age", s.P95S, "s"),
				finding.N("min_age", s.MinS, "s"), finding.N("messages", float64(s.Count), "messages")},
			Sentence: fmt.Sprintf("Record time − stamp is a constant %s on %s: the recorder's clock and the publisher's differ.", FmtS(s.MedianS), SkewName(s)),
		}
		if s.Link != "" {
			f.Subjects.Links = []string{s.Link}
		}
		out = append(out, f)
	}
	return out
}
