package analysis

import (
	"strings"
	"testing"
)

// TestRecorderOffsetBounds pins the tf tree's offset from the recorder's
// clock: the sample floor, the direction, the count of links, the day
// beyond which a re-recording is named, and the publish times that tell a
// lagging machine from an unknown cause.
func TestRecorderOffsetBounds(t *testing.T) {
	start := EpochThresholdNS + 1e18 // the recorder on system time
	link := func(n int, ageS float64, pub []float64) *linkStats {
		l := &linkStats{newest: start}
		for range n {
			l.age.add(ageS)
		}
		for _, p := range pub {
			l.pubAge.add(p)
		}
		return l
	}
	yearLag := 200 * 86400.0
	cases := []struct {
		name     string
		links    []*linkStats
		count    int    // 0: no finding
		sentence string // a finding's sentence, or the part it must hold
		exact    bool
	}{
		{"four samples are too few", []*linkStats{link(4, 100, nil)}, 0, "", false},
		{"five samples are enough", []*linkStats{link(5, 100, nil)}, 1, "Every tf stamp is " + FmtDur(100) + " behind the recorder's clock (constant):", false},
		{"two links, the smaller offset named", []*linkStats{link(5, 100, nil), link(6, 40, nil)}, 2, "Every tf stamp is " + FmtDur(40) + " behind", false},
		{"ahead of the recorder", []*linkStats{link(5, -100, nil)}, 1, "Every tf stamp is " + FmtDur(100) + " ahead of the recorder's clock (constant):", false},
		{"a day ahead is no re-recording", []*linkStats{link(5, -86400, nil)}, 1, "Every tf stamp is " + FmtDur(86400) + " ahead of the recorder's clock (constant): the clocks", false},
		{"just under a day behind", []*linkStats{link(5, 86399, nil)}, 1, "Every tf stamp is " + FmtDur(86399) + " behind the recorder's clock (constant): the clocks", false},
		{"a day behind", []*linkStats{link(5, 86400, nil)}, 1, LagSentence(start, "Every tf stamp", 86400, lagUnknown), true},
		{"months behind, no publish times", []*linkStats{link(5, yearLag, nil)}, 1, LagSentence(start, "Every tf stamp", yearLag, lagUnknown), true},
		{"months behind, sent at their stamps", []*linkStats{link(5, yearLag, []float64{0.01})}, 1, LagSentence(start, "Every tf stamp", yearLag, lagMachine), true},
		{"links on both sides", []*linkStats{link(5, 100, nil), link(5, -100, nil)}, 0, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := &analyzer{startNS: start}
			(&tfClockCheck{}).recorderOffset(a, tc.links, family(start))
			f := a.rep.TFFindings
			if tc.count == 0 {
				if len(f) != 0 {
					t.Fatalf("findings %+v, want none", f)
				}
				return
			}
			if len(f) != 1 || f[0].Kind != TFOffsetFromRecorder || f[0].Count != tc.count {
				t.Fatalf("findings %+v, want one offset finding of %d links", f, tc.count)
			}
			if tc.exact && f[0].Sentence != tc.sentence || !tc.exact && !strings.HasPrefix(f[0].Sentence, tc.sentence) {
				t.Errorf("sentence\n got %q\nwant %q", f[0].Sentence, tc.sentence)
			}
		})
	}
}
