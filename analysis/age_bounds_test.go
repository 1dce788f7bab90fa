package analysis

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
)

// Boundary tests of age.go (issue 15): which clock a message's age is
// taken against, the maximum age, and each kind's thresholds (stale share
// and count, constant offset's size, spread and tick), at and beside
// their values.

// TestMessageAgeBoundary: a stamp from EpochThresholdNS on is system time
// (age against record time); below it sim time (age against /clock, once
// seen); 0 has no age.
func TestMessageAgeBoundary(t *testing.T) {
	const logNS, clockNS = EpochThresholdNS + 9e9, 5e9
	for _, tc := range []struct {
		name      string
		stamp     int64
		clockSeen bool
		want      int64
		ok        bool
	}{
		{"zero", 0, true, 0, false},
		{"epoch threshold is system time", EpochThresholdNS, true, 9e9, true},
		{"above threshold", EpochThresholdNS + 1, false, 9e9 - 1, true},
		{"below threshold is sim time", EpochThresholdNS - 1, true, clockNS - EpochThresholdNS + 1, true},
		{"sim time", 4e9, true, 1e9, true},
		{"sim time before /clock", 4e9, false, 0, false},
	} {
		got, ok := messageAge(tc.stamp, logNS, clockNS, tc.clockSeen)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: messageAge = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestAgeMaxDefault: a MaxAgeNS of 0 or below means DefaultMaxAgeNS.
func TestAgeMaxDefault(t *testing.T) {
	var mk func(*analyzer) check
	for _, m := range checkMakers {
		if m.name == "age" {
			mk = m.make
		}
	}
	if mk == nil {
		t.Fatal("no age check registered")
	}
	for _, tc := range []struct{ cfg, want int64 }{
		{0, DefaultMaxAgeNS}, {-1, DefaultMaxAgeNS}, {1, 1}, {7e8, 7e8},
	} {
		c := mk(&analyzer{cfg: Config{MaxAgeNS: tc.cfg}}).(*ageCheck)
		if c.maxNS != tc.want {
			t.Errorf("MaxAgeNS %d: maxNS %d, want %d", tc.cfg, c.maxNS, tc.want)
		}
	}
}

// ageBoundsMsg is one message fed to the age check: its stamp, record
// time, and the /clock in force (clockNS < 0: no /clock seen yet).
type ageBoundsMsg struct {
	stamp, logNS, clockNS int64
	pubNS                 int64 // MCAP publish time; 0: none
}

// ageBoundsRun feeds msgs of topic /t through an age check with maximum
// age maxNS and returns the topic's age (nil when it has none); prep
// sets up the report parts finish reads.
func ageBoundsRun(t *testing.T, maxNS int64, msgs []ageBoundsMsg, prep func(a *analyzer)) *TopicAge {
	t.Helper()
	a := &analyzer{clock: &clockState{}}
	// Another analysed topic first, so /t's id is not 0.
	other := &topicState{name: "/other", role: roleStamped, id: 0}
	ts := &topicState{name: "/t", role: roleStamped, id: 1}
	a.topics.add(other)
	a.topics.add(&topicState{name: "/clock", role: roleClock, id: 2})
	a.topics.add(ts)
	c := &ageCheck{maxNS: maxNS}
	for _, m := range msgs {
		a.clock.seen, a.clock.ns = m.clockNS >= 0, m.clockNS
		bm := &bagread.Message{LogTimeNS: m.logNS, PublishTimeNS: m.pubNS, HasPublishTime: m.pubNS != 0}
		c.onStamped(a, &stampedMsg{m: bm, topic: ts, stamp: m.stamp})
	}
	if prep != nil {
		prep(a)
	}
	c.finish(a)
	for i := range a.rep.Ages {
		if a.rep.Ages[i].Topic == "/other" {
			t.Errorf("a topic without messages has an age: %+v", a.rep.Ages[i])
		}
	}
	for i := range a.rep.Ages {
		if a.rep.Ages[i].Topic == "/t" {
			return &a.rep.Ages[i]
		}
	}
	return nil
}

// ageBoundsSys is n system-time messages of age ageNS each, then the
// ages in extra.
func ageBoundsSys(n int, ageNS int64, extra ...int64) []ageBoundsMsg {
	var out []ageBoundsMsg
	for i := range n + len(extra) {
		d := ageNS
		if i >= n {
			d = extra[i-n]
		}
		stamp := EpochThresholdNS + int64(i+1)*1e9
		out = append(out, ageBoundsMsg{stamp: stamp, logNS: stamp + d, clockNS: -1})
	}
	return out
}

// ageBoundsSim is like ageBoundsSys with sim-time stamps against /clock.
func ageBoundsSim(n int, ageNS int64, extra ...int64) []ageBoundsMsg {
	var out []ageBoundsMsg
	for i := range n + len(extra) {
		d := ageNS
		if i >= n {
			d = extra[i-n]
		}
		stamp := int64(i+1) * 1e9
		out = append(out, ageBoundsMsg{stamp: stamp, logNS: EpochThresholdNS + stamp, clockNS: stamp + d})
	}
	return out
}

// TestAgeOverMaxBoundary: only ages above the maximum count; the share
// is of the messages with an age.
func TestAgeOverMaxBoundary(t *testing.T) {
	for _, tc := range []struct {
		name  string
		msgs  []ageBoundsMsg
		over  int
		count int
	}{
		{"at the maximum", ageBoundsSys(3, 5e8), 0, 3},
		{"1 ns over", ageBoundsSys(2, 5e8, 5e8+1), 1, 3},
		{"sim time at the maximum", ageBoundsSim(3, 5e8), 0, 3},
		{"sim time 1 ns over", ageBoundsSim(1, 5e8, 5e8+1, 6e8), 2, 3},
		{"zero stamps left out", append(ageBoundsSys(2, 6e8), ageBoundsMsg{stamp: 0, logNS: 1}), 2, 2},
	} {
		ag := ageBoundsRun(t, 5e8, tc.msgs, nil)
		if ag == nil || ag.OverMax != tc.over || ag.Count != tc.count || ag.ShareOverMax != float64(tc.over)/float64(tc.count) || ag.MaxAgeS != 0.5 {
			t.Errorf("%s: age %+v, want %d of %d over 0.5 s", tc.name, ag, tc.over, tc.count)
		}
	}
	if ag := ageBoundsRun(t, 5e8, []ageBoundsMsg{{stamp: 3e9, logNS: 1, clockNS: -1}}, nil); ag != nil {
		t.Errorf("sim time without /clock: age %+v, want none", ag)
	}
}

// TestAgeReference: system-time stamps are aged against record time,
// sim-time ones against /clock, both "mixed"; publish times give the
// publisher's own delay.
func TestAgeReference(t *testing.T) {
	at := ageBoundsSys(1, 1e7)
	at[0].stamp, at[0].logNS = EpochThresholdNS, EpochThresholdNS+1e7 // exactly the threshold: system time
	for _, tc := range []struct {
		name string
		msgs []ageBoundsMsg
		want string
	}{
		{"system", ageBoundsSys(2, 1e7), "record_time"},
		{"stamp at the epoch threshold", at, "record_time"},
		{"sim", ageBoundsSim(2, 1e7), "clock"},
		{"mixed", append(ageBoundsSys(1, 1e7), ageBoundsSim(1, 1e7)...), "mixed"},
	} {
		if ag := ageBoundsRun(t, 5e8, tc.msgs, nil); ag == nil || ag.Reference != tc.want {
			t.Errorf("%s: age %+v, want reference %s", tc.name, ag, tc.want)
		}
	}
	msgs := ageBoundsSys(3, 3e8)
	for i := range msgs {
		msgs[i].pubNS = msgs[i].stamp + 25e7
	}
	ag := ageBoundsRun(t, 5e8, msgs, nil)
	if ag == nil || ag.PublishMedianS != 0.25 || ag.MedianS != 0.3 {
		t.Errorf("publish times: age %+v, want publish median 0.25 s, median 0.3 s", ag)
	}
	// Publish times on sim-time stamps say nothing: left out.
	msgs = ageBoundsSim(3, 3e8)
	for i := range msgs {
		msgs[i].pubNS = msgs[i].logNS
	}
	if ag := ageBoundsRun(t, 5e8, msgs, nil); ag == nil || ag.PublishMedianS != 0 {
		t.Errorf("sim time with publish times: age %+v, want no publish median", ag)
	}
}

// TestAgeStaleBoundary: stale from 5 % of the messages over the maximum
// and 20 messages on.
func TestAgeStaleBoundary(t *testing.T) {
	for _, tc := range []struct {
		name string
		msgs []ageBoundsMsg
		want string
	}{
		{"1 of 20 over: stale", ageBoundsSys(19, 1e7, 6e8), AgeStale},
		{"1 of 21 over: below 5 %", ageBoundsSys(20, 1e7, 6e8), AgeOK},
		{"1 of 19 over: too few messages", ageBoundsSys(18, 1e7, 6e8), AgeOK},
		{"2 of 40 over: stale", ageBoundsSys(38, 1e7, 6e8, 7e8), AgeStale},
		{"sim time, 1 of 20 over: stale", ageBoundsSim(19, 1e7, 6e8), AgeStale},
	} {
		ag := ageBoundsRun(t, 5e8, tc.msgs, nil)
		if ag == nil || ag.Kind != tc.want {
			t.Errorf("%s: age %+v, want kind %s", tc.name, ag, tc.want)
			continue
		}
		if tc.want == AgeStale && !strings.HasPrefix(ag.Sentence, "/t is often stale: 5% of its messages are older than 500.0 ms") {
			t.Errorf("%s: sentence %q", tc.name, ag.Sentence)
		}
	}
}

// TestAgeClockJumpBoundary: a sim-time topic over the maximum after
// /clock jumped is a clock offset from the first jump on and from 5 % of
// its messages on, whatever their number; a system-time one is not.
func TestAgeClockJumpBoundary(t *testing.T) {
	jumps := func(n int) func(a *analyzer) { return func(a *analyzer) { a.rep.Counts.ClockJumps = n } }
	for _, tc := range []struct {
		name  string
		msgs  []ageBoundsMsg
		jumps int
		want  string
	}{
		{"no jump: stale", ageBoundsSim(19, 1e7, 6e8), 0, AgeStale},
		{"one jump: clock offset (5%)", ageBoundsSim(19, 1e7, 6e8), 1, AgeClockOffset},
		{"one jump, 2 of 4 over (50%)", ageBoundsSim(2, 1e7, 6e8, 7e8), 1, AgeClockOffset},
		{"one jump, 1 of 21 over: ok", ageBoundsSim(20, 1e7, 6e8), 1, AgeOK},
		{"one jump, few messages all over (100%)", ageBoundsSim(0, 0, 6e8, 6e8), 1, AgeClockOffset},
		{"one jump, system time: stale", ageBoundsSys(19, 1e7, 6e8), 1, AgeStale},
	} {
		ag := ageBoundsRun(t, 5e8, tc.msgs, jumps(tc.jumps))
		if ag == nil || ag.Kind != tc.want {
			t.Errorf("%s: age %+v, want kind %s", tc.name, ag, tc.want)
			continue
		}
		// The case name ends with the share in the sentence.
		pct := tc.name[strings.LastIndexByte(tc.name, '(')+1 : len(tc.name)-1]
		if tc.want == AgeClockOffset && (!strings.HasPrefix(ag.Sentence, "/t: "+pct+" of its messages are older than 500.0 ms against /clock (max 700.0 ms)") &&
			!strings.HasPrefix(ag.Sentence, "/t: "+pct+" of its messages are older than 500.0 ms against /clock (max 600.0 ms)") ||
			!strings.Contains(ag.Sentence, "/clock jumped 1 time(s)")) {
			t.Errorf("%s: sentence %q", tc.name, ag.Sentence)
		}
	}
}

// TestAgeOffsetsFromSkew: a topic the skew table reports as an offset
// (constant_offset, or an epoch-sized median either way) or that did not
// step with a confirmed clock step is a clock offset, not stale.
func TestAgeOffsetsFromSkew(t *testing.T) {
	epochS := float64(EpochThresholdNS) / 1e9
	skew := func(s ...Skew) func(a *analyzer) { return func(a *analyzer) { a.rep.Skew = s } }
	steps := func(s ...ClockStep) func(a *analyzer) { return func(a *analyzer) { a.rep.ClockSteps = s } }
	stale := ageBoundsSys(19, 1e7, 6e8)
	for _, tc := range []struct {
		name string
		prep func(a *analyzer)
		want string
	}{
		{"constant offset", skew(Skew{Topic: "/t", Kind: SkewConstantOffset, MedianS: 2}), AgeClockOffset},
		{"other topic's offset", skew(Skew{Topic: "/u", Kind: SkewConstantOffset, MedianS: 2}), AgeStale},
		{"a link's offset", skew(Skew{Topic: "/t", Link: "odom->base", Kind: SkewConstantOffset, MedianS: 2}), AgeStale},
		{"jitter of an epoch", skew(Skew{Topic: "/t", Kind: "jitter", MedianS: epochS}), AgeClockOffset},
		{"jitter of minus an epoch", skew(Skew{Topic: "/t", Kind: "jitter", MedianS: -epochS}), AgeClockOffset},
		{"jitter below an epoch", skew(Skew{Topic: "/t", Kind: "jitter", MedianS: epochS - 1}), AgeStale},
		{"jitter of 2 s", skew(Skew{Topic: "/t", Kind: "jitter", MedianS: 2}), AgeStale},
		{"unstepped", steps(ClockStep{Confirmed: true, Source: "record_time", Unstepped: []string{"/t"}}), AgeClockOffset},
		{"unstepped, unconfirmed", steps(ClockStep{Source: "record_time", Unstepped: []string{"/t"}}), AgeStale},
		{"stamps stepped", steps(ClockStep{Confirmed: true, Source: StepStamps, Stepped: []string{"/t"}}), AgeClockOffset},
		{"stepped with record time", steps(ClockStep{Confirmed: true, Source: "record_time", Stepped: []string{"/t"}}), AgeStale},
	} {
		ag := ageBoundsRun(t, 5e8, stale, tc.prep)
		if ag == nil || ag.Kind != tc.want {
			t.Errorf("%s: age %+v, want kind %s", tc.name, ag, tc.want)
		}
	}
	// A sim-time topic keeps its age: the skew table's offset is against
	// record time.
	ag := ageBoundsRun(t, 5e8, ageBoundsSim(19, 1e7, 6e8), skew(Skew{Topic: "/t", Kind: SkewConstantOffset, MedianS: 2}))
	if ag == nil || ag.Kind != AgeStale {
		t.Errorf("sim time with an offset: age %+v, want stale", ag)
	}
}

// TestAgeConstantOffsetBoundary: a steady age is a stamping point from 5
// messages and 50 ms on, below 1 s, with p5..p95 within the larger of
// 10 ms and a tenth of the median; on /clock only when the tick is at
// most a fifth of it.
func TestAgeConstantOffsetBoundary(t *testing.T) {
	ticks := func(tickNS float64, n int) func(a *analyzer) {
		return func(a *analyzer) {
			for range n {
				a.clock.ticks.add(tickNS)
			}
		}
	}
	for _, tc := range []struct {
		name string
		msgs []ageBoundsMsg
		prep func(a *analyzer)
		want string
	}{
		{"5 messages of 50 ms", ageBoundsSys(5, 5e7), nil, AgeConstantOffset},
		{"4 messages of 50 ms", ageBoundsSys(4, 5e7), nil, AgeOK},
		{"5 messages of 50 ms - 1 ns", ageBoundsSys(5, 5e7-1), nil, AgeOK},
		{"just below 1 s", ageBoundsSys(5, 1e9-1), nil, AgeConstantOffset},
		{"1 s", ageBoundsSys(5, 1e9), nil, AgeOK},
		// p5 and p95 of 5 values are the lowest and highest.
		{"spread a tenth of the median", ageBoundsSys(3, 3125e5, 296875e3, 328125e3), nil, AgeConstantOffset},
		{"spread over a tenth", ageBoundsSys(3, 3125e5, 296875e3, 328126e3), nil, AgeOK},
		{"spread 9 ms under 10 ms floor", ageBoundsSys(3, 6e7, 55e6, 64e6), nil, AgeConstantOffset},
		{"spread 11 ms over 10 ms floor", ageBoundsSys(3, 6e7, 54e6, 65e6), nil, AgeOK},
		{"clock, no tick", ageBoundsSim(5, 25e7), nil, AgeOK},
		{"clock, tick a fifth", ageBoundsSim(5, 25e7), ticks(5e7, 3), AgeConstantOffset},
		{"clock, tick over a fifth", ageBoundsSim(5, 25e7), ticks(5e7+1e3, 3), AgeOK},
		{"clock, tick a tenth", ageBoundsSim(5, 25e7), ticks(25e6, 3), AgeConstantOffset},
	} {
		ag := ageBoundsRun(t, 2e9, tc.msgs, tc.prep)
		if ag == nil || ag.Kind != tc.want {
			t.Errorf("%s: age %+v, want kind %s", tc.name, ag, tc.want)
			continue
		}
		if tc.want == AgeConstantOffset && !strings.HasPrefix(ag.Sentence, "/t: age is a constant ") {
			t.Errorf("%s: sentence %q", tc.name, ag.Sentence)
		}
	}
}

// TestStampPointSentenceBoundary: publish − stamp of at least 0.8 of the
// age puts the delay in the publisher; less, between publisher and
// recorder; none, the sentence does not say.
func TestStampPointSentenceBoundary(t *testing.T) {
	for _, tc := range []struct {
		name string
		pub  float64
		want string
	}{
		{"0.8 of the age", 0.2, ", 200.0 ms of it between stamp and publication on the publisher's own clock"},
		{"all of it", 0.25, ", 250.0 ms of it between stamp and publication"},
		{"under 0.8", 0.1999, ", yet only 199.9 ms between stamp and publication"},
		{"negative", -0.01, ", yet only -10.0 ms between"},
		{"no publish times", 0, ": the stamping point is a fixed time before the message reaches the recorder"},
	} {
		ag := &TopicAge{Topic: "/t", MedianS: 0.25, PublishMedianS: tc.pub}
		got := stampPointSentence(ag, 0.002)
		if want := "/t: age is a constant 250.0 ms (p5..p95 within 2.0 ms)" + tc.want; !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want it to start %q", tc.name, got, want)
		}
	}
}
