package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/bagclock/bagclock/analysis/finding"
)

// finish lets the filters decide what they still hold, then the clock,
// the rows and every check (in rank order) write their parts of the
// report; findings come last, from the whole report. The verdict is not
// the analysis's: the caller decides it from the finished report.
func (a *analyzer) finish() *Report {
	a.rows.finishFilters(a)
	a.clock.finish(a)
	a.rows.finish(a)
	for _, c := range a.checks {
		c.finish(a)
	}
	r := &a.rep
	s := &r.Summary
	if r.StampJumps == nil {
		r.StampJumps = []ClockJump{}
	}
	if r.Skew == nil {
		r.Skew = []Skew{}
	}
	if r.TFTree == nil {
		r.TFTree = []TFLink{}
	}
	if r.TFFindings == nil {
		r.TFFindings = []TFFinding{}
	}
	sortTFFindings(r.TFFindings)
	if r.Rosout == nil {
		r.Rosout = []RosoutLine{}
	}
	r.Skipped = []Skipped{}
	for _, sk := range a.skipped {
		r.Skipped = append(r.Skipped, *sk)
		s.Skipped += sk.Count
	}
	sort.Slice(r.Skipped, func(i, j int) bool { return r.Skipped[i].Topic < r.Skipped[j].Topic })
	r.Topics = a.topicSummaries()
	r.Pass = a.passFacts()
	r.Findings = collectFindings(r)
	s.Findings = finding.Categories(r.Findings)
	return r
}

// passFacts are the facts of the pass the verdict reads beyond the
// report's other fields.
func (a *analyzer) passFacts() PassFacts {
	f := PassFacts{StartNS: a.startNS, HasClock: a.hasClock, ParamEvents: a.topics.hasRole(roleParamEvents)}
	if c := a.clock; c != nil {
		f.ClockSeen, f.ClockFirstNS, f.ClockLastNS = c.seen, c.firstNS, c.lastNS
	}
	return f
}

// topicSummaries lists the topics read (roles, analysed) and those left
// out with the reason.
func (a *analyzer) topicSummaries() []TopicSummary {
	names := map[topicRole]string{roleTF: "tf", roleTFStatic: "tf_static", roleClock: "clock",
		roleRosout: "rosout", roleParamEvents: "parameter_events", roleStamped: TopicAnalysed, roleTimeOnly: TopicRecordTime}
	listed := map[string]bool{}
	for _, ti := range a.notAnalysed {
		listed[ti.Name] = true
	}
	out := []TopicSummary{}
	for _, ts := range a.topics.list {
		if ts.role == roleTimeOnly && listed[ts.name] {
			continue // listed below, with why it is not analysed
		}
		t := TopicSummary{Topic: ts.name, Type: ts.typ, Role: names[ts.role], Messages: int(ts.messages)}
		if ts.role == roleStamped {
			t.Messages, t.Consumer, t.NoFrame = ts.count, ts.preset, ts.noFrame
		}
		out = append(out, t)
	}
	named := a.cfg.Topics != nil || a.cfg.ScanTopics != nil
	for _, ti := range a.notAnalysed {
		t := TopicSummary{Topic: ti.Name, Type: ti.Type, Role: TopicNotAnalysed, Reason: ti.Stamp.Reason}
		if bt := a.bag.Topic(ti.Name); bt != nil {
			t.Messages = int(bt.MessageCount)
		}
		if ti.Stamp.Stamped {
			t.Reason = "stamped, but not a sensor type: name it with --topic to analyse it"
			if named {
				t.Reason = "stamped, not selected"
			}
		}
		out = append(out, t)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Topic < out[j].Topic })
	return out
}

func absI(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// skewPairs reports whether a pair has clock_skew rows in at least a
// tenth of its rows.
func (a *analyzer) skewPairs() bool {
	for _, p := range a.pairs {
		n := 0
		for _, k := range p.classes {
			n += k
		}
		if k := p.classes[ClockSkew]; k > 0 && 10*k >= n {
			return true
		}
	}
	return false
}

func FmtS(s float64) string {
	switch a := math.Abs(s); {
	case a >= 1e6:
		return fmt.Sprintf("%.4g s", s)
	case a >= 1:
		return fmt.Sprintf("%.3f s", s)
	default:
		return fmt.Sprintf("%.1f ms", s*1000)
	}
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
