package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/finding"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestSyncCases: each generated sync case, in both storage formats, with
// the default synchronizers (image_transport's ExactTime over colour +
// camera_info, depth_image_proc's ApproximateTime over depth + colour +
// camera_info): sets, the reason it never fires, the pair's clock
// relation, offset and drift, the pose cost (and its evidence line), the
// sync finding and the verdict line.
func TestSyncCases(t *testing.T) {
	const frames = 300 // 20 s at 15 Hz
	tests := []struct {
		name       string
		depthSets  int64 // sets of the depth synchronizer (-1: at least frames-2)
		reason     string
		clock      string
		medianS    float64 // colour − depth, when clock is not different
		driftS     float64
		costCM     float64 // pose cost of the offset, 0 for none
		leads      bool    // the sync sentence is the headline
		inEvidence string  // a verdict evidence line must contain this
	}{
		{scenario.SyncAligned, -1, "", SyncClockOneDriver, 0, 0, 0, false, ""},
		{scenario.SyncOffset, -1, "", SyncClockOneClock, -0.025, 0, 1.1, false, ""},
		{scenario.SyncOtherClock, 0, SyncReasonDifferentClock, SyncClockDifferent, 0, 0, 0, false, "never pair: their stamps are 1.79e+09 s apart; /camera/depth/image_rect_raw is on system time"},
		{scenario.SyncZeroStamp, 0, SyncReasonZeroStamps, SyncClockUnknown, 0, 0, 0, false, "every /camera/depth/image_rect_raw message is stamped 0"},
		{scenario.SyncEmptyTopic, 0, SyncReasonEmptyTopic, SyncClockUnknown, 0, 0, 0, false, "/camera/depth/image_rect_raw has no messages in the bag"},
		{scenario.SyncDrift, -1, "", SyncClockTwoMachines, -0.003, -0.0057, 0, false, ""},
		{scenario.SyncLateCamera, -1, "", SyncClockOneClock, 0.030, 0, 1.3, false, ""},
	}
	for _, tc := range tests {
		for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
			t.Run(tc.name+"/"+storage, func(t *testing.T) {
				rep := analyzeBag(t, caseBag(t, tc.name, storage), Config{}, nil)
				if len(rep.Sync) != 2 {
					t.Fatalf("%d synchronizers, want 2 (colour+info, depth+colour+info): %+v", len(rep.Sync), rep.Sync)
				}
				ex, ap := rep.Sync[0], rep.Sync[1]
				if ex.Policy != "exact" || ex.QueueSize != 10 || ex.Topics[0] != scenario.TopicColour || ex.Topics[1] != scenario.TopicColourInfo ||
					ex.Sets != frames || ex.Unused[0] != 0 || ex.Unused[1] != 0 || *ex.SpreadMaxS != 0 {
					t.Errorf("colour + camera_info: %+v", ex)
				}
				if ap.Policy != "approximate" || ap.QueueSize != 5 || ap.Topics[0] != scenario.TopicDepth || len(ap.Topics) != 3 {
					t.Fatalf("depth + colour: %+v", ap)
				}
				if tc.depthSets < 0 && ap.Sets < frames-2 || tc.depthSets >= 0 && ap.Sets != tc.depthSets {
					t.Errorf("depth synchronizer: %d sets (want %d): %s", ap.Sets, tc.depthSets, ap.Sentence)
				}
				if ap.Reason != tc.reason || ap.Fires == (tc.reason != "") {
					t.Errorf("reason %q fires %v, want %q: %s", ap.Reason, ap.Fires, tc.reason, ap.Sentence)
				}
				o := ap.Offsets[0]
				if o.Clock != tc.clock {
					t.Errorf("clock %s, want %s (%s)", o.Clock, tc.clock, o.ClockBasis)
				}
				if tc.clock != SyncClockDifferent && tc.clock != SyncClockUnknown {
					if math.Abs(o.MedianS-tc.medianS) > 0.0005 || math.Abs(o.DriftS-tc.driftS) > 0.001 {
						t.Errorf("offset median %g drift %g, want %g and %g", o.MedianS, o.DriftS, tc.medianS, tc.driftS)
					}
				}
				if tc.clock == SyncClockDifferent && math.Abs(math.Abs(o.MedianS)-1.79e9) > 1e7 {
					t.Errorf("offset %g, want about 1.79e9 s", o.MedianS)
				}
				switch {
				case tc.costCM == 0 && o.Cost != nil:
					t.Errorf("pose cost for no steady offset: %+v", o.Cost)
				case tc.costCM > 0 && (o.Cost == nil || math.Abs(o.Cost.DisplacementM*100-tc.costCM) > 0.15):
					t.Errorf("pose cost %+v, want %.1f cm", o.Cost, tc.costCM)
				case tc.costCM > 0:
					// The robot drives a 1.5 m circle at 0.3 rad/s: 0.45 m/s
					// and more for a camera mounted ahead of its centre.
					if o.Cost.RateRadS < 0.29 || o.Cost.RateRadS > 0.31 || o.Cost.SpeedMS < 0.44 || o.Cost.SpeedMS > 0.52 {
						t.Errorf("speed %g m/s, rate %g rad/s, want about 0.45-0.5 and 0.3", o.Cost.SpeedMS, o.Cost.RateRadS)
					}
					if !strings.Contains(o.Cost.Sentence, "ms") || !strings.Contains(o.Cost.Sentence, "cm") {
						t.Errorf("pose cost sentence: %s", o.Cost.Sentence)
					}
					// Over 1 cm: the user reads it in the verdict's evidence.
					if !containsSub(rep.Verdict.Evidence, o.Cost.Sentence) {
						t.Errorf("verdict evidence lacks the pose cost %q: %q", o.Cost.Sentence, rep.Verdict.Evidence)
					}
				}
				var sf []finding.Finding
				for _, f := range rep.Findings {
					if f.Kind == finding.Sync {
						sf = append(sf, f)
					}
				}
				if (len(sf) > 0) != (tc.reason != "") {
					t.Errorf("sync findings %+v, want one only when it never fires", sf)
				}
				if tc.clock == SyncClockDifferent && containsSub(rep.Verdict.Evidence, "A scan") {
					t.Errorf("a camera's evidence speaks of a scan: %q", rep.Verdict.Evidence)
				}
				if tc.inEvidence != "" {
					all := rep.Verdict.Sentence + "\n" + strings.Join(rep.Verdict.Evidence, "\n")
					if !strings.Contains(all, tc.inEvidence) {
						t.Errorf("verdict lacks %q:\n%s", tc.inEvidence, all)
					}
					if len(sf) != 1 || sf[0].Severity != finding.Error || sf[0].Detail != tc.reason {
						t.Errorf("finding: %+v", sf)
					}
				}
			})
		}
	}
}

// TestSyncLeadsHealthyVerdict: a synchronizer that never fires on an
// otherwise healthy bag (--sync with a max interval below a steady 25 ms
// offset) leads the headline, class sync; --sync replaces the defaults.
func TestSyncLeadsHealthyVerdict(t *testing.T) {
	dir := caseBag(t, scenario.SyncOffset, bagwrite.StorageMCAP)
	rep := analyzeBag(t, dir, Config{Sync: []SyncSpec{{Topics: []string{scenario.TopicDepth, scenario.TopicColour}, Policy: "approximate", QueueSize: 10, MaxIntervalS: 0.01, Source: "--sync"}}}, nil)
	if len(rep.Sync) != 1 {
		t.Fatalf("%d synchronizers, want only the --sync one", len(rep.Sync))
	}
	s := rep.Sync[0]
	if s.Sets != 0 || s.Reason != SyncReasonOffset || *s.MaxIntervalS != 0.01 {
		t.Errorf("summary: %+v", s)
	}
	if rep.Verdict.Class != VerdictSync || !strings.Contains(rep.Verdict.Sentence, "more than the max interval of 10.0 ms") {
		t.Errorf("verdict %s: %s", rep.Verdict.Class, rep.Verdict.Sentence)
	}
	// The same with a 40 ms interval pairs them.
	rep = analyzeBag(t, dir, Config{Sync: []SyncSpec{{Topics: []string{scenario.TopicDepth, scenario.TopicColour}, Policy: "approximate", QueueSize: 10, MaxIntervalS: 0.04, Source: "--sync"}}}, nil)
	if s := rep.Sync[0]; s.Sets < 298 || math.Abs(*s.SpreadMedianS-0.025) > 0.0005 || rep.Verdict.Class != VerdictNoProblem {
		t.Errorf("40 ms: %d sets, spread %v, verdict %s", s.Sets, *s.SpreadMedianS, rep.Verdict.Class)
	}
}
