package sync

import (
	"slices"
	"testing"
)

// TestROS1ROS2Differences pins the oracle README's minimal cases of the
// ROS 1 / ROS 2 differences on both flavors.
func TestROS1ROS2Differences(t *testing.T) {
	ev := func(i int, stamp, recv, idx int64) Message {
		return Message{Topic: i, StampNS: stamp, RecvNS: recv, Index: idx}
	}
	// Difference 2: 5 ns * 1.1 rounds to 6 in ROS 1 and truncates to 5 in ROS 2.
	round := oCase{cfg: NewConfig(Approximate, 2, 10), msgs: []Message{ev(0, sim0, 0, 0), ev(0, sim0+11, 0, 1), ev(1, sim0+6, 0, 0)}}
	if r := runOurs(round, FlavorROS1, nil); len(r.sets) != 1 || !slices.Equal(r.sets[0].stamps, []int64{sim0, sim0 + 6}) {
		t.Errorf("ROS 1 rounding case: sets %v, want (a t, b t+6)", r.sets)
	}
	if r := runOurs(round, FlavorROS2, nil); len(r.sets) != 1 || !slices.Equal(r.sets[0].stamps, []int64{sim0 + 11, sim0 + 6}) || len(r.drops) != 1 {
		t.Errorf("ROS 2 rounding case: sets %v drops %v, want (a t+11, b t+6) and a t dropped", r.sets, r.drops)
	}
	// Difference 3: a candidate across a sim-to-system clock switch scaled by 1.3 passes 2^31 s.
	rng := NewConfig(Approximate, 2, 10)
	rng.AgePenalty = 0.3
	over := oCase{cfg: rng, msgs: []Message{ev(0, sim0, 0, 0), ev(0, sys0, 0, 1), ev(1, sim0+secNS, 0, 0)}}
	if r := runOurs(over, FlavorROS1, nil); r.err != "Duration is out of dual 32-bit range" || r.errEvent != 2 {
		t.Errorf("ROS 1 range case: err %q at %d", r.err, r.errEvent)
	}
	if r := runOurs(over, FlavorROS2, nil); r.err != "" {
		t.Errorf("ROS 2 range case threw %q", r.err)
	}
	// Difference 1: reset exists only in ROS 1.
	reset := NewConfig(Approximate, 2, 10)
	reset.Reset = true
	jump := oCase{cfg: reset, msgs: []Message{ev(0, secNS, secNS, 0), ev(0, 2*secNS, secNS/2, 1), ev(1, secNS, 2*secNS, 0)}}
	if r := runOurs(jump, FlavorROS1, nil); len(r.sets) != 0 {
		t.Errorf("ROS 1 reset case: sets %v, want none", r.sets)
	}
	if r := runOurs(jump, FlavorROS2, nil); len(r.sets) != 1 {
		t.Errorf("ROS 2 (no reset) case: sets %v, want one", r.sets)
	}
	if _, err := New(reset); err == nil {
		t.Error("Reset accepted with FlavorROS2")
	}
	// Difference 4: negative stamps are skipped by both.
	neg := oCase{cfg: NewConfig(Approximate, 2, 10), msgs: []Message{ev(0, -5*secNS, 0, 0), ev(0, secNS, 0, 1), ev(1, secNS, 0, 0)}}
	for _, f := range []Flavor{FlavorROS1, FlavorROS2} {
		if r := runOurs(neg, f, nil); len(r.sets) != 1 || r.unrep[0] != 1 {
			t.Errorf("flavor %d negative stamp: sets %v unrepresentable %v", f, r.sets, r.unrep)
		}
	}
}
