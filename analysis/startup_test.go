package analysis

import (
	"fmt"
	"strings"
	"testing"
)

// Scans that arrive before the first transform on their path and are
// dropped are start-up drops: counted per pair, named in one evidence
// line, and not counted as drops by the verdict. A topic whose path never
// connects has none.
func TestStartupDrops(t *testing.T) {
	links := []genLink{{parent: "odom", child: "base_link", ageNS: 10e6, fromTick: 60}, {parent: "base_link", child: "laser", static: true}}
	rep, rows := analyzeGen(t, genBag(t, links, []genScan{{"/scan", "laser", simStamp}}, simClock, 1000), Config{})
	early, dropped := 0, 0
	for _, r := range rows {
		if r.LogTimeNS < sysStartNS+60*10e6 {
			early++
			if r.Class != NoTransform {
				t.Errorf("scan %d before the first transform is %s", r.ScanIndex, r.Class)
			}
		}
		if strings.HasPrefix(r.FilterOutcome, "dropped_") {
			dropped++
			if r.Class != NoTransform {
				t.Errorf("scan %d with a path dropped: %+v", r.ScanIndex, r)
			}
		}
	}
	if len(rep.Pairs) != 1 || early != 12 || dropped == 0 || rep.Pairs[0].StartupDrops != dropped {
		t.Fatalf("%d early scans, %d dropped, pairs %+v: want 12 early (under a tenth of 200), the dropped ones all start-up drops", early, dropped, rep.Pairs)
	}
	line := fmt.Sprintf("%d messages stamped before the first transform on their path were dropped at start-up (the sensors started before the tf tree): harmless, not counted as drops.", dropped)
	found := false
	for _, e := range rep.Verdict.Evidence {
		found = found || e == line
	}
	if !found {
		t.Errorf("no evidence line %q in %q", line, rep.Verdict.Evidence)
	}
	if want := "no scan is dropped by the rviz-laserscan filter: no clock problem in this bag."; !strings.HasSuffix(rep.Verdict.Sentence, want) {
		t.Errorf("verdict %q, want it to end %q (start-up drops are not drops)", rep.Verdict.Sentence, want)
	}

	// A frame that never connects: its drops are not start-up drops.
	rep, _ = analyzeGen(t, genBag(t, links, []genScan{{"/scan", "camera", simStamp}}, simClock, 1000), Config{})
	if len(rep.Pairs) != 1 || rep.Pairs[0].StartupDrops != 0 || rep.Pairs[0].Filter["dropped_queue_full"] == 0 {
		t.Errorf("never connected: pairs %+v, want drops and no start-up drops", rep.Pairs)
	}
	for _, e := range rep.Verdict.Evidence {
		if strings.Contains(e, "at start-up") {
			t.Errorf("evidence %q for a path that never connects", e)
		}
	}
}
