package analysis

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/bagclock/bagclock/internal/testenv"
)

// expectedDiffs replays a scenario's generated messages, independently of
// the analysis, and returns per scan (in record order) the scan stamp
// minus the newest odom->base_link stamp received since the last backward
// /clock step (tf2_ros::Buffer clears then), and whether there was one.
func expectedDiffs(t *testing.T, s scenario.Spec) (diffs []int64, has []bool) {
	t.Helper()
	var newest, lastClock int64
	haveTF, haveStatic, haveClock := false, false, false
	var msg cdr.TFMessage
	err := scenario.Generate(s, func(r *scenario.Record) error {
		switch r.Topic {
		case scenario.TopicClock:
			c, err := cdr.DecodeClock(r.Data)
			if err != nil {
				return err
			}
			v := c.Clock.Nanoseconds()
			if haveClock && v < lastClock {
				haveTF = false
			}
			lastClock, haveClock = v, true
		case scenario.TopicTF, scenario.TopicTFStatic:
			if _, err := cdr.DecodeTFMessageInto(&msg, r.Data); err != nil {
				return err
			}
			for _, tr := range msg.Transforms {
				if r.Topic == scenario.TopicTFStatic {
					haveStatic = true
					continue
				}
				if st := tr.Header.Stamp.Nanoseconds(); tr.ChildFrameID == s.BaseFrame && (!haveTF || st > newest) {
					newest, haveTF = st, true
				}
			}
		case scenario.TopicScan:
			h, err := cdr.DecodeLaserScanHeader(r.Data)
			if err != nil {
				return err
			}
			diffs = append(diffs, h.Header.Stamp.Nanoseconds()-newest)
			has = append(has, haveTF && haveStatic)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return diffs, has
}

// TestSampleRowsExact checks every row of every committed clock-case
// sample against expectedDiffs at 1e-9 s.
func TestSampleRowsExact(t *testing.T) {
	root := filepath.Join(testenv.RepoRoot(t), "testdata", "samples")
	for _, smp := range scenario.Samples() {
		if d := filepath.Dir(smp.Dir); d != "mcap" && d != "sqlite3" {
			continue
		}
		t.Run(smp.Dir, func(t *testing.T) {
			diffs, has := expectedDiffs(t, smp.Spec)
			_, rows := analyzeDir(t, filepath.Join(root, smp.Dir), Config{})
			if len(rows) != len(diffs) || len(rows) == 0 {
				t.Fatalf("%d rows, %d scans generated", len(rows), len(diffs))
			}
			bad := 0
			for i, r := range rows {
				want := float64(diffs[i]) / 1e9
				if r.HasTF != has[i] || r.HasTF && math.Abs(r.DiffS-want) > 1e-9 {
					if bad < 5 {
						t.Errorf("row %d (scan %d): has tf %v diff %.9f s, want %v %.9f s", i, r.ScanIndex, r.HasTF, r.DiffS, has[i], want)
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d rows differ", bad, len(rows))
			}
		})
	}
}
