package analysis

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/analysis/finding"
	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// Age findings.
const (
	// staleShare is the share of messages above the maximum age from which
	// a topic is stale ("often" older than consumers accept).
	staleShare = 0.05
	// minStaleMsgs: "often" needs a sample; a handful of messages (sample
	// publishers, latched data delivered when the recorder subscribed)
	// says nothing about a topic's age in use.
	minStaleMsgs = 20
	// stampPointMinNS and the spread rule say when an age is a constant
	// offset worth a word: at least 50 ms, below ClockSkewThresholdNS
	// (the skew check owns offsets of a second and more), and steady (p95
	// − p5 within 10 ms or a tenth of the median).
	stampPointMinNS = int64(50_000_000)
	failOnStale     = string(finding.Stale)
	// envelopeWindowNS is the window of the lower envelope of record time
	// − stamp: latency only ever adds to the age, so the least age of each
	// second is the clock offset plus the least latency; a burst or a
	// stall raises it for a while, an offset keeps it.
	envelopeWindowNS = int64(1_000_000_000)
	// aheadEnvelopeNS: an envelope this far below 0 in nearly every
	// window (aheadWindowShare, at least minAheadWindows) proves stamps
	// later than their own receipt: the stamping clock runs ahead. A clock
	// 20 ms ahead with a millisecond or two of latency shows about −18 ms.
	aheadEnvelopeNS  = int64(15_000_000)
	aheadWindowShare = 0.9
	minAheadWindows  = 3
)

// TopicAge is the age of one analysed topic's messages against the clock
// its stamps are on: record time for system-time stamps, the /clock value
// in force at record time for sim-time stamps. Stamps of 0 are left out
// (see stuck_zero and zero_stamp).
type TopicAge struct {
	Topic string `json:"topic"`
	// Link is a dynamic tf link ("parent->child") on Topic, for a link
	// whose stamps run ahead of record time (only those are listed: kind
	// ahead); empty for a topic's own messages.
	Link string `json:"link,omitempty"`
	// Parent and Child are Link's frames, for what names them apart (the
	// verdict's tf2_echo), so that no one splits Link's words.
	Parent, Child string `json:"-"`
	// Reference is "record_time" or "clock".
	Reference string `json:"reference"`
	Count     int    `json:"count"`
	// MedianS, P95S (bounded uniform sample) and MaxS, MinS (exact), in
	// seconds.
	MedianS float64 `json:"median_s"`
	P95S    float64 `json:"p95_s"`
	MaxS    float64 `json:"max_s"`
	MinS    float64 `json:"min_s"`
	// OverMax counts messages older than MaxAgeS (exact); ShareOverMax is
	// OverMax / Count.
	MaxAgeS      float64 `json:"max_age_s"`
	OverMax      int     `json:"over_max"`
	ShareOverMax float64 `json:"share_over_max"`
	// EnvelopeS is the median over 1 s windows of the least age in each
	// (the lower envelope of record time − stamp), for system-time stamps;
	// EnvelopeWindows the windows, AheadWindows those whose least age is
	// aheadEnvelopeNS (15 ms) or more below 0.
	EnvelopeS       float64 `json:"envelope_s,omitempty"`
	EnvelopeWindows int     `json:"envelope_windows,omitempty"`
	AheadWindows    int     `json:"ahead_windows,omitempty"`
	// Late counts messages older than MaxAgeS that arrived in a burst
	// (record time advancing less than a quarter of their stamps' step):
	// delivered late after a stall or a start-up backlog, not data the
	// publisher let go stale; they are not in OverMax.
	Late int `json:"late,omitempty"`
	// PublishMedianS is the median of MCAP publish time − stamp (both on
	// the publisher's clock), when the bag has publish times and the stamps
	// are on system time.
	PublishMedianS float64 `json:"publish_median_s,omitempty"`
	// Kind: "stale" (ShareOverMax ≥ 5 %), "constant_offset" (a steady age
	// of 50 ms to 1 s: the stamp is taken a fixed time before the message
	// is published), "clock_offset" (the age is an offset between two
	// machines' clocks, reported by the skew table, or follows a jump of
	// /clock away from the stamps), "ahead" (system-time stamps later than
	// record time by 50 ms or more: the stamping machine's clock runs ahead
	// of the recorder's), or "ok".
	Kind string `json:"kind"`
	// Sentence explains a kind other than "ok".
	Sentence string `json:"sentence,omitempty"`
}

// Age kinds.
const (
	AgeOK             = "ok"
	AgeStale          = "stale"
	AgeConstantOffset = "constant_offset"
	AgeClockOffset    = "clock_offset"
	AgeAhead          = "ahead"
)

// ageCheck keeps, per analysed topic, a bounded sample of ages and exact
// counts.
type ageCheck struct {
	topics []ageSeries // by topic id
	links  []linkAge   // by link id: dynamic links on system time
	maxNS  int64
}

// linkAge is the lower envelope of a dynamic tf link's age against record
// time, for the clock of the machine publishing it (tf and odometry run
// ahead of the recorder as often as sensors do); the link's other age
// figures are the replay's (linkStats.age).
type linkAge struct {
	env   envelope
	topic string
	seen  bool
}

type ageSeries struct {
	age, pub reservoir
	over     int
	late     int
	clock    bool // reference is /clock (sim-time stamps)
	record   bool // reference is record time (system-time stamps)
	// The previous message's stamp and record time (burst delivery).
	lastStamp, lastLog int64
	seen               bool
	env                envelope
}

// envelope follows the least age of each window of record time.
type envelope struct {
	win          minWindow
	windows, neg int
	minima       reservoir
}

func (e *envelope) add(logNS, age int64) {
	if w, ok := e.win.add(logNS, age); ok {
		e.keep(w.lagNS)
	}
}

func (e *envelope) close() {
	if w, ok := e.win.flush(); ok {
		e.keep(w.lagNS)
	}
}

func (e *envelope) keep(least int64) {
	e.windows++
	if least <= -aheadEnvelopeNS {
		e.neg++
	}
	e.minima.add(float64(least) / 1e9)
}

// minWindow follows the least value of each envelopeWindowNS window of
// record time (a lower envelope): add and flush hand back a window as it
// closes.
type minWindow struct {
	cur  lagWindow
	open bool
}

// lagWindow is one window of a lower envelope: its start (record time)
// and its least value (record time − stamp).
type lagWindow struct{ startNS, lagNS int64 }

func (w *minWindow) add(logNS, v int64) (closed lagWindow, ok bool) {
	if w.open && logNS-w.cur.startNS < envelopeWindowNS {
		w.cur.lagNS = min(w.cur.lagNS, v)
		return lagWindow{}, false
	}
	closed, ok = w.flush()
	w.cur, w.open = lagWindow{logNS, v}, true
	return closed, ok
}

func (w *minWindow) flush() (lagWindow, bool) {
	if !w.open {
		return lagWindow{}, false
	}
	w.open = false
	return w.cur, true
}

const rankAge = 650

func init() {
	registerCheck(rankAge, "age", func(a *analyzer) check {
		mx := a.cfg.MaxAgeNS
		if mx <= 0 {
			mx = DefaultMaxAgeNS
		}
		return &ageCheck{maxNS: mx}
	})
}

// messageAge is a message's age against the clock its stamp is on: record
// time minus a system-time stamp, or the /clock value in force minus a
// sim-time stamp. A stamp of 0 has no age (stuck_zero and zero_stamp say
// why), nor has a sim-time stamp before the first /clock or in a bag
// without /clock (the skew table shows that offset).
func messageAge(stamp, logNS, clockNS int64, clockSeen bool) (int64, bool) {
	switch {
	case stamp == 0:
		return 0, false
	case stamp >= EpochThresholdNS:
		return logNS - stamp, true
	case clockSeen:
		return clockNS - stamp, true
	}
	return 0, false
}

func (c *ageCheck) onStamped(a *analyzer, s *stampedMsg) {
	d, ok := messageAge(s.stamp, s.m.LogTimeNS, a.clock.ns, a.clock.seen)
	if !ok {
		return
	}
	for len(c.topics) <= s.topic.id {
		c.topics = append(c.topics, ageSeries{})
	}
	t := &c.topics[s.topic.id]
	if s.stamp >= EpochThresholdNS {
		t.record = true
		if s.m.HasPublishTime {
			t.pub.add(float64(s.m.PublishTimeNS-s.stamp) / 1e9)
		}
	} else {
		t.clock = true
	}
	if d > c.maxNS {
		// A message of a burst (record time moving much less than the
		// stamps) was held on the way: late delivery, which settles back.
		if t.seen && s.stamp > t.lastStamp && 4*(s.m.LogTimeNS-t.lastLog) < s.stamp-t.lastStamp {
			t.late++
		} else {
			t.over++
		}
	}
	if s.stamp >= EpochThresholdNS {
		t.env.add(s.m.LogTimeNS, d)
	}
	t.lastStamp, t.lastLog, t.seen = s.stamp, s.m.LogTimeNS, true
	t.age.add(float64(d) / 1e9)
}

func (c *ageCheck) onLink(a *analyzer, m *bagread.Message, l *linkStats, st *tf.Stamped) {
	if l.static || st.Stamp < EpochThresholdNS {
		return
	}
	for len(c.links) <= l.id {
		c.links = append(c.links, linkAge{})
	}
	t := &c.links[l.id]
	t.topic, t.seen = m.Topic, true
	t.env.add(m.LogTimeNS, m.LogTimeNS-st.Stamp)
}

// linkAges lists the dynamic links stamped ahead of record time, but a
// localiser's map->odom: AMCL dates it ahead by its transform_tolerance
// (and slam_toolbox by its transform_timeout) on purpose.
// Only links stamped on system time throughout are judged.
func (c *ageCheck) linkAges(a *analyzer) []TopicAge {
	var out []TopicAge
	for _, l := range c.judgedLinks(a) {
		t, link := &c.links[l.id], l.key.parent+"->"+l.key.child
		t.env.close()
		q := l.age.quantiles(0.5, 0.95)
		ag := TopicAge{Topic: t.topic, Link: link, Parent: l.key.parent, Child: l.key.child, Reference: "record_time", Count: l.age.n,
			MedianS: q[0], P95S: q[1], MaxS: l.age.max, MinS: l.age.min, MaxAgeS: float64(c.maxNS) / 1e9,
			EnvelopeWindows: t.env.windows, AheadWindows: t.env.neg, Kind: AgeOK}
		if t.env.windows > 0 {
			ag.EnvelopeS = t.env.minima.median()
		}
		if isAhead(&ag) {
			ag.Kind = AgeAhead
			ag.Sentence = aheadSentence(&ag)
			out = append(out, ag)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Link < out[j].Link })
	return out
}

// DatedAheadByDesign reports whether link ("parent->child") runs from a
// map frame to an odom frame (map->odom, robot1/map->robot1/odom,
// map->hector_odom): the localiser's correction, which it stamps ahead of
// its input (AMCL by its transform_tolerance).
func DatedAheadByDesign(link string) bool {
	parent, child, _ := strings.Cut(link, "->")
	base := func(f string) string { return f[strings.LastIndex(f, "/")+1:] }
	return strings.Contains(base(parent), "map") && strings.Contains(base(child), "odom")
}

// Name is the topic, or the link and its topic.
func (ag *TopicAge) Name() string {
	if ag.Link != "" {
		return ag.Link + " on " + ag.Topic
	}
	return ag.Topic
}

func (c *ageCheck) finish(a *analyzer) {
	r := &a.rep
	r.Ages = []TopicAge{}
	offsets := map[string]bool{}
	for _, s := range r.Skew {
		// An epoch-sized skew (sim_time, recorder_sim_time or a real
		// mixture, different_clock) is an offset whatever its label; a
		// different_clock topic on the recorder's clock has a true age.
		// A bag with /clock labels every system-time topic different_clock
		// (the reference is sim time); its numbers still tell a steady
		// offset of machines (4.8 days behind) from an age.
		if s.Link == "" && (s.Kind == SkewConstantOffset || s.Count >= MinSkewSamples && skewKind(s.MedianS, s.P95S, s.MinS) == SkewConstantOffset ||
			math.Abs(s.MedianS) >= float64(EpochThresholdNS)/1e9) {
			offsets[s.Topic] = true
		}
	}
	// A topic whose stamps did not step with the recorder's clock is
	// offset from record time from the step on: not stale.
	// So is a topic whose stamps stepped while record time ran on (the
	// publishing machine's clock stepped): its age from the step on is the
	// two machines' offset, not data left to go stale.
	for _, st := range r.ClockSteps {
		if st.Confirmed {
			for _, tp := range st.Unstepped {
				offsets[tp] = true
			}
			if st.Source == StepStamps {
				for _, tp := range st.Stepped {
					offsets[tp] = true
				}
			}
		}
	}
	// The first backward stamp jump of each topic (stamp_jumps, bags
	// without /clock).
	backJumps := map[string]ClockJump{}
	for _, j := range r.StampJumps {
		if j.Link == "" && j.Kind == "backward" && backJumps[j.Topic].Kind == "" {
			backJumps[j.Topic] = j
		}
	}
	tick := a.clock.ticks.median() / 1e9 // 0 without ticks
	for _, ts := range a.topics.analysed() {
		if ts.id >= len(c.topics) || c.topics[ts.id].age.n == 0 {
			continue
		}
		t := &c.topics[ts.id]
		t.env.close()
		q := t.age.quantiles(0.05, 0.5, 0.95)
		ag := TopicAge{Topic: ts.name, Reference: "record_time", Count: t.age.n,
			MedianS: q[1], P95S: q[2], MaxS: t.age.max, MinS: t.age.min,
			MaxAgeS: float64(c.maxNS) / 1e9, OverMax: t.over, ShareOverMax: float64(t.over) / float64(t.age.n), Kind: AgeOK,
			PublishMedianS: t.pub.median(), // 0 without publish times
			Late:           t.late, EnvelopeWindows: t.env.windows, AheadWindows: t.env.neg}
		if t.env.windows > 0 {
			ag.EnvelopeS = t.env.minima.median()
		}
		if t.clock {
			ag.Reference = "clock"
			if t.record {
				ag.Reference = "mixed"
			}
		}
		spread := q[2] - q[0]
		switch {
		case offsets[ts.name] && ag.Reference == "record_time":
			ag.Kind = AgeClockOffset
		case ag.Reference != "record_time" && r.Counts.ClockJumps > 0 && ag.ShareOverMax >= staleShare:
			// /clock jumped away from the topic's stamps: the age against it
			// is that jump, not data the publisher let go stale.
			ag.Kind = AgeClockOffset
			ag.Sentence = fmt.Sprintf("%s: %.0f%% of its messages are older than %s against /clock (max %s), but /clock jumped %d time(s): the age follows the jump, not the data.",
				ts.name, 100*ag.ShareOverMax, FmtS(ag.MaxAgeS), FmtS(ag.MaxS), r.Counts.ClockJumps)
		case ag.Reference == "record_time" && ag.ShareOverMax >= staleShare && backJumps[ts.name].Kind != "" &&
			-stampStepNS(backJumps[ts.name]) >= c.maxNS:
			// The topic's stamps jumped back by more than the maximum age
			// and the lag stayed: the clock stamping it stepped (its
			// machine, or the driver's time source), so the age from the
			// jump on is that step, not data left to go stale.
			j := backJumps[ts.name]
			ag.Kind = AgeClockOffset
			ag.Sentence = fmt.Sprintf("%s: %.0f%% of its messages are older than %s when recorded (median age %s), but its stamps jumped back by %s at +%.1f s: the age follows the jump (the clock stamping %s stepped back), not the data.",
				ts.name, 100*ag.ShareOverMax, FmtS(ag.MaxAgeS), FmtS(ag.MedianS), FmtS(float64(-stampStepNS(j))/1e9), a.x(j.LogTimeNS), ts.name)
		case ag.ShareOverMax >= staleShare && ag.Count >= minStaleMsgs:
			ag.Kind = AgeStale
			ag.Sentence = fmt.Sprintf("%s is often stale: %.0f%% of its messages are older than %s when recorded (median age %s, p95 %s, max %s); consumers that drop data older than %s lose them.",
				ts.name, 100*ag.ShareOverMax, FmtS(ag.MaxAgeS), FmtS(ag.MedianS), FmtS(ag.P95S), FmtS(ag.MaxS), FmtS(ag.MaxAgeS))
		case isAhead(&ag):
			ag.Kind = AgeAhead
			ag.Sentence = aheadSentence(&ag)
		case ag.Count >= MinSkewSamples && ag.MedianS*1e9 >= float64(stampPointMinNS) && ag.MedianS*1e9 < float64(ClockSkewThresholdNS) &&
			spread <= math.Max(0.01, 0.1*ag.MedianS) && (ag.Reference == "record_time" || tick > 0 && tick <= ag.MedianS/5):
			ag.Kind = AgeConstantOffset
			ag.Sentence = stampPointSentence(&ag, spread)
		}
		r.Ages = append(r.Ages, ag)
	}
	r.Ages = append(r.Ages, c.linkAges(a)...)
	r.LagFloor = lagFloor(c.lagSeries(a))
	c.staleInFloor(r)
}

// staleInFloor: a topic "stale" by as much as every other system-time
// series lags (tf included) is not shown stale; the lag floor says what
// the bag can tell of it (their delay, or the stamping clock behind).
func (c *ageCheck) staleInFloor(r *Report) {
	lf := r.LagFloor
	if lf == nil || lf.SeriesCount < 2 || lf.FloorS*1e9 < float64(c.maxNS) {
		return
	}
	for i := range r.Ages {
		ag := &r.Ages[i]
		if ag.Kind == AgeStale && ag.Link == "" && ag.EnvelopeWindows > 0 && ag.EnvelopeS-lf.FloorS < LagFloorSameS {
			ag.Kind, ag.Sentence = AgeOK, ""
			lf.OverMaxAge = append(lf.OverMaxAge, ag.Topic)
		}
	}
	if len(lf.OverMaxAge) > 0 {
		lf.Sentence += fmt.Sprintf(" Against the recorder's clock %s would be stale (older than %s), but not against a clock that far behind.", strings.Join(lf.OverMaxAge, ", "), FmtS(float64(c.maxNS)/1e9))
	}
}

// lagSeries are the lower envelopes of every system-time series: the
// analysed topics and the dynamic tf links (but a localiser's map->odom,
// dated ahead by design).
func (c *ageCheck) lagSeries(a *analyzer) []LagSeries {
	var out []LagSeries
	for _, ts := range a.topics.analysed() {
		if ts.id >= len(c.topics) || !c.topics[ts.id].record || c.topics[ts.id].clock {
			continue
		}
		if s, ok := seriesEnvelope(ts.name, &c.topics[ts.id].env); ok {
			out = append(out, s)
		}
	}
	for _, l := range c.judgedLinks(a) {
		if s, ok := seriesEnvelope(l.key.parent+"->"+l.key.child+" on "+c.links[l.id].topic, &c.links[l.id].env); ok {
			out = append(out, s)
		}
	}
	return out
}

// judgedLinks are the dynamic links the age check judges: stamped on
// system time throughout, but a localiser's map->odom (dated ahead by
// design).
func (c *ageCheck) judgedLinks(a *analyzer) []*linkStats {
	if len(c.links) == 0 {
		return nil // no dynamic link on system time (nor a replay, in unit tests)
	}
	var out []*linkStats
	for _, l := range a.tf.sortedLinks() {
		if l.static || l.id >= len(c.links) || !c.links[l.id].seen || l.oldest < EpochThresholdNS ||
			DatedAheadByDesign(l.key.parent+"->"+l.key.child) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// isAhead: system-time stamps later than record time, by stampPointMinNS
// or more (median) in at least 95% of at least minSkewSamples messages. A
// message cannot be stamped after the recorder received it on one clock.
// (A steady offset of a second or more is the skew table's
// constant_offset, a clock_offset age, before this is asked.)
//
// Or, from a clock about 20 ms ahead on: the lower envelope of record time − stamp (the least
// age of each second) aheadEnvelopeNS or more below 0 in 90% of at least three
// windows. Latency bursts only raise the envelope, and a clock behind the
// recorder looks like latency; only a clock ahead puts it below 0.
func isAhead(ag *TopicAge) bool {
	if ag.Reference != "record_time" || ag.Count < MinSkewSamples {
		return false
	}
	if -ag.MedianS*1e9 >= float64(stampPointMinNS) && ag.P95S < 0 {
		return true
	}
	return ag.EnvelopeWindows >= minAheadWindows && float64(ag.AheadWindows) >= aheadWindowShare*float64(ag.EnvelopeWindows) &&
		-ag.EnvelopeS*1e9 >= float64(aheadEnvelopeNS)
}

// aheadSentence words system-time stamps later than record time: the
// clock of the machine that stamps them runs ahead of the recorder's.
// Only sensor topics are judged so: tf links may be stamped ahead on
// purpose (AMCL's map->odom by its transform_tolerance).
func aheadSentence(ag *TopicAge) string {
	return fmt.Sprintf("%s is stamped %s ahead of the recorder's clock (record time − stamp: median %s, p95 %s; its least value of each second %s, below 0 in %d of %d seconds): no message is stamped after it was received on one clock, so the clock of the machine stamping %s runs ahead of the recorder's; synchronise the clocks (chrony/NTP). Until then, consumers wait that long for transforms at each stamp, and drop the messages when their queue fills first.",
		ag.Name(), FmtS(AheadOf(ag)), FmtS(ag.MedianS), FmtS(ag.P95S), FmtS(ag.EnvelopeS), ag.AheadWindows, ag.EnvelopeWindows, ag.Name())
}

// AheadOf is how far ahead a topic's clock is: the median age below 0
// when it is, else the envelope's (latency bursts can lift the median
// above 0 while the least age of each second stays below).
func AheadOf(ag *TopicAge) float64 {
	if ag.MedianS < 0 {
		return -ag.MedianS
	}
	return -ag.EnvelopeS
}

// stampPointSentence words a steady age as a stamping-point issue: the
// stamp is taken a fixed time before the message leaves the publisher, so
// every consumer gets data that old. MCAP publish times tell whether the
// delay is inside the publisher (publish − stamp on its own clock) or
// between publisher and recorder.
func stampPointSentence(ag *TopicAge, spread float64) string {
	s := fmt.Sprintf("%s: age is a constant %s (p5..p95 within %s)", ag.Topic, FmtS(ag.MedianS), FmtS(spread))
	switch {
	case ag.PublishMedianS != 0 && ag.PublishMedianS >= 0.8*ag.MedianS:
		return s + fmt.Sprintf(", %s of it between stamp and publication on the publisher's own clock: the stamping point is a fixed %s before publication (the node stamps at capture, then processes), so consumers get data %s old; budget that latency, and if the stamp should mark the output, stamp after processing.",
			FmtS(ag.PublishMedianS), FmtS(ag.PublishMedianS), FmtS(ag.MedianS))
	case ag.PublishMedianS != 0:
		return s + fmt.Sprintf(", yet only %s between stamp and publication: the delay is between publisher and recorder (transport, or the two machines' clocks differ by that much: check chrony).", FmtS(ag.PublishMedianS))
	}
	return s + ": the stamping point is a fixed time before the message reaches the recorder (the node stamps at capture and publishes after processing, or its machine's clock is behind the recorder's by that much); consumers get data that old."
}

// aheadFindings: topics stamped later than their own record time (the
// stamping machine's clock ahead of the recorder's).
func aheadFindings(ages []TopicAge) []finding.Finding {
	var out []finding.Finding
	for _, ag := range ages {
		if ag.Kind != AgeAhead {
			continue
		}
		out = append(out, finding.Finding{Kind: finding.Skew, Detail: AgeAhead, Check: "age", Severity: finding.Warning,
			Confidence: finding.Confidence{Level: finding.High,
				Basis:       fmt.Sprintf("the stamps are %s later than their own record time (median), over %d messages: no latency makes a message arrive before it was stamped", FmtS(-ag.MedianS), ag.Count),
				Contradicts: "a recorder on another clock than the one the stamps were taken on (record time on sim time)"},
			Subjects: ageSubjects(&ag),
			Numbers:  []finding.Number{finding.N("median_age", ag.MedianS, "s"), finding.N("max_age", ag.MaxS, "s"), finding.N("messages", float64(ag.Count), "messages")},
			Sentence: ag.Sentence,
		})
	}
	return out
}

// ageSubjects: the topic, or the link alone (its topic carries the rest
// of the tree, which is not ahead).
func ageSubjects(ag *TopicAge) finding.Subjects {
	if ag.Link != "" {
		return finding.Subjects{Links: []string{ag.Link}}
	}
	return finding.Subjects{Topics: []string{ag.Topic}}
}

// staleFindings: topics with a share of messages older than the maximum
// age when recorded.
func staleFindings(ages []TopicAge) []finding.Finding {
	var out []finding.Finding
	for _, ag := range ages {
		if ag.Kind != AgeStale {
			continue
		}
		out = append(out, finding.Finding{Kind: finding.Stale, Detail: AgeStale, Check: "age", Severity: finding.Warning,
			Confidence: finding.Confidence{Level: finding.Medium,
				Basis:       fmt.Sprintf("%d of %d messages (%.0f %%) were older than %s against %s (median age %s)", ag.OverMax, ag.Count, 100*ag.ShareOverMax, FmtS(ag.MaxAgeS), ag.Reference, FmtS(ag.MedianS)),
				Contradicts: "an offset that stays the same on every topic of one machine: its clock, not the data, is behind"},
			Subjects: ageSubjects(&ag),
			Numbers: []finding.Number{finding.N("median_age", ag.MedianS, "s"), finding.N("p95_age", ag.P95S, "s"),
				finding.N("max_age_allowed", ag.MaxAgeS, "s"), finding.N("share_over_max", ag.ShareOverMax, "ratio"), finding.N("messages", float64(ag.Count), "messages")},
			Sentence: ag.Sentence,
		})
	}
	return out
}
