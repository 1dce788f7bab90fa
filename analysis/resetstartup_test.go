package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// Drops within one cache time of sim time after a /clock jump back are
// start-up drops (tf2 cleared its buffer, the tree refills); later ones
// count. A simulator reset whose odometry comes back 12 s later drops
// scans on both sides of the 10 s window; with a 15 s cache every drop is
// inside it.
func TestResetStartupWindow(t *testing.T) {
	cases := []struct {
		name    string
		cacheS  float64
		wantOut bool // drops past the window, a "drop" finding
	}{
		{scenario.ResetRefill, 0, false},
		{scenario.ResetTFLate, 0, true},
		{scenario.ResetTFLate, 15, false},
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s/%s/cache%g", storage, tc.name, tc.cacheS), func(t *testing.T) {
				var rows []ScanRow
				rep := analyzeBag(t, caseBag(t, tc.name, storage), Config{CacheTimeS: tc.cacheS, SetCacheTime: tc.cacheS > 0}, func(r *ScanRow) error { rows = append(rows, *r); return nil })
				if len(rep.ClockJumps) != 1 || rep.ClockJumps[0].Kind != "backward" {
					t.Fatalf("clock jumps %+v, want one jump back", rep.ClockJumps)
				}
				jump := rep.ClockJumps[0]
				cache := int64(rep.Settings.CacheTimeS * 1e9)
				in, out := 0, 0
				for _, r := range rows {
					if !strings.HasPrefix(r.FilterOutcome, "dropped_") {
						continue
					}
					if r.LogTimeNS < jump.LogTimeNS {
						t.Errorf("row %+v dropped before the jump", r)
						continue
					}
					if r.ClockNS-jump.ToNS < cache {
						in++
					} else {
						out++
					}
				}
				if in == 0 || (out > 0) != tc.wantOut {
					t.Fatalf("%d drops inside the window, %d past it; want some inside, past it: %v", in, out, tc.wantOut)
				}
				p := rep.Pairs[0]
				if p.ResetDrops != in || p.StartupDrops != in {
					t.Errorf("pair %+v: want %d reset start-up drops", p, in)
				}
				if got := has(rep.Summary.Findings, "drop"); got != tc.wantOut {
					t.Errorf("findings %v: drop %v, want %v", rep.Summary.Findings, got, tc.wantOut)
				}
				lines := 0
				for _, e := range rep.Verdict.Evidence {
					if strings.Contains(e, "after a /clock jump back, while tf2's cleared buffer refilled") && strings.HasSuffix(e, "harmless, not counted as drops.") {
						lines++
					}
					if strings.Contains(e, "stamped before the first transform") {
						t.Errorf("evidence %q: these drops follow the reset, not the bag's start", e)
					}
				}
				if lines != 1 {
					t.Errorf("%d reset start-up lines in %q, want 1", lines, rep.Verdict.Evidence)
				}
				if rep.Verdict.Class != VerdictClockJumpBack || strings.Contains(rep.Verdict.Sentence, "dropped outside start-up") != tc.wantOut {
					t.Errorf("verdict %s %q: want the jump back, naming drops only past the window", rep.Verdict.Class, rep.Verdict.Sentence)
				}
			})
		}
	}
}
