package analysis

import (
	"fmt"
	"math"

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
	// second of record time over the bag.
	FirstS, Rate float64
}

// Device-clock thresholds: enough messages over enough record time, a
// rate within deviceRateTol of 1 (a device's oscillator is off by ppm; a
// simulator's real-time factor wanders by percents).
const (
	deviceMinSpanNS = int64(2_000_000_000)
	deviceRateTol   = 0.005
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
	n, other                           int
	firstLog, firstNS, lastLog, lastNS int64
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
		t.lastLog, t.lastNS = s.m.LogTimeNS, s.stamp
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
		rate := float64(t.lastNS-t.firstNS) / float64(span)
		if math.Abs(rate-1) > deviceRateTol {
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
