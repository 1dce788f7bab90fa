package msgfilter

// The ROS 1 mode against the real ROS 1 filter (mforacle, Debian geometry2
// 0.7.6): unlike the ROS 2 comparison of oracle_test.go, no difference is
// excused. Every message must get the peer's outcome and reason, decided at
// the same input line.

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/bagclock/bagclock/internal/scenario"
)

// ros1Mismatch compares ours (ROS1 mode) with the peer on the given
// messages and describes the first difference ("" when all agree).
func ros1Mismatch(events []mfEvent, indices []int, ours, peer map[int]decision) string {
	for _, i := range indices {
		o, okO := ours[i]
		p, okP := peer[i]
		switch {
		case !okO || !okP:
			return fmt.Sprintf("message %d: decided by ours %v, by ROS 1 %v", i, okO, okP)
		case o.outcome != p.outcome || o.reason != p.ros1Reason || o.line != p.line:
			ev := "end"
			if p.line >= 1 && p.line <= len(events) {
				ev = events[p.line-1].json()
			}
			return fmt.Sprintf("message %d: ours %s %q at line %d, ROS 1 %s %q at line %d (%s)",
				i, o.outcome, o.reason, o.line, p.ros1Outcome, p.ros1Reason, p.line, ev)
		}
	}
	return ""
}

// TestMessageFilterOracleROS1Random runs the random streams of
// TestMessageFilterOracleRandom through the ROS 1 mode: every message must
// agree, including those ROS 2 decides differently (differences 1, 2, 5 and
// 6 of oracle_test.go).
func TestMessageFilterOracleROS1Random(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the ROS 1 oracle on 10,000 streams")
	}
	bin := buildMFOracle(t)
	configs := []mfConfig{
		{queue: 0, cacheNS: 10e9}, {queue: 1, cacheNS: 10e9}, {queue: 3, cacheNS: 10e9}, {queue: 10, cacheNS: 10e9},
		{queue: 0, cacheNS: 1e9}, {queue: 2, cacheNS: 1e9}, {queue: 10, cacheNS: 1e9, tolNS: 50e6}, {queue: 0, cacheNS: 10e9, tolNS: 200e6},
	}
	const perConfig = 1250
	count := map[string]int{}
	for ci, c := range configs {
		c.target = "odom"
		rng := rand.New(rand.NewPCG(uint64(ci), 0x6d66))
		next := 0
		events, streams, indices := randomStreams(rng, perConfig, c, &next)
		peer := runMFOracle(t, bin, c, events)
		ros2 := 0
		bad := 0
		for s, span := range streams {
			ours := emulateAs(ROS1, c, events[span[0]:span[1]], span[0])
			for _, i := range indices[s] {
				if d, ok := ours[i]; ok && d.line == span[1]+1 {
					d.line = len(events) + 1 // pending at the end of the stream is pending at the end of the file
					ours[i] = d
				}
			}
			count["streams"]++
			count["messages"] += len(indices[s])
			if m := ros1Mismatch(events, indices[s], ours, peer); m != "" {
				bad++
				if bad <= 5 {
					t.Errorf("%s stream %d: %s", c, s, m)
				}
				continue
			}
			count["messages agreeing"] += len(indices[s])
			// The same stream through the ROS 2 mode: how many messages
			// ROS 1 semantics change (the comparison is worth something
			// only if that is not zero).
			r2 := emulate(c, events[span[0]:span[1]], span[0])
			for _, i := range indices[s] {
				if d := r2[i]; d.outcome != ours[i].outcome || (d.line != ours[i].line && d.line != span[1]+1) {
					ros2++
				}
			}
		}
		for _, d := range peer {
			count["ros1 "+d.ros1Outcome]++
		}
		count["messages ROS 2 decides differently"] += ros2
		if bad > 0 {
			t.Errorf("%s: %d of %d streams differ from ROS 1", c, bad, perConfig)
		}
	}
	logCounts(t, count)
	if count["messages agreeing"] != count["messages"] {
		t.Errorf("%d of %d messages agree", count["messages agreeing"], count["messages"])
	}
	if count["messages ROS 2 decides differently"] == 0 {
		t.Error("no message decided differently by the ROS 2 mode: the streams no longer reach ROS 1's semantics")
	}
	for _, k := range []string{"passed", "passed_after_wait", "dropped_queue_full", "dropped_out_the_back",
		"dropped_empty_frame", "dropped_retest_unknown", "unrepresentable_stamp"} {
		if count["ros1 "+k] == 0 {
			t.Errorf("no stream produced ROS 1 outcome %s", k)
		}
	}
}

// TestMessageFilterOracleROS1Scenarios runs every generated clock case
// through the ROS 1 mode under the README's configurations; every scan must
// agree.
func TestMessageFilterOracleROS1Scenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the ROS 1 oracle on every clock case")
	}
	bin := buildMFOracle(t)
	names := append(scenario.Names(), scenario.Demo)
	total, agreed := 0, 0
	for _, name := range names {
		spec, err := scenario.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, clear := range []bool{true, false} {
			events := scenarioEvents(t, spec, clear)
			idx := scanIndices(events)
			for _, q := range []int{1, 3, 10, 0} {
				for _, cache := range []int64{10e9, 1e9} {
					c := mfConfig{target: spec.OdomFrame, queue: q, cacheNS: cache}
					peer := runMFOracle(t, bin, c, events)
					total += len(idx)
					if m := ros1Mismatch(events, idx, emulateAs(ROS1, c, events, 0), peer); m != "" {
						t.Errorf("%s clear=%v %s: %s", name, clear, c, m)
						continue
					}
					agreed += len(idx)
				}
			}
		}
	}
	t.Logf("%d of %d scans agree with ROS 1's MessageFilter over %d clock cases (ROS 1 mode)", agreed, total, len(names))
	if total < 10000 {
		t.Errorf("only %d scans compared", total)
	}
}

// TestMessageFilterOracleROS1Differences runs the minimal streams of the
// documented differences through the ROS 1 mode: where the ROS 2 mode
// differs by design, the ROS 1 mode must do what ROS 1 does.
func TestMessageFilterOracleROS1Differences(t *testing.T) {
	bin := buildMFOracle(t)
	tfAt := func(s float64) mfEvent {
		return mfEvent{op: "tf", parent: "odom", child: "laser", stampNS: int64(s * 1e9)}
	}
	scanAt := func(i int, s float64) mfEvent {
		return mfEvent{op: "scan", frame: "laser", stampNS: int64(s * 1e9), index: i}
	}
	for _, tc := range []struct {
		name   string
		c      mfConfig
		events []mfEvent
		want   map[int]Outcome
	}{
		{"1 eviction only for a waiting message", mfConfig{target: "odom", queue: 2, cacheNS: 10e9},
			[]mfEvent{tfAt(100), tfAt(101), scanAt(0, 102), scanAt(1, 103), scanAt(2, 100.5), tfAt(102.5), tfAt(104)},
			map[int]Outcome{0: PassedAfterWait, 1: PassedAfterWait, 2: Passed}},
		{"2 too old while waiting is Unknown", mfConfig{target: "odom", queue: 10, cacheNS: 1e9},
			[]mfEvent{tfAt(100), scanAt(0, 100.5), tfAt(105)},
			map[int]Outcome{0: DroppedUnknown}},
		{"2 queue full is Unknown", mfConfig{target: "odom", queue: 1, cacheNS: 10e9},
			[]mfEvent{tfAt(100), scanAt(0, 101), scanAt(1, 102), tfAt(103)},
			map[int]Outcome{0: DroppedQueueFull, 1: PassedAfterWait}},
		{"6 tolerance: one too-old request drops at once", mfConfig{target: "odom", queue: 10, cacheNS: 1e9, tolNS: 200e6},
			// 99.9 s is too old against 101 s (cache 1 s); 100.1 s is not.
			[]mfEvent{tfAt(100), tfAt(101), scanAt(0, 99.9)},
			map[int]Outcome{0: DroppedOutTheBack}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			peer := runMFOracle(t, bin, tc.c, tc.events)
			ours := emulateAs(ROS1, tc.c, tc.events, 0)
			for i, want := range tc.want {
				if peer[i].outcome != want {
					t.Errorf("ROS 1 message %d: %s, want %s (ROS 1 changed?)", i, peer[i].ros1Outcome, want)
				}
			}
			if m := ros1Mismatch(tc.events, scanIndices(tc.events), ours, peer); m != "" {
				t.Error(m)
			}
		})
	}
}
