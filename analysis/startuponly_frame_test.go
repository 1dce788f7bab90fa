package analysis

import "testing"

// TestStartupOnlyLooksUpTheRowsFrame: a frame_id with two leading slashes
// keeps one after the rows' trim ("/laser"), a frame tf does not hold, so
// every row is no_transform. startupOnly must look up that same frame: the
// no_transform verdict stands, not excused as a topic that only came
// before the tree because "laser" connects.
func TestStartupOnlyLooksUpTheRowsFrame(t *testing.T) {
	links := []genLink{{parent: "odom", child: "laser"}}
	rep, rows := analyzeGen(t, genBag(t, links, []genScan{{"/scan", "//laser", simStamp}}, simClock, 200), Config{})
	for _, r := range rows {
		if r.Class != NoTransform {
			t.Fatalf("scan %d is %s, want every row no_transform", r.ScanIndex, r.Class)
		}
	}
	if rep.Verdict.Class != string(NoTransform) {
		t.Errorf("verdict %s %q, want %s", rep.Verdict.Class, rep.Verdict.Sentence, NoTransform)
	}
}
