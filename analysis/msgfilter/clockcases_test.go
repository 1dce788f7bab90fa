package msgfilter

import (
	"sort"
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
)

// The motivating experiment, replayed on the real tf buffer.
//
// Timing model (all offsets from the start of the run; the bag's record
// clock is system time, and sim time runs at real-time rate):
//   - /tf: odom->base_link at 50 Hz, stamped at offset k*20 ms (k = -5 ...,
//     so tf starts 100 ms before the first scan) and recorded 2 ms later.
//   - /tf_static: base_link->laser, recorded before everything else.
//   - /scan: 20 Hz, stamped at offset 5 ms + j*50 ms. A sim-time laser
//     (and a time-zero one) is recorded 10 ms after its stamp; a
//     system-time laser stamps at publication and is recorded 1 ms after.
//
// Consequences for target odom on one clock: scan stamps fall 5 or 15 ms
// (mod 20 ms) after a tf stamp, alternately. The next tf is therefore
// recorded 7 ms or 17 ms after the scan stamp.
//   - /clock, /clock (10 ms latency): odd scans find the tf 7 ms after
//     their stamp already there (pass at once), even scans wait for the one
//     recorded at 17 ms: 7 ms and one transform -> exactly half wait.
//   - system, system (1 ms latency): no scan finds its next tf; even scans
//     wait 16 ms, odd ones 6 ms, one transform each.
const (
	sim0    = 120 * sec                       // sim time at the start
	sys0    = 1_790_000_000 * sec             // system time at the start
	nScans  = 40                              // 2 s of scans
	nTF     = 110                             // tf up to 2.18 s
	tfLat   = 2 * ms                          // tf publication latency
	laserSO = 5 * ms                          // scan phase against tf
	simLat  = 10 * ms                         // sim laser stamp -> record
	sysLat  = 1 * ms                          // system laser stamp -> record
	wallLag = int64(1_790_000_000*sec) - sim0 // record clock minus sim clock
)

type clockKind int

const (
	simClock clockKind = iota
	sysClock
	zeroStamp
)

type counts map[Outcome]int

func (c clockKind) stamp(offset int64) int64 {
	switch c {
	case simClock:
		return sim0 + offset
	case sysClock:
		return sys0 + offset
	}
	return 0
}

type event struct {
	at     int64
	scan   bool
	key    uint64
	stamp  int64
	static bool
}

// timeline builds the bag in record order.
func timeline(laser, tfClock clockKind) []event {
	ev := []event{{at: sys0 - sec, static: true, stamp: tfClock.stamp(-sec)}}
	for k := -5; k <= nTF; k++ {
		off := int64(k) * 20 * ms
		ev = append(ev, event{at: sys0 + off + tfLat, stamp: tfClock.stamp(off)})
	}
	for j := 0; j < nScans; j++ {
		off := laserSO + int64(j)*50*ms
		lat := simLat
		if laser == sysClock {
			lat = sysLat
		}
		ev = append(ev, event{at: sys0 + off + lat, scan: true, key: uint64(j), stamp: laser.stamp(off)})
	}
	sort.SliceStable(ev, func(a, b int) bool { return ev[a].at < ev[b].at })
	return ev
}

type caseRun struct {
	results map[string][]Result // per target, delivery order
	diffs   []int64             // scan stamp - latest common time (odom) at arrival
	paired  []int64             // for passes at odom: newest odom tf stamp at decision - L then
}

// replay feeds the timeline to an odom and a base_link filter on one
// buffer, in separate groups or in one shared group.
func replay(t *testing.T, laser, tfClock clockKind, shared bool) caseRun {
	t.Helper()
	return replayWith(t, laser, tfClock, Params{QueueSize: 5}, 0, shared)
}

// replayWith is replay with the filters' params and the buffer's cache time.
func replayWith(t *testing.T, laser, tfClock clockKind, p Params, cacheNS int64, shared bool) caseRun {
	t.Helper()
	buf := tf.NewBuffer(tf.Options{CacheTimeNS: cacheNS})
	run := caseRun{results: map[string][]Result{}}
	var newestTF int64
	var groups []*Group
	filters := map[string]*Filter{}
	sg := NewGroup(buf)
	for _, target := range []string{"odom", "base_link"} {
		g := sg
		if !shared {
			g = NewGroup(buf)
			groups = append(groups, g)
		}
		target := target
		filters[target] = g.NewFilter([]string{target}, p, func(r Result) {
			run.results[target] = append(run.results[target], r)
			if target == "odom" && (r.Outcome == Passed || r.Outcome == PassedAfterWait) {
				l, err := buf.LatestCommonTime("odom", "laser")
				if err != nil {
					t.Errorf("LatestCommonTime after a pass: %v", err)
				}
				run.paired = append(run.paired, newestTF-l)
			}
		})
	}
	if shared {
		groups = []*Group{sg}
	}
	for _, e := range timeline(laser, tfClock) {
		if e.scan {
			if l, err := buf.LatestCommonTime("odom", "laser"); err == nil {
				run.diffs = append(run.diffs, e.stamp-l)
			}
			for _, target := range []string{"odom", "base_link"} {
				filters[target].Add(Msg{Key: e.key, FrameID: "laser", StampNS: e.stamp, ArrivalNS: e.at})
			}
			continue
		}
		st := link("odom", "base_link", e.stamp)
		if e.static {
			st = link("base_link", "laser", e.stamp)
		}
		if err := buf.SetTransform(st, "test", e.static); err != nil {
			t.Fatalf("SetTransform: %v", err)
		}
		if !e.static {
			newestTF = e.stamp
		}
		for _, g := range groups {
			g.TransformStored(e.at, e.stamp, e.static)
		}
	}
	for _, g := range groups {
		g.Finish()
	}
	return run
}

func tally(rs []Result) counts {
	c := counts{}
	for _, r := range rs {
		c[r.Outcome]++
	}
	return c
}

func TestFiveClockCases(t *testing.T) {
	tests := []struct {
		name           string
		laser, tfClock clockKind
		diffMin        int64 // laser stamp - latest dynamic tf stamp, at arrival
		diffMax        int64
		odom           counts
		base           counts
		check          func(t *testing.T, odom []Result, run caseRun)
	}{
		{
			name: "/clock laser, /clock tf", laser: simClock, tfClock: simClock,
			diffMin: -5 * ms, diffMax: 5 * ms,
			odom: counts{Passed: 20, PassedAfterWait: 20},
			base: counts{Passed: nScans},
			check: func(t *testing.T, odom []Result, _ caseRun) {
				for _, r := range odom {
					even := r.Key%2 == 0
					if even && (r.Outcome != PassedAfterWait || r.WaitNS != 7*ms || r.WaitTFMessages != 1) ||
						!even && (r.Outcome != Passed || r.WaitNS != 0) {
						t.Errorf("scan %d: %+v", r.Key, r)
					}
				}
			},
		},
		{
			name: "system laser, system tf", laser: sysClock, tfClock: sysClock,
			diffMin: 5 * ms, diffMax: 15 * ms,
			odom: counts{PassedAfterWait: nScans},
			base: counts{Passed: nScans},
			check: func(t *testing.T, odom []Result, _ caseRun) {
				for _, r := range odom {
					want := 6 * ms
					if r.Key%2 == 0 {
						want = 16 * ms
					}
					if r.WaitNS != want || r.WaitTFMessages != 1 {
						t.Errorf("scan %d: waited %d ns after %d tf, want %d after 1", r.Key, r.WaitNS, r.WaitTFMessages, want)
					}
				}
			},
		},
		{
			name: "system laser, /clock tf", laser: sysClock, tfClock: simClock,
			diffMin: wallLag, diffMax: wallLag + 2*sec,
			odom: counts{DroppedQueueFull: nScans - 5, PendingAtEnd: 5},
			base: counts{Passed: nScans},
			check: func(t *testing.T, odom []Result, _ caseRun) {
				for i, r := range odom[:nScans-5] {
					// Evicted oldest first, each when the scan 5 later arrives.
					if r.Key != uint64(i) || r.Outcome != DroppedQueueFull {
						t.Fatalf("drop %d: %+v", i, r)
					}
				}
				want := "Message Filter dropping message: frame 'laser' at time 1790000000.005 for reason 'discarding message because the queue is full'"
				if odom[0].LogLine != want {
					t.Errorf("log line\n got %s\nwant %s", odom[0].LogLine, want)
				}
				for _, r := range odom[nScans-5:] {
					if r.Outcome != PendingAtEnd || r.Key < nScans-5 {
						t.Errorf("pending: %+v", r)
					}
				}
			},
		},
		{
			name: "/clock laser, system tf", laser: simClock, tfClock: sysClock,
			diffMin: -wallLag - 2*sec, diffMax: -wallLag + 2*sec,
			odom: counts{DroppedOutTheBack: nScans},
			base: counts{Passed: nScans},
			check: func(t *testing.T, odom []Result, _ caseRun) {
				for _, r := range odom {
					if r.WaitNS != 0 || r.WaitTFMessages != 0 {
						t.Errorf("scan %d not dropped at once: %+v", r.Key, r)
					}
				}
				want := "Message Filter dropping message: frame 'laser' at time 120.005 for reason 'the timestamp on the message is earlier than all the data in the transform cache'"
				if odom[0].LogLine != want {
					t.Errorf("log line\n got %s\nwant %s", odom[0].LogLine, want)
				}
			},
		},
		{
			name: "stamp 0 laser, /clock tf", laser: zeroStamp, tfClock: simClock,
			diffMin: -sim0 - 3*sec, diffMax: -sim0,
			odom: counts{Passed: nScans},
			base: counts{Passed: nScans},
			check: func(t *testing.T, _ []Result, run caseRun) {
				// Time 0 resolves to the latest common time, i.e. the newest
				// odom->base_link pose in the buffer.
				for i, d := range run.paired {
					if d != 0 {
						t.Errorf("pass %d paired with a pose %d ns older than the newest", i, d)
					}
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := replay(t, tt.laser, tt.tfClock, false)
			for _, d := range run.diffs {
				if d < tt.diffMin || d > tt.diffMax {
					t.Errorf("laser - tf = %d ns outside [%d, %d]", d, tt.diffMin, tt.diffMax)
					break
				}
			}
			if len(run.diffs) != nScans {
				t.Errorf("%d scans saw a connected tree at arrival, want %d", len(run.diffs), nScans)
			}
			if got := tally(run.results["odom"]); !equalCounts(got, tt.odom) {
				t.Errorf("odom: %v, want %v", got, tt.odom)
			}
			if got := tally(run.results["base_link"]); !equalCounts(got, tt.base) {
				t.Errorf("base_link: %v, want %v", got, tt.base)
			}
			for _, r := range run.results["base_link"] {
				if r.WaitNS != 0 {
					t.Errorf("base_link scan %d waited", r.Key)
				}
			}
			tt.check(t, run.results["odom"], run)

			// A shared group (one tf2_ros::Buffer for both filters) decides
			// the same for every scan.
			sharedRun := replay(t, tt.laser, tt.tfClock, true)
			for _, target := range []string{"odom", "base_link"} {
				if !sameDecisions(run.results[target], sharedRun.results[target]) {
					t.Errorf("%s: shared group decided differently", target)
				}
			}
		})
	}
}

func equalCounts(a, b counts) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func sameDecisions(a, b []Result) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[uint64]Result{}
	for _, r := range a {
		m[r.Key] = r
	}
	for _, r := range b {
		if m[r.Key] != r {
			return false
		}
	}
	return true
}

// TestPresetsOnClockCases replays three of the clock cases for each preset.
// Expected counts follow from the timing model above and each preset's
// queue size, tolerance and buffer_timeout; timers fire only when a later
// event (the last is the tf recorded at 2.202 s) passes their deadline.
func TestPresetsOnClockCases(t *testing.T) {
	sameClock := func(waitOnly bool) counts {
		if waitOnly {
			return counts{PassedAfterWait: nScans}
		}
		return counts{Passed: 20, PassedAfterWait: 20}
	}
	tests := []struct {
		preset string
		clock  counts // /clock laser, /clock tf
		sysLas counts // system laser, /clock tf
		simLas counts // /clock laser, system tf
	}{
		// Scans wait at most 17 ms, far below any queue or timeout limit.
		{"rviz-laserscan", sameClock(false), counts{DroppedQueueFull: 30, PendingAtEnd: 10}, counts{DroppedOutTheBack: nScans}},
		// Queue 1: each waiting scan is evicted by the next, 50 ms later;
		// the last one times out at 1.956 + 0.2 s, before the last event.
		{"slam_toolbox", sameClock(false), counts{DroppedQueueFull: nScans - 1, DroppedOutTheBack: 1}, counts{DroppedOutTheBack: nScans}},
		{"slam_toolbox-code-defaults", sameClock(false), counts{DroppedQueueFull: nScans - 1, PendingAtEnd: 1}, counts{DroppedOutTheBack: nScans}},
		// Queue 10 evicts after 500 ms, before the 1 s timeout.
		{"nav2-amcl", sameClock(false), counts{DroppedQueueFull: 30, PendingAtEnd: 10}, counts{DroppedOutTheBack: nScans}},
		// Tolerance 50 ms: every scan waits for a tf 50 ms past its stamp
		// (47 or 57 ms, three transforms). The 0.3 s timeout beats the
		// queue of 50: scans 0-37 time out, 38 and 39 are still pending.
		{"nav2-obstacle-layer", sameClock(true), counts{DroppedOutTheBack: 38, PendingAtEnd: 2}, counts{DroppedOutTheBack: nScans}},
	}
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			pr, ok := Presets[tt.preset]
			if !ok || pr.Name != tt.preset || pr.Source == "" {
				t.Fatalf("preset %q missing or incomplete: %+v", tt.preset, pr)
			}
			for _, c := range []struct {
				laser, tfClock clockKind
				want           counts
			}{{simClock, simClock, tt.clock}, {sysClock, simClock, tt.sysLas}, {simClock, sysClock, tt.simLas}} {
				run := replayWith(t, c.laser, c.tfClock, pr.Params, pr.CacheTimeNS, false)
				if got := tally(run.results["odom"]); !equalCounts(got, c.want) {
					t.Errorf("laser %d / tf %d: odom %v, want %v", c.laser, c.tfClock, got, c.want)
				}
				if got := tally(run.results["base_link"]); !equalCounts(got, counts{Passed: nScans}) {
					t.Errorf("laser %d / tf %d: base_link %v", c.laser, c.tfClock, got)
				}
			}
		})
	}
	obstacle := replayWith(t, simClock, simClock, Presets["nav2-obstacle-layer"].Params, 0, false)
	for _, r := range obstacle.results["odom"] {
		want := 57 * ms
		if r.Key%2 == 0 {
			want = 47 * ms
		}
		if r.WaitNS != want || r.WaitTFMessages != 3 {
			t.Errorf("obstacle layer scan %d: waited %d ns after %d tf, want %d after 3", r.Key, r.WaitNS, r.WaitTFMessages, want)
		}
	}
}
