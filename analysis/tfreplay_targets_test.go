package analysis

import (
	"strings"
	"testing"
)

// TestDecideTargetsCases walks every case of decideTargets on small trees
// (issue 15): odom when it is above the frame, the frame itself when it is
// a root, odom above a static-only link, the root above odom otherwise,
// odom when it is in another tree, the frame's root when the bag has no
// odom.
func TestDecideTargetsCases(t *testing.T) {
	type link struct {
		parent, child string
		static        bool
	}
	robot := []link{{"map", "odom", true}, {"odom", "base_link", false}, {"base_link", "laser", true}, {"world", "cam", true}}
	amcl := []link{{"map", "odom", false}, {"odom", "base_link", false}}
	noOdom := []link{{"world", "cam", true}, {"cam", "lens", false}}
	for _, tc := range []struct {
		name  string
		tree  []link
		frame string
		want  string
		note  string // substring of the note; "" for none
	}{
		{"under odom", robot, "laser", "odom", ""},
		{"under odom, leading slash", robot, "/laser", "odom", ""},
		{"root of odom's tree", robot, "map", "odom", ""},
		{"root of another tree", robot, "world", "world", ""},
		{"in another tree than odom", robot, "cam", "odom", ""},
		{"odom under a static link", robot, "odom", "odom", ""},
		{"odom under a dynamic link", amcl, "odom", "map", "Checked against 'map', the root of the tf tree, not the default target 'odom'"},
		{"odom is the root", amcl[1:], "odom", "odom", ""},
		{"not in the tree", robot, "radar", "odom", ""},
		{"no odom: the frame's root", noOdom, "lens", "world", "Frame 'lens' checked against 'world', the root of its tf tree: the tree has no 'odom'"},
		{"no odom: a root", noOdom, "world", "world", ""},
		{"no tree", nil, "laser", "odom", ""},
	} {
		tr := newTFReplay(10e9)
		for _, l := range tc.tree {
			tr.noteParent(l.parent, l.child, l.static)
		}
		targets, note := tr.decideTargets(tc.frame)
		if len(targets) != 1 || targets[0] != tc.want {
			t.Errorf("%s: targets %q, want [%s]", tc.name, targets, tc.want)
		}
		if tc.note == "" && note != "" || tc.note != "" && !strings.Contains(note, tc.note) {
			t.Errorf("%s: note %q, want %q", tc.name, note, tc.note)
		}
	}
}
