package verdict

import "github.com/bagclock/bagclock/analysis"

// decider reads a finished report for the verdict rules and the row
// findings: the report is all they see of the pass.
type decider struct{ rep *analysis.Report }

// pairs are the report's pairs, in order of first message.
func (d decider) pairs() []*analysis.PairSummary {
	out := make([]*analysis.PairSummary, len(d.rep.Pairs))
	for i := range d.rep.Pairs {
		out[i] = &d.rep.Pairs[i]
	}
	return out
}

// analysed lists the analysed topics, by name.
func (d decider) analysed() []analysis.TopicSummary {
	var out []analysis.TopicSummary
	for _, t := range d.rep.Topics {
		if t.Role == analysis.TopicAnalysed {
			out = append(out, t)
		}
	}
	return out
}

// topicOfRole is the first topic of a role ("tf_static"), nil when the
// bag has none.
func (d decider) topicOfRole(role string) *analysis.TopicSummary {
	for i, t := range d.rep.Topics {
		if t.Role == role {
			return &d.rep.Topics[i]
		}
	}
	return nil
}

// cacheNS is the tf cache the replay ran with.
func (d decider) cacheNS() float64 { return d.rep.Settings.CacheTimeS * 1e9 }
