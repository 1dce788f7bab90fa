package verdict

import (
	"fmt"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// nameNodes puts the node table into the verdict: when the headline asks
// for use_sim_time:=true on some node (askSimTimeTrue), it names the
// node(s) the bag shows with use_sim_time=false and puts their
// `ros2 param get` first among the commands, or says plainly that the bag
// cannot tell. A headline that suspects use_sim_time:=true without /clock
// is not about those nodes: it says only that a bag without
// /parameter_events cannot tell which node it is.
func nameNodes(v *draft, rep *analysis.Report) {
	hasParamEvents := rep.Pass.ParamEvents
	var off, on []analysis.NodeClock
	for _, n := range rep.Nodes {
		switch n.UseSimTime {
		case "false":
			off = append(off, n)
		case "true":
			on = append(on, n)
		}
	}
	asks := v.head.ask == askSimTimeTrue
	line := ""
	if len(off) > 0 && len(on) > 0 {
		var parts []string
		for i, n := range off {
			if i == 3 {
				parts = append(parts, fmt.Sprintf("%d more", len(off)-3))
				break
			}
			parts = append(parts, fmt.Sprintf("%s has use_sim_time=false (parameter event at +%.1f s)", n.Node, n.UseSimTimeAtS))
		}
		others := on[0].Node
		if len(on) > 1 {
			others += fmt.Sprintf(" and the other %d nodes that announce it", len(on)-1)
		}
		line = fmt.Sprintf("%s while %s have true.", strings.Join(parts, "; "), others)
	}
	switch {
	case asks && len(off) > 0:
		if line == "" {
			line = fmt.Sprintf("%s has use_sim_time=false (parameter event at +%.1f s).", off[0].Node, off[0].UseSimTimeAtS)
		}
		v.head.add(" The bag names it: " + line)
		var cmds []command
		for i, n := range off {
			if i == 3 {
				break
			}
			cmds = append(cmds, paramSimTime(n.Node))
		}
		v.cmds = append(cmds, v.cmds...)
	case asks, v.head.ask == suspectSimTimeWithoutClock && !hasParamEvents:
		why := "it has no /parameter_events"
		if hasParamEvents {
			why = "no node in its /parameter_events announces use_sim_time=false (a node announces its parameters when it starts, so nodes started before the recording are not in it)"
		}
		v.Evidence = append(v.Evidence, "The bag cannot tell which node this is: "+why+".")
	case line != "":
		v.Evidence = append(v.Evidence, "Nodes and their clocks: "+line+" Their topics are not the ones analysed here, or their stamps agree anyway.")
	}
}
