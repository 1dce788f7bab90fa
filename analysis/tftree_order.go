package analysis

import (
	"fmt"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// tfOrderCheck counts, per dynamic link, stamps that repeat the previous
// one (tf2 on Foxy and Galactic logs TF_REPEATED_DATA and drops the
// repeat) and, in bags with /clock, stamps that go back without /clock
// going back (two publishers on one link, or a publisher that restarted).
// Bags without /clock have their backward stamps in the stamp-jump check.
type tfOrderCheck struct {
	per       []linkOrder // by link id
	clockBack int         // backward /clock steps so far
	lastClock int64
	clockSeen bool
}

type linkOrder struct {
	last                int64
	lastClockBack       int
	seen                bool
	repeated, backward  int
	backFrom, backTo    int64
	backLog             int64
	repeatLog, repeatNS int64
}

func init() {
	registerCheck(rankTFTree+30, "tf-order", func(*analyzer) check { return &tfOrderCheck{} })
}

func (c *tfOrderCheck) onClock(a *analyzer, m *bagread.Message, v int64) {
	if c.clockSeen && v < c.lastClock {
		c.clockBack++
	}
	c.lastClock, c.clockSeen = v, true
}

func (c *tfOrderCheck) onLink(a *analyzer, m *bagread.Message, l *linkStats, st *tf.Stamped) {
	if l.static {
		return
	}
	for len(c.per) <= l.id {
		c.per = append(c.per, linkOrder{})
	}
	o := &c.per[l.id]
	if o.seen {
		switch {
		case st.Stamp == o.last:
			if o.repeated == 0 {
				o.repeatLog, o.repeatNS = m.LogTimeNS, st.Stamp
			}
			o.repeated++
		case st.Stamp < o.last && a.hasClock && c.clockBack == o.lastClockBack:
			if o.backward == 0 {
				o.backFrom, o.backTo, o.backLog = o.last, st.Stamp, m.LogTimeNS
			}
			o.backward++
		}
	}
	o.last, o.seen, o.lastClockBack = st.Stamp, true, c.clockBack
}

func (c *tfOrderCheck) finish(a *analyzer) {
	rep := TFFinding{Kind: TFRepeatedStamps, Rank: RankTFRepeated, FailOn: failOnTFTree}
	back := TFFinding{Kind: TFStampsBackward, Rank: RankTFBackward, FailOn: failOnTFTree}
	var repNames, backNames []string
	nRep, nBack := 0, 0
	for _, l := range a.tf.sortedLinks() {
		if l.id >= len(c.per) {
			continue
		}
		o := &c.per[l.id]
		if o.repeated > 0 {
			repNames = append(repNames, linkName(l))
			nRep += o.repeated
			if len(rep.Links) < maxTFFindingExamples {
				rep.Links = append(rep.Links, linkName(l))
				rep.Evidence = append(rep.Evidence, fmt.Sprintf("%s: %d of %d transforms repeat the previous stamp (first at %s, stamp %s).",
					linkName(l), o.repeated, l.count, a.relTime(o.repeatLog), FmtS(float64(o.repeatNS)/1e9)))
			}
		}
		if o.backward > 0 {
			backNames = append(backNames, linkName(l))
			nBack += o.backward
			if len(back.Links) < maxTFFindingExamples {
				back.Links = append(back.Links, linkName(l))
				back.Evidence = append(back.Evidence, fmt.Sprintf("%s: stamps go back %s (first at %s, from %s to %s) while /clock does not.",
					linkName(l), Plural(o.backward, "time"), a.relTime(o.backLog), FmtS(float64(o.backFrom)/1e9), FmtS(float64(o.backTo)/1e9)))
			}
		}
	}
	if len(backNames) > 0 {
		back.Count = len(backNames)
		back.Sentence = fmt.Sprintf("tf stamps go back %s on %s while /clock runs on: two publishers on one link, or a publisher that restarted; tf2 serves whichever pose is nearest in time.",
			Plural(nBack, "time"), linkList(backNames))
		a.addTFFinding(back)
	}
	if len(repNames) > 0 {
		rep.Count = len(repNames)
		rep.Sentence = fmt.Sprintf("%s on %s repeat the previous stamp: tf2 on Foxy and Galactic logs TF_REPEATED_DATA and drops each; the publisher sends faster than its clock advances (a timer faster than /clock's tick, or an unchanged stamp).",
			Plural(nRep, "transform"), linkList(repNames))
		a.addTFFinding(rep)
	}
}
