package tf

import (
	"runtime"
	"testing"
)

// TestMemoryBoundedHour replays an hour of 100 Hz tf on tf2bench's 50-frame
// tree (49 dynamic edges, 17.6 M SetTransform) with a 20 Hz leaf-to-leaf
// lookup, and checks that the cache never holds more than the cache window
// plus one gap per link and that the heap stays flat after warm-up.
func TestMemoryBoundedHour(t *testing.T) {
	minutes := int64(60)
	if testing.Short() {
		minutes = 10
	}
	for _, gen := range []Generation{GenerationCurrent, GenerationPruneAfter} {
		t.Run(gen.String(), func(t *testing.T) {
			b := NewBuffer(Options{Generation: gen})
			parents, children := tree50()
			ticksPerMinute := int64(60 * 100)
			// 10 s of 10 ms ticks is 1001 samples with both ends; the current
			// rules keep one more until the next insert.
			maxEntries := int(DefaultCacheTimeNS/benchPeriod) + 1
			if gen == GenerationCurrent {
				maxEntries++
			}
			var warm Stats
			var warmHeap uint64
			lookups := 0
			for k := int64(0); k < minutes*ticksPerMinute; k++ {
				tickTree50(t, b, parents, children, k)
				if k%5 == 0 && k > 0 { // 20 Hz
					if _, err := b.LookupTransform("l09", "l14", benchBase+k*benchPeriod-5_000_000); err != nil {
						t.Fatalf("lookup at tick %d: %v", k, err)
					}
					lookups++
				}
				if (k+1)%ticksPerMinute != 0 {
					continue
				}
				s := b.Stats()
				if s.MaxEntries > maxEntries || s.Entries > maxEntries*49 {
					t.Fatalf("minute %d: %+v exceeds %d entries per link", (k+1)/ticksPerMinute, s, maxEntries)
				}
				var ms runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms)
				switch minute := (k + 1) / ticksPerMinute; {
				case minute == 1:
					warm, warmHeap = s, ms.HeapInuse
				case s.CapacityEntries != warm.CapacityEntries:
					t.Fatalf("minute %d: ring capacity grew from %d to %d entries", minute, warm.CapacityEntries, s.CapacityEntries)
				case ms.HeapInuse > warmHeap+1<<20:
					t.Fatalf("minute %d: HeapInuse %d, %d after the first minute", minute, ms.HeapInuse, warmHeap)
				}
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			t.Logf("%d min, %d sets, %d lookups: %+v, HeapInuse %d KiB (after 1 min %d KiB)",
				minutes, minutes*ticksPerMinute*49, lookups, b.Stats(), ms.HeapInuse>>10, warmHeap>>10)
		})
	}
}
