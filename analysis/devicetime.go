package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/bagclock/bagclock/analysis/finding"
	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// DeviceClock is an analysed topic whose stamps are small (not system
// time) but advance with record time, in a bag without /clock whose other
// series are on system time: a driver that passes its device's clock
// (seconds since the device booted), or sim time from a /clock the bag did
// not record at a real-time factor of 1. Neither is sim time the bag shows
// nor a stamp of 0.
type DeviceClock struct {
	Topic    string
	Messages int
	// FirstS is the first stamp, in seconds; Rate the stamps' advance per
	// second of record time over the bag, along the lower envelope of
	// record time − stamp (late deliveries do not bend it).
	FirstS, Rate float64
}

// Device-clock thresholds: enough messages over enough record time, a
// rate within deviceRateTol of 1 (a device's oscillator is off by ppm; a
// simulator's real-time factor wanders by percents).
const (
	deviceMinSpanNS = int64(2_000_000_000)
	deviceRateTol   = 0.005
	// deviceEnds is how many 1 s windows of the lag's lower envelope are
	// kept at each end of a series: the rate is the envelope's slope
	// between them, so a start-up backlog or a stall (late messages, whose
	// lag is high) does not bend it the way first-to-last stamps do.
	deviceEnds = 12
)

const rankDeviceTime = 605

func init() {
	registerCheck(rankDeviceTime, "device-time", func(a *analyzer) check {
		if a.hasClock {
			return nil
		}
		return &deviceTimeCheck{}
	})
}

// deviceTimeCheck follows the small stamps of each analysed topic and
// counts the series on system time (the reference a device clock is off).
type deviceTimeCheck struct {
	topics []deviceSeries // by topic id
	system int            // messages and transforms stamped on system time
}

type deviceSeries struct {
	n, other          int
	firstLog, firstNS int64
	lastLog           int64
	// win follows the lower envelope of record time − stamp; head keeps
	// its first deviceEnds windows, tail a ring of the last.
	win        minWindow
	head, tail []lagWindow
	closed     int
}

func (t *deviceSeries) add(logNS, stampNS int64) {
	if w, ok := t.win.add(logNS, logNS-stampNS); ok {
		t.keep(w)
	}
}

func (t *deviceSeries) keep(w lagWindow) {
	if len(t.head) < deviceEnds {
		t.head = append(t.head, w)
	} else if len(t.tail) < deviceEnds {
		t.tail = append(t.tail, w)
	} else {
		t.tail[t.closed%deviceEnds] = w
	}
	t.closed++
}

// rate is the stamps' advance per second of record time along the lower
// envelope: the medians of the first and last thirds of the windows kept,
// false with fewer than three windows.
func (t *deviceSeries) rate() (float64, bool) {
	if w, ok := t.win.flush(); ok {
		t.keep(w)
	}
	ws := append(append([]lagWindow(nil), t.head...), t.tail...)
	sort.Slice(ws, func(i, j int) bool { return ws[i].startNS < ws[j].startNS })
	k := len(ws) / 3
	if k == 0 {
		return 0, false
	}
	t0, l0 := medianWindow(ws[:k])
	t1, l1 := medianWindow(ws[len(ws)-k:])
	if t1 <= t0 {
		return 0, false
	}
	return 1 - (l1-l0)/(t1-t0), true
}

// medianWindow is the median start and the median lag of ws, in ns
// (nearest rank, as every median here).
func medianWindow(ws []lagWindow) (startNS, lagNS float64) {
	ts := make([]float64, len(ws))
	ls := make([]float64, len(ws))
	for i, w := range ws {
		ts[i], ls[i] = float64(w.startNS), float64(w.lagNS)
	}
	return nearestRank(ts, 0.5), nearestRank(ls, 0.5)
}

func (c *deviceTimeCheck) onLink(_ *analyzer, _ *bagread.Message, l *linkStats, st *tf.Stamped) {
	if !l.static && st.Stamp >= EpochThresholdNS {
		c.system++
	}
}

func (c *deviceTimeCheck) onStamped(_ *analyzer, s *stampedMsg) {
	for len(c.topics) <= s.topic.id {
		c.topics = append(c.topics, deviceSeries{})
	}
	t := &c.topics[s.topic.id]
	switch {
	case s.stamp >= EpochThresholdNS:
		c.system++
		t.other++
	case s.stamp <= 0:
		t.other++ // stamps of 0 are zero_stamp's
	default:
		if t.n == 0 {
			t.firstLog, t.firstNS = s.m.LogTimeNS, s.stamp
		}
		t.n++
		t.lastLog = s.m.LogTimeNS
		t.add(s.m.LogTimeNS, s.stamp)
	}
}

func (c *deviceTimeCheck) finish(a *analyzer) {
	for _, ts := range a.topics.analysed() {
		if ts.id >= len(c.topics) {
			continue
		}
		t := &c.topics[ts.id]
		span := t.lastLog - t.firstLog
		if t.n < MinSkewSamples || t.other > 0 || span < deviceMinSpanNS || c.system == 0 {
			continue
		}
		rate, ok := t.rate()
		if !ok || math.Abs(rate-1) > deviceRateTol {
			continue
		}
		a.rep.DeviceClocks = append(a.rep.DeviceClocks, DeviceClock{Topic: ts.name, Messages: t.n, FirstS: float64(t.firstNS) / 1e9, Rate: rate})
	}
}

// DeviceClockSentence is the headline for a topic on a device clock.
func DeviceClockSentence(dc DeviceClock) string {
	return fmt.Sprintf("%s is stamped on a clock of its own, not system time: its stamps start at %s and advance with record time (×%.4f), while tf and the recorder are on system time and the bag has no /clock. The driver passes device time (seconds since the device booted), or sim time from a /clock the bag did not record; tf2 cannot pair either with tf (every message is ~1.79e9 s behind it). Make the driver stamp with ROS time (its device-time or time-sync parameter), or record /clock if a simulator ran.",
		dc.Topic, FmtS(dc.FirstS), dc.Rate)
}

// deviceClockFindings: topics on a device clock (clock-mismatch).
func deviceClockFindings(dcs []DeviceClock) []finding.Finding {
	var out []finding.Finding
	for _, dc := range dcs {
		out = append(out, finding.Finding{Kind: finding.ClockMismatch, Detail: "device_time", Check: "device-time", Severity: finding.Error,
			Confidence: finding.Confidence{Level: finding.Medium,
				Basis:       fmt.Sprintf("%d stamps from %s advance %.4f s per second of record time while other series are on system time and the bag has no /clock", dc.Messages, FmtS(dc.FirstS), dc.Rate),
				Contradicts: "a /clock recorded beside it, or stamps whose rate against record time varies (a simulator's real-time factor)"},
			Subjects: finding.Subjects{Topics: []string{dc.Topic}},
			Numbers:  []finding.Number{finding.N("first_stamp", dc.FirstS, "s"), finding.N("rate", dc.Rate, "s/s"), finding.N("messages", float64(dc.Messages), "messages")},
			Sentence: DeviceClockSentence(dc),
		})
	}
	return out
}
