package msgfilter

import (
	"container/heap"
	"fmt"
	"slices"
	"testing"
)

// TestTimerOrder: buffer_timeout timers fire by deadline, and timers due at
// the same instant in the order their requests were made, across the
// filters of one Group (one tf2_ros::Buffer).
func TestTimerOrder(t *testing.T) {
	type add struct {
		filter    int // index into timeouts
		key       uint64
		arrivalNS int64
	}
	type step struct {
		advanceNS int64
		want      []string // filter/key@decision ms, in delivery order
	}
	tests := []struct {
		name     string
		timeouts []int64 // BufferTimeoutNS per filter
		adds     []add
		steps    []step
	}{
		{
			// Same arrival, same timeout: a1, b1, a2 all expire at 1100 ms.
			name:     "simultaneous deadlines fire in creation order",
			timeouts: []int64{100 * ms, 100 * ms},
			adds:     []add{{0, 1, 1 * s}, {1, 1, 1 * s}, {0, 2, 1 * s}},
			steps:    []step{{1200 * ms, []string{"a1@1100", "b1@1100", "a2@1100"}}},
		},
		{
			// nav2-amcl's 1 s and slam_toolbox's 0.2 s side by side: the
			// request made second expires first, and alone.
			name:     "an earlier deadline made later fires first",
			timeouts: []int64{1 * s, 200 * ms},
			adds:     []add{{0, 1, 1 * s}, {1, 1, 1 * s}},
			steps: []step{
				{1500 * ms, []string{"b1@1200"}},
				{2 * s, []string{"b1@1200", "a1@2000"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, 0)
			var got []string
			g := NewGroup(r.buf)
			r.groups = append(r.groups, g)
			var fs []*Filter
			for i, timeout := range tt.timeouts {
				name := string(rune('a' + i))
				fs = append(fs, g.NewFilter([]string{"odom"}, Params{QueueSize: 5, BufferTimeoutNS: timeout}, func(res Result) {
					if res.Outcome != DroppedOutTheBack || res.Reason != ReasonOutTheBack {
						t.Errorf("%s%d: %s (%q), want a timeout drop", name, res.Key, res.Outcome, res.Reason)
					}
					got = append(got, fmt.Sprintf("%s%d@%d", name, res.Key, res.DecidedAtNS/ms))
				}))
			}
			r.set(link("base_link", "laser", 0), true, 0)
			r.set(link("odom", "base_link", 1*s), false, 1*s)
			for _, a := range tt.adds {
				// Stamp 2 s is in the future of the odom data: it waits.
				fs[a.filter].Add(Msg{Key: a.key, FrameID: "laser", StampNS: 2 * s, ArrivalNS: a.arrivalNS})
			}
			if len(got) != 0 || g.Pending() != len(tt.adds) {
				t.Fatalf("decided on arrival: %v, pending %d", got, g.Pending())
			}
			for _, st := range tt.steps {
				g.Advance(st.advanceNS)
				if !slices.Equal(got, st.want) {
					t.Fatalf("after Advance(%d ms): %v, want %v", st.advanceNS/ms, got, st.want)
				}
			}
		})
	}
}

// TestTimerHeapIndex: every request in the timer heap knows its index, and
// one that leaves the heap has index -1, which is how a retest pass tells
// whether a completing request still has a timer to remove.
func TestTimerHeapIndex(t *testing.T) {
	var h timerHeap
	check := func(when string) {
		t.Helper()
		for i, r := range h {
			if r.heapIdx != i {
				t.Fatalf("%s: request seq %d at index %d has heapIdx %d", when, r.seq, i, r.heapIdx)
			}
		}
	}
	deadlines := []int64{5, 3, 5, 1, 4, 3}
	reqs := make([]*request, len(deadlines))
	for i, d := range deadlines {
		reqs[i] = &request{deadline: d, seq: uint64(i + 1), heapIdx: -1}
		heap.Push(&h, reqs[i])
		check(fmt.Sprintf("push %d", i+1))
	}
	heap.Remove(&h, reqs[2].heapIdx)
	check("remove seq 3")
	if reqs[2].heapIdx != -1 {
		t.Errorf("removed request has heapIdx %d, want -1", reqs[2].heapIdx)
	}
	var order []uint64
	for h.Len() > 0 {
		r := heap.Pop(&h).(*request)
		check(fmt.Sprintf("pop seq %d", r.seq))
		if r.heapIdx != -1 {
			t.Errorf("popped request seq %d has heapIdx %d, want -1", r.seq, r.heapIdx)
		}
		order = append(order, r.seq)
	}
	// By deadline, then creation: 1 (seq 4), 3 (seq 2, 6), 4 (seq 5), 5 (seq 1).
	if want := []uint64{4, 2, 6, 5, 1}; !slices.Equal(order, want) {
		t.Errorf("pop order %v, want %v", order, want)
	}
}
