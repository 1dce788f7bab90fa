package analysis

import (
	"fmt"
	"strings"

	"github.com/bagclock/bagclock/analysis/finding"
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

// NeverConnected reports whether a pair's frame is never connected to its
// target in the bag's tf (while the target is in the tree): its messages
// cannot be transformed at any time, whatever the clocks.
func (r *Report) NeverConnected(p *PairSummary) bool {
	if p.PathSeen || p.FrameID == "" || len(r.TFTree) == 0 || !r.TreeHas(p.TargetFrame) {
		return false
	}
	return !p.FrameConnectedAtEnd
}

// MissingLinkDrops counts the emulated drops of never-connected pairs:
// they are the missing-link finding, not the drop finding.
func (r *Report) MissingLinkDrops() (drops int, pairs []*PairSummary) {
	for _, p := range r.pairPtrs() {
		if !r.NeverConnected(p) {
			continue
		}
		pairs = append(pairs, p)
		for k, n := range p.Filter {
			if strings.HasPrefix(k, "dropped_") && k != "dropped_empty_frame" {
				drops += n
			}
		}
	}
	return drops, pairs
}

// MissingLinkSentence words a frame that is in the tree but never connected
// to the target: the two subtrees and what joins them.
func (r *Report) MissingLinkSentence(p *PairSummary) string {
	frame, target := strings.TrimPrefix(p.FrameID, "/"), strings.TrimPrefix(p.TargetFrame, "/")
	where := ""
	switch fr := p.FrameRoot; {
	case fr != "" && fr != frame:
		where = fmt.Sprintf(" ('%s' hangs under '%s', in a tree without '%s')", frame, fr, target)
	case fr != "":
		where = fmt.Sprintf(" ('%s' is the root of a tree without '%s')", frame, target)
	}
	n := p.Rows()
	return fmt.Sprintf("Frame '%s' is never connected to '%s' in this bag's tf%s: a missing static transform or URDF link, not a clock problem; a consumer with fixed frame '%s' drops every one of %s's %s. Publish the link (robot_state_publisher with the full URDF, or a static_transform_publisher) and record /tf_static from the start.",
		frame, target, where, target, p.Topic, Plural(n, strings.TrimSuffix(UnitOf(p.Type), "s")))
}
