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

// tfTreeVerdict leads the verdict with the most important tf-tree finding
// when the bag has no analysed message to judge by; it reports whether it
// did.
func (d decider) tfTreeVerdict(v *Verdict) bool {
	fs := d.rep.TFFindings
	if len(fs) == 0 {
		return false
	}
	v.Sentence = fs[0].Sentence
	v.Class = VerdictTFTree + fs[0].Kind
	v.Evidence = append(v.Evidence, fs[0].Evidence...)
	for _, f := range fs[1:] {
		v.Evidence = append(v.Evidence, f.Sentence)
	}
	v.Commands = append(v.Commands, "ros2 run tf2_tools view_frames")
	return true
}

// tfTreeLead puts a serious tf-tree finding (another clock family, a
// stale link, conflicting static values) in the headline when the sensor
// rows found nothing wrong, keeping the rows' sentence as evidence; other
// findings become evidence lines.
func (d decider) tfTreeLead(v *Verdict, rowsHealthy bool) {
	fs := d.rep.TFFindings
	if len(fs) == 0 {
		return
	}
	switch {
	case rowsHealthy && fs[0].Rank <= RankTFStatic:
		v.Evidence = append(v.Evidence, "Sensor topics: "+demoted(v.Sentence))
		v.Sentence = fs[0].Sentence
		v.Class = VerdictTFTree + fs[0].Kind
		v.Evidence = append(v.Evidence, fs[0].Evidence...)
		fs = fs[1:]
	case rowsHealthy:
		// A warning of the tree (repeated or backward stamps, an offset
		// from the recorder) still outranks "no clock problem": it is a
		// finding, and --fail-on counts it.
		v.Sentence = healthyStem(v.Sentence) + "; but the tf tree has a warning: " + fs[0].Sentence
		v.Class = VerdictTFTree + fs[0].Kind
		v.Evidence = append(v.Evidence, fs[0].Evidence...)
		fs = fs[1:]
	}
	for _, f := range fs {
		if f.Kind == TFOffsetFromRecorder && hasLinePrefix(v.Evidence, everyStampLags) {
			continue // the line about every stamp, tf's included, said it
		}
		v.Evidence = append(v.Evidence, "tf tree: "+f.Sentence)
	}
}

// everyStampLags starts the evidence line on a days-to-a-year lag of every
// stamped topic and tf link behind record time (recorderClockEvidence).
const everyStampLags = "Every stamp lags record time"

func hasLinePrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
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
			basis = fmt.Sprintf("%s on %s", t.Kind, plural(t.Count, "link"))
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
