package verdict

import (
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// The rule tests run on reports built by hand, as analysis finishes them:
// each rule sees exactly the data it reads, and no bag is needed.

// deciderFor is the decider of a hand-built report.
func deciderFor(r *analysis.Report) decider { return decider{r} }

// pair is the summary of a pair of topic (frame laser) to odom with rows
// of the given classes, whose frame tf joins to the target at the end
// (what analysis reports for a frame when no tree says otherwise).
func pair(topic string, classes map[analysis.Class]int) analysis.PairSummary {
	ps := analysis.PairSummary{Topic: topic, FrameID: "laser", TargetFrame: "odom",
		Classes: map[string]int{}, Filter: map[string]int{}, ConnectedAtEnd: true, FrameConnectedAtEnd: true}
	for k, v := range classes {
		ps.Classes[string(k)] = v
	}
	return ps
}

// pairWith is a pair of topic to odom whose rows count same same_clock
// rows and other rows of class c.
func pairWith(topic string, c analysis.Class, same, other int) analysis.PairSummary {
	classes := map[analysis.Class]int{}
	if same > 0 {
		classes[analysis.SameClock] = same
	}
	if other > 0 {
		classes[c] = other
	}
	return pair(topic, classes)
}

// draftSaying is a draft whose headline is sentence, naming topics, as a
// rule that no later rule rewords would have written it.
func draftSaying(sentence string, topics ...string) draft {
	return draft{head: whole(sentence, topics...)}
}

// stalest makes parent->child on topic p's stalest link, as analysis
// reports it: the name and the link as data.
func stalest(p *analysis.PairSummary, parent, child, topic string) {
	p.Stalest = parent + "->" + child + " on " + topic
	p.StalestParent, p.StalestChild, p.StalestTopic = parent, child, topic
}

// lines are ROS 2's command lines of cmds.
func lines(cmds []command) []string { return renderCommands(cmds, false) }

// containsSub reports whether a line of list holds sub.
func containsSub(list []string, sub string) bool {
	for _, l := range list {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}
