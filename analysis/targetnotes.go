package analysis

import (
	"fmt"
	"strings"
)

// TargetReason says why a default target is not the default frame.
type TargetReason int

const (
	// TargetFrameIsDefault: the messages are in the default frame already
	// and a dynamic link sits above it, so the root is the target.
	TargetFrameIsDefault TargetReason = iota + 1
	// TargetNoDefault: the frame's tf tree has no default frame, so its
	// root is the target.
	TargetNoDefault
)

// TargetDecision is a default target other than the default frame, chosen
// at the first message in Frame. The sentences of the report are rendered
// from it, never parsed back.
type TargetDecision struct {
	Frame   string       // the messages' frame_id, without a leading '/'
	Default string       // the default target passed over (odom)
	Root    string       // the root of Frame's tf tree: the target chosen
	Reason  TargetReason // why Root and not Default
}

// Note is the decision as one sentence of the report.
func (d TargetDecision) Note() string {
	if d.Reason == TargetFrameIsDefault {
		return fmt.Sprintf("Checked against '%s', the root of the tf tree, not the default target '%s': the messages are in frame '%s' already (--target-frame overrides).", d.Root, d.Default, d.Frame)
	}
	return noDefaultNote([]string{d.Frame}, d.Root, d.Default)
}

// noDefaultNote says that frames were checked against root because their
// tree has no def.
func noDefaultNote(frames []string, root, def string) string {
	q := make([]string, len(frames))
	for i, f := range frames {
		q[i] = "'" + f + "'"
	}
	if len(q) == 1 {
		return fmt.Sprintf("Frame %s checked against '%s', the root of its tf tree: the tree has no '%s', the default target (--target-frame overrides).", q[0], root, def)
	}
	list := strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
	return fmt.Sprintf("Frames %s checked against '%s', the root of their tf tree: the tree has no '%s', the default target (--target-frame overrides).", list, root, def)
}

// TargetEvidence renders decisions as evidence lines, one for all frames
// checked against the same root because their tree has no default (four
// sensors of one robot without odom said it four times), in the order of
// their first decision; other decisions get a line each.
func TargetEvidence(ds []TargetDecision) []string {
	type group struct {
		at     int
		frames []string
	}
	type key struct{ root, def string }
	var out []string
	groups := map[key]*group{}
	var order []key
	for _, d := range ds {
		if d.Reason != TargetNoDefault {
			out = append(out, d.Note())
			continue
		}
		k := key{d.Root, d.Default}
		g := groups[k]
		if g == nil {
			g = &group{at: len(out)}
			groups[k] = g
			order = append(order, k)
			out = append(out, "") // filled below
		}
		g.frames = append(g.frames, d.Frame)
	}
	for _, k := range order {
		g := groups[k]
		out[g.at] = noDefaultNote(g.frames, k.root, k.def)
	}
	return out
}

// addTarget records a decision once, with its sentence in TargetNotes.
func (s *Settings) addTarget(d TargetDecision) {
	for _, e := range s.TargetDecisions {
		if e == d {
			return
		}
	}
	s.TargetDecisions = append(s.TargetDecisions, d)
	s.TargetNotes = append(s.TargetNotes, d.Note())
}
