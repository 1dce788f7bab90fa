package render

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

func TestTFTreeEdgeKinds(t *testing.T) {
	sys := int64(1_790_000_000_000_000_000)
	links := []analysis.TFLink{
		{Parent: "map", Child: "odom", Topic: "/tf", Count: 100, RateHz: 10, NewestNS: s2ns(59.9)},
		{Parent: "odom", Child: "base_link", Topic: "/tf", Count: 500, RateHz: 50, NewestNS: s2ns(60)},
		{Parent: "base_link", Child: "laser", Topic: "/tf_static", Static: true, Count: 1},
		// A publisher on system time among sim-time links.
		{Parent: "base_link", Child: "arm", Topic: "/tf", Count: 500, RateHz: 50, NewestNS: sys + s2ns(60)},
		// Stopped 20 s before the others at 10 Hz: stale.
		{Parent: "odom", Child: "dock", Topic: "/tf", Count: 100, RateHz: 10, NewestNS: s2ns(40)},
		// A second tree, all on system time: its own clock is consistent.
		{Parent: "world", Child: "camera", Topic: "/tf", Count: 100, RateHz: 30, NewestNS: sys + s2ns(59.99)},
	}
	want := []string{edgeSim, edgeSim, edgeStatic, edgeOtherClock, edgeStale, edgeSystem}
	got := classifyEdges(links)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s->%s: kind %s, want %s", links[i].Parent, links[i].Child, got[i], want[i])
		}
	}

	pairs := []analysis.PairSummary{
		{Topic: "/scan", FrameID: "laser", TargetFrame: "map"},
		{Topic: "/cam", FrameID: "camera", TargetFrame: "odom"}, // another tree: no path
	}
	pic := tfTreePicture(links, pairs)
	if pic == nil {
		t.Fatal("no picture")
	}
	var roots []string
	nodes := map[string]tfNode{}
	for _, n := range pic.Nodes {
		nodes[n.Name] = n
		if n.Root {
			roots = append(roots, n.Name)
		}
	}
	if strings.Join(roots, ",") != "map,world" {
		t.Errorf("roots %v, want a forest of map and world", roots)
	}
	if len(pic.Nodes) != 8 || len(pic.Edges) != 6 {
		t.Errorf("%d nodes and %d edges, want 8 and 6", len(pic.Nodes), len(pic.Edges))
	}
	// Children sit right of their parents, one row each.
	if !(nodes["odom"].X > nodes["map"].X && nodes["laser"].X > nodes["base_link"].X && nodes["laser"].Y > nodes["base_link"].Y) {
		t.Errorf("layout: %+v", nodes)
	}
	// The /scan path laser → base_link → odom → map lights three links
	// and four frames; the arm and dock links stay dark.
	on := 0
	for _, e := range pic.Edges {
		if e.Paths == "0" {
			on++
		}
		if strings.Contains(e.Title, "arm") || strings.Contains(e.Title, "dock") {
			if e.Paths != "" {
				t.Errorf("%s is not on any path, has %q", e.Title, e.Paths)
			}
		}
	}
	if on != 3 {
		t.Errorf("%d links on the /scan path, want 3", on)
	}
	for _, f := range []string{"laser", "base_link", "odom", "map"} {
		if nodes[f].Paths != "0" {
			t.Errorf("frame %s paths %q, want 0", f, nodes[f].Paths)
		}
	}
	if !pic.Paths[0].Found || pic.Paths[1].Found {
		t.Errorf("paths found: %+v", pic.Paths)
	}
	// Every edge is labelled with rate, newest stamp and delay, or static.
	if n := nodes["base_link"].Note; !strings.Contains(n, "50.0 Hz") || !strings.Contains(n, "60.000000000") || !strings.Contains(n, "delay") {
		t.Errorf("base_link note %q", n)
	}
	if n := nodes["laser"].Note; !strings.HasPrefix(n, "static") {
		t.Errorf("laser note %q", n)
	}
}

func TestTFTreeCycleAndEmpty(t *testing.T) {
	if tfTreePicture(nil, nil) != nil {
		t.Error("a picture of no links")
	}
	// a → b → a: no root; both frames are still drawn once.
	pic := tfTreePicture([]analysis.TFLink{
		{Parent: "a", Child: "b", Topic: "/tf", Count: 1, RateHz: 1},
		{Parent: "b", Child: "a", Topic: "/tf", Count: 1, RateHz: 1},
	}, []analysis.PairSummary{{Topic: "/s", FrameID: "a", TargetFrame: "b"}})
	if pic == nil || len(pic.Nodes) != 2 {
		t.Fatalf("cycle: %+v", pic)
	}
}
