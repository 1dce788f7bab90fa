package analysis

import (
	"fmt"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
)

// Tests of the tf replay's link statistics (issue 15): a link is keyed by
// parent, child and topic however the messages place it, and the tree
// table lists links in that order.

func TestTFLinksKeyed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		links []treeLink
		want  []string // parent->child on topic: count
	}{
		{
			// Each link is the only transform of its message: both sit at
			// position 0 in turn.
			name: "two children of one parent in turn",
			links: []treeLink{
				{parent: "odom", child: "b", stamp: simAt},
				{parent: "odom", child: "a", stamp: simAt},
			},
			want: []string{"odom->a on /tf: 50", "odom->b on /tf: 50"},
		},
		{
			name: "two parents of one child name in turn",
			links: []treeLink{
				{parent: "odom", child: "x", stamp: simAt},
				{parent: "map", child: "x", stamp: simAt},
			},
			want: []string{"map->x on /tf: 50", "odom->x on /tf: 50"},
		},
		{
			name: "one link on two robots' topics, the second first",
			links: []treeLink{
				{parent: "odom", child: "base_link", stamp: simAt, topic: "/robot2/tf"},
				{parent: "odom", child: "base_link", stamp: simAt, topic: "/robot1/tf"},
				{parent: "odom", child: "base_link", stamp: simAt, every: 4},
			},
			want: []string{"odom->base_link on /robot1/tf: 50", "odom->base_link on /robot2/tf: 50", "odom->base_link on /tf: 25"},
		},
	} {
		rep, _ := analyzeGen(t, genTree(t, bagwrite.StorageMCAP, tc.links, true, 100), Config{})
		var got []string
		for _, l := range rep.TFTree {
			got = append(got, fmt.Sprintf("%s->%s on %s: %d", l.Parent, l.Child, l.Topic, l.Count))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: tree %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTFParentLoop: a loop of parents (a broken tree) ends the walk up:
// no dynamic link above, and some frame of the loop as its root.
func TestTFParentLoop(t *testing.T) {
	tr := newTFReplay(10e9)
	tr.noteParent("a", "b", true)
	tr.noteParent("b", "a", true)
	if tr.dynamicAbove("a") {
		t.Error("dynamic link above a static loop")
	}
	if r, ok := tr.root("a"); !ok || r != "a" && r != "b" {
		t.Errorf("root of a loop: %q, %v", r, ok)
	}
}
