package analysis

import (
	"fmt"
	"slices"
	"strings"
)

// maxJumpsWorded is how many stamp jumps a sentence names one by one.
const maxJumpsWorded = 3

// stampStepNS is how far the clock behind a stamp jump stepped: the jump
// of the stamps less the record time between the two messages (a period
// of the series, or the gap of a pause).
func stampStepNS(j ClockJump) int64 {
	d := j.ToNS - j.FromNS
	if j.PrevLogTimeNS > 0 && j.LogTimeNS >= j.PrevLogTimeNS {
		d -= j.LogTimeNS - j.PrevLogTimeNS
	}
	return d
}

// stampJumpSentence words the stamp jumps of a bag without /clock: which
// series jumped, by how much and when (up to maxJumpsWorded), and which
// analysed topics and dynamic tf links did not jump at all, so a reader
// tells one machine's clock step (all its series move) from one node's
// own jump (the rest of its machine keeps its lag).
func stampJumpSentence(r *Report) string {
	n := r.Counts.StampJumps
	if n == 0 {
		return ""
	}
	jumped := map[string]bool{}
	var parts []string
	for i, j := range r.StampJumps {
		jumped[jumpSeries(j)] = true
		if i < maxJumpsWorded {
			parts = append(parts, jumpWords(j, r.Pass.StartNS))
		}
	}
	if len(r.StampJumps) > maxJumpsWorded {
		parts = append(parts, fmt.Sprintf("%d more", n-maxJumpsWorded))
	}
	s := fmt.Sprintf("No /clock; header stamps jump %s: %s", plural(n, "time"), strings.Join(parts, ", "))
	var kept []string
	for _, t := range r.Topics {
		if t.Role == TopicAnalysed && t.Messages > 0 && !jumped[t.Topic] {
			kept = append(kept, t.Topic)
		}
	}
	for _, l := range r.TFTree {
		if name := l.Parent + "->" + l.Child; !l.Static && !jumped[name] && !slices.Contains(kept, name) {
			kept = append(kept, name)
		}
	}
	if len(kept) > 0 && len(kept) <= maxStepTopics {
		s += fmt.Sprintf("; %s did not jump (a step of one machine's clock moves every series it stamps)", joinNames(kept))
	}
	return s + "."
}

// jumpClause words the bag's time jumps for a headline that is otherwise
// healthy: one stamp jump by name ("the stamps of /scan jump back by
// 800.7 ms at +10.0 s"), else their count.
func jumpClause(r *Report) string {
	n := r.Counts.ClockJumps + r.Counts.StampJumps
	if r.Counts.ClockJumps == 0 && n == 1 && len(r.StampJumps) == 1 {
		return "the stamps of " + strings.Replace(jumpWords(r.StampJumps[0], r.Pass.StartNS), " ", " jump ", 1)
	}
	return "the bag's time jumps " + plural(n, "time")
}

// jumpSeries names a stamp jump's series: its tf link, else its topic.
func jumpSeries(j ClockJump) string {
	if j.Link != "" {
		return j.Link
	}
	return j.Topic
}

// jumpWords is "SERIES back|forward by STEP at +T s" (T since startNS).
func jumpWords(j ClockJump, startNS int64) string {
	dir, step := "back", stampStepNS(j)
	if j.Kind == "forward" {
		dir = "forward"
	}
	if step < 0 {
		step = -step
	}
	return fmt.Sprintf("%s %s by %s at +%.1f s", jumpSeries(j), dir, fmtS(float64(step)/1e9), float64(j.LogTimeNS-startNS)/1e9)
}
