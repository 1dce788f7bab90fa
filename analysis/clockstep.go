package analysis

import (
	"fmt"
	"slices"
	"sort"

	"github.com/bagclock/bagclock/analysis/finding"
	"github.com/bagclock/bagclock/bagread"
)

const (
	failOnClockStep = string(finding.ClockStep)
	// recordReorderNS is the backward step of record time that counts when
	// --jump-min-backward is 0 (which for /clock means any step back): a
	// multi-threaded recorder writes messages a few milliseconds out of
	// order, and ntpd slews offsets below 128 ms instead of stepping.
	recordReorderNS = int64(-100_000_000)
	// stepTogetherNS: stamp jumps within this much record time of a step,
	// and within stepMatchNS (or a fifth) of its size, are the same step.
	stepTogetherNS = int64(1_000_000_000)
	stepMatchNS    = int64(200_000_000)
	maxStepsKept   = 100
	maxStepTopics  = 16
)

// Sources of ClockStep.
const (
	StepRecordTime = "record_time"
	StepStamps     = "stamps"
)

// ClockStep is a step of the system clock: record time going back or
// jumping forward between two messages in storage order (the recorder's
// clock stepped), or the system-time stamps of several topics and tf links
// stepping together by the same amount (the publishers' machine stepped).
// /clock jumps are reported apart (clock_jumps).
type ClockStep struct {
	Source string `json:"source"` // "record_time" or "stamps"
	Kind   string `json:"kind"`   // "backward" or "forward"
	// LogTimeNS is the record time of the first message after the step;
	// AtS is when the step happened in seconds since the bag start (for a
	// record-time step, the record time just before it).
	LogTimeNS int64   `json:"log_time_ns"`
	AtS       float64 `json:"at_s"`
	// FromNS and ToNS: the time before and after the step (record time,
	// or the first stepping series' stamps); StepS = (ToNS − FromNS) s.
	FromNS int64   `json:"from_ns"`
	ToNS   int64   `json:"to_ns"`
	StepS  float64 `json:"step_s"`
	// Topic and Index name the first message after the step.
	Topic string `json:"topic"`
	Index uint64 `json:"index"`
	// Stepped lists the topics and tf links ("parent->child") whose
	// system-time stamps stepped with it; Unstepped the analysed topics
	// whose stamps went on as before (their age jumped by the step: a
	// publisher on another clock). At most 16 each.
	Stepped   []string `json:"stepped"`
	Unstepped []string `json:"unstepped"`
	// SteppedLinks and UnsteppedLinks are the tf links among Stepped and
	// Unstepped, as data: the finding's subjects and the sentence's
	// counts tell links from topics by them, not by the names' words.
	SteppedLinks, UnsteppedLinks []string `json:"-"`
	// Confirmed: a clock step for sure, a --fail-on clock-step finding.
	// Record time going back is always one. A forward jump of record time
	// with no message in between is one only when something that did not
	// step shows it: /clock went on by a tick while record time jumped, or
	// some topic's stamps did not jump with it. Otherwise a step forward
	// and a pause of every publisher look the same, and the jump is only
	// reported (mid-recording jumps only).
	Confirmed bool   `json:"confirmed"`
	Sentence  string `json:"sentence"`
}

// clockStepCheck follows record time in storage order over every message
// the replay reads (/clock, tf, analysed and record-time-only topics), and at the end joins the
// stamp jumps of the topics and links (stampjumps.go, bags without /clock)
// into steps.
type clockStepCheck struct {
	last      int64
	seen      bool
	ticks     reservoir
	msgs      int   // messages seen
	prevClock int64 // /clock in force at the previous message
	n         int
	kept      []recordStep
	// topics: per analysed topic id, the last age of its system-time
	// stamps and the last step it was compared across.
	topics []stepAge
}

type recordStep struct {
	ClockStep
	msgsAt      int // messages before the step
	clockBefore int64
	awaitClock  bool
	clockOK     bool // /clock corroborates
	rtf         float64
}

type stepAge struct {
	age      int64
	has      bool
	seenStep int // index+1 of the last step compared
}

// Thresholds of a forward jump: steady traffic on both sides, and how far
// /clock may go on across it for the jump to be a step.
const (
	stepMinMsgs       = 50
	stepClockAdvances = 0.5
)

const rankClockStep = 640

func init() {
	registerCheck(rankClockStep, "clock-step", func(*analyzer) check { return &clockStepCheck{} })
}

func (c *clockStepCheck) onClock(a *analyzer, m *bagread.Message, v int64) {
	c.see(a, m)
	if k := len(c.kept) - 1; k >= 0 && c.kept[k].awaitClock {
		st := &c.kept[k]
		st.awaitClock = false
		expect := st.rtf * float64(st.ToNS-st.FromNS)
		st.clockOK = st.rtf > 0 && float64(v-st.clockBefore) < stepClockAdvances*expect
	}
	c.prevClock = a.clock.ns
}

func (c *clockStepCheck) onTF(a *analyzer, m *bagread.Message, _ bool) {
	c.see(a, m)
	c.prevClock = a.clock.ns
}

// onRecord: topics read for their record times carry record time too (a
// bag whose busiest topics have no header still shows a step).
func (c *clockStepCheck) onRecord(a *analyzer, m *bagread.Message, _ *topicState) {
	c.see(a, m)
	c.prevClock = a.clock.ns
}

func (c *clockStepCheck) onStamped(a *analyzer, s *stampedMsg) {
	c.see(a, s.m)
	c.prevClock = a.clock.ns
	if s.stamp < EpochThresholdNS {
		return
	}
	for len(c.topics) <= s.topic.id {
		c.topics = append(c.topics, stepAge{})
	}
	t := &c.topics[s.topic.id]
	age := s.m.LogTimeNS - s.stamp
	if k := len(c.kept); t.has && t.seenStep < k {
		// The first message of this topic after the latest step (there is
		// one: seenStep >= 0): did its stamps step with record time (age
		// unchanged) or not (age jumped by the step)?
		st := &c.kept[k-1]
		d := st.ToNS - st.FromNS
		if absI(age-t.age-d) <= max(stepMatchNS, absI(d)/5) && absI(d) > 2*stepMatchNS && len(st.Unstepped) < maxStepTopics {
			st.Unstepped = append(st.Unstepped, s.topic.name)
		}
	}
	t.seenStep = len(c.kept)
	t.age, t.has = age, true
}

func (c *clockStepCheck) see(a *analyzer, m *bagread.Message) {
	c.msgs++
	l := m.LogTimeNS
	if !c.seen {
		c.last, c.seen = l, true
		return
	}
	d := l - c.last
	minBack := a.cfg.JumpMinBackwardNS
	if minBack == 0 {
		minBack = recordReorderNS
	}
	kind := ""
	switch {
	case isBackward(d, minBack):
		kind = "backward"
	// The auto threshold is at least 1 s: ask for the median (a sort
	// now and then) only for gaps that long.
	case d >= c.fwdFloor(a) && d >= forwardThreshold(a.cfg.JumpMinForwardNS, &c.ticks):
		kind = "forward"
	case d > 0 && (c.ticks.n < reservoirSize || c.msgs%16 == 0):
		// A uniform subsample of the gaps has the same median; the
		// reservoir's add is the cost of this check on busy bags.
		c.ticks.add(float64(d))
	}
	if kind != "" {
		c.n++
		if len(c.kept) < maxStepsKept {
			st := recordStep{ClockStep: ClockStep{Source: StepRecordTime, Kind: kind, LogTimeNS: l, AtS: a.x(c.last),
				FromNS: c.last, ToNS: l, StepS: float64(d) / 1e9, Topic: m.Topic, Index: m.Index,
				Stepped: []string{}, Unstepped: []string{}, Confirmed: kind == "backward"},
				msgsAt: c.msgs - 1, clockBefore: c.prevClock}
			if kind == "forward" && a.clock.seen && a.clock.rtfLog > 0 {
				st.awaitClock, st.rtf = true, a.clock.rtfClock/a.clock.rtfLog
			}
			c.kept = append(c.kept, st)
		}
	}
	// Record time goes on from the step: a step back is one event, not
	// every message until the clock catches up.
	c.last = l
}

// fwdFloor is the least forward threshold: the configured one, or
// DefaultJumpMinForwardNS.
func (c *clockStepCheck) fwdFloor(a *analyzer) int64 {
	if a.cfg.JumpMinForwardNS > 0 {
		return a.cfg.JumpMinForwardNS
	}
	return DefaultJumpMinForwardNS
}

func (c *clockStepCheck) finish(a *analyzer) {
	r := &a.rep
	var steps []ClockStep
	for _, st := range c.kept {
		if st.Kind == "forward" {
			// A forward jump at the start or the end of the recording, or
			// in sparse data, is a pause, not a step.
			if st.msgsAt < stepMinMsgs || c.msgs-st.msgsAt < stepMinMsgs {
				continue
			}
			st.Confirmed = st.clockOK || len(st.Unstepped) > 0
		}
		steps = append(steps, st.ClockStep)
	}
	used := make([]bool, len(r.StampJumps))
	for i := range steps {
		s := &steps[i]
		for j, sj := range r.StampJumps {
			if !used[j] && sameStep(sj, s.LogTimeNS, s.ToNS-s.FromNS) {
				used[j] = true
				s.addStepped(sj)
			}
		}
	}
	// Stamp jumps of several series stepping together without record
	// time, then the forward moves too small to be jumps.
	steps = joinStampSteps(a, steps, r.StampJumps, used)
	leads := withoutRecordSteps(r.LeadSteps, steps)
	steps = joinStampSteps(a, steps, leads, make([]bool, len(leads)))
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].LogTimeNS < steps[j].LogTimeNS })
	for i := range steps {
		steps[i].Sentence = stepSentence(&steps[i])
	}
	r.ClockSteps = steps
	if r.ClockSteps == nil {
		r.ClockSteps = []ClockStep{}
	}
	r.Counts.ClockSteps = len(steps) + max(0, c.n-len(c.kept))
}

// withoutRecordSteps drops the lead steps near a step of record time: a
// step of the recorder's clock moves every series' age at once.
func withoutRecordSteps(leads []ClockJump, steps []ClockStep) []ClockJump {
	var out []ClockJump
	for _, l := range leads {
		if !slices.ContainsFunc(steps, func(s ClockStep) bool {
			return s.Source == StepRecordTime && absI(s.LogTimeNS-l.LogTimeNS) <= stepTogetherNS
		}) {
			out = append(out, l)
		}
	}
	return out
}

// joinStampSteps adds to steps the jumps of two series or more that
// stepped together, of those not used yet (joined to a step of record
// time).
func joinStampSteps(a *analyzer, steps []ClockStep, jumps []ClockJump, used []bool) []ClockStep {
	for j, sj := range jumps {
		if used[j] || len(steps) >= maxStepsKept {
			continue
		}
		stepNS := stampStepNS(sj)
		st := ClockStep{Source: StepStamps, Kind: sj.Kind, LogTimeNS: sj.LogTimeNS, AtS: a.x(sj.LogTimeNS),
			FromNS: sj.FromNS, ToNS: sj.ToNS, StepS: float64(stepNS) / 1e9, Topic: sj.Topic, Index: sj.Index,
			Stepped: []string{}, Unstepped: []string{}, Confirmed: true}
		st.addStepped(sj)
		used[j] = true
		for k := j + 1; k < len(jumps); k++ {
			if !used[k] && sameStep(jumps[k], sj.LogTimeNS, sj.ToNS-sj.FromNS) {
				used[k] = true
				st.addStepped(jumps[k])
			}
		}
		// One series alone is a publisher's own jump (stamp_jumps), not a
		// clock step, unless it landed ahead of its own receipt (no delay
		// does that); and only system-time stamps step with a system clock.
		if sj.FromNS < EpochThresholdNS || sj.ToNS < EpochThresholdNS {
			continue
		}
		if len(st.Stepped) == 1 {
			if !loneStepShown(sj, jumps, a.rep.StampJumps, a.rep.LeadSteps) {
				continue
			}
			st.Unstepped, st.UnsteppedLinks = otherSeries(a.rep.Skew, st.Stepped[0])
		}
		steps = append(steps, st)
	}
	return steps
}

// A step of one series alone is a clock step when the series shows it
// itself: stamps later than their own record time by aheadEnvelopeNS (as
// the age check's ahead rule) after a forward step, or stamps that went
// back (no delivery reorders a whole series) by loneStepMinNS or more;
// either with no step the other way of the same series within
// stepTogetherNS after it (a single stamp taken wrong, then corrected). A
// stamp a node repeated or took late stays before its receipt and steps
// back by a period or two.
const loneStepMinNS = leadStepMinNS

// loneStepShown says whether jump sj of one series is a step of the clock
// stamping it, as the series alone shows it (lists are where a step the
// other way would be).
func loneStepShown(sj ClockJump, lists ...[]ClockJump) bool {
	if sj.PrevLogTimeNS <= 0 {
		return false
	}
	before, after := sj.PrevLogTimeNS-sj.FromNS, sj.LogTimeNS-sj.ToNS
	switch {
	case sj.Kind == "forward" && after <= -aheadEnvelopeNS && before-after >= loneStepMinNS:
	case sj.Kind == "backward" && -stampStepNS(sj) >= loneStepMinNS:
	default:
		return false
	}
	for _, list := range lists {
		for _, j := range list {
			if j.Kind != sj.Kind && JumpSeries(j) == JumpSeries(sj) && j.LogTimeNS > sj.LogTimeNS && j.LogTimeNS-sj.LogTimeNS <= stepTogetherNS {
				return false
			}
		}
	}
	return true
}

// otherSeries are the skew table's series other than name (topics, and
// links as "parent->child"), at most maxStepTopics: what did not step;
// links are the links among them.
func otherSeries(skew []Skew, name string) (out, links []string) {
	out = []string{}
	for _, s := range skew {
		n := s.Topic
		if s.Link != "" {
			n = s.Link
		}
		if n != name && !contains(out, n) && len(out) < maxStepTopics {
			out = append(out, n)
			if s.Link != "" {
				links = append(links, n)
			}
		}
	}
	return out, links
}

// sameStep says whether stamp jump sj happened near record time at and by
// about delta.
func sameStep(sj ClockJump, at, delta int64) bool {
	if absI(sj.LogTimeNS-at) > stepTogetherNS {
		return false
	}
	d := sj.ToNS - sj.FromNS
	if d > 0 != (delta > 0) {
		return false
	}
	return absI(d-delta) <= max(stepMatchNS, absI(delta)/5)
}

// addStepped adds sj's series to Stepped (once, at most maxStepTopics),
// a tf link to SteppedLinks too.
func (st *ClockStep) addStepped(sj ClockJump) {
	name := JumpSeries(sj)
	if st.Stepped == nil {
		st.Stepped = []string{}
	}
	if len(st.Stepped) >= maxStepTopics || contains(st.Stepped, name) {
		return
	}
	st.Stepped = append(st.Stepped, name)
	if sj.Link != "" {
		st.SteppedLinks = append(st.SteppedLinks, name)
	}
}

func stepSentence(s *ClockStep) string {
	dir := "back"
	if s.Kind == "forward" {
		dir = "forward"
	}
	with := ""
	switch {
	case len(s.Stepped) > 0 && s.Kind == "forward" && !s.Confirmed:
		with = fmt.Sprintf("; the stamps of %s jump with it", JoinSeries(s.Stepped, s.SteppedLinks))
	case len(s.Stepped) > 0:
		with = fmt.Sprintf("; the system-time stamps of %s stepped with it", JoinSeries(s.Stepped, s.SteppedLinks))
	}
	if len(s.Unstepped) > 0 {
		with += fmt.Sprintf("; the stamps of %s did not (a publisher on another clock: its age jumped by the step)", JoinSeries(s.Unstepped, s.UnsteppedLinks))
	}
	switch {
	case s.Source == StepStamps && len(s.Stepped) == 1:
		didNot := ""
		if len(s.Unstepped) > 0 {
			didNot = fmt.Sprintf(", while the stamps of %s did not step", JoinSeries(s.Unstepped, s.UnsteppedLinks))
		}
		shown, cost := "its stamps jumped ahead of their own receipt, which no delay does", "wait that long for transforms, and drop it when their queue fills first"
		if s.Kind == "backward" {
			shown, cost = "its stamps fell that much further behind their record time at once and stayed there, which no delay does (late delivery settles back)", "look its transforms up that far in the past"
		}
		return fmt.Sprintf("The clock stamping %s stepped %s by %s at +%.1f s (record time): %s%s (NTP or a manual clock set on the machine of %s, or a driver's time source); durations measured across it are wrong, and consumers pairing it with tf %s.",
			s.Stepped[0], dir, FmtS(absF(s.StepS)), s.AtS, shown, didNot, s.Stepped[0], cost)
	case s.Source == StepStamps:
		return fmt.Sprintf("The system clock of the publishing machine stepped %s by %s at +%.1f s (record time): the stamps of %s jump together while record time runs on (NTP or a manual clock set on that machine); durations measured across it are wrong.",
			dir, FmtS(absF(s.StepS)), s.AtS, JoinSeries(s.Stepped, s.SteppedLinks))
	case s.Kind == "backward":
		return fmt.Sprintf("The recorder's system clock stepped back by %s at +%.1f s (record time goes back that much between two consecutive messages in storage order, at %s #%d)%s: NTP stepped the clock (often right after boot); durations measured across it are wrong and timeouts misfire.",
			FmtS(absF(s.StepS)), s.AtS, s.Topic, s.Index, with)
	case s.Confirmed:
		why := "/clock went on by less than half the sim time that much record time takes"
		if len(s.Unstepped) > 0 {
			why = "some stamps did not jump with it"
		}
		return fmt.Sprintf("The recorder's system clock stepped forward by %s at +%.1f s (record time jumps with no message in between, at %s #%d, and %s)%s: NTP stepped the clock; durations measured across it are wrong and timeouts misfire.",
			FmtS(s.StepS), s.AtS, s.Topic, s.Index, why, with)
	default:
		return fmt.Sprintf("Record time jumps forward by %s at +%.1f s with no message in between (at %s #%d)%s: a step forward of the system clock or a pause of every publisher; the bag cannot tell them apart (nothing in it kept other time).",
			FmtS(s.StepS), s.AtS, s.Topic, s.Index, with)
	}
}

func absF(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// clockStepFindings: the confirmed system clock steps.
func clockStepFindings(steps []ClockStep) []finding.Finding {
	var out []finding.Finding
	for _, st := range steps {
		if !st.Confirmed {
			continue
		}
		f := finding.Finding{Kind: finding.ClockStep, Detail: st.Source, Check: "clockstep", Severity: finding.Error,
			Confidence: finding.Confidence{Level: finding.High,
				Basis:       fmt.Sprintf("%s stepped %s by %s at %.3f s, %d series with it, %d without", st.Source, st.Kind, FmtS(st.StepS), st.AtS, len(st.Stepped), len(st.Unstepped)),
				Contradicts: "the same machine's other topics keeping their lag across the step (processing delay or a repeated stamp), or stamps that stay monotonic while the lag rises and decays (late delivery)"},
			Subjects: finding.Subjects{Topics: []string{st.Topic}},
			Numbers:  []finding.Number{finding.N("step", st.StepS, "s"), finding.N("at", st.AtS, "s")},
			Sentence: st.Sentence,
		}
		for _, s := range st.Stepped {
			if contains(st.SteppedLinks, s) {
				f.Subjects.Links = append(f.Subjects.Links, s)
			} else if !contains(f.Subjects.Topics, s) {
				f.Subjects.Topics = append(f.Subjects.Topics, s)
			}
		}
		out = append(out, f)
	}
	return out
}
