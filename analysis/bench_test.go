package analysis

import (
	"syscall"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/bench"
)

// BenchmarkAnalyze and BenchmarkRead run on the same generated large bags
// (internal/bench, cached under $BAGCLOCK_BENCH_DIR): Read iterates the
// topics Analyze reads without decoding, so the ratio of the two is what
// the analysis costs on top of reading (target ≤ 1.3x).
//
//	go test -run '^$' -bench 'Analyze|Read' -benchtime 3x ./analysis
func BenchmarkAnalyze(b *testing.B) {
	for _, bg := range benchBags(b) {
		b.Run(bg.Name, func(b *testing.B) {
			bag := openBench(b, bg)
			b.SetBytes(bg.Size)
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				rows := 0
				if _, err := analyzeFinished(bag, Config{}, func(*ScanRow) error { rows++; return nil }); err != nil {
					b.Fatal(err)
				}
				if rows == 0 {
					b.Fatal("no rows")
				}
			}
		})
	}
}

func BenchmarkRead(b *testing.B) {
	for _, bg := range benchBags(b) {
		b.Run(bg.Name, func(b *testing.B) {
			bag := openBench(b, bg)
			b.SetBytes(bg.Size)
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				it := bag.Messages(bagread.ReadOptions{Topics: bench.Topics, Order: bagread.RecordOrder})
				n := 0
				for it.Next() {
					n += len(it.Message().Data)
				}
				if err := it.Err(); err != nil {
					b.Fatal(err)
				}
				it.Close()
				if n == 0 {
					b.Fatal("nothing read")
				}
			}
		})
	}
}

func benchBags(b *testing.B) []bench.Bag {
	bags, err := bench.EnsureBags(bench.CacheDir(), 1)
	if err != nil {
		b.Fatal(err)
	}
	return bags
}

func openBench(b *testing.B, bg bench.Bag) *bagread.Bag {
	bag, err := bagread.Open(bg.Dir, bagread.Options{MetadataTopicCounts: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { bag.Close() })
	return bag
}

// reportCPU reports the process CPU time (user + system, all threads) per
// iteration as cpu-ns/op: on a shared machine it moves far less with the
// other load than wall time does. Call as defer reportCPU(b)().
func reportCPU(b *testing.B) func() {
	start := cpuNS()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuNS()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuNS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
