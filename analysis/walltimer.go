package analysis

import (
	"fmt"
	"math"

	"github.com/bagclock/bagclock/analysis/finding"
	"github.com/bagclock/bagclock/bagread"
)

// Timer clocks of TimerClock.Clock.
const (
	TimerWall              = "wall"
	TimerSim               = "sim"
	TimerUndetermined      = "undetermined"
	TimerIndistinguishable = "indistinguishable"
	failOnWallTimer        = string(finding.WallTimer)
)

// Thresholds of the timer-clock estimate.
const (
	// minTimerPairs: fewer message intervals than this say nothing about a
	// publisher's period.
	minTimerPairs = 20
	// rtfWindowNS is the record-time window over which the local real-time
	// factor is measured (a few /clock ticks even at 10 Hz).
	rtfWindowNS = int64(2_000_000_000)
	// rtfOffOne and rtfVaries: the real-time factor must differ from 1 by
	// this much, or vary by this much (p90 − p10 of the windows), for wall
	// and sim time to run apart.
	rtfOffOne = 0.1
	rtfVaries = 0.2
	// timerSpreadEps is added to both relative spreads (a floor for the
	// ratio); timerRatio is how much more regular one clock's intervals
	// must be than the other's; wallTimerMinConfidence flags.
	timerSpreadEps         = 0.02
	timerRatio             = 2.0
	wallTimerMinConfidence = 0.75
	// wallTimerLeans: a wall decision over this confidence, but under
	// wallTimerMinConfidence, is said as one the bag cannot make
	// (leansWallSentence); 0.5 is the cap of a period /clock cannot
	// resolve, which is no lean at all.
	wallTimerLeans = 0.5
	// phaseFollows: a topic whose messages are recorded within this share
	// of the /clock period after a /clock message (p90) follows /clock.
	phaseFollows = 0.25
)

// wallByDesign are message types published on wall time on purpose: a
// simulator's performance report measures the real-time factor against
// wall time, so a wall period is right for it (Gazebo classic's
// /performance_metrics in tb3-walker-humble-sameer: 4.7 Hz of wall time
// with a 3 % spread, 6.4 Hz of sim time).
var wallByDesign = map[string]bool{
	"gazebo_msgs/PerformanceMetrics": true,
}

// TimerClock is the clock a topic's publishing period follows: wall time
// (a wall timer, or rclcpp::Rate without the node's clock) or sim time (a
// timer on the node's clock, or a simulator plugin), told apart when the
// bag has /clock running at a real-time factor other than 1 or a varying
// one: the period is regular in the timer's own clock and stretched in the
// other.
type TimerClock struct {
	Topic string `json:"topic"`
	// Intervals counts the message intervals measured.
	Intervals int `json:"intervals"`
	// WallRateHz is messages per second of wall time (MCAP publish time,
	// else record time); SimRateHz per second of sim time (the header
	// stamps when they are on sim time, else the /clock value in force at
	// record time).
	WallRateHz float64 `json:"wall_rate_hz"`
	SimRateHz  float64 `json:"sim_rate_hz"`
	// WallSpread and SimSpread are the interquartile range of the
	// intervals over their median, in each clock.
	WallSpread float64 `json:"wall_spread"`
	SimSpread  float64 `json:"sim_spread"`
	// Clock is "wall", "sim", "undetermined", or "indistinguishable"
	// (real-time factor 1 throughout: both clocks run alike).
	Clock string `json:"clock"`
	// Confidence (0..1) of Clock "wall" or "sim".
	Confidence float64 `json:"confidence"`
	// RecordTimeOnly: a topic read for its record times alone (no
	// header, or a stamped type that is not analysed); its sim rate is
	// over the /clock value in force.
	RecordTimeOnly bool `json:"record_time_only,omitempty"`
	// WallByDesign: on a wall timer, and a type that reports on the
	// simulation in wall time on purpose (wallByDesign): not flagged.
	WallByDesign bool `json:"wall_by_design,omitempty"`
	// Flagged: a wall timer in a sim-time system (stamps on sim time, or
	// no stamps and /clock apart from wall time).
	Flagged  bool   `json:"flagged"`
	Sentence string `json:"sentence,omitempty"`
}

// RealTimeFactorRange is the real-time factor of /clock measured over
// 2-second windows of record time: p10 and p90 of the windows.
type RealTimeFactorRange struct {
	Windows int     `json:"windows"`
	P10     float64 `json:"p10"`
	P90     float64 `json:"p90"`
}

// wallTimerCheck measures, per analysed and record-time-only topic, the
// message intervals in wall time and in sim time (bounded samples), and
// the local real-time factor of /clock.
type wallTimerCheck struct {
	topics []timerSeries // by topic id
	rtf    reservoir
	wLog   int64 // window start: record time and /clock value
	wClock int64
	wOpen  bool
}

type timerSeries struct {
	seen         bool
	lastW, lastS int64
	dW, dS       reservoir
	sumW, sumS   float64
	// phase: record time since the last /clock message was recorded. A
	// timer on the node's clock fires when a /clock message arrives, so
	// its messages follow /clock closely; other publishers fall anywhere
	// between two /clock messages.
	phase      reservoir
	pairs      int
	sim, other int // stamps on sim time / others (system, zero)
	// win is the open rate window; rateW and rateS the message rates of
	// the closed ones in each clock. A period near /clock's aliases on its
	// ticks (a 100 Hz sim timer at real-time factor 0.8 fires on four
	// /clock ticks of five: regular in wall time, 8 and 16 ms in sim
	// time); rates over windows of seconds do not alias, and only the
	// timer's own clock keeps them steady while the factor varies.
	win          rateWindow
	rateW, rateS reservoir
}

// rateWindow counts messages over rtfWindowNS of record time, with the
// first and last wall and sim times.
type rateWindow struct {
	open                                   bool
	n                                      int
	startLog, firstW, firstS, lastW, lastS int64
}

// addRate puts one message in the rate window, closing it into rateW and
// rateS when it is rtfWindowNS old or sim time went back.
func (t *timerSeries) addRate(logNS, wall, sim int64) {
	w := &t.win
	if w.open && logNS-w.startLog < rtfWindowNS && sim >= w.lastS && wall >= w.lastW {
		w.n++
		w.lastW, w.lastS = wall, sim
		return
	}
	if w.open && w.n >= 3 && w.lastW > w.firstW && w.lastS > w.firstS {
		t.rateW.add(float64(w.n-1) / float64(w.lastW-w.firstW))
		t.rateS.add(float64(w.n-1) / float64(w.lastS-w.firstS))
	}
	*w = rateWindow{open: true, n: 1, startLog: logNS, firstW: wall, firstS: sim, lastW: wall, lastS: sim}
}

// minRateWindows: fewer rate windows than this (12 s of record time) do
// not overrule the intervals.
const minRateWindows = 6

const rankWallTimer = 660

func init() {
	registerCheck(rankWallTimer, "wall-timer", func(a *analyzer) check {
		if !a.hasClock {
			return nil
		}
		return &wallTimerCheck{}
	})
}

func (c *wallTimerCheck) onClock(a *analyzer, m *bagread.Message, v int64) {
	if !c.wOpen || v < c.wClock || m.LogTimeNS < c.wLog {
		c.wLog, c.wClock, c.wOpen = m.LogTimeNS, v, true
		return
	}
	if dl := m.LogTimeNS - c.wLog; dl >= rtfWindowNS {
		c.rtf.add(float64(v-c.wClock) / float64(dl))
		c.wLog, c.wClock = m.LogTimeNS, v
	}
}

// series returns the state of the topic numbered id.
func (c *wallTimerCheck) series(id int) *timerSeries {
	for len(c.topics) <= id {
		c.topics = append(c.topics, timerSeries{})
	}
	return &c.topics[id]
}

func (c *wallTimerCheck) onStamped(a *analyzer, s *stampedMsg) {
	t := c.series(s.topic.id)
	var sim int64
	if s.stamp > 0 && s.stamp < EpochThresholdNS {
		sim = s.stamp
		t.sim++
	} else {
		t.other++
		if !a.clock.seen {
			return
		}
		sim = a.clock.ns
	}
	c.note(a, t, s.m, sim)
}

// onRecord takes a message of a topic read for its record times alone
// (no header, as /cmd_vel): its sim time is the /clock value in force.
func (c *wallTimerCheck) onRecord(a *analyzer, m *bagread.Message, ts *topicState) {
	if !a.clock.seen {
		return
	}
	c.note(a, c.series(ts.id), m, a.clock.ns)
}

// note adds one message, at sim time sim, to its topic's intervals.
func (c *wallTimerCheck) note(a *analyzer, t *timerSeries, m *bagread.Message, sim int64) {
	wall := m.LogTimeNS
	if m.HasPublishTime {
		wall = m.PublishTimeNS
	}
	if a.clock.seen && m.LogTimeNS >= a.clock.logNS {
		t.phase.add(float64(m.LogTimeNS - a.clock.logNS))
	}
	if t.seen {
		dw, ds := wall-t.lastW, sim-t.lastS
		// A jump of either clock is not a period.
		if dw > 0 && ds >= 0 && ds < int64(ClockSkewThresholdNS)*10 && dw < int64(ClockSkewThresholdNS)*10 {
			t.dW.add(float64(dw))
			t.dS.add(float64(ds))
			t.sumW += float64(dw)
			t.sumS += float64(ds)
			t.pairs++
		}
	}
	t.lastW, t.lastS, t.seen = wall, sim, true
	t.addRate(m.LogTimeNS, wall, sim)
}

// relSpread is the interquartile range over the median (+Inf when the
// median is 0: the clock does not resolve the period).
func relSpread(r *reservoir) float64 {
	q := r.quantiles(0.25, 0.5, 0.75)
	if q[1] <= 0 {
		return math.Inf(1)
	}
	return (q[2] - q[0]) / q[1]
}

func (c *wallTimerCheck) finish(a *analyzer) {
	r := &a.rep
	r.TimerClocks = []TimerClock{}
	rtf := 1.0
	if r.ClockRate != nil && r.ClockRate.RealTimeFactor > 0 {
		rtf = r.ClockRate.RealTimeFactor
	}
	lo, hi := rtf, rtf
	if c.rtf.n >= 3 {
		q := c.rtf.quantiles(0.1, 0.9)
		lo, hi = q[0], q[1]
		r.RealTimeFactorRange = &RealTimeFactorRange{Windows: c.rtf.n, P10: lo, P90: hi}
	}
	apart := math.Abs(rtf-1) >= rtfOffOne || hi-lo >= rtfVaries
	var clockTick float64 // record time between /clock messages
	if a.clock.logTicks.n > 0 {
		clockTick = a.clock.logTicks.median()
	}
	for _, ts := range a.topics.list {
		if ts.role != roleStamped && ts.role != roleTimeOnly || ts.id >= len(c.topics) || c.topics[ts.id].pairs < minTimerPairs {
			continue
		}
		t := &c.topics[ts.id]
		tc := TimerClock{Topic: ts.name, Intervals: t.pairs, Clock: TimerIndistinguishable,
			WallSpread: relSpread(&t.dW), SimSpread: relSpread(&t.dS), RecordTimeOnly: ts.role == roleTimeOnly}
		if t.sumW > 0 {
			tc.WallRateHz = float64(t.pairs) / (t.sumW / 1e9)
		}
		if t.sumS > 0 {
			tc.SimRateHz = float64(t.pairs) / (t.sumS / 1e9)
		}
		follows := false // the messages follow /clock closely
		if apart {
			rw, rs := tc.WallSpread+timerSpreadEps, tc.SimSpread+timerSpreadEps
			switch {
			case rs >= timerRatio*rw:
				tc.Clock, tc.Confidence = TimerWall, 1-rw/rs
			case rw >= timerRatio*rs:
				tc.Clock, tc.Confidence = TimerSim, 1-rs/rw
			default:
				tc.Clock = TimerUndetermined
			}
			// Messages that follow /clock within a quarter of its period,
			// every time, come from a timer on the node's clock.
			if t.phase.n >= minTimerPairs && clockTick > 0 {
				if p90 := t.phase.quantiles(0.9)[0]; p90 <= phaseFollows*clockTick {
					follows = true
					switch tc.Clock {
					case TimerUndetermined:
						tc.Clock, tc.Confidence = TimerSim, 1-p90/clockTick
					case TimerWall:
						tc.Clock, tc.Confidence = TimerUndetermined, 0
					}
				}
			}
			// The rates per window: steady in the timer's own clock, and
			// in the other they follow the factor. They overrule intervals
			// regular in wall time (a period that aliases on /clock's
			// ticks), and decide where the intervals could not (delivery
			// jitter of a few ms on a 20 ms period).
			if t.rateW.n >= minRateWindows {
				ww, ws := relSpread(&t.rateW)+timerSpreadEps, relSpread(&t.rateS)+timerSpreadEps
				switch {
				case tc.Clock == TimerWall && ww >= timerRatio*ws:
					tc.Clock, tc.Confidence = TimerUndetermined, 0
				case tc.Clock == TimerWall && ws >= timerRatio*ww:
					tc.Confidence = math.Max(tc.Confidence, 1-ww/ws) // both agree
				case tc.Clock == TimerSim && ww >= timerRatio*ws:
					tc.Confidence = math.Max(tc.Confidence, 1-ws/ww)
				case tc.Clock == TimerUndetermined && ws >= timerRatio*ww:
					tc.Clock, tc.Confidence = TimerWall, 1-ww/ws
				case tc.Clock == TimerUndetermined && ww >= timerRatio*ws:
					tc.Clock, tc.Confidence = TimerSim, 1-ws/ww
				}
			}
			if math.IsInf(tc.SimSpread, 0) && tc.Clock == TimerWall {
				// Sim time does not resolve the period (faster than
				// /clock): wall regularity alone is weak evidence.
				tc.Confidence = math.Min(tc.Confidence, 0.5)
			}
		}
		if math.IsInf(tc.WallSpread, 0) {
			tc.WallSpread = -1
		}
		if math.IsInf(tc.SimSpread, 0) {
			tc.SimSpread = -1
		}
		tc.Confidence = math.Round(tc.Confidence*100) / 100
		// An analysed topic is flagged when its stamps say its node is on
		// sim time; a topic without stamps has only /clock running apart
		// from wall time to say the system is.
		onSim := tc.RecordTimeOnly || 10*t.sim >= 9*(t.sim+t.other)
		tc.WallByDesign = tc.Clock == TimerWall && wallByDesign[normType(ts.typ)]
		if tc.Clock == TimerWall && tc.Confidence >= wallTimerMinConfidence && onSim && !tc.WallByDesign {
			tc.Flagged = true
			tc.Sentence = wallTimerSentence(ts.name, rtf, lo, hi)
		}
		if tc.Clock == TimerUndetermined && onSim && hi-lo < rtfVaries {
			tc.Sentence = lookAlikeSentence(&tc, rtf, follows)
		}
		if tc.Clock == TimerWall && !tc.Flagged && tc.Confidence > wallTimerLeans && onSim && !tc.WallByDesign {
			tc.Sentence = leansWallSentence(&tc)
		}
		r.TimerClocks = append(r.TimerClocks, tc)
	}
}

// lookAlikeSentence says that the bag cannot tell a topic's timer: at a
// constant real-time factor a wall timer and a sim timer at the rate that
// factor gives are both regular (or, with a busy executor, both irregular)
// in either clock, and the messages do not follow /clock closely enough to
// show a timer on the node's clock.
// (With follows, the period says wall timer and the phase says sim timer.)
func lookAlikeSentence(tc *TimerClock, rtf float64, follows bool) string {
	phase := "its messages do not follow /clock"
	if follows {
		phase = "its messages follow /clock as a sim timer's do"
	}
	return fmt.Sprintf("The bag cannot tell which clock %s's timer follows: at a constant real-time factor of %.2f a %.1f Hz wall timer and a %.1f Hz sim timer publish alike (its period spreads %.0f%% in wall time and %.0f%% in sim time; %s). A recording at another or a varying real-time factor tells them apart, as does the node's code (a timer on the node's clock, or a wall timer).",
		tc.Topic, rtf, tc.WallRateHz, tc.SimRateHz, 100*math.Max(tc.WallSpread, 0), 100*math.Max(tc.SimSpread, 0), phase)
}

// leansWallSentence says that a topic's rate looks steadier in wall time
// than in sim time, by too little to flag it: the bag cannot tell, and a
// green "no clock problem" would claim more than it shows.
func leansWallSentence(tc *TimerClock) string {
	return fmt.Sprintf("%s may come from a wall timer: its period spreads %.0f%% in wall time and %.0f%% in sim time (%.1f Hz in wall time, %.1f Hz in sim time), too little a difference to tell (confidence %.2f; %.2f flags a wall timer). A recording at another real-time factor tells them apart, as does the node's code (a timer on the node's clock, or a wall timer).",
		tc.Topic, 100*math.Max(tc.WallSpread, 0), 100*math.Max(tc.SimSpread, 0), tc.WallRateHz, tc.SimRateHz, tc.Confidence, wallTimerMinConfidence)
}

// wallTimerSentence is the flag of a topic on a wall timer under sim time.
func wallTimerSentence(topic string, rtf, lo, hi float64) string {
	const fix = "use rclcpp::create_timer with the node's clock, or rclcpp::Rate with the node's clock"
	if hi-lo >= rtfVaries && lo > 0 {
		return fmt.Sprintf("%s comes from a wall timer: at real-time factor %.2f..%.2f it publishes %.1f..%.1f× per sim period: %s.",
			topic, lo, hi, 1/hi, 1/lo, fix)
	}
	return fmt.Sprintf("%s comes from a wall timer: at real-time factor %.2f it publishes %.1f× per sim period: %s.", topic, rtf, 1/rtf, fix)
}

// wallTimerFindings: topics published from a wall timer in a sim-time
// system.
func wallTimerFindings(tcs []TimerClock) []finding.Finding {
	var out []finding.Finding
	for _, t := range tcs {
		if !t.Flagged {
			continue
		}
		out = append(out, finding.Finding{Kind: finding.WallTimer, Detail: t.Clock, Check: "walltimer", Severity: finding.Warning,
			Confidence: finding.Confidence{Level: levelOf(t.Confidence),
				Basis:       fmt.Sprintf("over %d intervals the rate is steady in wall time (%.3g Hz, spread %.2f) and not in sim time (%.3g Hz, spread %.2f)", t.Intervals, t.WallRateHz, t.WallSpread, t.SimRateHz, t.SimSpread),
				Contradicts: "a real-time factor of 1 throughout (both clocks run alike), or a type that reports in wall time on purpose"},
			Subjects: finding.Subjects{Topics: []string{t.Topic}},
			Numbers: []finding.Number{finding.N("wall_rate", t.WallRateHz, "Hz"), finding.N("sim_rate", t.SimRateHz, "Hz"),
				finding.N("confidence", t.Confidence, "ratio")},
			Sentence: t.Sentence,
		})
	}
	return out
}
