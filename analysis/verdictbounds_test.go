package analysis

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
)

// Boundary tests of the verdict's small helpers (issue 15): each threshold
// is pinned exactly at its value and just on each side, so that an
// off-by-one in a comparison changes a stated outcome.

// pairWith is a pair of topic to odom whose rows count same_clock and
// other rows of class c.
func pairWith(topic string, c Class, same, other int) *pairStats {
	p := &pairStats{topic: topic, frame: "laser", target: "odom", classes: map[Class]int{}}
	if same > 0 {
		p.classes[SameClock] = same
	}
	if other > 0 {
		p.classes[c] = other
	}
	return p
}

// TestSkewAheadWithoutDrops: scans exactly ClockSkewThresholdNS ahead of tf
// are clock_skew; with a queue long enough that none is dropped, the
// offset is within what tf2 copes with, and the evidence says so.
func TestSkewAheadWithoutDrops(t *testing.T) {
	dir := writeCase(t, filepath.Join(t.TempDir(), "bag"), clockCase{name: "skew_ahead_no_drop", laserSkewNS: ClockSkewThresholdNS}, bagwrite.StorageMCAP, 5)
	rep, _ := analyzeGen(t, dir, Config{QueueSize: 1000, SetQueueSize: true})
	want := "/scan and tf (odom->base_link) are 1.000 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP)."
	if rep.Verdict.Class != string(ClockSkew) || rep.Verdict.Sentence != want {
		t.Errorf("verdict %s %q, want %s %q", rep.Verdict.Class, rep.Verdict.Sentence, ClockSkew, want)
	}
	ev := strings.Join(rep.Verdict.Evidence, "\n")
	if !strings.Contains(ev, "Within the cache time (10 s) tf2 still finds a transform") || strings.Contains(ev, "The offset matters") {
		t.Errorf("evidence %q, want the within-cache line and not the offset-matters one", rep.Verdict.Evidence)
	}
}

// TestTargetIsFrameStampJumps: with the target set to the scans' own
// frame, header-stamp jumps (no /clock) still get their warning in the
// headline; the same bag 1 ns short of a jump gets none.
func TestTargetIsFrameStampJumps(t *testing.T) {
	for _, tc := range []struct {
		scanJump, tfJump int64
		want             string
	}{
		{950e6, -20e6 - 1, " But the bag's time jumps 2 times (see the evidence)."},
		{950e6 - 1, -20e6, ""},
	} {
		links := []genLink{{parent: "odom", child: "base_link", ageNS: 10e6, jumpAt: 300, jumpNS: tc.tfJump}, {parent: "base_link", child: "laser", static: true}}
		stamp := func(i, sim, _ int64) int64 {
			if i >= 200 {
				return sim + tc.scanJump
			}
			return sim
		}
		rep, _ := analyzeGen(t, genBag(t, links, []genScan{{"/scan", "laser", stamp}}, nil, 400), Config{TargetFrames: []string{"laser"}})
		want := "/scan is in the target frame 'laser' already (frame_id 'laser'): no transform was looked up, so no clock was checked; check against a frame across a dynamic link instead, e.g. --target-frame odom." + tc.want
		if rep.Verdict.Class != VerdictTargetIsFrame || rep.Verdict.Sentence != want {
			t.Errorf("scan jump %d: verdict %s %q, want %s %q", tc.scanJump, rep.Verdict.Class, rep.Verdict.Sentence, VerdictTargetIsFrame, want)
		}
	}
}
