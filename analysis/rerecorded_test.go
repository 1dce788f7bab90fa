package analysis

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// A lag of days on every stamp: the rosbag2_player line says replay in
// both formats; without it, MCAP publish times on the recorder's clock say
// replay and publish times lagging with the stamps say a machine behind,
// while sqlite (no publish times) names both causes with the dates and the
// check that tells them apart. Never plain "check chrony".
func TestYearLagCause(t *testing.T) {
	const (
		replay  = "this bag was re-recorded while `ros2 bag play` ran without --clock"
		sent    = "while the messages were sent on the recorder's clock"
		machine = "and so do the publishers' own send times (publish_time): their machine's clock is 4.8 days behind the recorder's, not a replay"
		cannot  = "the bag cannot tell which of two causes it is"
	)
	cases := []struct {
		name        string
		mcap, sqlit []string // in the one "Every stamp lags" evidence line
	}{
		{scenario.ReRecorded, []string{replay, "around 2026-08-22 14:13 UTC"}, []string{replay}},
		{scenario.ReRecordedQuiet, []string{sent, "stamped around 2026-08-22 14:13 UTC, recorded 2026-09-21 14:13 UTC"}, []string{cannot, "stamped around 2026-08-22 14:13 UTC, recorded 2026-09-21 14:13 UTC", "`ros2 bag info`", "`date`"}},
		{scenario.TFOffsetDays, []string{machine}, []string{cannot}},
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, tc := range cases {
			t.Run(storage+"/"+tc.name, func(t *testing.T) {
				rep := analyseDir(t, caseBag(t, tc.name, storage))
				want := tc.mcap
				if storage == bagwrite.StorageSQLite3 {
					want = tc.sqlit
				}
				var lines []string
				for _, e := range rep.Verdict.Evidence {
					if strings.HasPrefix(e, "Every stamp lags record time by the same") {
						lines = append(lines, e)
					}
				}
				if len(lines) != 1 {
					t.Fatalf("%d lag lines in %q, want 1", len(lines), rep.Verdict.Evidence)
				}
				for _, w := range want {
					if !strings.Contains(lines[0], w) {
						t.Errorf("lag line %q lacks %q", lines[0], w)
					}
				}
				// Said once: not again as the tf tree's offset finding.
				if containsSub(rep.Verdict.Evidence, "tf tree: Every tf stamp lags record time") {
					t.Errorf("the lag is said twice in %q", rep.Verdict.Evidence)
				}
				all := append([]string{rep.Verdict.Sentence}, rep.Verdict.Evidence...)
				if containsSub(all, "(check chrony)") {
					t.Errorf("plain 'check chrony' in %q", all)
				}
			})
		}
	}
}
