package msgfilter

import (
	"strings"
	"testing"
)

const s = sec // nanoseconds per second, for readable stamps

func TestLogLine(t *testing.T) {
	tests := []struct {
		frame  string
		stamp  int64
		reason string
		want   string
	}{
		{"laser", 3_960_000_000, ReasonOutTheBack,
			"Message Filter dropping message: frame 'laser' at time 3.960 for reason 'the timestamp on the message is earlier than all the data in the transform cache'"},
		// 0.0625 is exact in binary: %.3f rounds the tie to even, as glibc.
		{"laser", 62_500_000, ReasonQueueFull,
			"Message Filter dropping message: frame 'laser' at time 0.062 for reason 'discarding message because the queue is full'"},
		{"base_scan", 1_790_000_000_005_000_000, ReasonQueueFull,
			"Message Filter dropping message: frame 'base_scan' at time 1790000000.005 for reason 'discarding message because the queue is full'"},
		{"", 0, ReasonEmptyFrameID,
			"Message Filter dropping message: frame '' at time 0.000 for reason 'the frame id of the message is empty'"},
	}
	for _, tt := range tests {
		if got := LogLine(tt.frame, tt.stamp, tt.reason); got != tt.want {
			t.Errorf("LogLine(%q, %d):\n got %s\nwant %s", tt.frame, tt.stamp, got, tt.want)
		}
		// The key a /rosout line is matched by is the line's middle.
		if k := LogKey(tt.frame, tt.stamp); !strings.HasPrefix(tt.want, "Message Filter dropping message: "+k+" for reason '") {
			t.Errorf("LogKey(%q, %d) = %q, not the middle of %q", tt.frame, tt.stamp, k, tt.want)
		}
	}
}

func TestEmptyFrameID(t *testing.T) {
	for _, frame := range []string{"", "/"} {
		r := newRig(t, 0)
		f, rec := r.filter("odom", Params{QueueSize: 1})
		r.set(link("odom", "base_link", 1*s), false, 1*s)
		f.Add(Msg{Key: 1, FrameID: frame, StampNS: 1_500_000_000, ArrivalNS: 2 * s})
		want := "Message Filter dropping message: frame '' at time 1.500 for reason 'the frame id of the message is empty'"
		if len(rec.got) != 1 || rec.got[0].Outcome != DroppedEmptyFrame || rec.got[0].LogLine != want ||
			rec.got[0].DecidedAtNS != 2*s {
			t.Fatalf("frame %q: got %+v", frame, rec.got)
		}
		// Not queued: a waiting message afterwards evicts nothing.
		f.Add(Msg{Key: 2, FrameID: "base_link", StampNS: 9 * s, ArrivalNS: 3 * s})
		if len(rec.got) != 1 || f.Queued() != 1 {
			t.Fatalf("frame %q: empty-frame message was queued: %+v", frame, rec.got)
		}
	}
}

func TestNegativeStamp(t *testing.T) {
	r := newRig(t, 0)
	f, rec := r.filter("odom", Params{})
	f.Add(Msg{Key: 7, FrameID: "laser", StampNS: -1, ArrivalNS: s})
	if len(rec.got) != 1 || rec.got[0].Outcome != RejectedNegativeStamp || rec.got[0].LogLine != "" || f.Queued() != 0 {
		t.Fatalf("got %+v", rec.got)
	}
}

func TestNoTargetIgnores(t *testing.T) {
	r := newRig(t, 0)
	rec := &recorder{}
	f := NewGroup(r.buf).NewFilter(nil, Params{}, rec.add)
	f.Add(Msg{Key: 1, FrameID: "", StampNS: s, ArrivalNS: s})
	f.Finish()
	if len(rec.got) != 0 {
		t.Fatalf("a filter without targets reported %+v", rec.got)
	}
}

// TestQueueEviction: the oldest message goes first, before the new one is
// tested (even when the new one passes at once), its log line names the
// evicted message, and its requests stay in the BufferCore.
func TestQueueEviction(t *testing.T) {
	r := newRig(t, 0)
	f, rec := r.filter("odom", Params{QueueSize: 2})
	r.set(link("base_link", "laser", 0), true, 0)
	r.set(link("odom", "base_link", 1*s), false, 1*s)

	f.Add(Msg{Key: 1, FrameID: "/laser", StampNS: 5 * s, ArrivalNS: 1_100_000_000})
	f.Add(Msg{Key: 2, FrameID: "laser", StampNS: 6 * s, ArrivalNS: 1_200_000_000})
	f.Add(Msg{Key: 3, FrameID: "laser", StampNS: 7 * s, ArrivalNS: 1_300_000_000})
	// Stamp 1 s is transformable now, but key 2 is evicted first.
	f.Add(Msg{Key: 4, FrameID: "laser", StampNS: 1 * s, ArrivalNS: 1_400_000_000})

	want := []Result{
		{Key: 1, Outcome: DroppedQueueFull, Reason: ReasonQueueFull,
			LogLine:     "Message Filter dropping message: frame 'laser' at time 5.000 for reason 'discarding message because the queue is full'",
			DecidedAtNS: 1_300_000_000, WaitNS: 200_000_000},
		{Key: 2, Outcome: DroppedQueueFull, Reason: ReasonQueueFull,
			LogLine:     "Message Filter dropping message: frame 'laser' at time 6.000 for reason 'discarding message because the queue is full'",
			DecidedAtNS: 1_400_000_000, WaitNS: 200_000_000},
		{Key: 4, Outcome: Passed, DecidedAtNS: 1_400_000_000},
	}
	if len(rec.got) != len(want) {
		t.Fatalf("got %d results %+v, want %d", len(rec.got), rec.got, len(want))
	}
	for i := range want {
		if rec.got[i] != want[i] {
			t.Errorf("result %d:\n got %+v\nwant %+v", i, rec.got[i], want[i])
		}
	}
	if p := f.g.Pending(); p != 3 {
		t.Errorf("Pending() = %d, want 3 (two orphaned requests of evicted messages + key 3)", p)
	}

	// 6.5 s completes the orphans (5 s, 6 s): their callbacks find nothing.
	r.set(link("odom", "base_link", 6_500_000_000), false, 1_500_000_000)
	if len(rec.got) != 3 || f.g.Pending() != 1 {
		t.Fatalf("orphans produced results or stayed: %+v, pending %d", rec.got[3:], f.g.Pending())
	}
	r.set(link("odom", "base_link", 7*s), false, 1_600_000_000)
	last := rec.got[len(rec.got)-1]
	if last.Key != 3 || last.Outcome != PassedAfterWait || last.WaitNS != 300_000_000 || last.WaitTFMessages != 2 {
		t.Fatalf("key 3: got %+v", last)
	}
}

// TestOutTheBack: stamp + cache_time < latest common time drops at once; at
// equality the message waits, and the next insert drops it on re-test.
func TestOutTheBack(t *testing.T) {
	r := newRig(t, 10*s)
	f, rec := r.filter("odom", Params{QueueSize: 5})
	r.set(link("base_link", "laser", 0), true, 0)
	r.set(link("odom", "base_link", 19_500_000_000), false, 19*s)
	r.set(link("odom", "base_link", 20*s), false, 20*s)

	f.Add(Msg{Key: 1, FrameID: "laser", StampNS: 5 * s, ArrivalNS: 21 * s})
	if len(rec.got) != 1 || rec.got[0].Outcome != DroppedOutTheBack || rec.got[0].WaitNS != 0 ||
		rec.got[0].LogLine != "Message Filter dropping message: frame 'laser' at time 5.000 for reason 'the timestamp on the message is earlier than all the data in the transform cache'" {
		t.Fatalf("at arrival: got %+v", rec.got)
	}

	f.Add(Msg{Key: 2, FrameID: "laser", StampNS: 10 * s, ArrivalNS: 22 * s}) // 10 + 10 == 20: waits
	if len(rec.got) != 1 || f.Queued() != 1 {
		t.Fatalf("boundary stamp did not wait: %+v", rec.got)
	}
	r.set(link("odom", "base_link", 20*s+1), false, 23*s)
	got := rec.got[len(rec.got)-1]
	if got.Key != 2 || got.Outcome != DroppedOutTheBack || got.WaitNS != 1*s || got.WaitTFMessages != 1 ||
		got.Reason != ReasonOutTheBack {
		t.Fatalf("on re-test: got %+v", got)
	}
}

// TestTimeZero: a time-zero message that must wait is dropped as OutTheBack
// once the tree connects with L > cache_time, and passes only if L <=
// cache_time; transformable on arrival it passes at once.
func TestTimeZero(t *testing.T) {
	tests := []struct {
		name        string
		odomStamp   int64
		staticFirst bool
		want        Outcome
		wantTF      int
	}{
		{"waits, then L=120s drops", 120 * s, false, DroppedOutTheBack, 1},
		{"waits, then L=5s passes", 5 * s, false, PassedAfterWait, 1},
		{"connected on arrival", 120 * s, true, Passed, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, 10*s)
			f, rec := r.filter("odom", Params{QueueSize: 5})
			if tt.staticFirst {
				r.set(link("base_link", "laser", 0), true, 1)
			}
			r.set(link("odom", "base_link", tt.odomStamp-20_000_000), false, 2)
			r.set(link("odom", "base_link", tt.odomStamp), false, 3)
			f.Add(Msg{Key: 1, FrameID: "laser", StampNS: 0, ArrivalNS: 4})
			if !tt.staticFirst {
				if len(rec.got) != 0 {
					t.Fatalf("decided before the tree connected: %+v", rec.got)
				}
				r.set(link("base_link", "laser", 0), true, 5)
			}
			if len(rec.got) != 1 || rec.got[0].Outcome != tt.want || rec.got[0].WaitTFMessages != tt.wantTF {
				t.Fatalf("got %+v, want %s after %d tf", rec.got, tt.want, tt.wantTF)
			}
		})
	}
}

// TestTolerance: a tolerance adds a second request at stamp + tolerance;
// both must succeed, and the pass re-checks both stamps.
func TestTolerance(t *testing.T) {
	tests := []struct {
		name        string
		tol         int64
		wantPending int
		want        Outcome
		wantTF      int
	}{
		{"no tolerance", 0, 0, Passed, 0},
		{"50 ms", 50 * ms, 1, PassedAfterWait, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, 0)
			f, rec := r.filter("odom", Params{QueueSize: 5, ToleranceNS: tt.tol})
			r.set(link("base_link", "laser", 0), true, 0)
			r.set(link("odom", "base_link", 1000*ms), false, 1000*ms)
			r.set(link("odom", "base_link", 1020*ms), false, 1020*ms)
			f.Add(Msg{Key: 1, FrameID: "laser", StampNS: 1000 * ms, ArrivalNS: 1025 * ms})
			if p := f.g.Pending(); p != tt.wantPending {
				t.Errorf("Pending() = %d, want %d", p, tt.wantPending)
			}
			r.set(link("odom", "base_link", 1040*ms), false, 1040*ms)
			r.set(link("odom", "base_link", 1060*ms), false, 1060*ms)
			if len(rec.got) != 1 || rec.got[0].Outcome != tt.want || rec.got[0].WaitTFMessages != tt.wantTF {
				t.Fatalf("got %+v, want %s after %d tf", rec.got, tt.want, tt.wantTF)
			}
		})
	}
}

func TestPendingAtEnd(t *testing.T) {
	r := newRig(t, 0)
	f, rec := r.filter("odom", Params{QueueSize: 3})
	r.set(link("base_link", "laser", 0), true, 0)
	r.set(link("odom", "base_link", 1*s), false, 1*s)
	f.Add(Msg{Key: 1, FrameID: "laser", StampNS: 9 * s, ArrivalNS: 2 * s})
	f.Add(Msg{Key: 2, FrameID: "laser", StampNS: 9 * s, ArrivalNS: 3 * s})
	f.Advance(5 * s)
	f.Finish()
	if len(rec.got) != 2 {
		t.Fatalf("got %+v", rec.got)
	}
	for i, g := range rec.got {
		if g.Key != uint64(i+1) || g.Outcome != PendingAtEnd || g.DecidedAtNS != 5*s || g.LogLine != "" {
			t.Errorf("result %d: %+v", i, g)
		}
	}
	if f.Queued() != 0 {
		t.Errorf("queue not emptied")
	}
}

// TestBufferTimeout: the timer cancels the request and the filter drops the
// message as OutTheBack; a timer due at an insert fires before the retest.
func TestBufferTimeout(t *testing.T) {
	tests := []struct {
		name   string
		events func(r *rig, f *Filter)
		wantAt int64
	}{
		{"advance", func(r *rig, f *Filter) {
			f.Advance(1099 * ms)
			if f.Queued() != 1 {
				r.t.Fatalf("timer fired early")
			}
			f.Advance(1100 * ms)
		}, 1100 * ms},
		{"insert after the deadline", func(r *rig, f *Filter) {
			// Data covering the stamp arrives after the deadline: too late.
			r.set(link("odom", "base_link", 3*s), false, 1200*ms)
		}, 1100 * ms},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, 0)
			f, rec := r.filter("odom", Params{QueueSize: 5, BufferTimeoutNS: 100 * ms})
			r.set(link("base_link", "laser", 0), true, 0)
			r.set(link("odom", "base_link", 1*s), false, 1*s)
			f.Add(Msg{Key: 1, FrameID: "laser", StampNS: 2 * s, ArrivalNS: 1 * s})
			tt.events(r, f)
			if len(rec.got) != 1 || rec.got[0].Outcome != DroppedOutTheBack || rec.got[0].DecidedAtNS != tt.wantAt ||
				rec.got[0].WaitNS != 100*ms {
				t.Fatalf("got %+v", rec.got)
			}
			if p := f.g.Pending(); p != 0 {
				t.Errorf("timed-out request still pending (%d)", p)
			}
			r.set(link("odom", "base_link", 4*s), false, 2*s)
			if len(rec.got) != 1 {
				t.Errorf("a cancelled request called back: %+v", rec.got)
			}
		})
	}
}

// TestSwapRemoveOrder: requests completing in one pass call back in tf2's
// swap-remove order, not in arrival order.
func TestSwapRemoveOrder(t *testing.T) {
	r := newRig(t, 0)
	f, rec := r.filter("odom", Params{})
	r.set(link("base_link", "laser", 0), true, 0)
	r.set(link("odom", "base_link", 2*s), false, 2*s)
	for i, st := range []int64{2100 * ms, 3500 * ms, 2300 * ms, 3600 * ms} {
		f.Add(Msg{Key: uint64(i + 1), FrameID: "laser", StampNS: st, ArrivalNS: 2*s + int64(i)})
	}
	// [r1 r2 r3 r4]: r1 done, r4 moves to slot 0 and waits, r2 waits, r3 done.
	r.set(link("odom", "base_link", 3*s), false, 3*s)
	if k := rec.keys(); !sameKeys(k, []uint64{1, 3}) {
		t.Fatalf("first pass order %v, want [1 3]", k)
	}
	// [r4 r2]: r4 done, r2 moves to slot 0, done.
	r.set(link("odom", "base_link", 4*s), false, 4*s)
	if k := rec.keys(); !sameKeys(k, []uint64{1, 3, 4, 2}) {
		t.Fatalf("order %v, want [1 3 4 2]", k)
	}
	for _, g := range rec.got {
		if g.Outcome != PassedAfterWait {
			t.Errorf("key %d: %s", g.Key, g.Outcome)
		}
	}
}

// TestSharedGroupInterleaves: two filters in one Group share tf2's request
// vector, so the swap-remove order mixes their requests.
func TestSharedGroupInterleaves(t *testing.T) {
	r := newRig(t, 0)
	var order []string
	g := NewGroup(r.buf)
	a := g.NewFilter([]string{"odom"}, Params{}, func(res Result) { order = append(order, "a"+string(rune('0'+res.Key))) })
	b := g.NewFilter([]string{"odom"}, Params{}, func(res Result) { order = append(order, "b"+string(rune('0'+res.Key))) })
	r.groups = append(r.groups, g)
	r.set(link("base_link", "laser", 0), true, 0)
	r.set(link("odom", "base_link", 1*s), false, 1*s)
	a.Add(Msg{Key: 1, FrameID: "laser", StampNS: 1100 * ms, ArrivalNS: 1})
	b.Add(Msg{Key: 1, FrameID: "laser", StampNS: 1200 * ms, ArrivalNS: 2})
	a.Add(Msg{Key: 2, FrameID: "laser", StampNS: 1300 * ms, ArrivalNS: 3})
	r.set(link("odom", "base_link", 2*s), false, 2*s)
	// [a1 b1 a2]: a1, then a2 moved into slot 0, then b1.
	want := []string{"a1", "a2", "b1"}
	if len(order) != 3 || order[0] != want[0] || order[1] != want[1] || order[2] != want[2] {
		t.Fatalf("order %v, want %v", order, want)
	}
}

// TestMultiTarget: every target must be transformable; a message waiting
// for one target passes once both are.
func TestMultiTarget(t *testing.T) {
	r := newRig(t, 0)
	rec := &recorder{}
	g := NewGroup(r.buf)
	f := g.NewFilter([]string{"/odom", "base_link"}, Params{QueueSize: 2}, rec.add)
	r.groups = append(r.groups, g)
	r.set(link("base_link", "laser", 0), true, 0)
	r.set(link("odom", "base_link", 1*s), false, 1*s)
	f.Add(Msg{Key: 1, FrameID: "laser", StampNS: 1500 * ms, ArrivalNS: 1})
	if len(rec.got) != 0 || g.Pending() != 1 {
		t.Fatalf("got %+v, pending %d", rec.got, g.Pending())
	}
	r.set(link("odom", "base_link", 2*s), false, 2)
	if len(rec.got) != 1 || rec.got[0].Outcome != PassedAfterWait {
		t.Fatalf("got %+v", rec.got)
	}
}

// TestLastCallbackDecides: with a tolerance the stamp's request can fail
// (too old) while the later one succeeds; tf2_ros looks only at the last
// callback's future, re-checks canTransform and drops with 'unknown'.
func TestLastCallbackDecides(t *testing.T) {
	r := newRig(t, 1*s)
	f, rec := r.filter("odom", Params{QueueSize: 5, ToleranceNS: 300 * ms})
	r.set(link("base_link", "laser", 0), true, 0)
	for st := int64(9000); st <= 10000; st += 100 {
		r.set(link("odom", "base_link", st*ms), false, st*ms)
	}
	f.Add(Msg{Key: 1, FrameID: "laser", StampNS: 8950 * ms, ArrivalNS: 10 * s})
	want := Result{Key: 1, Outcome: DroppedUnknown, Reason: ReasonUnknown, DecidedAtNS: 10 * s,
		LogLine: "Message Filter dropping message: frame 'laser' at time 8.950 for reason 'unknown'"}
	if len(rec.got) != 1 || rec.got[0] != want {
		t.Fatalf("got %+v\nwant %+v", rec.got, want)
	}
}

// TestToleranceRecheckAfterClear: the re-check after the last callback asks
// for stamp + tolerance again, not only for the stamp. The stamp + tolerance
// request is answered at arrival; a clear then takes its data away, and the
// stamp's request completes on data that stops short of stamp + tolerance:
// tf2_ros drops the message with 'unknown' (the same stream goes through the
// ROS 1 filter in TestMessageFilterOracleBoundaries).
func TestToleranceRecheckAfterClear(t *testing.T) {
	r := newRig(t, 10*s)
	f, rec := r.filter("odom", Params{QueueSize: 10, ToleranceNS: 100 * ms})
	r.set(link("odom", "laser", 100*s), false, 1)
	r.set(link("odom", "laser", 100200*ms), false, 2)
	// 99.95 s is before the first odom pose: it waits; 100.05 s is covered.
	f.Add(Msg{Key: 1, FrameID: "laser", StampNS: 99950 * ms, ArrivalNS: 3})
	if len(rec.got) != 0 || f.g.Pending() != 1 {
		t.Fatalf("on arrival: %+v, pending %d", rec.got, f.g.Pending())
	}
	r.buf.Clear()
	r.set(link("odom", "laser", 99900*ms), false, 4) // one pose: 99.95 s not yet
	if len(rec.got) != 0 {
		t.Fatalf("decided on one pose: %+v", rec.got)
	}
	r.set(link("odom", "laser", 100*s), false, 5) // 99.95 s now, 100.05 s no longer
	want := Result{Key: 1, Outcome: DroppedUnknown, Reason: ReasonUnknown, DecidedAtNS: 5, WaitNS: 2, WaitTFMessages: 2,
		LogLine: "Message Filter dropping message: frame 'laser' at time 99.950 for reason 'unknown'"}
	if len(rec.got) != 1 || rec.got[0] != want {
		t.Fatalf("got %+v\nwant %+v", rec.got, want)
	}
}
