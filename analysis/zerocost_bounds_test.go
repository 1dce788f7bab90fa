package analysis

import (
	"strings"
	"testing"
)

// TestZeroStampCostLine: the zero-stamp verdict states the pose cost only
// when at least one message was costed; without tf none can be, and the
// verdict says why instead.
func TestZeroStampCostLine(t *testing.T) {
	zero := func(_, _, _ int64) int64 { return 0 }
	for _, tc := range []struct {
		name     string
		links    []genLink
		costLine bool
	}{
		{"with tf", []genLink{{parent: "odom", child: "laser"}}, true},
		{"without tf", nil, false},
	} {
		rep, _ := analyzeGen(t, genBag(t, tc.links, []genScan{{"/scan", "laser", zero}}, simClock, 200), Config{})
		if rep.Verdict.Class != string(ZeroStamp) {
			t.Fatalf("%s: verdict %s %q, want %s", tc.name, rep.Verdict.Class, rep.Verdict.Sentence, ZeroStamp)
		}
		cost, noTF := false, false
		for _, e := range rep.Verdict.Evidence {
			cost = cost || strings.HasPrefix(e, "Cost (pose at the real time vs latest pose)")
			noTF = noTF || strings.HasPrefix(e, "The bag has no /tf or /tf_static")
		}
		if cost != tc.costLine || noTF == tc.costLine {
			t.Errorf("%s: cost line %v, no-tf line %v; want %v, %v (evidence %q)", tc.name, cost, noTF, tc.costLine, !tc.costLine, rep.Verdict.Evidence)
		}
	}
}
