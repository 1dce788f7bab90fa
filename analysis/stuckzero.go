package analysis

import (
	"fmt"
	"strings"

	"github.com/bagclock/bagclock/analysis/finding"
)

const (
	failOnStuckZero = string(finding.StuckZero)
	// stuckMinNS and stuckMinMsgs: ROS time 0 this long (record time) and
	// over this many messages is a node stuck at zero, not the odd message
	// published just before the first /clock (zero_stamp counts those).
	stuckMinNS   = int64(1_000_000_000)
	stuckMinMsgs = 2
)

// Kinds of StuckZero.
const (
	StuckWholeLife  = "whole_life"  // every stamp of the topic is 0
	StuckUntilClock = "until_clock" // 0 until the first /clock, then real stamps
)

// StuckZero is an analysed topic whose header stamps stay 0: its node has
// use_sim_time:=true and no /clock (its ROS time is 0, and its timers on the
// node's clock never fire), for its whole life in the bag or until the first
// /clock.
type StuckZero struct {
	Topic    string `json:"topic"`
	Kind     string `json:"kind"`
	Messages int    `json:"messages"`
	Zero     int    `json:"zero"`
	// FirstLogTimeNS and LastLogTimeNS: record times of the first and last
	// stamp-0 message (the window); FirstS and LastS the same in seconds
	// since the bag start.
	FirstLogTimeNS int64   `json:"first_log_time_ns"`
	LastLogTimeNS  int64   `json:"last_log_time_ns"`
	FirstS         float64 `json:"first_s"`
	LastS          float64 `json:"last_s"`
	// ClockStartS is when the bag's first /clock was recorded (seconds
	// since the bag start); absent without /clock.
	ClockStartS *float64 `json:"clock_start_s,omitempty"`
	// Cause is the likely cause, in words.
	Cause string `json:"cause"`
	// Nodes names the nodes whose own stamps (on /parameter_events and
	// /rosout) are 0 too, or that announce use_sim_time=true, when the bag
	// tells.
	Nodes    []string `json:"nodes"`
	Sentence string   `json:"sentence"`
}

// stuckZeroCheck counts, per analysed topic, stamps of 0 and where they
// are; it complements zero_stamp (count and pose cost of stamp-0
// messages) with each topic's life and the cause.
type stuckZeroCheck struct {
	topics []zeroLife // by topic id
}

type zeroLife struct {
	n, zero int
	// nonZero: a stamp other than 0 seen; zeroAfterClock: a stamp of 0
	// after the first /clock.
	nonZero, zeroAfterClock bool
	firstZero, lastZero     int64
}

const rankStuckZero = 670

func init() {
	registerCheck(rankStuckZero, "stuck-zero", func(*analyzer) check { return &stuckZeroCheck{} })
}

func (c *stuckZeroCheck) onStamped(a *analyzer, s *stampedMsg) {
	for len(c.topics) <= s.topic.id {
		c.topics = append(c.topics, zeroLife{})
	}
	t := &c.topics[s.topic.id]
	t.n++
	if s.stamp != 0 {
		t.nonZero = true
		return
	}
	if t.zero == 0 {
		t.firstZero = s.m.LogTimeNS
	}
	t.zero++
	t.lastZero = s.m.LogTimeNS
	if a.clock.seen {
		t.zeroAfterClock = true
	}
}

func (c *stuckZeroCheck) finish(a *analyzer) {
	r := &a.rep
	r.StuckZero = []StuckZero{}
	nodes := zeroNodes(r.Nodes)
	var clockStart *float64
	if a.clock.n > 0 {
		v := a.x(a.clock.firstLog)
		clockStart = &v
	}
	for _, ts := range a.topics.analysed() {
		if ts.id >= len(c.topics) {
			continue
		}
		t := &c.topics[ts.id]
		if t.zero < stuckMinMsgs || t.lastZero-t.firstZero < stuckMinNS {
			continue
		}
		sz := StuckZero{Topic: ts.name, Messages: t.n, Zero: t.zero, FirstLogTimeNS: t.firstZero, LastLogTimeNS: t.lastZero,
			FirstS: a.x(t.firstZero), LastS: a.x(t.lastZero), ClockStartS: clockStart, Nodes: nodes}
		switch {
		case !t.nonZero:
			sz.Kind = StuckWholeLife
		case !t.zeroAfterClock:
			sz.Kind = StuckUntilClock
		default:
			continue // zeros among real stamps: zero_stamp reports those
		}
		switch {
		case !a.hasClock:
			sz.Cause = "use_sim_time:=true without a /clock publisher: the bag has no /clock"
		case sz.Kind == StuckUntilClock:
			sz.Cause = fmt.Sprintf("use_sim_time:=true and /clock starts later (+%.1f s): the node had no time until then", *clockStart)
		case t.lastZero < a.clock.firstLog:
			sz.Cause = fmt.Sprintf("use_sim_time:=true and /clock starts later (+%.1f s), after the topic's last message", *clockStart)
		default:
			sz.Cause = fmt.Sprintf("use_sim_time:=true and /clock never reached the node, although the bag has /clock from +%.1f s (another ROS_DOMAIN_ID or namespace, or a QoS the node's /clock subscription does not match)", *clockStart)
		}
		life := "its whole life in the bag"
		if sz.Kind == StuckUntilClock {
			life = "until the first /clock"
		}
		sz.Sentence = fmt.Sprintf("%s is stamped 0 %s (%d messages, +%.1f s .. +%.1f s): its node's ROS time is stuck at 0 (%s); timers on the node's clock never fire, so the node does nothing on a timer.",
			ts.name, life, t.zero, sz.FirstS, sz.LastS, sz.Cause)
		if len(nodes) > 0 {
			sz.Sentence += " Nodes the bag shows with time 0: " + strings.Join(nodes, ", ") + "."
		}
		r.StuckZero = append(r.StuckZero, sz)
	}
}

// zeroNodes names the nodes of the bag whose own stamps are all 0 (their
// ROS time is 0), with their use_sim_time when announced.
func zeroNodes(list []NodeClock) []string {
	out := []string{}
	for _, n := range list {
		if n.StampClock != "zero" {
			continue
		}
		name := n.Node
		if n.UseSimTime != "" {
			name += " (use_sim_time=" + n.UseSimTime + ")"
		}
		out = append(out, name)
	}
	return out
}

// stuckZeroFindings: topics whose stamps stay 0.
func stuckZeroFindings(sz []StuckZero) []finding.Finding {
	var out []finding.Finding
	for _, z := range sz {
		out = append(out, finding.Finding{Kind: finding.StuckZero, Detail: z.Kind, Check: "stuckzero", Severity: finding.Error,
			Confidence: finding.Confidence{Level: finding.High, Basis: fmt.Sprintf("%d of %d messages stamped 0, from %.3f s to %.3f s", z.Zero, z.Messages, z.FirstS, z.LastS)},
			Subjects:   finding.Subjects{Topics: []string{z.Topic}, Nodes: append([]string(nil), z.Nodes...)},
			Numbers: []finding.Number{finding.N("zero", float64(z.Zero), "messages"), finding.N("messages", float64(z.Messages), "messages"),
				finding.N("first", z.FirstS, "s"), finding.N("last", z.LastS, "s")},
			Sentence: z.Cause,
		})
	}
	return out
}
