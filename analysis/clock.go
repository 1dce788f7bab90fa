package analysis

import (
	"encoding/binary"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// clockState follows /clock: the value in force (rows and checks read
// seen and ns), jumps as rcl reports them, stalls and the real-time factor.
type clockState struct {
	seen      bool
	ns        int64 // value of the last /clock message
	logNS     int64 // its record time
	index     uint64
	firstLog  int64
	ticks     reservoir // positive /clock deltas
	logTicks  reservoir // record-time deltas between /clock messages
	rtfClock  float64
	rtfLog    float64
	stallFrom int64
	stallMsgs int
	stallVal  int64
	nStalls   int
	nJumps    int
	nBack     int // backward jumps among nJumps (all, not only the kept ones)
	firstNS   int64
	lastNS    int64
	n         int
	// reset: /clock stepped back and tf2_ros::Buffer cleared; resetTo is
	// the value it stepped to, the start of the tree's refill.
	reset   bool
	resetTo int64

	jumps  []ClockJump // at most maxJumpsKept
	stalls []Stall     // at most maxStallsKept
	series *downsampler
}

func newClockState(spanS float64) *clockState {
	return &clockState{series: newDownsampler(spanS)}
}

// forwardThreshold is the rcl min_forward in force: the configured one, or
// 10× the median tick seen so far, at least DefaultJumpMinForwardNS.
func forwardThreshold(cfgNS int64, ticks *reservoir) int64 {
	if cfgNS > 0 {
		return cfgNS
	}
	th := DefaultJumpMinForwardNS
	if ticks.n >= 8 {
		th = max(th, int64(10*ticks.approxMedian()))
	}
	return th
}

// isBackward applies rcl's min_backward: 0 means any backward step.
func isBackward(delta, minBackward int64) bool {
	if minBackward == 0 {
		return delta < 0
	}
	return delta <= minBackward
}

// update takes one decoded /clock message.
func (c *clockState) update(a *analyzer, m *bagread.Message, v int64) {
	c.series.add(a.x(m.LogTimeNS), float64(v)/1e9)
	c.n++
	if !c.seen {
		c.seen = true
		c.ns, c.logNS, c.index = v, m.LogTimeNS, m.Index
		c.firstLog, c.firstNS, c.lastNS = m.LogTimeNS, v, v
		c.stallFrom, c.stallVal, c.stallMsgs = m.LogTimeNS, v, 1
		return
	}
	delta := v - c.ns
	dlog := m.LogTimeNS - c.logNS
	if dlog > 0 {
		c.logTicks.add(float64(dlog))
	}
	fwd := forwardThreshold(a.cfg.JumpMinForwardNS, &c.ticks)
	jump := ""
	switch {
	case isBackward(delta, a.cfg.JumpMinBackwardNS):
		jump = "backward"
	case delta > 0 && delta >= fwd:
		jump = "forward"
	}
	if jump != "" {
		c.nJumps++
		if jump == "backward" {
			c.nBack++
		}
		if len(c.jumps) < maxJumpsKept {
			c.jumps = append(c.jumps, ClockJump{
				Index: m.Index, LogTimeNS: m.LogTimeNS, FromNS: c.ns, ToNS: v, Kind: jump, Topic: m.Topic,
			})
		}
	} else {
		if delta > 0 {
			c.ticks.add(float64(delta))
		}
		if dlog > 0 {
			c.rtfClock += float64(delta)
			c.rtfLog += float64(dlog)
		}
	}
	// tf2_ros::Buffer's jump callback: any backward step clears dynamic
	// data (min_backward = -1 ns, whatever the reporting threshold). A
	// ROS 1 consumer has no such callback: its listener clears at the next
	// tf message instead (ros1listener.go).
	if delta < 0 && !a.cfg.RclpyBuffer && !a.wire.ROS1 {
		for _, t := range a.tfSpaces {
			t.buf.ClearOnJump(delta)
		}
		c.reset, c.resetTo = true, v
	}
	// Stalls: /clock repeating one value, or silent, while record time runs.
	if delta == 0 {
		c.stallMsgs++
	} else {
		c.endStall(m.LogTimeNS)
		c.stallFrom, c.stallVal, c.stallMsgs = m.LogTimeNS, v, 1
	}
	if delta != 0 && dlog >= StallMinNS && c.logTicks.n >= 8 && float64(dlog) >= 10*c.logTicks.approxMedian() {
		c.addStall(Stall{StartLogNS: c.logNS, EndLogNS: m.LogTimeNS, ClockNS: c.ns, Messages: 0})
	}
	c.ns, c.logNS, c.index = v, m.LogTimeNS, m.Index
	c.lastNS = v
}

// inResetWindow reports whether the /clock value in force is within one
// cache time after the last clearing jump back: the tf buffer is still
// refilling, as at the start of a bag.
func (c *clockState) inResetWindow(cacheNS int64) bool {
	return c.reset && c.ns-c.resetTo < cacheNS
}

// decodeClockNS is cdr.DecodeClock(data).Clock.Nanoseconds() with a fast
// path for the plain little-endian layout every ROS 2 bag writes (4-byte
// encapsulation, int32 sec, uint32 nanosec); anything else, including every
// error, goes through cdr.DecodeClock.
func decodeClockNS(data []byte) (int64, error) {
	if len(data) >= 12 && data[0] == 0 && data[1] == byte(cdr.CDRLE) {
		sec := int32(binary.LittleEndian.Uint32(data[4:8]))
		ns := binary.LittleEndian.Uint32(data[8:12])
		return cdr.Time{Sec: sec, Nanosec: ns}.Nanoseconds(), nil
	}
	c, err := cdr.DecodeClock(data)
	if err != nil {
		return 0, err
	}
	return c.Clock.Nanoseconds(), nil
}

func (c *clockState) endStall(nowLog int64) {
	if c.stallMsgs >= 2 && c.logNS-c.stallFrom >= StallMinNS {
		c.addStall(Stall{StartLogNS: c.stallFrom, EndLogNS: c.logNS, ClockNS: c.stallVal, Messages: c.stallMsgs})
	}
}

func (c *clockState) addStall(s Stall) {
	c.nStalls++
	if len(c.stalls) < maxStallsKept {
		c.stalls = append(c.stalls, s)
	}
}

// finish closes an open stall and writes the clock's part of the report.
func (c *clockState) finish(a *analyzer) {
	if c.seen {
		c.endStall(c.logNS)
	}
	r := &a.rep
	r.ClockJumps = c.jumps
	if r.ClockJumps == nil {
		r.ClockJumps = []ClockJump{}
	}
	r.Summary.ClockJumps = r.ClockJumps
	r.Stalls = c.stalls
	if r.Stalls == nil {
		r.Stalls = []Stall{}
	}
	if c.n > 0 {
		cr := &ClockRate{Messages: c.n, FirstNS: c.firstNS, LastNS: c.lastNS}
		if c.rtfLog > 0 {
			cr.RealTimeFactor = c.rtfClock / c.rtfLog
		}
		if c.ticks.n > 0 {
			cr.MedianTickNS = int64(c.ticks.median())
		}
		r.ClockRate = cr
	}
	r.Series.Clock = c.series.points()
	r.Counts.ClockJumps = c.nJumps
	r.Counts.Stalls = c.nStalls
	r.Counts.BackwardJumps = c.nBack
	r.Counts.ClockMessages = c.n
}
