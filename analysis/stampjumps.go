package analysis

import (
	"math"
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
	// ages is the series' least age (record time − stamp) over the last
	// seconds, the steady lag a late delivery returns to.
	ages leastAge
}

// leastAgeWindowS is how many seconds of record time leastAge spans: long
// enough to reach back over a stall of a few seconds to the lag the series
// held before it, short enough to follow a drifting simulator.
const leastAgeWindowS = 6

// leastAge keeps the least age of each of the last leastAgeWindowS
// seconds of record time (a ring of one-second buckets).
type leastAge struct {
	sec [leastAgeWindowS]int64
	min [leastAgeWindowS]int64
	set [leastAgeWindowS]bool
}

func (l *leastAge) add(logNS, age int64) {
	b := logNS / 1e9
	i := int(b % leastAgeWindowS)
	if i < 0 {
		i += leastAgeWindowS
	}
	if !l.set[i] || l.sec[i] != b {
		l.sec[i], l.min[i], l.set[i] = b, age, true
	} else if age < l.min[i] {
		l.min[i] = age
	}
}

// least is the least age seen in the window that ends at logNS.
func (l *leastAge) least(logNS int64) (int64, bool) {
	b := logNS / 1e9
	var m int64
	ok := false
	for i := range l.set {
		if l.set[i] && b-l.sec[i] < leastAgeWindowS && b >= l.sec[i] && (!ok || l.min[i] < m) {
			m, ok = l.min[i], true
		}
	}
	return m, ok
}

// catchUp says whether a forward step of delta in a series' stamps, to a
// message of age age recorded logDelta after the one before, is late
// delivery catching up rather than a jump of the publisher's clock. After
// a stall, a backlog or lost messages the stamps jump ahead of the late
// ones before them but land back at the lag the series held in the last
// seconds; a clock that steps forward by th or more moves the stamps ahead
// of that lag, by the step. One look-alike stays a jump: stamps that step
// with record time, to the millisecond of the usual lag (the recorder's
// machine stepped, or everything on it paused; the clock-step check tells
// which the bag can show). A stall moves record time further than the
// stamps, by the late delivery it ends with.
// A catch-up lands no more than tol below that lag (half the least step
// the caller would report).
func (s *stampSeries) catchUp(logNS, age, delta, logDelta, tol int64, pace float64) bool {
	least, ok := s.ages.least(logNS)
	if !ok || age < least-tol {
		return false
	}
	withRecord := min(float64(tol), max(float64(withRecordTolNS), 2*pace))
	return math.Abs(float64(delta-logDelta)) > withRecord
}

// withRecordTolNS is the least tolerance for stamps stepping with record
// time: delivery jitter on one machine is a few milliseconds.
const withRecordTolNS = 50_000_000

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
	s.ages.add(m.LogTimeNS, m.LogTimeNS-stamp)
}

func (j *stampJumps) onStamped(a *analyzer, sm *stampedMsg) {
	s := seriesAt(&j.topics, sm.topic.id)
	if s.seen {
		j.stampJump(a, s, sm.stamp, sm.m, "")
	}
	s.last, s.lastLog, s.seen = sm.stamp, sm.m.LogTimeNS, true
	s.ages.add(sm.m.LogTimeNS, sm.m.LogTimeNS-sm.stamp)
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
		if s.catchUp(m.LogTimeNS, m.LogTimeNS-stamp, delta, m.LogTimeNS-s.lastLog, forwardThreshold(a.cfg.JumpMinForwardNS, ticks)/2, ticks.approxMedian()) {
			return
		}
		kind = "forward"
	case delta > 0:
		logDelta := m.LogTimeNS - s.lastLog
		if ticks.n >= minPaceSteps && len(j.leads) < maxJumpsKept && leadStep(delta, logDelta, ticks.approxMedian()) &&
			!s.catchUp(m.LogTimeNS, m.LogTimeNS-stamp, delta, logDelta, leadStepMinNS/2, ticks.approxMedian()) {
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
// or two per message unless messages were lost: the caller asks catchUp),
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
