package analysis

import (
	"fmt"
	"strings"
	"testing"
)

// TestTreeFrameVerdicts: the headlines for a target frame or a message
// frame the bag's tf tree lacks, with the tree's frames listed (six at
// most, then how many more).
func TestTreeFrameVerdicts(t *testing.T) {
	const s = int64(1e9)
	bag := func(links [][2]string) []lookAheadEvent {
		var ev []lookAheadEvent
		for i := int64(0); i < 20; i++ {
			ev = append(ev, lookAheadEvent{at: i * s / 10})
			for _, l := range links {
				ev = append(ev, lookAheadEvent{at: i * s / 10, parent: l[0], child: l[1]})
			}
		}
		return ev
	}
	small := [][2]string{{"odom", "base_link"}, {"base_link", "laser"}}
	big := [][2]string{{"odom", "base_link"}, {"base_link", "laser"}}
	for i := range 6 {
		big = append(big, [2]string{"base_link", fmt.Sprintf("wheel_%d", i)})
	}
	noLaser := [][2]string{{"odom", "base_link"}, {"base_link", "imu_link"}}
	bigNoLaser := append([][2]string(nil), big[2:]...)
	bigNoLaser = append(bigNoLaser, [2]string{"odom", "base_link"})
	for _, tc := range []struct {
		name    string
		links   [][2]string
		targets []string
		class   string
		part    string
	}{
		{"target not in a small tree", small, []string{"map"}, VerdictTargetNotInTree,
			"The target frame 'map' is not in this bag's tf tree (it has base_link, laser, odom): /scan cannot be checked"},
		{"target not in a tree of nine frames", big, []string{"map"}, VerdictTargetNotInTree,
			"(it has base_link, laser, wheel_0, wheel_1, wheel_2, wheel_3 and 3 more)"},
		{"frame not in the tree", noLaser, nil, VerdictFrameNotInTree,
			"No transform in this bag names /scan's frame 'laser' (the tf tree has base_link, imu_link, odom)"},
		{"frame not in a tree of eight frames", bigNoLaser, nil, VerdictFrameNotInTree,
			"(the tf tree has base_link, wheel_0, wheel_1, wheel_2, wheel_3, wheel_4 and 2 more)"},
	} {
		rep, _ := analyzeGen(t, lookAheadBag(t, bag(tc.links), ""), Config{TargetFrames: tc.targets})
		if v := rep.Verdict; v.Class != tc.class || !strings.Contains(v.Sentence, tc.part) {
			t.Errorf("%s: verdict %s %q, want %s with %q", tc.name, v.Class, v.Sentence, tc.class, tc.part)
		}
	}
}

// TestTargetEvidence: the decisions of frames checked against the same
// root of a tree without odom become one line, in the place of the first;
// others keep a line each, rendered from the typed decision.
func TestTargetEvidence(t *testing.T) {
	noOdom := func(frame, root string) TargetDecision {
		return TargetDecision{Frame: frame, Default: "odom", Root: root, Reason: TargetNoDefault}
	}
	inOdom := TargetDecision{Frame: "odom", Default: "odom", Root: "map", Reason: TargetFrameIsDefault}
	for _, tc := range []struct {
		name string
		in   []TargetDecision
		want []string
	}{
		{"none", nil, nil},
		{"one frame without odom", []TargetDecision{noOdom("lens", "world")}, []string{
			"Frame 'lens' checked against 'world', the root of its tf tree: the tree has no 'odom', the default target (--target-frame overrides).",
		}},
		{"frames folded per root", []TargetDecision{noOdom("imu_link", "base_link"), inOdom, noOdom("laser", "base_link"), noOdom("gps", "world"), noOdom("lidar", "base_link")}, []string{
			"Frames 'imu_link', 'laser' and 'lidar' checked against 'base_link', the root of their tf tree: the tree has no 'odom', the default target (--target-frame overrides).",
			"Checked against 'map', the root of the tf tree, not the default target 'odom': the messages are in frame 'odom' already (--target-frame overrides).",
			"Frame 'gps' checked against 'world', the root of its tf tree: the tree has no 'odom', the default target (--target-frame overrides).",
		}},
		{"two frames", []TargetDecision{noOdom("a", "r"), noOdom("b", "r")}, []string{
			"Frames 'a' and 'b' checked against 'r', the root of their tf tree: the tree has no 'odom', the default target (--target-frame overrides).",
		}},
	} {
		got := TargetEvidence(tc.in)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") || len(got) != len(tc.want) {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestAddTargetOnce: a decision met again (a second topic in the same
// frame) is kept once, its note beside it.
func TestAddTargetOnce(t *testing.T) {
	var s Settings
	d := TargetDecision{Frame: "lens", Default: "odom", Root: "world", Reason: TargetNoDefault}
	s.addTarget(d)
	s.addTarget(d)
	if len(s.TargetDecisions) != 1 || len(s.TargetNotes) != 1 || s.TargetNotes[0] != d.Note() {
		t.Errorf("decisions %+v, notes %q: want the decision and its note once", s.TargetDecisions, s.TargetNotes)
	}
}
