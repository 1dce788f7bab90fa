package msgfilter

import (
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
)

// benchStream replays 100 ms of the /clock, /clock timeline per iteration:
// five odom->base_link inserts with their retests and two scans (one passes
// at once, one after a wait), through one filter.
func benchStream(b *testing.B, p Params) {
	buf := tf.NewBuffer(tf.Options{})
	if err := buf.SetTransform(link("base_link", "laser", 0), "bench", true); err != nil {
		b.Fatal(err)
	}
	passed := 0
	f := New(buf, "odom", p, func(r Result) {
		if r.Outcome == Passed || r.Outcome == PassedAfterWait {
			passed++
		}
	})
	var off int64
	insert := func(k int64) {
		st := link("odom", "base_link", sim0+off+k*20*ms)
		if err := buf.SetTransform(st, "bench", false); err != nil {
			b.Fatal(err)
		}
		f.TransformStored(sys0+off+k*20*ms+tfLat, st.Stamp, false)
	}
	scan := func(k uint64, phase int64) {
		f.Add(Msg{Key: k, FrameID: "laser", StampNS: sim0 + off + phase, ArrivalNS: sys0 + off + phase + simLat})
	}
	insert(-1)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		// Record order within 100 ms: tf 0 (2), scan 5 ms (15), tf 20 (22),
		// tf 40 (42), scan 55 ms (65), tf 60 (62) ... see clockcases_test.go.
		insert(0)
		scan(uint64(2*n), 5*ms) // waits for the tf stamped 20 ms
		insert(1)
		insert(2)
		insert(3)
		scan(uint64(2*n+1), 55*ms) // tf stamped 60 ms already in
		insert(4)
		off += 100 * ms
		n++
	}
	if passed != 2*n {
		b.Fatalf("%d of %d scans passed", passed, 2*n)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*n), "ns/scan")
}

// BenchmarkAddTransformAdded is the filter's cost on a healthy 20 Hz scan
// and 50 Hz tf stream, buffer inserts included.
func BenchmarkAddTransformAdded(b *testing.B) { benchStream(b, Params{QueueSize: 5}) }

// BenchmarkAddTransformAddedTolerance adds a second request per scan and a
// buffer_timeout timer, as the Nav2 obstacle layer does.
func BenchmarkAddTransformAddedTolerance(b *testing.B) {
	benchStream(b, Params{QueueSize: 50, ToleranceNS: 10 * ms, BufferTimeoutNS: 300 * ms})
}

// BenchmarkRetestWithOrphans is one insert and retest while 72,000
// never-cancelled requests of evicted system-stamped scans wait (an hour of
// RViz against sim-time tf).
func BenchmarkRetestWithOrphans(b *testing.B) {
	buf := tf.NewBuffer(tf.Options{})
	if err := buf.SetTransform(link("base_link", "laser", 0), "bench", true); err != nil {
		b.Fatal(err)
	}
	f := New(buf, "odom", Params{QueueSize: 10}, nil)
	if err := buf.SetTransform(link("odom", "base_link", sim0), "bench", false); err != nil {
		b.Fatal(err)
	}
	f.TransformStored(sys0, sim0, false)
	for j := int64(0); j < 72000; j++ {
		f.Add(Msg{FrameID: "laser", StampNS: sys0 + j*50*ms, ArrivalNS: sys0 + j*50*ms})
	}
	k := int64(1)
	b.ReportAllocs()
	for b.Loop() {
		st := link("odom", "base_link", sim0+k*20*ms)
		if err := buf.SetTransform(st, "bench", false); err != nil {
			b.Fatal(err)
		}
		f.TransformStored(sys0+k*20*ms, st.Stamp, false)
		k++
	}
	if f.g.Pending() != 72000 {
		b.Fatalf("pending %d", f.g.Pending())
	}
}
