package verdict

import "github.com/bagclock/bagclock/analysis"

// missingLinkEvidence names never-connected pairs that do not lead the
// verdict, one line each (at most three).
func (d decider) missingLinkEvidence(v *draft, lead *analysis.PairSummary) {
	_, pairs := d.rep.MissingLinkDrops()
	k := 0
	for _, p := range pairs {
		if p == lead || k == 3 {
			continue
		}
		k++
		v.Evidence = append(v.Evidence, d.rep.MissingLinkSentence(p))
	}
}
