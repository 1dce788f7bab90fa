package analysis

import (
	"testing"

	"github.com/bagclock/bagclock/analysis/wire"
	"github.com/bagclock/bagclock/cdr"
)

// BenchmarkPassSplit times the two halves of analyze's pass apart, on the
// generated large bags, to show which one bounds it and by how much:
//
//   - read: what the reading goroutine does (the pass's Iterator with its
//     prefix and time-only topics, and decodeOne into one slot);
//   - replay: what the analysis goroutine does (the tf look-ahead, the replay of every message, already read and decoded
//     and held in memory, and finish), without reading;
//   - read-tfhandover and replay-tfhandover: the same with tf handed over
//     undecoded and decoded by the analysis (decodeOne's deferTF), the
//     split the reader picks while no batch waits (deferTFWhen).
//
// The pass on two cores takes at least the longer of the two. Memory of
// the replay case grows with the bag: it is a measurement, not a mode.
//
//	go test -run '^$' -bench PassSplit -benchtime 5x ./analysis
func BenchmarkPassSplit(b *testing.B) {
	for _, bg := range benchBags(b) {
		for _, handover := range []bool{false, true} {
			suffix := ""
			var arena *[]byte // nil: the reader decodes tf
			if handover {
				suffix = "-tfhandover"
			}
			b.Run(bg.Name+"/read"+suffix, func(b *testing.B) {
				bag := openBench(b, bg)
				a, err := newAnalyzer(bag, Config{}, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(bg.Size)
				defer reportCPU(b)()
				for b.Loop() {
					it := a.passIterator()
					var x decoded
					var dec wire.Decoder
					var buf []byte
					n := 0
					for it.Next() {
						m := it.Message()
						if handover && n%aheadBatchSize == 0 {
							buf = buf[:0] // a batch's arena, reused
							arena = &buf
						}
						decodeOne(&x, &dec, m, a.topics.find(m.Topic), true, arena)
						n++
					}
					if err := it.Err(); err != nil || n == 0 {
						b.Fatalf("read %d messages: %v", n, err)
					}
					it.Close()
				}
			})
			b.Run(bg.Name+"/replay"+suffix, func(b *testing.B) {
				bag := openBench(b, bg)
				a, err := newAnalyzer(bag, Config{}, nil)
				if err != nil {
					b.Fatal(err)
				}
				var all []decoded
				var dec wire.Decoder
				it := a.passIterator()
				for it.Next() {
					m := it.Message()
					var x decoded
					var buf []byte
					if handover {
						arena = &buf // one batch: reused
						buf = buf[:0]
					}
					decodeOne(&x, &dec, m, a.topics.find(m.Topic), true, arena)
					x.tf = cdr.TFMessage{Transforms: append([]cdr.TransformStamped(nil), x.tf.Transforms...)}
					all = append(all, x)
				}
				if err := it.Err(); err != nil {
					b.Fatal(err)
				}
				it.Close()
				b.SetBytes(bg.Size)
				defer reportCPU(b)()
				for b.Loop() {
					b.StopTimer()
					a, err := newAnalyzer(bag, Config{}, func(*ScanRow) error { return nil })
					if err != nil {
						b.Fatal(err)
					}
					// Each analyzer has its own topic states (and tf buffers).
					for i := range all {
						all[i].topic = a.topics.find(all[i].msg.Topic)
					}
					b.StartTimer()
					a.lookAheadTF()
					for i := range all {
						if err := a.replay(&all[i], nil); err != nil {
							b.Fatal(err)
						}
					}
					if rep := a.finish(); rep.Summary.Scans == 0 {
						b.Fatal("no rows")
					}
				}
			})
		}
	}
}
