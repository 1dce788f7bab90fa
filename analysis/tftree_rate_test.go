package analysis

import (
	"testing"
)

// TestTFTreeRate: a dynamic link's rate is its transforms after the first
// over its span of record time; a static link, a single transform or two
// at one record time have none (issue 15).
func TestTFTreeRate(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    linkStats
		want float64
	}{
		{"eleven over 2 s", linkStats{count: 11, firstLog: 1e9, lastLog: 3e9}, 5},
		{"four over 3 s", linkStats{count: 4, firstLog: 1e9, lastLog: 4e9}, 1},
		{"two at one record time", linkStats{count: 2, firstLog: 1e9, lastLog: 1e9}, 0},
		{"one", linkStats{count: 1, firstLog: 1e9, lastLog: 1e9}, 0},
		{"static", linkStats{count: 11, firstLog: 1e9, lastLog: 3e9, static: true}, 0},
	} {
		a := &analyzer{tf: newTFReplay(10e9)}
		l := tc.l
		l.key = linkKey{"odom", "base_link", "/tf"}
		a.tf.linkList = []*linkStats{&l}
		tfTree{}.finish(a)
		if len(a.rep.TFTree) != 1 || a.rep.TFTree[0].RateHz != tc.want {
			t.Errorf("%s: tree %+v, want rate %g", tc.name, a.rep.TFTree, tc.want)
		}
	}
}
