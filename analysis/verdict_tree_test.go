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

// TestMergeRootNotes: the notes of frames checked against the same root
// of a tree without odom become one line; others stay as they are.
func TestMergeRootNotes(t *testing.T) {
	note := func(frame, root string) string {
		return fmt.Sprintf("Frame '%s' checked against '%s', the root of its tf tree: the tree has no 'odom', the default target (--target-frame overrides).", frame, root)
	}
	other := "Checked against 'map', the root of the tf tree, not the default target 'odom': the messages are in frame 'odom' already (--target-frame overrides)."
	got := mergeRootNotes([]string{note("imu_link", "base_link"), other, note("laser", "base_link"), note("gps", "world"), note("lidar", "base_link")})
	want := []string{
		"Frames 'imu_link', 'laser' and 'lidar' checked against 'base_link', the root of their tf tree: the tree has no 'odom', the default target (--target-frame overrides).",
		other,
		note("gps", "world"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
