package analysis

import (
	"fmt"
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

// TestMissingLinkDropsCount: the drops of never-connected pairs are every
// dropped_ outcome but dropped_empty_frame; a pair whose path was seen is
// not never-connected.
func TestMissingLinkDropsCount(t *testing.T) {
	a := missingLinkAnalyzer(t, 3, 4)
	a.pairs[1].outcomes["dropped_empty_frame"] = 100
	a.pairs[1].outcomes["passed"] = 1000
	a.pairs[2].pathSeen = true
	rep := reportOf(a)
	drops, pairs := rep.MissingLinkDrops()
	if drops != 8 || len(pairs) != 2 || pairs[0] != &rep.Pairs[0] || pairs[1] != &rep.Pairs[1] {
		t.Errorf("missingLinkDrops = %d, %d pairs; want 8 drops of /scan1 and /scan2", drops, len(pairs))
	}
}
