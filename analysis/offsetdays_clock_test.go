package analysis

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestDaysBehindBesideClock: a robot whose clock is 4.8 days behind the
// recorder's reads the same with or without a /clock in the bag that no
// node follows: a clock offset of the tree and the sensors (tf-tree
// offset_from_recorder, a skew finding), never "/scan is often stale:
// median age 414720 s".
func TestDaysBehindBesideClock(t *testing.T) {
	for _, hz := range []float64{0, 100} {
		for _, storage := range []string{"mcap", "sqlite3"} {
			t.Run(fmt.Sprintf("clock %g Hz/%s", hz, storage), func(t *testing.T) {
				s, err := scenario.Get(scenario.TFOffsetDays)
				if err != nil {
					t.Fatal(err)
				}
				s.ClockHz, s.MapLag, s.Duration = hz, 0, 10*time.Second
				rep := analyzeBag(t, specBag(t, s, storage), Config{}, nil)
				if !slices.Equal(rep.Summary.Findings, []string{"skew"}) || rep.Verdict.Class != "tf_tree:"+TFOffsetFromRecorder {
					t.Errorf("/clock at %g Hz: findings %v, class %s, want skew and tf_tree:%s: %s", hz, rep.Summary.Findings, rep.Verdict.Class, TFOffsetFromRecorder, rep.Verdict.Sentence)
				}
				if a := ageOf(rep, "/scan"); a == nil || a.Kind != AgeClockOffset {
					t.Errorf("/clock at %g Hz: /scan age %+v, want clock_offset", hz, a)
				}
			})
		}
	}
}
