package analysis

import (
	"fmt"
	"testing"

	"github.com/bagclock/bagclock/analysis/msgfilter"
)

// TestPredictedDropsKeptBoundary: the keys of predicted drop lines, which
// /rosout's drop lines are matched against, are kept up to
// maxPredictedKept; every predicted line is counted.
func TestPredictedDropsKeptBoundary(t *testing.T) {
	line := func(i int) string {
		return fmt.Sprintf("Message Filter dropping message: frame 'laser' at time %d.000 for reason 'x'", i)
	}
	for _, n := range []int{maxPredictedKept, maxPredictedKept + 1} {
		rs := newRowsState(1)
		fs := &filterState{pair: &pairStats{outcomes: map[string]int{}}}
		on := fs.onResult(&analyzer{rows: rs})
		for i := range n {
			fs.rows = append(fs.rows, &ScanRow{FrameID: "laser", StampNS: int64(i) * 1e9})
			fs.decided = append(fs.decided, false)
			fs.startup = append(fs.startup, notStartup)
			fs.next++
			on(msgfilter.Result{Key: uint64(i), Outcome: msgfilter.DroppedQueueFull, LogLine: line(i)})
		}
		last := rs.predicted[dropKey(line(n-1))]
		if len(rs.predicted) != maxPredictedKept || rs.nPredicted != n || last != (n <= maxPredictedKept) {
			t.Errorf("%d drop lines: %d keys kept, %d counted, last kept %v; want %d, %d, %v",
				n, len(rs.predicted), rs.nPredicted, last, maxPredictedKept, n, n <= maxPredictedKept)
		}
	}
}
