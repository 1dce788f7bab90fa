package verdict

import (
	"fmt"
	"math"

	"github.com/bagclock/bagclock/analysis"
)

// Two clocks an exact number of hours apart (within a second) have not
// drifted apart: one of them, or the driver that stamps, counts local
// time as UTC. Time zones are whole hours or, for a few, a multiple of
// 15 minutes away from UTC, between -12 and +14 hours.

// zoneOffset reports whether s seconds is a time-zone offset: 1 to 14
// hours, within a second of a multiple of 15 minutes.
func zoneOffset(s float64) bool {
	a := math.Abs(s)
	if a < 3600-1 || a > 14*3600+1 {
		return false
	}
	const q = 15 * 60
	return math.Abs(a-q*math.Round(a/q)) <= 1
}

// zoneLine is the evidence line for an offset zoneOffset accepts.
func zoneLine(what string, s float64) string {
	return fmt.Sprintf("%s: %s to within a second, a whole time-zone step: a clock or a driver counting local time as UTC (a time-zone setting, or a device clock set to local time), not drift; check `timedatectl` on the machine that stamps and the driver's time source.", what, zoneHours(s))
}

// zoneHours prints an offset zoneOffset accepts in hours ("3 h", "5.5 h").
func zoneHours(s float64) string {
	return fmt.Sprintf("%g h", math.Round(math.Abs(s)/900)/4)
}

// zoneSkewSentence is the clock_skew headline when the messages and tf are
// a time-zone step apart.
func zoneSkewSentence(topic, link string, medianDiffS float64) string {
	return fmt.Sprintf("%s and tf (%s) are %s apart on the same clock, %s to within a second: a time-zone step, not drift; the machine or driver that stamps %s counts local time as UTC (check `timedatectl` there and the driver's time source).",
		topic, link, analysis.FmtS(medianDiffS), zoneHours(medianDiffS), topic)
}

// timeZoneEvidence adds zoneLine for a topic or link whose stamps sit at
// a constant offset from record time (the skew table), once, unless the
// headline is about a time-zone step already (zoneHeadline).
func (d decider) timeZoneEvidence(v *draft, zoneHeadline bool) {
	if zoneHeadline {
		return
	}
	for _, s := range d.rep.Skew {
		if s.Kind == analysis.SkewConstantOffset && zoneOffset(s.MedianS) {
			v.Evidence = append(v.Evidence, zoneLine(fmt.Sprintf("%s: record time − stamp is %s", analysis.SkewName(s), analysis.FmtDur(s.MedianS)), s.MedianS))
			v.cmds = append(v.cmds, shell("timedatectl"))
			return
		}
	}
}
