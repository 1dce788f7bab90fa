package analysis

import (
	"fmt"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// A topic already in odom (the default target) is checked against the
// root of its tree (map, above AMCL's map -> odom) and the report says
// so; an explicit --target-frame odom is kept as given.
func TestDefaultTargetAboveOdom(t *testing.T) {
	note := "Checked against 'map', the root of the tf tree, not the default target 'odom': the messages are in frame 'odom' already (--target-frame overrides)."
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, explicit := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/explicit=%v", storage, explicit), func(t *testing.T) {
				cfg := Config{}
				if explicit {
					cfg.TargetFrames = []string{"odom"}
				}
				rep := analyzeBag(t, caseBag(t, scenario.OdomUnderMap, storage), cfg, nil)
				want := map[string]string{"/odom": "map", "/scan": "odom"}
				if explicit {
					want["/odom"] = "odom"
				}
				for _, p := range rep.Pairs {
					if want[p.Topic] != p.TargetFrame {
						t.Errorf("%s checked against %q, want %q", p.Topic, p.TargetFrame, want[p.Topic])
					}
				}
				noted := 0
				for _, e := range rep.Verdict.Evidence {
					if e == note {
						noted++
					}
				}
				if explicit && (noted != 0 || len(rep.Settings.TargetNotes) != 0) || !explicit && (noted != 1 || len(rep.Settings.TargetNotes) != 1) {
					t.Errorf("target notes %q, evidence %q: want the note once when the default chose map", rep.Settings.TargetNotes, rep.Verdict.Evidence)
				}
			})
		}
	}
}
