package analysis

import (
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
	// prevLog: record time of the message before each kept jump.
	prevLog []int64
}

type stampSeries struct {
	last, lastLog int64
	ticks         reservoir
	seen          bool
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
	delta := stamp - *last
	kind := ""
	switch {
	case isBackward(delta, a.cfg.JumpMinBackwardNS):
		kind = "backward"
	case delta > 0 && ticks.n >= minPaceSteps && delta >= forwardThreshold(a.cfg.JumpMinForwardNS, ticks):
		kind = "forward"
	case delta > 0:
		ticks.add(float64(delta))
	}
	if kind == "" {
		return
	}
	j.n++
	if len(j.kept) < maxJumpsKept {
		j.kept = append(j.kept, ClockJump{
			Index: m.Index, LogTimeNS: m.LogTimeNS, FromNS: *last, ToNS: stamp, Kind: kind, Topic: m.Topic, Link: link,
		})
		j.prevLog = append(j.prevLog, s.lastLog)
	}
}

// minPaceSteps is how many forward steps a stamp series needs before a
// forward step can be a jump.
const minPaceSteps = 8

func (j *stampJumps) finish(a *analyzer) {
	a.rep.StampJumps = j.kept
	a.stampPrevLog = j.prevLog
	a.rep.Counts.StampJumps = j.n
}
