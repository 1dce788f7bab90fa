package verdict

import (
	"fmt"
	"slices"

	"github.com/bagclock/bagclock/analysis"
)

// A sensor driver on system time in a simulation shows in its rows only
// when a dynamic transform lies on its path: stamp − latest transform is
// then an epoch. On a path of static links alone (tf2 matches those at any
// time), or with no path at all, the rows say static_only or no_transform,
// and the fault would go unnamed although the bag holds the evidence: the
// header stamps follow record time (system time) while /clock runs sim
// time. This file finds such topics and words the verdict for them.

// offClockVerdict words the headline for p, whose topic is off /clock on
// a path of class c (static_only or no_transform). When p alone is off
// /clock the headline names its publisher (publisherOf) and guesses it.
func (d decider) offClockVerdict(v *draft, p *analysis.PairSummary, c analysis.Class) {
	off := d.rep.OffClockTopics()
	lag := off[p.Topic]
	v.Class = analysis.VerdictSensorOnSystemClock
	var names []string
	for _, q := range d.pairs() {
		if _, ok := off[q.Topic]; ok && !slices.Contains(names, q.Topic) {
			names = append(names, q.Topic)
		}
	}
	if len(names) > 1 {
		v.head = whole(fmt.Sprintf("%s are stamped with system time while /clock runs sim time: their drivers ignore use_sim_time; %s.", analysis.JoinNames(names), d.simTimeFix(names...)), names...)
	} else {
		v.head = whole(fmt.Sprintf("%s is stamped with system time while /clock runs sim time: %s ignores use_sim_time; %s.",
			p.Topic, d.publisherOf(p, false), d.simTimeFix(p.Topic)), p.Topic)
		v.head.guessed = p.Topic
	}
	v.head.ask = askSimTimeTrue
	c0, c1 := d.rep.Pass.ClockFirstNS, d.rep.Pass.ClockLastNS
	v.Evidence = append(v.Evidence, fmt.Sprintf("%s: header stamps follow the recorder's system clock (record time − stamp %s, median) while /clock runs %s .. %s.",
		p.Topic, analysis.FmtS(lag), analysis.FmtS(float64(c0)/1e9), analysis.FmtS(float64(c1)/1e9)))
	switch c {
	case analysis.StaticOnly:
		v.Evidence = append(v.Evidence, fmt.Sprintf("Only static transforms link '%s' to '%s', and tf2 matches those at any time: the %s filter passes these messages here, but a consumer whose frame lies across a dynamic link (odom, map) waits for a transform at the message's stamp, ~1.79e9 s past sim time, that never comes, and drops it when the queue is full.",
			p.FrameID, p.TargetFrame, p.Consumer))
	default:
		v.Evidence = append(v.Evidence, fmt.Sprintf("No transform connects '%s' to '%s' in this bag, so tf cannot show the mismatch; /clock does.", p.FrameID, p.TargetFrame))
	}
	v.cmds = append(v.cmds, listSimTime(), echo("/clock", ""))
}

// offClockFinding reports whether the verdict's off-clock case applies,
// for the findings (--fail-on clock-mismatch).
func (d decider) offClockFinding() bool {
	p, _ := d.rep.OffClockPair()
	return p != nil
}

// clockUnusedEvidence says, when /clock runs sim time but every analysed
// topic and dynamic link is stamped with system time, that nothing in the
// bag follows /clock: one clock everywhere else, so no row shows a
// mismatch, yet a node started with use_sim_time:=true would follow that
// /clock and find every stamp ~1.79e9 s ahead.
func (d decider) clockUnusedEvidence(v *draft) {
	if !d.rep.SimClock() || v.Class == analysis.VerdictSensorOnSystemClock {
		return
	}
	system := false
	for _, s := range d.rep.Skew {
		if s.Count == 0 {
			continue
		}
		if d.rep.StampFamily(s) == 0 {
			return
		}
		system = true
	}
	if !system {
		return
	}
	c0, c1 := d.rep.Pass.ClockFirstNS, d.rep.Pass.ClockLastNS
	v.Evidence = append(v.Evidence, fmt.Sprintf("/clock runs sim time (%s .. %s) but every analysed topic and tf link is stamped with system time: no node in the bag follows /clock. If the robot was meant to run on sim time, no node has use_sim_time:=true; if not, something on this ROS domain publishes /clock (a simulator, or ros2 bag play --clock), and a node started with use_sim_time:=true would follow it and find every stamp ~1.79e9 s ahead.",
		analysis.FmtS(float64(c0)/1e9), analysis.FmtS(float64(c1)/1e9)))
}

// offClockEvidence names, under a headline about another fault, the
// topics stamped with system time while /clock runs sim time on paths tf
// cannot judge (they need the same fix, and no row shows them).
func (d decider) offClockEvidence(v *draft) {
	if v.Class == analysis.VerdictSensorOnSystemClock {
		return
	}
	off := d.rep.OffClockTopics()
	var names []string
	for _, p := range d.pairs() {
		if _, ok := off[p.Topic]; !ok || p.Identity() || slices.Contains(names, p.Topic) || slices.Contains(v.head.topics, p.Topic) {
			continue
		}
		if judged := p.Classes[string(analysis.StaticOnly)] + p.Classes[string(analysis.NoTransform)]; 10*judged >= p.Rows() && judged > 0 {
			names = append(names, p.Topic)
		}
	}
	if len(names) == 0 {
		return
	}
	v.Evidence = append(v.Evidence, fmt.Sprintf("%s: stamped with system time while /clock runs sim time, on paths tf cannot judge (static links only, or no transform): their drivers ignore use_sim_time too.", examples(names)))
}
