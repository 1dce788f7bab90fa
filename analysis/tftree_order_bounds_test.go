package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// Tests of the tf-order check fed transform by transform (issue 15):
// repeated stamps, stamps going back while /clock does not, and how many
// links the findings name.

// orderFeed is one event: a /clock value (link < 0) or a transform of
// link (an index into the test's links) stamped stamp.
type orderFeed struct {
	link  int
	stamp int64
}

func runOrderCheck(hasClock bool, nLinks int, feed []orderFeed) *analyzer {
	a := &analyzer{hasClock: hasClock, tf: newTFReplay(10e9)}
	for i := 0; i < nLinks; i++ {
		l := &linkStats{id: i, key: linkKey{"odom", fmt.Sprintf("l%d", i), "/tf"}}
		a.tf.linkList = append(a.tf.linkList, l)
	}
	c := &tfOrderCheck{}
	for i, f := range feed {
		m := &bagread.Message{LogTimeNS: int64(i+1) * 1e9}
		if f.link < 0 {
			c.onClock(a, m, f.stamp)
			continue
		}
		l := a.tf.linkList[f.link]
		l.count++
		c.onLink(a, m, l, &tf.Stamped{Stamp: f.stamp})
	}
	c.finish(a)
	return a
}

func TestTFOrderSequences(t *testing.T) {
	for _, tc := range []struct {
		name     string
		hasClock bool
		feed     []orderFeed
		want     []string // kind: count, links
		evidence string   // substring of the first finding's first evidence line
	}{
		{"steady", true, []orderFeed{{0, 1}, {0, 2}, {0, 3}}, nil, ""},
		{"one repeat", true, []orderFeed{{0, 1}, {0, 2}, {0, 2}, {0, 3}}, []string{"repeated_stamps: 1 [odom->l0 on /tf]"},
			"odom->l0 on /tf: 1 of 4 transforms repeat the previous stamp (first at +3.000 s"},
		{"first transform at stamp 0 is no repeat", true, []orderFeed{{0, 0}, {0, 1}}, nil, ""},
		{"one step back", true, []orderFeed{{-1, 10}, {0, 5e6}, {0, 4e6}, {0, 6e6}}, []string{"stamps_backward: 1 [odom->l0 on /tf]"},
			"odom->l0 on /tf: stamps go back 1 time (first at +3.000 s, from 5.0 ms to 4.0 ms) while /clock does not."},
		{"steps back counted, the first kept", true, []orderFeed{{0, 5e6}, {0, 4e6}, {0, 9e6}, {0, 1e6}}, []string{"stamps_backward: 1 [odom->l0 on /tf]"},
			"stamps go back 2 times (first at +2.000 s, from 5.0 ms to 4.0 ms)"},
		{"back after /clock went back", true, []orderFeed{{-1, 10}, {0, 5}, {-1, 9}, {0, 4}}, nil, ""},
		{"back after /clock went forward", true, []orderFeed{{-1, 10}, {0, 5}, {-1, 11}, {0, 4}}, []string{"stamps_backward: 1 [odom->l0 on /tf]"}, ""},
		{"/clock at one value", true, []orderFeed{{-1, 10}, {0, 5}, {-1, 10}, {0, 4}}, []string{"stamps_backward: 1 [odom->l0 on /tf]"}, ""},
		{"back without /clock", false, []orderFeed{{0, 5}, {0, 4}}, nil, ""},
		{"links apart", true, []orderFeed{{0, 5}, {1, 5}, {0, 6}, {1, 4}}, []string{"stamps_backward: 1 [odom->l1 on /tf]"}, ""},
		{"four links repeat: three named", true, []orderFeed{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {0, 1}, {1, 1}, {2, 1}, {3, 1}},
			[]string{"repeated_stamps: 4 [odom->l0 on /tf odom->l1 on /tf odom->l2 on /tf]"}, ""},
		{"four links back: three named", true, []orderFeed{{0, 2}, {1, 2}, {2, 2}, {3, 2}, {0, 1}, {1, 1}, {2, 1}, {3, 1}},
			[]string{"stamps_backward: 4 [odom->l0 on /tf odom->l1 on /tf odom->l2 on /tf]"}, ""},
	} {
		a := runOrderCheck(tc.hasClock, 4, tc.feed)
		var got []string
		for _, f := range a.rep.TFFindings {
			got = append(got, fmt.Sprintf("%s: %d %v", f.Kind, f.Count, f.Links))
			if len(f.Evidence) != len(f.Links) {
				t.Errorf("%s: %d evidence lines for %d links", tc.name, len(f.Evidence), len(f.Links))
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: findings %q, want %q", tc.name, got, tc.want)
			continue
		}
		if tc.evidence != "" && !strings.Contains(a.rep.TFFindings[0].Evidence[0], tc.evidence) {
			t.Errorf("%s: evidence %q, want %q", tc.name, a.rep.TFFindings[0].Evidence[0], tc.evidence)
		}
	}
}
