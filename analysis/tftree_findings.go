package analysis

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/analysis/finding"
)

// Kinds of TFFinding: faults that live in the tf tree itself, visible in
// a bag whether or not it has a sensor topic.
const (
	TFOtherClockFamily    = "other_clock_family"
	TFOffsetFromRecorder  = "offset_from_recorder"
	TFStaleLink           = "stale_link"
	TFStampsBackward      = "stamps_backward"
	TFRepeatedStamps      = "repeated_stamps"
	TFStaticConflict      = "static_conflict"
	failOnTFTree          = string(finding.TFTree)
	maxTFFindingExamples  = 3
	tfFindingLinkListSize = 8
)

// TFFinding is one diagnosis of the tf tree: what is wrong, on which
// links, and the numbers behind it.
type TFFinding struct {
	Kind string `json:"kind"`
	// Links names the links concerned as "parent->child on /topic" (at
	// most a few; Count says how many there are).
	Links []string `json:"links"`
	Count int      `json:"count"`
	// Sentence says what is wrong and what to do, in one line.
	Sentence string `json:"sentence"`
	// Evidence holds the numbers, one line each.
	Evidence []string `json:"evidence"`
	// FailOn is the --fail-on category the finding counts as.
	FailOn string `json:"fail_on"`
	// Rank orders findings by importance (lower first: the rankTF*
	// constants); the verdict leads with a finding of rank
	// RankTFStatic or lower. Not in the JSON contract.
	Rank int `json:"-"`
}

// TFFinding ranks: a clock mixture breaks every lookup across it, an offset
// from the recorder hides latency, staleness and conflicts break some
// lookups, repeats and backward steps are warnings.
const (
	RankTFFamily = iota
	RankTFStale
	RankTFStatic
	RankTFBackward
	RankTFOffset
	RankTFRepeated
)

// addTFFinding files a finding; findings are sorted by rank at the end.
func (a *analyzer) addTFFinding(f TFFinding) {
	if f.Evidence == nil {
		f.Evidence = []string{}
	}
	if f.Links == nil {
		f.Links = []string{}
	}
	a.rep.TFFindings = append(a.rep.TFFindings, f)
}

// sortTFFindings puts the most important finding first.
func sortTFFindings(fs []TFFinding) {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Rank < fs[j].Rank })
}

func linkName(l *linkStats) string {
	return l.key.parent + "->" + l.key.child + " on " + l.key.topic
}

// linkList names up to tfFindingLinkListSize links, "and N more" after.
func linkList(names []string) string {
	if len(names) <= tfFindingLinkListSize {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:tfFindingLinkListSize], ", "), len(names)-tfFindingLinkListSize)
}

// topicsOf lists the distinct topics of links, sorted.
func topicsOf(ls []*linkStats) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range ls {
		if !seen[l.key.topic] {
			seen[l.key.topic] = true
			out = append(out, l.key.topic)
		}
	}
	sort.Strings(out)
	return out
}

// tfTreeFindings turns the tf tree's diagnoses that are a --fail-on
// category into findings, in their rank order.
func tfTreeFindings(tfs []TFFinding) []finding.Finding {
	var out []finding.Finding
	for _, t := range tfs {
		k := finding.Kind(t.FailOn)
		if !k.Valid() {
			continue
		}
		sev, lvl := finding.Warning, finding.Medium
		switch t.Kind {
		case TFOtherClockFamily:
			sev, lvl = finding.Error, finding.High
		case TFStaleLink, TFStaticConflict:
			sev = finding.Error
		case TFRepeatedStamps:
			sev = finding.Info
		}
		basis := strings.Join(t.Evidence, " ")
		if basis == "" {
			basis = fmt.Sprintf("%s on %s", t.Kind, Plural(t.Count, "link"))
		}
		out = append(out, finding.Finding{Kind: k, Detail: t.Kind, Check: "tftree", Severity: sev,
			Confidence: finding.Confidence{Level: lvl, Basis: basis},
			Subjects:   finding.Subjects{Links: append([]string(nil), t.Links...)},
			Numbers:    []finding.Number{finding.N("links", float64(t.Count), "count")},
			Sentence:   t.Sentence,
		})
	}
	return out
}
