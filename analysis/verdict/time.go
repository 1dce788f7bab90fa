package verdict

import (
	"fmt"
	"slices"

	"github.com/bagclock/bagclock/analysis"
)

// maxTimeEvidence bounds the evidence lines of each time check.
const maxTimeEvidence = 3

// aheadFinding reports whether a topic's stamps run ahead of the
// recorder's clock (ages of kind ahead): a "skew" finding.
func (d decider) aheadFinding() bool {
	return len(d.aheadAges()) > 0
}

// clockFaultExplains says whether the leading clock fault is why the rows
// of p (the pair the demoted headline is about; nil: none) drop: a
// confirmed step always; a clock ahead of the recorder only when p's own
// tf link is not stamped ahead too, for then p's messages and tf share the
// clock ahead and the offset is not what they wait for.
func (d decider) clockFaultExplains(p *analysis.PairSummary) bool {
	return d.confirmedStep() || d.aheadFinding() && (p == nil || !d.pathLinkAhead(p))
}

// clockFaultFinding says whether a time finding is a fault of a clock (a
// confirmed step, or stamps ahead of the recorder), not of delivery.
func (d decider) clockFaultFinding() bool { return d.confirmedStep() || d.aheadFinding() }

// confirmedStep reports whether a system clock step is confirmed.
func (d decider) confirmedStep() bool {
	return slices.ContainsFunc(d.rep.ClockSteps, func(st analysis.ClockStep) bool { return st.Confirmed })
}

// timeSentences are the time checks' sentences, most important first: a
// clock step breaks every duration, a node stuck at 0 does nothing, a wall
// timer runs at the wrong rate, stale data is dropped; a constant age is a
// remark. A finding may lead the verdict, so each is a headline: a topic
// stuck at 0 suspects use_sim_time:=true without /clock.
func (d decider) timeSentences() (findings []headline, remarks []string) {
	r := d.rep
	add := func(list []headline, h headline, n *int) []headline {
		*n++
		if *n <= maxTimeEvidence {
			list = append(list, h)
		}
		return list
	}
	var n int
	for i := range r.ClockSteps {
		if st := &r.ClockSteps[i]; st.Confirmed {
			findings = add(findings, whole(st.Sentence), &n)
		} else if len(remarks) < maxTimeEvidence {
			remarks = append(remarks, st.Sentence)
		}
	}
	if extra := n - maxTimeEvidence; extra > 0 {
		findings = append(findings, whole(fmt.Sprintf("%d more system clock steps (clock_steps).", extra)))
	}
	n = 0
	for _, z := range r.StuckZero {
		h := whole(z.Sentence, z.Topic)
		h.ask = suspectSimTimeWithoutClock
		findings = add(findings, h, &n)
	}
	n = 0
	for _, t := range r.TimerClocks {
		switch {
		case t.Flagged:
			findings = add(findings, whole(fmt.Sprintf("%s (%.1f Hz in wall time, %.1f Hz in sim time; confidence %.2f)", t.Sentence, t.WallRateHz, t.SimRateHz, t.Confidence), t.Topic), &n)
		case t.Sentence != "" && len(remarks) < maxTimeEvidence: // the bag cannot tell
			remarks = append(remarks, t.Sentence)
		}
	}
	if ags := d.aheadAges(); len(ags) > 0 {
		findings = append(findings, whole(aheadGroupSentence(ags)))
	}
	n = 0
	for _, ag := range r.Ages {
		switch ag.Kind {
		case analysis.AgeStale:
			findings = add(findings, whole(ag.Sentence, ag.Topic), &n)
		case analysis.AgeConstantOffset:
			if !inLagFloor(r.LagFloor, ag.Topic, ag.MedianS) {
				remarks = append(remarks, ag.Sentence)
			}
		}
	}
	switch lf := r.LagFloor; {
	case lf != nil && len(lf.OverMaxAge) > 0:
		findings = append(findings, whole(lf.Sentence)) // the bag cannot tell whether data was stale
	case lf != nil:
		remarks = append(remarks, lf.Sentence)
	}
	return findings, remarks
}

// inLagFloor: a topic's steady age is the bag's lag floor (within 10 ms),
// which says it for every series at once.
func inLagFloor(lf *analysis.LagFloor, topic string, age float64) bool {
	if lf == nil {
		return false
	}
	for _, s := range lf.Series {
		if s.Name == topic {
			return age-lf.FloorS < analysis.LagFloorSameS
		}
	}
	return false
}

// timeLead puts the time checks into the verdict: the first finding leads
// when the rows found nothing (lead), the rest are evidence. It reports
// whether it took the lead.
func (d decider) timeLead(v *draft, lead bool, rowsPair *analysis.PairSummary) bool {
	findings, remarks := d.timeSentences()
	led := false
	if lead && len(findings) > 0 {
		rows := v.head.demoted()
		if d.clockFaultExplains(rowsPair) {
			rows = rows.blamedOnClock()
		}
		v.Evidence = append(v.Evidence, "Sensor topics and tf: "+rows.String())
		v.head = findings[0]
		findings = findings[1:]
		led = true
		if cmds := d.timeLeadCommands(); len(cmds) > 0 {
			v.cmds = cmds
		}
	}
	for _, f := range findings {
		v.Evidence = append(v.Evidence, f.String())
	}
	v.Evidence = append(v.Evidence, remarks...)
	return led
}

// neverHadClock reports whether every topic stamped 0 stays at 0 its
// whole life: those nodes did not publish "before" /clock, they never had
// it, and the zero-stamp headline says so.
func (d decider) neverHadClock() bool {
	whole := map[string]bool{}
	for _, z := range d.rep.StuckZero {
		if z.Kind == analysis.StuckWholeLife {
			whole[z.Topic] = true
		}
	}
	for _, p := range d.pairs() {
		if p.Classes[string(analysis.ZeroStamp)] > 0 && !whole[p.Topic] {
			return false
		}
	}
	return len(whole) > 0
}

// lookAlikeTimers are the topics whose timer the bag cannot tell: a
// sentence without a flag (a constant real-time factor, or a lean to wall
// time too weak to flag).
func lookAlikeTimers(r *analysis.Report) []string {
	var out []string
	for _, t := range r.TimerClocks {
		if !t.Flagged && t.Sentence != "" {
			out = append(out, t.Topic)
		}
	}
	return out
}

// jumpClause words the bag's time jumps for a headline that is otherwise
// healthy: one stamp jump by name ("the stamps of /scan jump back by
// 800.7 ms at +10.0 s"), else their count.
func jumpClause(r *analysis.Report) string {
	n := r.Counts.ClockJumps + r.Counts.StampJumps
	if r.Counts.ClockJumps == 0 && n == 1 && len(r.StampJumps) == 1 {
		j := r.StampJumps[0]
		return "the stamps of " + analysis.JumpSeries(j) + " jump " + analysis.JumpMotion(j, r.Pass.StartNS)
	}
	return "the bag's time jumps " + analysis.Plural(n, "time")
}
