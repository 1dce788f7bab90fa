package verdict

import (
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// draft is a verdict while the rules decide it: the class and evidence as
// they will be, the headline and the commands as data (head, cmds).
// Decide renders them into Sentence and Commands once, at the end; no
// rule writes or reads those two before then.
type draft struct {
	analysis.Verdict
	head headline
	// cmds are the commands, which Decide renders into Commands for the
	// bag's ROS.
	cmds []command
}

// headline is the verdict's sentence as data: its parts in order, the
// analysed topics it names, what it asks of the user and whose publisher
// it guesses. The rules that come after the one that wrote it demote it,
// blame its drops on a clock fault or add to it through these fields,
// never by reading its words back.
type headline struct {
	parts []part
	// topics are the analysed topics the sentence names (offClockEvidence
	// leaves them out of its line).
	topics []string
	// ask is what the sentence asks about use_sim_time (nameNodes).
	ask ask
	// guessed is the one analysed topic whose publisher the sentence names
	// by the noun its type suggests ("the laser driver publishes /scan"),
	// "" for none.
	guessed string
}

// ask is what a headline asks about use_sim_time, for nameNodes.
type ask uint8

const (
	// askNothing: the headline asks nothing of use_sim_time.
	askNothing ask = iota
	// askSimTimeTrue: set use_sim_time:=true on the node(s) publishing
	// what it names; a node the bag shows with use_sim_time=false is the
	// one to name.
	askSimTimeTrue
	// suspectSimTimeWithoutClock: the headline suspects a node with
	// use_sim_time:=true and no /clock publisher (stamps of 0); a node
	// with use_sim_time=false is not that node.
	suspectSimTimeWithoutClock
)

// partKind says what a part of a headline is to the rules that rework it.
type partKind uint8

const (
	// partText is words no rule reworks.
	partText partKind = iota
	// partNoClockProblem is the healthy headline's verdict
	// (noClockProblem), left out when the headline is demoted.
	partNoClockProblem
	// partNotClockProblem is the verdict on drops on one clock (": not a
	// clock problem; <advice>"), which a clock fault that leads rewords.
	partNotClockProblem
	// partStop is the final period of a sentence the rules built in
	// parts; a healthy stem goes without it.
	partStop
)

// part is one piece of a headline.
type part struct {
	kind partKind
	text string
}

// noClockProblem ends the healthy headline.
const noClockProblem = ": no clock problem in this bag"

// whole is a headline of one whole sentence that no rule reworks (its own
// period included).
func whole(sentence string, topics ...string) headline {
	return headline{parts: []part{{partText, sentence}}, topics: topics}
}

// built is a headline of parts, with its final period.
func built(parts ...part) headline {
	return headline{parts: append(parts, part{partStop, "."})}
}

// text is a part of words no rule reworks.
func text(s string) part { return part{partText, s} }

// String renders the headline.
func (h headline) String() string {
	var b strings.Builder
	for _, p := range h.parts {
		b.WriteString(p.text)
	}
	return b.String()
}

// add appends words to the headline.
func (h *headline) add(s string) { h.parts = append(h.parts, text(s)) }

// prepend puts words before the headline.
func (h *headline) prepend(s string) { h.parts = append([]part{text(s)}, h.parts...) }

// without is h without the parts of kind k.
func (h headline) without(k partKind) headline {
	out := h
	out.parts = nil
	for _, p := range h.parts {
		if p.kind != k {
			out.parts = append(out.parts, p)
		}
	}
	return out
}

// demoted is the headline as a sentence under another finding (evidence,
// or after an empty topic): "no clock problem in this bag" beside a clock
// step or a tree on another clock would contradict it.
func (h headline) demoted() headline { return h.without(partNoClockProblem) }

// healthyStem is the healthy headline without its "no clock problem" and
// final period, for a "; but …" that names what the bag still shows.
func (h headline) healthyStem() headline {
	out := h.without(partNoClockProblem)
	if n := len(out.parts); n > 0 && out.parts[n-1].kind == partStop {
		out.parts = out.parts[:n-1]
	}
	return out
}

// blamedOnClock rewords the verdict on drops on one clock ("yet N
// dropped: not a clock problem; …") under a clock fault that leads: the
// drops are its consequence (messages stamped that far from tf wait for
// it and overflow the queue). A headline without that verdict is as it
// was.
func (h headline) blamedOnClock() headline {
	for i, p := range h.parts {
		if p.kind == partNotClockProblem {
			out := h
			out.parts = append(append([]part{}, h.parts[:i]...), text(": the headline's clock fault makes them wait for tf until the filter drops them."))
			return out
		}
	}
	return h
}
