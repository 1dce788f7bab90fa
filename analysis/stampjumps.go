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
	// lastLog is the record time of the latest message of any series, and
	// globalGap the latest gap of gapMinNS or more between any two: a
	// series whose lag shifts by as much across it saw record time step
	// (the recorder's clock), not its own clock.
	lastLog                      int64
	globalGapStart, globalGapEnd int64
}

// see follows record time over every series' messages.
func (j *stampJumps) see(logNS int64) {
	if j.lastLog != 0 && logNS-j.lastLog >= gapMinNS {
		j.globalGapStart, j.globalGapEnd = j.lastLog, logNS
	}
	j.lastLog = max(j.lastLog, logNS)
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
	// gap follows the lag after a gap in the series' record times.
	gap gapShift
}

// gapShift follows a series' least age in the seconds after a gap in its
// record times (a stall, a lossy link): a clock that stepped inside the
// gap shows no jump between two messages, only a lag that settles
// elsewhere than before and stays there, where late delivery settles back.
type gapShift struct {
	open           bool
	before         int64 // the series' least age before the gap
	logNS, prevLog int64 // record times of the messages after and before the gap
	prevStamp      int64
	index          uint64
	topic, link    string
	min2, min3     int64 // least age in the 2nd and the 3rd second after
	has2, has3     bool
	// global is the gap between any two messages that makes most of this
	// one (0 without): a lag that shifts by it is record time that stepped.
	global int64
}

// Gap shifts: a gap of gapMinNS (and four paces) or more opens one; the
// least ages of the 2nd and 3rd seconds after it, within gapSteadyNS of
// each other, are the lag it settled at.
const (
	gapMinNS    = leadStepMinNS
	gapSteadyNS = int64(20_000_000)
)

// settle takes a message of age age at logNS after an open gap, and
// returns the step of the clock the series' lag shows once the 3rd second
// after the gap is over (ok false while it is not, or without a step).
func (g *gapShift) settle(logNS, age int64, done bool) (ClockJump, bool) {
	if !g.open {
		return ClockJump{}, false
	}
	t := logNS - g.logNS
	switch {
	case !done && t >= 1e9 && t < 2e9:
		if !g.has2 || age < g.min2 {
			g.min2, g.has2 = age, true
		}
	case !done && t >= 2e9 && t < 3e9:
		if !g.has3 || age < g.min3 {
			g.min3, g.has3 = age, true
		}
	}
	if !done && t < 3e9 {
		return ClockJump{}, false
	}
	g.open = false
	if !g.has2 || !g.has3 || absI(g.min2-g.min3) > gapSteadyNS {
		return ClockJump{}, false
	}
	shift := min(g.min2, g.min3) - g.before
	if absI(shift) < leadStepMinNS || g.global > 0 && absI(shift-g.global) <= max(stepMatchNS, g.global/5) {
		return ClockJump{}, false
	}
	kind := "backward" // the lag rose: the stamps went back
	if shift < 0 {
		kind = "forward"
	}
	// ToNS is the stamp the first message after the gap would carry at the
	// lag the series settled at, so that the step (stampStepNS) is the
	// shift of the lag, not that message's own late delivery.
	to := g.prevStamp + (g.logNS - g.prevLog) - shift
	return ClockJump{Index: g.index, LogTimeNS: g.logNS, FromNS: g.prevStamp, ToNS: to, Kind: kind,
		Topic: g.topic, Link: g.link, PrevLogTimeNS: g.prevLog}, true
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
	j.see(m.LogTimeNS)
	s := seriesAt(&j.links, l.id)
	if s.seen {
		j.settleGap(s, m.LogTimeNS, m.LogTimeNS-stamp)
		j.stampJump(a, s, stamp, m, l.key.parent+"->"+l.key.child)
	}
	s.last, s.lastLog, s.seen = stamp, m.LogTimeNS, true
	s.ages.add(m.LogTimeNS, m.LogTimeNS-stamp)
}

func (j *stampJumps) onStamped(a *analyzer, sm *stampedMsg) {
	j.see(sm.m.LogTimeNS)
	s := seriesAt(&j.topics, sm.topic.id)
	if s.seen {
		j.settleGap(s, sm.m.LogTimeNS, sm.m.LogTimeNS-sm.stamp)
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
	logDelta := m.LogTimeNS - s.lastLog
	kind := ""
	switch {
	case isBackward(delta, a.cfg.JumpMinBackwardNS):
		kind = "backward"
	case delta > 0 && ticks.n >= minPaceSteps && delta >= forwardThreshold(a.cfg.JumpMinForwardNS, ticks):
		if s.catchUp(m.LogTimeNS, m.LogTimeNS-stamp, delta, logDelta, forwardThreshold(a.cfg.JumpMinForwardNS, ticks)/2, ticks.approxMedian()) {
			j.openGap(s, m, stamp, link, *last)
			return
		}
		kind = "forward"
	case delta > 0:
		if ticks.n >= minPaceSteps && len(j.leads) < maxJumpsKept && leadStep(delta, logDelta, ticks.approxMedian()) &&
			!s.catchUp(m.LogTimeNS, m.LogTimeNS-stamp, delta, logDelta, leadStepMinNS/2, ticks.approxMedian()) {
			j.leads = append(j.leads, ClockJump{Index: m.Index, LogTimeNS: m.LogTimeNS, FromNS: *last, ToNS: stamp, Kind: "forward",
				Topic: m.Topic, Link: link, PrevLogTimeNS: s.lastLog})
		} else {
			j.openGap(s, m, stamp, link, *last)
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

// openGap starts following the lag after a gap in the series' record
// times of gapMinNS and four paces or more, once the series has a pace and
// a lag to compare with.
func (j *stampJumps) openGap(s *stampSeries, m *bagread.Message, stamp int64, link string, prevStamp int64) {
	logDelta := m.LogTimeNS - s.lastLog
	if s.gap.open || s.ticks.n < minPaceSteps || logDelta < gapMinNS || float64(logDelta) < 4*s.ticks.approxMedian() {
		return
	}
	before, ok := s.ages.least(s.lastLog)
	if !ok {
		return
	}
	s.gap = gapShift{open: true, before: before, logNS: m.LogTimeNS, prevLog: s.lastLog, prevStamp: prevStamp,
		index: m.Index, topic: m.Topic, link: link}
	if g := j.globalGapEnd - j.globalGapStart; j.globalGapEnd > s.lastLog && 2*g >= logDelta {
		s.gap.global = g // the series' gap is mostly one of every series
	}
}

// settleGap keeps the step a gap's settled lag shows.
func (j *stampJumps) settleGap(s *stampSeries, logNS, age int64) {
	if jump, ok := s.gap.settle(logNS, age, false); ok {
		j.keep(jump, jump.PrevLogTimeNS)
	}
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
			if jump, ok := list[i].gap.settle(0, 0, true); ok {
				j.keep(jump, jump.PrevLogTimeNS)
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
