package verdict

import (
	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/finding"
)

// syncLead words the sync findings into the verdict: a synchronizer that
// never fires leads a healthy headline ("no clock problem" would hide a
// callback that is never called); otherwise each is an evidence line, as
// is a steady offset's pose cost.
func (d decider) syncLead(v *draft, healthy bool) {
	for _, f := range d.rep.Findings {
		if f.Kind != finding.Sync {
			continue
		}
		if healthy && f.Severity == finding.Error {
			v.Evidence = append(v.Evidence, "Sensor topics and tf: "+v.head.demoted().String())
			v.head, v.Class = whole(f.Sentence), analysis.VerdictSync
			healthy = false
			continue
		}
		v.Evidence = append(v.Evidence, f.Sentence)
	}
	v.Evidence = append(v.Evidence, syncCostEvidence(d.rep.Sync)...)
}
