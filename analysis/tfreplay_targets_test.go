package analysis

import "testing"

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
		why   *TargetDecision // nil when the target is odom or a root
	}{
		{"under odom", robot, "laser", "odom", nil},
		{"under odom, leading slash", robot, "/laser", "odom", nil},
		{"root of odom's tree", robot, "map", "odom", nil},
		{"root of another tree", robot, "world", "world", nil},
		{"in another tree than odom", robot, "cam", "odom", nil},
		{"odom under a static link", robot, "odom", "odom", nil},
		{"odom under a dynamic link", amcl, "odom", "map", &TargetDecision{Frame: "odom", Default: "odom", Root: "map", Reason: TargetFrameIsDefault}},
		{"odom is the root", amcl[1:], "odom", "odom", nil},
		{"not in the tree", robot, "radar", "odom", nil},
		{"no odom: the frame's root", noOdom, "lens", "world", &TargetDecision{Frame: "lens", Default: "odom", Root: "world", Reason: TargetNoDefault}},
		{"no odom: a root", noOdom, "world", "world", nil},
		{"no tree", nil, "laser", "odom", nil},
	} {
		tr := newTFReplay(10e9)
		for _, l := range tc.tree {
			tr.noteParent(l.parent, l.child, l.static)
		}
		targets, why := tr.decideTargets(tc.frame)
		if len(targets) != 1 || targets[0] != tc.want {
			t.Errorf("%s: targets %q, want [%s]", tc.name, targets, tc.want)
		}
		if (why == nil) != (tc.why == nil) || why != nil && *why != *tc.why {
			t.Errorf("%s: decision %+v, want %+v", tc.name, why, tc.why)
		}
	}
}
