package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// targetIsFrameVerdict is the headline when every analysed topic is in
// the target frame itself: no transform was looked up, so nothing was
// checked. It names how many topics that is and, from the tf tree, a
// frame across a dynamic link to check against instead; a tree with no
// dynamic link from there cannot show a clock mismatch at all.
func (d decider) targetIsFrameVerdict(v *draft) {
	p := d.pairs()[0]
	var topics []string
	rows := 0
	for _, q := range d.pairs() {
		if !q.Identity() {
			continue
		}
		rows += q.Rows()
		if !slices.Contains(topics, q.Topic) {
			topics = append(topics, q.Topic)
		}
	}
	subject := fmt.Sprintf("%s is", p.Topic)
	if len(topics) > 1 {
		subject = analysis.JoinNames(topics) + " are"
	}
	v.Class = analysis.VerdictTargetIsFrame
	frame, link := acrossDynamicLink(d.rep.TFTree, p.FrameID)
	switch {
	case frame != "":
		v.head = whole(fmt.Sprintf("%s in the target frame '%s' already (frame_id '%s'): no transform was looked up, so no clock was checked; check against a frame across a dynamic link instead, e.g. --target-frame %s.", subject, p.TargetFrame, p.FrameID, frame), topics...)
		v.Evidence = append(v.Evidence, fmt.Sprintf("The nearest dynamic link from '%s' in the tf tree is %s on %s (%s): a lookup across it compares the messages' stamps with tf's.", p.FrameID, link.Parent+"->"+link.Child, link.Topic, analysis.Plural(link.Count, "transform")))
	case d.hasTF():
		v.head = whole(fmt.Sprintf("%s in the target frame '%s' already (frame_id '%s'): no transform was looked up, so no clock was checked, and no dynamic tf link reaches '%s': this bag cannot show a clock mismatch against tf.", subject, p.TargetFrame, p.FrameID, p.FrameID), topics...)
	default:
		v.head = whole(fmt.Sprintf("%s in the target frame '%s' already (frame_id '%s'): no transform to check; choose another target (--target-frame).", subject, p.TargetFrame, p.FrameID), topics...)
	}
	of := p.Topic
	noun := strings.TrimSuffix(analysis.UnitOf(p.Type), "s")
	if len(topics) > 1 {
		noun, of = "message", analysis.Plural(len(topics), "analysed topic")
	}
	v.Evidence = append(v.Evidence, fmt.Sprintf("%s of %s %s in frame '%s', the target: tf2 hands them on at once without a lookup, whatever their stamps.",
		analysis.Plural(rows, noun), of, wasWere(rows), p.FrameID))
}

// acrossDynamicLink is the frame nearest to frame in the tf tree (links
// taken either way, as tf2 looks up) whose path from frame crosses a
// dynamic link, and that link; "" when none. The search stops at the first
// dynamic link, so every frame it walks through is static from frame.
func acrossDynamicLink(tree []analysis.TFLink, frame string) (string, analysis.TFLink) {
	seen := map[string]bool{frame: true}
	queue := []string{frame}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, l := range tree {
			next := ""
			switch f {
			case l.Parent:
				next = l.Child
			case l.Child:
				next = l.Parent
			}
			if next == "" || seen[next] {
				continue
			}
			if !l.Static {
				return next, l
			}
			seen[next] = true
			queue = append(queue, next)
		}
	}
	return "", analysis.TFLink{}
}
