package analysis

import (
	"strings"

	"github.com/bagclock/bagclock/bagread"
)

// rosoutCheck keeps the recorded /rosout lines that bear on the analysis
// (MessageFilter drops, tf buffer clears on a jump back) and matches them
// with the predicted drops and the /clock jumps.
type rosoutCheck struct {
	lines []RosoutLine // at most maxRosoutKept
	n     int
}

func init() {
	registerCheck(rankRosout, "rosout", func(*analyzer) check { return &rosoutCheck{} })
}

func (*rosoutCheck) role() topicRole { return roleRosout }

func (c *rosoutCheck) onRaw(a *analyzer, m *bagread.Message) {
	l, err := a.wire.Log(m.Data)
	if err != nil {
		a.skip(m, err)
		return
	}
	kind := ""
	switch {
	case strings.Contains(l.Msg, "Message Filter dropping message"):
		kind = "filter_drop"
	case strings.Contains(l.Msg, "Detected jump back in time"):
		kind = "jump_back"
	default:
		return
	}
	c.n++
	if len(c.lines) < maxRosoutKept {
		c.lines = append(c.lines, RosoutLine{
			Index: m.Index, LogTimeNS: m.LogTimeNS, StampNS: l.Stamp.Nanoseconds(), Node: l.Name,
			Level: l.Level, Kind: kind, Text: l.Msg,
		})
	}
}

// finish matches drop lines with the predicted ones and jump-back lines
// with /clock's backward jumps (within 2 s of record time).
func (c *rosoutCheck) finish(a *analyzer) {
	r := &a.rep
	r.Rosout = []RosoutLine{}
	matched := 0
	for _, line := range c.lines {
		switch line.Kind {
		case "filter_drop":
			if k := dropKey(line.Text); k != "" && a.rows.predicted[k] {
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
	r.Counts.RosoutLines = c.n
	r.Counts.MatchedDrops = matched
}
