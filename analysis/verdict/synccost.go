package verdict

import "github.com/bagclock/bagclock/analysis"

// A steady offset's pose cost is worth an evidence line from 1 cm or
// 0.5° of error on: below that it is within a typical sensor's noise.
const (
	costEvidenceM   = 0.01
	costEvidenceDeg = 0.5
)

// syncCostEvidence words, for the verdict's evidence, each synchronizer
// pair whose steady stamp offset costs a pose error worth knowing ("…
// stamped 30 ms after …: at 1.20 m/s and 0.80 rad/s … 3.6 cm, 1.4° of
// pose error"), once per pair.
func syncCostEvidence(syncs []analysis.SyncSummary) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range syncs {
		for _, o := range s.Offsets {
			c := o.Cost
			if c == nil || c.DisplacementM < costEvidenceM && c.RotationDeg < costEvidenceDeg {
				continue
			}
			if k := o.From + "\x00" + o.To; !seen[k] {
				seen[k] = true
				out = append(out, c.Sentence)
			}
		}
	}
	return out
}
