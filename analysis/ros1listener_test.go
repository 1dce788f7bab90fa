package analysis

import (
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
)

// TestROS1Listen: noetic's listener resets at a tf message that finds ROS
// time below its value at the previous tf message, not at the /clock step
// itself, and not when /clock is past that value again by then; a ROS 2 bag
// or a bag without /clock never resets here.
func TestROS1Listen(t *testing.T) {
	for _, tc := range []struct {
		name      string
		ros1      bool
		hasClock  bool
		clocks    []int64 // /clock value in force at each tf message (-1: none yet)
		wantReset []bool
	}{
		{"back", true, true, []int64{-1, 100, 120, 100, 101}, []bool{false, false, false, true, false}},
		{"back and past again before tf", true, true, []int64{100, 120, 125}, []bool{false, false, false}},
		{"equal is not back", true, true, []int64{100, 100}, []bool{false, false}},
		{"no clock", true, false, []int64{100, 50}, []bool{false, false}},
		{"ROS 2 bag", false, true, []int64{100, 50}, []bool{false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &analyzer{hasClock: tc.hasClock, clock: newClockState(0)}
			a.wire.ROS1 = tc.ros1
			tr := newTFReplay(10e9)
			for i, c := range tc.clocks {
				a.clock.seen, a.clock.ns = c >= 0, c
				st := tf.Stamped{Parent: "odom", Child: "base_link", Stamp: 1000 + int64(i),
					Transform: tf.Transform{Rotation: tf.Quat{W: 1}}}
				reset, _ := a.ros1Listen(tr)
				if reset != tc.wantReset[i] {
					t.Fatalf("tf message %d (clock %d): reset %v, want %v", i, c, reset, tc.wantReset[i])
				}
				if reset && tr.buf.CanTransform("odom", "base_link", 0) {
					t.Fatalf("tf message %d: buffer not cleared", i)
				}
				if err := tr.buf.SetTransform(st, "test", false); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
