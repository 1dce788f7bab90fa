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

// StampJumpSentence words the stamp jumps of a bag without /clock: which
// series jumped, by how much and when (up to maxJumpsWorded), and which
// analysed topics and dynamic tf links did not jump at all, so a reader
// tells one machine's clock step (all its series move) from one node's
// own jump (the rest of its machine keeps its lag).
func StampJumpSentence(r *Report) string {
	n := r.Counts.StampJumps
	if n == 0 {
		return ""
	}
	jumped := map[string]bool{}
	var parts []string
	for i, j := range r.StampJumps {
		jumped[JumpSeries(j)] = true
		if i < maxJumpsWorded {
			parts = append(parts, JumpWords(j, r.Pass.StartNS))
		}
	}
	if len(r.StampJumps) > maxJumpsWorded {
		parts = append(parts, fmt.Sprintf("%d more", n-maxJumpsWorded))
	}
	s := fmt.Sprintf("No /clock; header stamps jump %s: %s", Plural(n, "time"), strings.Join(parts, ", "))
	var kept, keptLinks []string
	for _, t := range r.Topics {
		if t.Role == TopicAnalysed && t.Messages > 0 && !jumped[t.Topic] {
			kept = append(kept, t.Topic)
		}
	}
	for _, l := range r.TFTree {
		if name := l.Parent + "->" + l.Child; !l.Static && !jumped[name] && !slices.Contains(kept, name) {
			kept = append(kept, name)
			keptLinks = append(keptLinks, name)
		}
	}
	if len(kept) > 0 && len(kept) <= maxStepTopics {
		s += fmt.Sprintf("; %s did not jump (a step of one machine's clock moves every series it stamps)", JoinSeries(kept, keptLinks))
	}
	return s + "."
}

// JumpSeries names a stamp jump's series: its tf link, else its topic.
func JumpSeries(j ClockJump) string {
	if j.Link != "" {
		return j.Link
	}
	return j.Topic
}

// JumpWords is "SERIES back|forward by STEP at +T s" (T since startNS).
func JumpWords(j ClockJump, startNS int64) string {
	return JumpSeries(j) + " " + JumpMotion(j, startNS)
}

// JumpMotion is JumpWords without the series: "back|forward by STEP at
// +T s", for a sentence that puts a verb between the two.
func JumpMotion(j ClockJump, startNS int64) string {
	dir, step := "back", stampStepNS(j)
	if j.Kind == "forward" {
		dir = "forward"
	}
	if step < 0 {
		step = -step
	}
	return fmt.Sprintf("%s by %s at +%.1f s", dir, FmtS(float64(step)/1e9), float64(j.LogTimeNS-startNS)/1e9)
}
