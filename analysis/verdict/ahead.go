package verdict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// A sensor whose machine's clock runs a fraction of a second ahead of the
// recorder's (and of tf's) stamps its messages after the time they were
// recorded: the rows call that same_clock (under ClockSkewThresholdNS), and
// the filter drops the messages when they wait longer for a transform than
// the queue lasts. The age check (analysis/age.go) finds the offset per topic; here
// the topics of one machine are put in one sentence, and the verdict
// blames their clock for the drops instead of the tf publisher's rate.

// aheadAges are the ages entries of kind ahead, in report order.
func (d decider) aheadAges() []*analysis.TopicAge {
	var out []*analysis.TopicAge
	for i := range d.rep.Ages {
		if ag := &d.rep.Ages[i]; ag.Kind == analysis.AgeAhead {
			out = append(out, ag)
		}
	}
	return out
}

// aheadGroupSentence words the ahead topics as one finding (one machine's
// clock, usually): the offset, or its range over the topics.
func aheadGroupSentence(ags []*analysis.TopicAge) string {
	if len(ags) == 1 {
		return ags[0].Sentence
	}
	var names, links []string
	for _, ag := range ags {
		names = append(names, ag.Name())
		if ag.Link != "" {
			links = append(links, ag.Name())
		}
	}
	return fmt.Sprintf("%s are stamped %s ahead of the recorder's clock (median record time − stamp of each): no message is stamped after it was received on one clock, so the clock of the machine stamping them runs ahead of the recorder's; synchronise the clocks (chrony/NTP). Until then, consumers wait that long for transforms at each stamp, and drop the messages when their queue fills first.",
		analysis.JoinSeries(names, links), aheadBy(ags))
}

// aheadBy is how far ags are ahead: one offset, or the range of their
// medians when they differ by 5 ms or more.
func aheadBy(ags []*analysis.TopicAge) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, ag := range ags {
		lo, hi = math.Min(lo, analysis.AheadOf(ag)), math.Max(hi, analysis.AheadOf(ag))
	}
	if hi-lo >= 0.005 {
		return analysis.FmtS(lo) + " to " + analysis.FmtS(hi)
	}
	return analysis.FmtS(lo)
}

// pathLinkAhead reports whether p's stalest tf link is stamped ahead of
// the recorder's clock too (an age of kind ahead on that link).
func (d decider) pathLinkAhead(p *analysis.PairSummary) bool {
	return slices.ContainsFunc(d.aheadAges(), func(ag *analysis.TopicAge) bool {
		return ag.Link != "" && ag.Parent == p.StalestParent && ag.Child == p.StalestChild && ag.Topic == p.StalestTopic
	})
}

// aheadDropsVerdict words the headline for the drops of the topics stamped
// ahead of the recorder's clock, when best (the pair the verdict is about)
// is one of them and its messages are ahead of tf by at least half its
// offset (medianDiffS: stamp − latest transform), so tf keeps the
// recorder's time and the offset is what they wait for; false otherwise.
func (d decider) aheadDropsVerdict(v *draft, best *analysis.PairSummary, unit string, medianDiffS float64) bool {
	ags := d.aheadAges()
	i := slices.IndexFunc(ags, func(ag *analysis.TopicAge) bool { return ag.Link == "" && ag.Topic == best.Topic })
	if i < 0 || medianDiffS < analysis.AheadOf(ags[i])/2 || d.pathLinkAhead(best) {
		// A path whose own tf link is stamped ahead too: tf does not keep
		// the recorder's time, and the wait is not the offset.
		return false
	}
	ahead := map[string]bool{}
	var names, links, aheadTopics []string
	for _, ag := range ags {
		if ag.Link == "" {
			ahead[ag.Topic] = true
			aheadTopics = append(aheadTopics, ag.Topic)
		} else {
			links = append(links, ag.Name())
		}
		names = append(names, ag.Name())
	}
	drops, topics := 0, map[string]bool{}
	for _, p := range d.pairs() {
		if !ahead[p.Topic] {
			continue
		}
		drops += p.Drops()
		if p.Type != best.Type {
			topics[p.Topic] = true // several types: "messages"
		}
	}
	noun := strings.TrimSuffix(unit, "s")
	if len(topics) > 0 {
		noun = "message"
	}
	subject, named := fmt.Sprintf("%s is stamped %s", best.Topic, analysis.FmtS(analysis.AheadOf(ags[i]))), []string{best.Topic}
	if len(names) > 1 {
		subject, named = fmt.Sprintf("%s are stamped %s", analysis.JoinSeries(names, links), aheadBy(ags)), aheadTopics
	}
	v.head = whole(fmt.Sprintf("%s %s dropped because %s ahead of the recorder's clock, which tf agrees with: the clock of the machine stamping them runs ahead; synchronise the clocks (chrony/NTP).",
		analysis.Plural(drops, noun), wasWere(drops), subject), named...)
	v.Class = string(analysis.ClockSkew)
	v.cmds = append(v.cmds, shell("chronyc tracking"), shell("chronyc sources -v"))
	return true
}
