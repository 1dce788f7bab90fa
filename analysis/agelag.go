package analysis

import (
	"fmt"
	"sort"
	"strings"
)

// The lag floor: a clock behind the recorder's looks exactly like latency
// (both only add to record time − stamp), so the bag cannot tell them
// apart. What it can show is that nothing on system time arrives sooner
// than some time after its stamp, which is either every message's delay
// or the stamping clocks behind by up to that much.
const (
	// lagFloorNS is the least floor worth a word: below it, the lag is a
	// recorder on the same machine or on a local network.
	lagFloorNS = int64(20_000_000)
	// lagMinWindows: a series' envelope needs some seconds to be one.
	lagMinWindows = 5
	// lagFloorNamed bounds the series a floor lists.
	lagFloorNamed = 6
	// LagFloorSameS (s): a series whose envelope is within this of the floor
	// lags by the floor alone.
	LagFloorSameS = 0.010
)

// LagFloor says that every analysed topic and dynamic tf link stamped on
// system time reached the recorder at least FloorS after its stamp (each
// series' lower envelope: the median over 1 s windows of the least record
// time − stamp). That is their delay, or the clock of the machine stamping
// them behind the recorder's by up to FloorS: a bag cannot tell which.
type LagFloor struct {
	// FloorS is the least envelope of all the series, in seconds.
	FloorS float64 `json:"floor_s"`
	// Series are the series and their envelopes, least first (at most 6;
	// SeriesCount counts all).
	Series      []LagSeries `json:"series"`
	SeriesCount int         `json:"series_count"`
	// OverMaxAge are the topics older than the maximum age by the floor
	// alone (their ages entries are then "ok", not "stale").
	OverMaxAge []string `json:"over_max_age,omitempty"`
	Sentence   string   `json:"sentence"`
}

// LagSeries is one series of a LagFloor: a topic, or a tf link as
// "parent->child on TOPIC", and its lower envelope in seconds.
type LagSeries struct {
	Name      string  `json:"name"`
	EnvelopeS float64 `json:"envelope_s"`
}

// seriesEnvelope is a series' lower envelope, when it spans enough seconds.
func seriesEnvelope(name string, e *envelope) (LagSeries, bool) {
	e.close()
	if e.windows < lagMinWindows {
		return LagSeries{}, false
	}
	return LagSeries{Name: name, EnvelopeS: e.minima.median()}, true
}

// lagFloor returns the floor of the series when every one of them lags
// lagFloorNS or more (and less than the skew table's second), else nil.
func lagFloor(series []LagSeries) *LagFloor {
	if len(series) == 0 {
		return nil
	}
	sort.Slice(series, func(i, j int) bool {
		if series[i].EnvelopeS != series[j].EnvelopeS {
			return series[i].EnvelopeS < series[j].EnvelopeS
		}
		return series[i].Name < series[j].Name
	})
	floor := series[0].EnvelopeS
	if floor*1e9 < float64(lagFloorNS) || floor*1e9 >= float64(ClockSkewThresholdNS) {
		return nil
	}
	lf := &LagFloor{FloorS: floor, Series: series[:min(len(series), lagFloorNamed)], SeriesCount: len(series)}
	lf.Sentence = lagFloorSentence(lf)
	return lf
}

// lagFloorSentence says what a floor may be, and that the bag cannot tell.
func lagFloorSentence(lf *LagFloor) string {
	var names []string
	for _, s := range lf.Series {
		names = append(names, s.Name+" "+FmtS(s.EnvelopeS))
	}
	list := strings.Join(names, ", ")
	if more := lf.SeriesCount - len(lf.Series); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("Nothing stamped on system time reaches the recorder sooner than %s after its stamp (the least record time − stamp of each second, median: %s): either every message takes that long to reach it, or the clock stamping them is up to %s behind the recorder's. The bag cannot tell the two apart: a clock behind only adds to the age, as latency does (only a clock ahead shows, as stamps later than their receipt); compare the machines' clocks (chronyc tracking on each, against the same server).",
		FmtS(lf.FloorS), list, FmtS(lf.FloorS))
}
