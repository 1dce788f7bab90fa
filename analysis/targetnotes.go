package analysis

import (
	"regexp"
	"strings"
)

// rootNote matches the note decideTargets writes for a frame checked
// against the root of a tree without the default target.
var rootNote = regexp.MustCompile(`^Frame '(.*)' checked against '(.*)', the root of its tf tree: (.*)$`)

// mergeRootNotes makes one evidence line of the notes of frames checked
// against the same root for the same reason (four sensors of one robot
// without odom said it four times), in the order of their first note;
// other notes stay as they are. Settings.TargetNotes keeps one per frame.
func mergeRootNotes(notes []string) []string {
	type group struct {
		at     int
		frames []string
		root   string
		reason string
	}
	var out []string
	groups := map[string]*group{}
	var order []*group
	for _, n := range notes {
		m := rootNote.FindStringSubmatch(n)
		if m == nil {
			out = append(out, n)
			continue
		}
		key := m[2] + "\x00" + m[3]
		g := groups[key]
		if g == nil {
			g = &group{at: len(out), root: m[2], reason: m[3]}
			groups[key] = g
			order = append(order, g)
			out = append(out, "") // filled below
		}
		g.frames = append(g.frames, "'"+m[1]+"'")
	}
	for _, g := range order {
		if len(g.frames) == 1 {
			out[g.at] = "Frame " + g.frames[0] + " checked against '" + g.root + "', the root of its tf tree: " + g.reason
			continue
		}
		list := strings.Join(g.frames[:len(g.frames)-1], ", ") + " and " + g.frames[len(g.frames)-1]
		out[g.at] = "Frames " + list + " checked against '" + g.root + "', the root of their tf tree: " + g.reason
	}
	return out
}
