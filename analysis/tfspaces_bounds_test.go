package analysis

import (
	"fmt"
	"testing"

	"github.com/bagclock/bagclock/analysis/topics"
)

// Tests of the tf namespaces (issue 15): which namespace is primary, and
// which one an analysed topic is looked up in.

func TestNamespaceOf(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"/tf", ""}, {"tf", ""}, {"//tf", ""}, {"/robot1/tf", "robot1"}, {"robot1/tf", "robot1"},
		{"/a/b/tf_static", "a/b"}, {"", ""},
	} {
		if got := namespaceOf(tc.name); got != tc.want {
			t.Errorf("namespaceOf(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestTFNamespacesOrder(t *testing.T) {
	tfs := func(names ...string) []topics.TopicInfo {
		var out []topics.TopicInfo
		for _, n := range names {
			role := topics.TF
			if n == "/cam/image" {
				role = topics.Stamped
			}
			out = append(out, topics.TopicInfo{Name: n, Role: role})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		infos []topics.TopicInfo
		want  []string
	}{
		{"no tf topic", tfs("/cam/image"), nil},
		{"root only", tfs("/tf", "/tf_static"), []string{""}},
		{"root first though smaller", tfs("/b/tf", "/b/tf_static", "/tf", "/a/tf"), []string{"", "a", "b"}},
		{"root first, listed last", tfs("/b/tf", "/tf"), []string{"", "b"}},
		{"most tf topics first", tfs("/a/tf", "/c/tf", "/b/tf", "/b/tf_static", "/cam/image"), []string{"b", "a", "c"}},
		{"most tf topics first, listed last", tfs("/a/tf", "/b/tf", "/b/tf_static"), []string{"b", "a"}},
		{"ties by name", tfs("/b/tf", "/b/tf_static", "/a/tf", "/a/tf_static"), []string{"a", "b"}},
	} {
		if got := tfNamespaces(tc.infos); fmt.Sprint(got) != fmt.Sprint(tc.want) || len(got) != len(tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSpaceFor: the longest namespace with tf topics that holds the
// topic, else the primary one.
func TestSpaceFor(t *testing.T) {
	a := &analyzer{}
	for i, ns := range []string{"", "robot1", "robot1/arm", "robot10"} {
		tr := newTFReplay(10e9)
		tr.ns, tr.id = ns, i
		a.tfSpaces = append(a.tfSpaces, tr)
	}
	a.tf = a.tfSpaces[0]
	for _, tc := range []struct{ topic, want string }{
		{"/scan", ""},
		{"/robot1/scan", "robot1"},
		{"/robot1/arm/camera/image", "robot1/arm"},
		{"/robot1/arm_camera", "robot1"},
		{"/robot10/scan", "robot10"},
		{"/robot2/scan", ""},
	} {
		if got := a.spaceFor(tc.topic).ns; got != tc.want {
			t.Errorf("spaceFor(%s) = %q, want %q", tc.topic, got, tc.want)
		}
	}
}
