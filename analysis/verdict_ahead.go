package analysis

import (
	"fmt"
	"strings"
)

// A sensor whose machine's clock runs a fraction of a second ahead of the
// recorder's (and of tf's) stamps its messages after the time they were
// recorded: the rows call that same_clock (under ClockSkewThresholdNS), and
// the filter drops the messages when they wait longer for a transform than
// the queue lasts. The age check (age.go) finds the offset; here the
// verdict blames it for the drops instead of the tf publisher's rate.

// aheadAge is the ages entry of topic when its stamps run ahead of the
// recorder's clock, else nil.
func (a *analyzer) aheadAge(topic string) *TopicAge {
	for i := range a.rep.Ages {
		if ag := &a.rep.Ages[i]; ag.Topic == topic && ag.Kind == AgeAhead {
			return ag
		}
	}
	return nil
}

// aheadDropsVerdict words the headline for drops of a topic stamped ahead
// of the recorder's clock, when its messages are ahead of tf by at least
// half as much (medianDiffS: stamp − latest transform), so tf keeps the
// recorder's time and the offset is what they wait for; false otherwise.
func (a *analyzer) aheadDropsVerdict(v *Verdict, topic, unit string, drops int, medianDiffS float64) bool {
	ag := a.aheadAge(topic)
	if ag == nil || medianDiffS < -ag.MedianS/2 {
		return false
	}
	v.Sentence = fmt.Sprintf("%s %s dropped because %s is stamped %s ahead of the recorder's clock, which tf agrees with: the clock of the machine stamping %s runs ahead; synchronise the clocks (chrony/NTP).",
		plural(drops, strings.TrimSuffix(unit, "s")), wasWere(drops), topic, fmtS(-ag.MedianS), topic)
	v.Class = string(ClockSkew)
	v.Commands = append(v.Commands, "chronyc tracking", "chronyc sources -v")
	return true
}
