package analysis

import (
	"fmt"

	"github.com/bagclock/bagclock/analysis/finding"
)

// syncFindings: one finding per synchronizer that never fires (an error:
// its callback is never called) or leaves most messages unused (a
// warning).
func syncFindings(syncs []SyncSummary) []finding.Finding {
	var out []finding.Finding
	for _, s := range syncs {
		if s.Fires && s.Reason != SyncReasonFewSets || !syncJudged(s) {
			continue
		}
		f := finding.Finding{Kind: finding.Sync, Detail: s.Reason, Check: "synccheck", Severity: finding.Error,
			Confidence: finding.Confidence{Level: finding.High,
				Basis: fmt.Sprintf("the recorded stamps fed in record order through an emulation of message_filters %s (checked against the real ROS 1 library) give %s",
					policyName(s.Policy, s.QueueSize), Plural(int(s.Sets), "set")),
				Contradicts: "the consumer's node with another policy, queue size or max interval than " + s.Source},
			Subjects: finding.Subjects{Topics: append([]string{}, s.Topics...)},
			Numbers:  []finding.Number{finding.N("sets", float64(s.Sets), "count"), finding.N("queue_size", float64(s.QueueSize), "messages")},
			Sentence: s.Sentence,
		}
		if s.Fires {
			f.Severity = finding.Warning
		}
		for i, t := range s.Topics {
			f.Numbers = append(f.Numbers, finding.N("received "+t, float64(s.Received[i]), "messages"), finding.N("unused "+t, float64(s.Unused[i]), "messages"))
		}
		for _, o := range s.Offsets {
			if o.Samples > 0 {
				f.Numbers = append(f.Numbers, finding.N("median_offset "+o.From+" "+o.To, o.MedianS, "s"))
			}
		}
		out = append(out, f)
	}
	return out
}

// minSyncJudged is how many messages each input of a default synchronizer
// needs before its outcome is a finding: a bag holding two messages of
// each type (a decoder's test bag) says nothing of a camera's drivers.
// Synchronizers named by --sync are always judged.
const minSyncJudged = 10

func syncJudged(s SyncSummary) bool {
	if s.Source == "--sync" {
		return true
	}
	lo, hi := s.Received[0], s.Received[0]
	for _, n := range s.Received {
		lo, hi = min(lo, n), max(hi, n)
	}
	return hi >= minSyncJudged && (lo >= minSyncJudged || s.Reason == SyncReasonEmptyTopic)
}
