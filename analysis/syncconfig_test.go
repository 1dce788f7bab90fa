package analysis

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/sync"
)

// TestSyncConfig: a spec's ApproximateTime parameters reach the
// emulation's configuration as upstream's setters take them (ns, rounded),
// the library's defaults stay when unset, and ExactTime refuses them.
func TestSyncConfig(t *testing.T) {
	pen := 0.25
	for _, tc := range []struct {
		name    string
		sp      SyncSpec
		bounds  []int64
		penalty float64
		maxNS   int64
		err     string
	}{
		{name: "defaults", sp: SyncSpec{Topics: []string{"/a", "/b"}, Policy: "approximate", QueueSize: 10},
			penalty: sync.DefaultAgePenalty, maxNS: sync.DurationMax},
		{name: "all set", sp: SyncSpec{Topics: []string{"/a", "/b"}, Policy: "approximate", QueueSize: 10, MaxIntervalS: 0.02,
			LowerBoundsS: []float64{0.0333333333, 0}, AgePenalty: &pen},
			bounds: []int64{33_333_333, 0}, penalty: 0.25, maxNS: 20_000_000},
		{name: "bounds count", sp: SyncSpec{Topics: []string{"/a", "/b", "/c"}, Policy: "approximate", QueueSize: 10, LowerBoundsS: []float64{0.1}},
			err: "1 lower bounds for 3 topics"},
		{name: "negative bound", sp: SyncSpec{Topics: []string{"/a", "/b"}, Policy: "approximate", QueueSize: 10, LowerBoundsS: []float64{-1, 0}},
			err: "out of range"},
		{name: "exact", sp: SyncSpec{Topics: []string{"/a", "/b"}, Policy: "exact", QueueSize: 10, AgePenalty: &pen},
			err: "ExactTime has neither"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := syncConfig(tc.sp)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cfg.LowerBoundsNS, tc.bounds) || cfg.AgePenalty != tc.penalty || cfg.MaxIntervalNS != tc.maxNS {
				t.Errorf("config %+v, want bounds %v, penalty %g, max interval %d ns", cfg, tc.bounds, tc.penalty, tc.maxNS)
			}
		})
	}
}
