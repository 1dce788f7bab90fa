package analysis

import (
	"testing"
	"time"
)

// Boundary tests of the year-lag cause (issue 15): the lag's range, what
// counts as a send time near record time or near the stamp, and the
// sentences with their dates.

// TestIsYearLagBoundary: a day to 366 days.
func TestIsYearLagBoundary(t *testing.T) {
	for _, tc := range []struct {
		lagS float64
		want bool
	}{
		{86400, true},
		{86399.5, false},
		{366 * 86400, true},
		{366*86400 + 0.5, false},
	} {
		if got := IsYearLag(tc.lagS); got != tc.want {
			t.Errorf("isYearLag(%g) = %v, want %v", tc.lagS, got, tc.want)
		}
	}
}

// TestLagCauseBoundary: publish times within 1% of the lag (at least 1 s)
// of record time say replay, within that of the stamps say machine; a
// mixture, or one far from both, says nothing; publish times equal to
// record time tell nothing.
func TestLagCauseBoundary(t *testing.T) {
	const age = 864000.0 // 10 days: near is 8640 s
	pub := func(p float64) LagSample { return LagSample{Age: age, Pub: p, HasPub: true} }
	for _, tc := range []struct {
		name    string
		samples []LagSample
		want    LagCause
	}{
		{"no samples", nil, lagUnknown},
		{"no publish times", []LagSample{{Age: age, Pub: 0}}, lagUnknown},
		{"publish time equal to record time", []LagSample{pub(age)}, lagUnknown},
		{"publish time 1 µs off record time", []LagSample{{Age: 0, Pub: 1e-6, HasPub: true}}, lagReplaySend},
		{"publish time under 1 % off record time", []LagSample{pub(age - 8639)}, lagReplaySend},
		{"publish time 1 % off record time", []LagSample{pub(age - 8640)}, lagUnknown},
		{"publish time under 1 % off the stamp", []LagSample{pub(8639)}, lagMachine},
		{"publish time 1 % off the stamp", []LagSample{pub(8640)}, lagUnknown},
		{"publish time under 1 % before the stamp", []LagSample{pub(-8639)}, lagMachine},
		{"small lag: 1 s floor", []LagSample{{Age: 50, Pub: 49.25, HasPub: true}}, lagReplaySend},
		{"small lag: past the 1 s floor", []LagSample{{Age: 50, Pub: 48.75, HasPub: true}}, lagUnknown},
		{"one of each", []LagSample{pub(age - 1), pub(1)}, lagUnknown},
		{"two sent, one equal", []LagSample{pub(age - 1), pub(age), pub(age - 2)}, lagReplaySend},
		{"two lagging", []LagSample{pub(1), pub(2)}, lagMachine},
		{"one far from both", []LagSample{pub(1), pub(age / 2)}, lagUnknown},
	} {
		a := &analyzer{}
		if got := LagCauseOf(a.sawReplayer(), tc.samples); got != tc.want {
			t.Errorf("%s: lagCause = %d, want %d", tc.name, got, tc.want)
		}
	}
	a := &analyzer{checks: []check{&nodeClockCheck{order: []string{"/talker", "/rosbag2_player"}}}}
	if got := LagCauseOf(a.sawReplayer(), []LagSample{pub(1)}); got != lagReplay {
		t.Errorf("with rosbag2_player: lagCause = %d, want %d", got, lagReplay)
	}
}

// TestLagSentenceDates: each cause's sentence with the lag and the dates
// of stamps and recording.
func TestLagSentenceDates(t *testing.T) {
	a := &analyzer{startNS: time.Date(2026, 9, 21, 14, 13, 30, 0, time.UTC).UnixNano()}
	const lag = 30*86400 + 0.5
	for _, tc := range []struct {
		cause LagCause
		want  string
	}{
		{lagReplay, "Every stamp lags record time by the same 30.0 days and /rosout has rosbag2_player lines: this bag was re-recorded while `ros2 bag play` ran without --clock; the offset is the age of the replayed recording (made around 2026-08-22 14:13 UTC), not clock skew. Replay with --clock (and use_sim_time:=true on the recorder) to keep the original time."},
		{lagReplaySend, "Every stamp lags record time by the same 30.0 days (stamped around 2026-08-22 14:13 UTC, recorded 2026-09-21 14:13 UTC) while the messages were sent on the recorder's clock (publish_time close to record time): old stamps published now, so this bag was re-recorded while `ros2 bag play` ran without --clock; the offset is the age of the original recording, not clock skew. Replay with --clock (and use_sim_time:=true on the recorder) to keep the original time."},
		{lagMachine, "Every stamp lags record time by the same 30.0 days (stamped around 2026-08-22 14:13 UTC, recorded 2026-09-21 14:13 UTC), and so do the publishers' own send times (publish_time): their machine's clock is 30.0 days behind the recorder's, not a replay; set it (chrony/NTP; a board without a real-time clock boots at the time it last saved)."},
		{lagUnknown, "Every stamp lags record time by the same 30.0 days: stamped around 2026-08-22 14:13 UTC, recorded 2026-09-21 14:13 UTC. With no rosbag2_player line in /rosout and no publish times that differ from record time, the bag cannot tell which of two causes it is: a bag re-recorded while `ros2 bag play` ran without --clock (the original recording then starts around 2026-08-22 14:13 UTC: check with `ros2 bag info` on it), or every publisher on one machine whose clock is 30.0 days behind the recorder's (run `date` on it; chrony/NTP)."},
	} {
		if got := LagSentence(a.startNS, "Every stamp", lag, tc.cause); got != tc.want {
			t.Errorf("cause %d:\n got %q\nwant %q", tc.cause, got, tc.want)
		}
	}
}
