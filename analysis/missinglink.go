package analysis

import (
	"fmt"
	"github.com/bagclock/bagclock/analysis/finding"
	"strings"
)

// failOnMissingLink is the --fail-on class of a sensor frame that no
// transform in the bag connects to its target. It is kept apart from
// "drop": the bag cannot show whether the link is missing on the robot
// (a URDF without it) or only from the recording (a latched /tf_static
// published before the recorder started), and either way no clock or
// queue setting would save those messages.
const failOnMissingLink = string(finding.MissingLink)

// VerdictMissingLink: the leading topic's frame is in the tf tree but never
// connected to the target.
const VerdictMissingLink = "missing_link"

// neverConnected reports whether a pair's frame is never connected to its
// target in the bag's tf (while the target is in the tree): its messages
// cannot be transformed at any time, whatever the clocks.
func (a *analyzer) neverConnected(p *pairStats) bool {
	if p.pathSeen || p.frame == "" || !a.hasTF() || !a.treeHas(p.target) {
		return false
	}
	ts := a.topics.find(p.topic)
	if ts == nil || ts.tf == nil {
		return false
	}
	_, err := ts.tf.buf.AppendPath(nil, strings.TrimPrefix(p.target, "/"), strings.TrimPrefix(p.frame, "/"))
	return err != nil
}

// missingLinkDrops counts the emulated drops of never-connected pairs:
// they are the missing-link finding, not the drop finding.
func (a *analyzer) missingLinkDrops() (drops int, pairs []*pairStats) {
	for _, p := range a.pairs {
		if !a.neverConnected(p) {
			continue
		}
		pairs = append(pairs, p)
		for k, n := range p.outcomes {
			if strings.HasPrefix(k, "dropped_") && k != "dropped_empty_frame" {
				drops += n
			}
		}
	}
	return drops, pairs
}

// missingLinkSentence words a frame that is in the tree but never connected
// to the target: the two subtrees and what joins them.
func (a *analyzer) missingLinkSentence(p *pairStats) string {
	frame, target := strings.TrimPrefix(p.frame, "/"), strings.TrimPrefix(p.target, "/")
	where := ""
	if ts := a.topics.find(p.topic); ts != nil && ts.tf != nil {
		switch fr, ok := ts.tf.root(frame); {
		case ok && fr != frame:
			where = fmt.Sprintf(" ('%s' hangs under '%s', in a tree without '%s')", frame, fr, target)
		case ok:
			where = fmt.Sprintf(" ('%s' is the root of a tree without '%s')", frame, target)
		}
	}
	n := 0
	for _, k := range p.classes {
		n += k
	}
	return fmt.Sprintf("Frame '%s' is never connected to '%s' in this bag's tf%s: a missing static transform or URDF link, not a clock problem; a consumer with fixed frame '%s' drops every one of %s's %s. Publish the link (robot_state_publisher with the full URDF, or a static_transform_publisher) and record /tf_static from the start.",
		frame, target, where, target, p.topic, plural(n, strings.TrimSuffix(unitOf(p.typ), "s")))
}

// missingLinkEvidence names never-connected pairs that do not lead the
// verdict, one line each (at most three).
func (a *analyzer) missingLinkEvidence(v *Verdict, lead *pairStats) {
	_, pairs := a.missingLinkDrops()
	k := 0
	for _, p := range pairs {
		if p == lead || k == 3 {
			continue
		}
		k++
		v.Evidence = append(v.Evidence, a.missingLinkSentence(p))
	}
}
