package analysis

import (
	"slices"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestLeastAge checks the window of least ages a catch-up is judged by:
// the least of the last leastAgeWindowS seconds, forgetting older ones.
func TestLeastAge(t *testing.T) {
	const s = int64(time.Second)
	var l leastAge
	if _, ok := l.least(10 * s); ok {
		t.Fatal("an empty window has a least age")
	}
	l.add(10*s, 300_000_000)
	l.add(10*s+s/2, 200_000_000)
	l.add(12*s, 250_000_000)
	cases := []struct {
		at   int64
		want int64
		ok   bool
	}{
		{12 * s, 200_000_000, true},
		{15*s + s/2, 200_000_000, true}, // second 10 is still inside
		{16 * s, 250_000_000, true},     // second 10 has left the window
		{18*s + 1, 0, false},            // so has second 12
		{9 * s, 0, false},               // nothing before the first second
	}
	for _, c := range cases {
		got, ok := l.least(c.at)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("least(%d s) = %d, %v; want %d, %v", c.at/s, got, ok, c.want, c.ok)
		}
	}
}

// TestCatchUpRule checks which forward steps of a series are late delivery
// catching up: the series held a lag of 20 ms for the last seconds and its
// pace is 25 ms; the tolerance is half the least step reported (a jump of
// 1 s; a lead step of 250 ms).
func TestCatchUpRule(t *testing.T) {
	const ms = int64(time.Millisecond)
	const th = 1000 * ms
	at := 50 * int64(time.Second)
	var s stampSeries
	for i := int64(0); i < 200; i++ {
		s.ages.add(at-5*int64(time.Second)+i*25*ms, 20*ms)
	}
	cases := []struct {
		name                 string
		age, delta, logDelta int64
		tol                  int64
		want                 bool
	}{
		// nav2_turtlebot.mcap: after a 2.1 s pause the stamps advance 1.76
		// s and the message is 0.37 s later than usual.
		{"record gap covers the step", 390 * ms, 1764 * ms, 2137 * ms, th / 2, true},
		// The first message after a stall was late; the next one leaps
		// 1.47 s within 15 ms of record time, back near the usual lag.
		{"leap after a late message", 170 * ms, 1467 * ms, 15 * ms, th / 2, true},
		// A remote clock stepping 2 s forward: stamps 2 s ahead of the lag.
		{"remote step forward", -1980 * ms, 2025 * ms, 25 * ms, th / 2, false},
		// Stamps and record time step together by 2 s, to the millisecond
		// of the usual lag: the recorder's machine stepped (or everything
		// on it paused); a jump, for the clock-step check to weigh.
		{"steps with record time", 21 * ms, 2020 * ms, 2019 * ms, th / 2, false},
		// Lands 0.6 s below the lag the series held: not late delivery.
		{"lands below the usual lag", -580 * ms, 1200 * ms, 600 * ms, th / 2, false},
		// Lead steps are judged at their own size: a catch-up after lost
		// messages is one, a 300 ms step of the publisher's clock is not.
		{"lead: leap after a late message", 40 * ms, 760 * ms, 0, leadStepMinNS / 2, true},
		{"lead: clock 300 ms ahead", -275 * ms, 320 * ms, 25 * ms, leadStepMinNS / 2, false},
	}
	for _, c := range cases {
		if got := s.catchUp(at, c.age, c.delta, c.logDelta, c.tol, float64(25*ms)); got != c.want {
			t.Errorf("%s: catchUp = %v, want %v", c.name, got, c.want)
		}
	}
	var fresh stampSeries
	if fresh.catchUp(at, 20*ms, 1500*ms, 1500*ms+400*ms, th/2, float64(25*ms)) {
		t.Error("a series with no lag on record caught up")
	}
}

// TestStampCatchUp: a stall of the robot's link whose senders keep only
// their last messages (the stamps leap forward when it ends, as in
// nav2_turtlebot.mcap) is no jump on a healthy robot, with or without a
// start-up backlog; a real step of the sensor machine's clock across the
// same stall still is.
func TestStampCatchUp(t *testing.T) {
	stall := []scenario.Stall{{Machine: scenario.MachineRobot, At: 3 * time.Second, Dur: 2 * time.Second, KeepLast: 150 * time.Millisecond}}
	cases := []struct {
		name     string
		noise    scenario.Noise
		wantJump bool
	}{
		{"lossy stall", scenario.Noise{Seed: 1, Stalls: stall}, false},
		{"lossy stall of tf only", scenario.Noise{Seed: 2, Stalls: []scenario.Stall{{Machine: scenario.MachineTF, At: 3 * time.Second, Dur: 1500 * time.Millisecond, KeepLast: 100 * time.Millisecond}}}, false},
		{"lossy stall and jitter", scenario.Noise{Seed: 3, Stalls: stall, RateJitter: 0.08, Loss: 0.01}, false},
		{"lossy stall after a backlog", scenario.Noise{Seed: 4, Stalls: stall, Backlog: &scenario.Backlog{Machine: scenario.MachineTF, Age: 5 * time.Second, Burst: 400 * time.Millisecond, Lag: 65 * time.Millisecond}}, false},
		{"remote step after the stall", scenario.Noise{Seed: 5, Stalls: stall, Steps: []scenario.Step{{Machine: scenario.MachineSensors, At: 6500 * time.Millisecond, By: 2 * time.Second}}}, true},
	}
	for _, c := range cases {
		for _, storage := range []string{"mcap", "sqlite3"} {
			t.Run(c.name+"/"+storage, func(t *testing.T) {
				rep := robotReport(t, storage, c.noise, nil)
				jump := slices.Contains(rep.Summary.Findings, "jump")
				if jump != c.wantJump {
					t.Errorf("jump finding %v, want %v: findings %v, stamp jumps %+v; verdict %s", jump, c.wantJump, rep.Summary.Findings, rep.StampJumps, rep.Verdict.Sentence)
				}
				if !c.wantJump && len(rep.Summary.Findings) > 0 && !slices.Equal(rep.Summary.Findings, []string{"drop"}) {
					t.Errorf("healthy robot with findings %v: %s", rep.Summary.Findings, rep.Verdict.Sentence)
				}
			})
		}
	}
}
