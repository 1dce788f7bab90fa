package analysis

import "strings"

// decider reads a finished report for the verdict rules and the row
// findings: the report is all they see of the pass.
type decider struct{ rep *Report }

// pairs are the report's pairs, in order of first message.
func (d decider) pairs() []*PairSummary {
	out := make([]*PairSummary, len(d.rep.Pairs))
	for i := range d.rep.Pairs {
		out[i] = &d.rep.Pairs[i]
	}
	return out
}

// analysed lists the analysed topics, by name.
func (d decider) analysed() []TopicSummary {
	var out []TopicSummary
	for _, t := range d.rep.Topics {
		if t.Role == TopicAnalysed {
			out = append(out, t)
		}
	}
	return out
}

// topicOfRole is the first topic of a role ("tf_static"), nil when the
// bag has none.
func (d decider) topicOfRole(role string) *TopicSummary {
	for i, t := range d.rep.Topics {
		if t.Role == role {
			return &d.rep.Topics[i]
		}
	}
	return nil
}

// cacheNS is the tf cache the replay ran with.
func (d decider) cacheNS() float64 { return d.rep.Settings.CacheTimeS * 1e9 }

// identity: the topic's frame is the target frame (odometry in odom):
// there is no transform to check.
func (p *PairSummary) identity() bool { return p.FrameID == strings.TrimPrefix(p.TargetFrame, "/") }

// rows counts the pair's rows, every class.
func (p *PairSummary) rows() int {
	n := 0
	for _, c := range p.Classes {
		n += c
	}
	return n
}

// drops counts the pair's dropped messages, start-up drops left out (they
// are 0 when no path to the target appeared).
func (p *PairSummary) drops() int {
	n := 0
	for k, c := range p.Filter {
		if strings.HasPrefix(k, "dropped_") {
			n += c
		}
	}
	return n - p.StartupDrops
}
