package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/cdr"
)

// Boundary tests of the missing-link evidence (issue 15): which
// never-connected pairs are named besides the one leading the verdict.

// missingLinkAnalyzer is an analyzer whose tree holds odom->base_link and,
// apart from it, laser_mount->laser; it has one analysed topic /scanN per
// pair, each a pair of frame laser against odom (never connected) with
// rows drops rows, all dropped by the filter.
func missingLinkAnalyzer(t *testing.T, n, rows int) *analyzer {
	t.Helper()
	a := &analyzer{}
	tr := newTFReplay(10e9)
	a.tf, a.tfSpaces = tr, []*tfReplay{tr}
	for _, l := range [][2]string{{"odom", "base_link"}, {"laser_mount", "laser"}} {
		st := tf.Stamped{Parent: l[0], Child: l[1], Transform: tf.Transform{Rotation: tf.Quat{W: 1}}}
		if err := tr.buf.SetTransform(st, "/tf_static", true); err != nil {
			t.Fatal(err)
		}
		tr.noteParent(l[0], l[1], true)
		a.rep.TFTree = append(a.rep.TFTree, TFLink{Parent: l[0], Child: l[1], Topic: "/tf_static", Static: true})
	}
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("/scan%d", i)
		a.topics.add(&topicState{name: name, role: roleStamped, tf: tr})
		a.pairs = append(a.pairs, &pairStats{topic: name, frame: "laser", target: "odom", typ: cdr.TypeLaserScan,
			classes: map[Class]int{NoTransform: rows}, outcomes: map[string]int{"dropped_no_transform": rows}})
	}
	return a
}

// TestMissingLinkEvidenceBoundary: besides the leading pair, up to three
// never-connected pairs get an evidence line each, in order.
func TestMissingLinkEvidenceBoundary(t *testing.T) {
	for _, tc := range []struct {
		pairs int
		want  []string // topics named, in order
	}{
		{1, nil},
		{2, []string{"/scan2"}},
		{4, []string{"/scan2", "/scan3", "/scan4"}},
		{5, []string{"/scan2", "/scan3", "/scan4"}},
		{6, []string{"/scan2", "/scan3", "/scan4"}},
	} {
		a := missingLinkAnalyzer(t, tc.pairs, 7)
		var v Verdict
		d := deciderOf(a)
		d.missingLinkEvidence(&v, d.pairs()[0])
		if len(v.Evidence) != len(tc.want) {
			t.Fatalf("%d pairs: %d evidence lines, want %d: %q", tc.pairs, len(v.Evidence), len(tc.want), v.Evidence)
		}
		for i, topic := range tc.want {
			want := fmt.Sprintf("Frame 'laser' is never connected to 'odom' in this bag's tf ('laser' hangs under 'laser_mount', in a tree without 'odom'): a missing static transform or URDF link, not a clock problem; a consumer with fixed frame 'odom' drops every one of %s's 7 scans.", topic)
			if !strings.HasPrefix(v.Evidence[i], want) {
				t.Errorf("%d pairs: evidence %d = %q, want it to start %q", tc.pairs, i, v.Evidence[i], want)
			}
		}
	}
}

// TestMissingLinkDropsCount: the drops of never-connected pairs are every
// dropped_ outcome but dropped_empty_frame; a pair whose path was seen is
// not never-connected.
func TestMissingLinkDropsCount(t *testing.T) {
	a := missingLinkAnalyzer(t, 3, 4)
	a.pairs[1].outcomes["dropped_empty_frame"] = 100
	a.pairs[1].outcomes["passed"] = 1000
	a.pairs[2].pathSeen = true
	d := deciderOf(a)
	drops, pairs := d.rep.MissingLinkDrops()
	if drops != 8 || len(pairs) != 2 || pairs[0] != &d.rep.Pairs[0] || pairs[1] != &d.rep.Pairs[1] {
		t.Errorf("missingLinkDrops = %d, %d pairs; want 8 drops of /scan1 and /scan2", drops, len(pairs))
	}
}
