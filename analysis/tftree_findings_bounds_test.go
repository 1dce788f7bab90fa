package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// Tests of how tf-tree findings reach the verdict and of the static
// conflict finding fed transform by transform (issue 15).

// TestTFStaticConflicts feeds static transforms and checks the finding:
// links named (with their namespace when the bag has several), three at
// most, which value tf2 kept, and how many transforms differed.
func TestTFStaticConflicts(t *testing.T) {
	type feed struct {
		space int
		child string
		x     float64
	}
	for _, tc := range []struct {
		name     string
		spaces   []string
		feed     []feed
		want     string // Count Links
		sentence string
		evidence string
	}{
		{"same value", []string{""}, []feed{{0, "a", 1}, {0, "a", 1}}, "", "", ""},
		{"second value kept", []string{""}, []feed{{0, "a", 0.1}, {0, "a", 0.18}, {0, "a", 0.18}}, "1 [base->a]",
			"Static link base->a is published", "(8.0 cm apart, 0.00° apart; 2 of its transforms differ from the first); tf2 keeps the last one received: the second value."},
		{"first value back", []string{""}, []feed{{0, "a", 0.1}, {0, "a", 2.1}, {0, "a", 0.1}}, "1 [base->a]",
			"Static link base->a is published", "(2.000 m apart, 0.00° apart; 1 of its transforms differ from the first); tf2 keeps the last one received: the first value."},
		{"one namespaced tree: no namespace named", []string{"robot1"}, []feed{{0, "a", 0}, {0, "a", 1}}, "1 [base->a]", "Static link base->a is published", ""},
		{"namespaces named", []string{"", "robot1"}, []feed{{0, "a", 0}, {0, "a", 1}, {1, "b", 0}, {1, "b", 1}}, "2 [base->a in the root namespace base->b in /robot1]",
			"Static links base->a in the root namespace, base->b in /robot1 are published", ""},
		{"four links: three named", []string{""}, []feed{{0, "a", 0}, {0, "b", 0}, {0, "c", 0}, {0, "d", 0}, {0, "a", 1}, {0, "b", 1}, {0, "c", 1}, {0, "d", 1}},
			"4 [base->a base->b base->c]", "Static links base->a, base->b, base->c, base->d are published", ""},
	} {
		a := &analyzer{}
		for _, ns := range tc.spaces {
			tr := newTFReplay(10e9)
			tr.ns = ns
			a.tfSpaces = append(a.tfSpaces, tr)
		}
		c := &tfStaticCheck{links: map[staticKey]*staticValues{}}
		for i, f := range tc.feed {
			l := &linkStats{space: f.space, static: true, key: linkKey{"base", f.child, "/tf_static"}}
			st := &tf.Stamped{Transform: tf.Transform{Translation: tf.Vec3{X: f.x}, Rotation: tf.Quat{W: 1}}}
			c.onLink(a, &bagread.Message{LogTimeNS: int64(i) * 1e9, Topic: "/tf_static"}, l, st)
		}
		dyn := &linkStats{key: linkKey{"odom", "base", "/tf"}}
		c.onLink(a, &bagread.Message{}, dyn, &tf.Stamped{})
		c.finish(a)
		got := ""
		if len(a.rep.TFFindings) == 1 {
			f := a.rep.TFFindings[0]
			got = fmt.Sprintf("%d %v", f.Count, f.Links)
			if !strings.HasPrefix(f.Sentence, tc.sentence) || !strings.HasSuffix(f.Evidence[0], tc.evidence) || len(f.Evidence) != len(f.Links) {
				t.Errorf("%s: sentence %q, evidence %q", tc.name, f.Sentence, f.Evidence)
			}
		}
		if got != tc.want || len(a.rep.TFFindings) > 1 {
			t.Errorf("%s: finding %q, want %q", tc.name, got, tc.want)
		}
	}
}
