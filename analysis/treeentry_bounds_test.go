package analysis

import "testing"

// TestTreeEntryAtOldestStamp: a scan stamped at or after the oldest
// transform on its path has entered the tree, so a later scan stamped
// before the tree is a real drop, not a start-up one. One stamped a
// nanosecond before it has not: the later scan is then a start-up drop
// too. (Queue size 1: each scan still waiting is dropped by the next.)
func TestTreeEntryAtOldestStamp(t *testing.T) {
	const step = int64(10e6)
	firstTF := simStartNS + 8*step // the link publishes on even ticks from tick 8
	for _, tc := range []struct {
		entryOffset int64 // stamp of the scan at tick 12 after firstTF
		startup     int   // start-up drops: the two scans before any transform, and more
	}{
		{-1, 4},
		{0, 2},
		{1, 2},
	} {
		stamp := func(i, sim, _ int64) int64 {
			switch i {
			case 12:
				return firstTF + tc.entryOffset
			case 17: // half a second before the tree, after the scan above
				return firstTF - 500e6
			}
			return sim
		}
		links := []genLink{{parent: "odom", child: "laser", fromTick: 7}}
		rep, rows := analyzeGen(t, genBag(t, links, []genScan{{"/scan", "laser", stamp}}, simClock, 100), Config{QueueSize: 1, SetQueueSize: true})
		if len(rep.Pairs) != 1 || len(rows) < 4 || rows[3].Class != SameClock || rows[3].FilterOutcome != "dropped_queue_full" {
			t.Fatalf("offset %d: pairs %+v, rows %+v: want one pair, the scan before the tree same_clock and dropped", tc.entryOffset, rep.Pairs, rows)
		}
		if got := rep.Pairs[0].StartupDrops; got != tc.startup {
			t.Errorf("offset %d: %d start-up drops, want %d (filter %v)", tc.entryOffset, got, tc.startup, rep.Pairs[0].Filter)
		}
	}
}
