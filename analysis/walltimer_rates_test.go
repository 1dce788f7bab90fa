package analysis

import (
	"math"
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// wanderingSim drives the wall-timer check with 24 s of /clock at 100 Hz
// of wall time, its real-time factor 0.85 ± 0.12 (a 10 s sine), and one
// topic /w whose messages fire (wall ns, sim ns) as pub says.
func wanderingSim(t *testing.T, pub func(wallNS, simNS int64) bool, jitter func(i int) int64) TimerClock {
	t.Helper()
	const tick = int64(10_000_000)
	const l0, s0 = int64(1_700_000_000e9), int64(137e9)
	simAt := func(w int64) int64 { // ∫ 0.85 + 0.12 sin(2πt/10) dt, quantised to /clock's ticks
		q := float64(w/tick*tick) / 1e9
		return s0 + int64(1e9*(0.85*q+0.12*10/(2*math.Pi)*(1-math.Cos(2*math.Pi*q/10))))
	}
	a := &analyzer{clock: &clockState{}}
	a.topics.list = []*topicState{{name: "/w", typ: "sensor_msgs/msg/Imu", role: roleStamped, id: 0}}
	c := &wallTimerCheck{}
	ts := a.topics.list[0]
	n := 0
	for w := int64(0); w < 24e9; w += tick / 10 { // 1 ms steps of wall time
		if w%tick == 0 {
			v := simAt(w)
			m := &bagread.Message{LogTimeNS: l0 + w}
			if a.clock.seen {
				a.clock.logTicks.add(float64(m.LogTimeNS - a.clock.logNS))
			}
			a.clock.seen, a.clock.ns, a.clock.logNS = true, v, m.LogTimeNS
			c.onClock(a, m, v)
		}
		if pub(w, simAt(w)) {
			c.onStamped(a, &stampedMsg{m: &bagread.Message{LogTimeNS: l0 + w + 2_000_000 + jitter(n)}, topic: ts, stamp: simAt(w)})
			n++
		}
	}
	c.finish(a)
	if len(a.rep.TimerClocks) != 1 {
		t.Fatalf("timer clocks %+v", a.rep.TimerClocks)
	}
	return a.rep.TimerClocks[0]
}

// TestWallTimerRateWindows: a 100 Hz timer on sim time with /clock at
// 100 Hz and the factor under 1 fires on most ticks, one at a time: its
// intervals are one /clock period of wall time (now and then two) and
// 7.5 to 9.5 ms of sim time as the factor wanders, which the intervals
// alone call a wall timer. Its rate per 2 s
// window is steady in sim time and follows the factor in wall time: not a
// wall timer. A 50 Hz wall timer whose record times carry ±3 ms of
// delivery jitter has intervals too ragged to tell; its rate per window is
// steady in wall time: a wall timer.
func TestWallTimerRateWindows(t *testing.T) {
	var next int64
	simTimer := func(_, sim int64) bool {
		if next == 0 {
			next = sim
		}
		if sim >= next {
			next += 10_000_000
			return true
		}
		return false
	}
	// Delivered 2 ms after its /clock tick, every other run of 50 at
	// 2.6 ms: late enough not to count as following /clock.
	late := func(i int) int64 { return int64((i/50)%2) * 600_000 }
	got := wanderingSim(t, simTimer, late)
	if got.Clock == TimerWall || got.Flagged {
		t.Errorf("100 Hz sim timer aliasing on /clock: %+v, want not a wall timer", got)
	}
	wallTimer := func(w, _ int64) bool { return w%20_000_000 == 0 }
	ragged := func(i int) int64 { return int64((i*7919)%7-3) * 1_000_000 } // -3..3 ms
	got = wanderingSim(t, wallTimer, ragged)
	if got.Clock != TimerWall || !got.Flagged {
		t.Errorf("50 Hz wall timer with ±3 ms delivery jitter: %+v, want a flagged wall timer", got)
	}
}
