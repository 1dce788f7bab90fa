package analysis

import (
	"sort"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// stampJumps finds jumps of header stamps on the analysed topics and the
// dynamic tf links of a bag without /clock, where the stamps are the only
// record of the publishers' time (rcl's jump thresholds, as for /clock).
type stampJumps struct {
	topics []stampSeries // by topic id
	links  []stampSeries // by link id
	n      int
	kept   []ClockJump
	leads  []ClockJump
}

type stampSeries struct {
	last, lastLog int64
	ticks         reservoir
	seen          bool
	// pending is a backward step waiting for the series' next stamp: back
	// above the stamp before the step, by a step of 1.5 paces or more, the
	// two messages were swapped (a republishing node's threads), not a
	// jump; a series shifted back goes on at its pace.
	pending    ClockJump
	pendingLog int64
	hasPending bool
}

func init() {
	registerCheck(rankStampJumps, "stamp-jumps", func(a *analyzer) check {
		if a.hasClock {
			return nil
		}
		return &stampJumps{}
	})
}

func seriesAt(s *[]stampSeries, id int) *stampSeries {
	for len(*s) <= id {
		*s = append(*s, stampSeries{})
	}
	return &(*s)[id]
}

func (j *stampJumps) onLink(a *analyzer, m *bagread.Message, l *linkStats, st *tf.Stamped) {
	stamp := st.Stamp
	if l.static {
		return
	}
	s := seriesAt(&j.links, l.id)
	if s.seen {
		j.stampJump(a, s, stamp, m, l.key.parent+"->"+l.key.child)
	}
	s.last, s.lastLog, s.seen = stamp, m.LogTimeNS, true
}

func (j *stampJumps) onStamped(a *analyzer, sm *stampedMsg) {
	s := seriesAt(&j.topics, sm.topic.id)
	if s.seen {
		j.stampJump(a, s, sm.stamp, sm.m, "")
	}
	s.last, s.lastLog, s.seen = sm.stamp, sm.m.LogTimeNS, true
}

// stampJump records a jump of a stamp series (bags without /clock). A
// forward step counts only once the series has a pace (minPaceSteps
// earlier steps): three messages a second apart have no pace to jump from.
func (j *stampJumps) stampJump(a *analyzer, s *stampSeries, stamp int64, m *bagread.Message, link string) {
	last, ticks := &s.last, &s.ticks
	if s.hasPending {
		s.hasPending = false
		swapped := stamp > s.pending.FromNS && ticks.n >= minPaceSteps && float64(stamp-s.pending.ToNS) >= 1.5*ticks.approxMedian()
		if !swapped {
			j.keep(s.pending, s.pendingLog)
		}
	}
	delta := stamp - *last
	kind := ""
	switch {
	case isBackward(delta, a.cfg.JumpMinBackwardNS):
		kind = "backward"
	case delta > 0 && ticks.n >= minPaceSteps && delta >= forwardThreshold(a.cfg.JumpMinForwardNS, ticks):
		kind = "forward"
	case delta > 0:
		if ticks.n >= minPaceSteps && len(j.leads) < maxJumpsKept && leadStep(delta, m.LogTimeNS-s.lastLog, ticks.approxMedian()) {
			j.leads = append(j.leads, ClockJump{Index: m.Index, LogTimeNS: m.LogTimeNS, FromNS: *last, ToNS: stamp, Kind: "forward",
				Topic: m.Topic, Link: link, PrevLogTimeNS: s.lastLog})
		}
		ticks.add(float64(delta))
	}
	if kind == "" {
		return
	}
	jump := ClockJump{Index: m.Index, LogTimeNS: m.LogTimeNS, FromNS: *last, ToNS: stamp, Kind: kind, Topic: m.Topic, Link: link}
	if kind == "backward" {
		s.pending, s.pendingLog, s.hasPending = jump, s.lastLog, true
		return
	}
	j.keep(jump, s.lastLog)
}

func (j *stampJumps) keep(jump ClockJump, prevLog int64) {
	j.n++
	if len(j.kept) < maxJumpsKept {
		jump.PrevLogTimeNS = prevLog
		j.kept = append(j.kept, jump)
	}
}

// leadStepMinNS is the least move of a series' stamps ahead of its record
// time that can be a step of the publishers' clock: ntpd slews offsets
// below 128 ms rather than stepping them.
const leadStepMinNS = 250_000_000

// leadStep says whether a stamp step of delta over logDelta of record time
// moved the stamps ahead of record time at once: by leadStepMinNS and
// four paces or more (late delivery that catches up closes at most a pace
// or two per message; lost messages move stamps and record time alike),
// with record time not going back (a step of the recorder's clock).
func leadStep(delta, logDelta int64, pace float64) bool {
	lead := delta - logDelta
	return logDelta >= 0 && lead >= leadStepMinNS && float64(lead) >= 4*pace
}

// minPaceSteps is how many forward steps a stamp series needs before a
// forward step can be a jump.
const minPaceSteps = 8

// flush keeps the steps back that end their series: nothing came to
// undo them.
func (j *stampJumps) flush() {
	for _, list := range [][]stampSeries{j.topics, j.links} {
		for i := range list {
			if list[i].hasPending {
				list[i].hasPending = false
				j.keep(list[i].pending, list[i].pendingLog)
			}
		}
	}
}

func (j *stampJumps) finish(a *analyzer) {
	j.flush()
	// Kept in record order; each carries the record time before it, which
	// the clock-step check reads from the report.
	sort.SliceStable(j.kept, func(x, y int) bool { return j.kept[x].LogTimeNS < j.kept[y].LogTimeNS })
	a.rep.StampJumps = j.kept
	a.rep.LeadSteps = j.leads
	a.rep.Counts.StampJumps = j.n
}
