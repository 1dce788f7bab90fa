package verdict

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestAcrossDynamicLink: the nearest frame whose path from the frame
// crosses a dynamic link, links taken either way; none in a static tree.
func TestAcrossDynamicLink(t *testing.T) {
	static := func(p, c string) analysis.TFLink {
		return analysis.TFLink{Parent: p, Child: c, Static: true, Topic: "/tf_static"}
	}
	dynamic := func(p, c string) analysis.TFLink { return analysis.TFLink{Parent: p, Child: c, Topic: "/tf", Count: 5} }
	for _, tc := range []struct {
		name  string
		tree  []analysis.TFLink
		frame string
		want  string
		link  string
	}{
		{"a dynamic child", []analysis.TFLink{dynamic("f", "c")}, "f", "c", "f->c"},
		{"a dynamic parent, up the tree", []analysis.TFLink{dynamic("odom", "base_link"), static("base_link", "laser")}, "laser", "odom", "odom->base_link"},
		{"the nearest of two", []analysis.TFLink{static("f", "a"), dynamic("a", "far"), dynamic("f", "near")}, "f", "near", "f->near"},
		{"a static tree", []analysis.TFLink{static("f", "a"), static("a", "b")}, "f", "", ""},
		{"a frame off the tree", []analysis.TFLink{dynamic("odom", "base_link")}, "camera", "", ""},
	} {
		got, l := acrossDynamicLink(tc.tree, tc.frame)
		link := ""
		if got != "" {
			link = l.Parent + "->" + l.Child
		}
		if got != tc.want || link != tc.link {
			t.Errorf("%s: %q via %q, want %q via %q", tc.name, got, link, tc.want, tc.link)
		}
	}
}

// TestTargetIsFrameVerdict: every analysed topic in the target frame
// itself checks nothing; the headline names the topics and a target across
// a dynamic link, or says the tree cannot show a mismatch.
func TestTargetIsFrameVerdict(t *testing.T) {
	identity := func(topic string) analysis.PairSummary {
		return analysis.PairSummary{Topic: topic, Type: "sensor_msgs/msg/Imu", FrameID: "f", TargetFrame: "f", Classes: map[string]int{string(analysis.StaticOnly): 2}}
	}
	for _, tc := range []struct {
		name     string
		tree     []analysis.TFLink
		pairs    []analysis.PairSummary
		sentence string
		evidence string
	}{
		{"a dynamic link to cross", []analysis.TFLink{{Parent: "f", Child: "c", Topic: "/tf", Count: 3}}, pairs(identity("/imu"), identity("/imu2")),
			"/imu and /imu2 are in the target frame 'f' already (frame_id 'f'): no transform was looked up, so no clock was checked; check against a frame across a dynamic link instead, e.g. --target-frame c.",
			"The nearest dynamic link from 'f' in the tf tree is f->c on /tf (3 transforms): a lookup across it compares the messages' stamps with tf's."},
		{"a static tree", []analysis.TFLink{{Parent: "f", Child: "c", Topic: "/tf_static", Static: true}}, pairs(identity("/imu")),
			"/imu is in the target frame 'f' already (frame_id 'f'): no transform was looked up, so no clock was checked, and no dynamic tf link reaches 'f': this bag cannot show a clock mismatch against tf.",
			"2 messages of /imu were in frame 'f', the target: tf2 hands them on at once without a lookup, whatever their stamps."},
	} {
		r := &analysis.Report{Pairs: tc.pairs, TFTree: tc.tree}
		for _, p := range tc.pairs {
			r.Summary.Scans += p.Rows()
		}
		v := Decide(r)
		if v.Class != analysis.VerdictTargetIsFrame || v.Sentence != tc.sentence || !containsSub(v.Evidence, tc.evidence) {
			t.Errorf("%s: %s %q %q\nwant %q with %q", tc.name, v.Class, v.Sentence, strings.Join(v.Evidence, " | "), tc.sentence, tc.evidence)
		}
	}
}
