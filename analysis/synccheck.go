package analysis

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/bagclock/bagclock/analysis/sync"
	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/analysis/topics"
	"github.com/bagclock/bagclock/bagread"
)

// syncCheck feeds the bag's messages, in record order and with their
// header stamps, through emulated message_filters synchronizers (package
// analysis/sync, ROS 2 flavor): those --sync names, else the ones the
// bag's camera topics suggest (syncdefaults.go). It reports per
// synchronizer the sets, the spread inside them, the messages never used,
// the stamp offsets between its inputs and, when it never fires, why.
type syncCheck struct {
	runs []*syncRun
	// byID: per topicState.id, the (run, input) pairs the topic feeds.
	byID [][]syncRef
}

type syncRef struct{ run, input int }

// syncRun is one synchronizer and what it saw.
type syncRun struct {
	spec    SyncSpec
	s       *sync.Sync
	err     error // a configuration the emulation refused
	present []bool
	zero    []int64
	skipped []int64
	// Per input: messages whose stamp lies within 1e5 s of record time
	// (system time on the recorder's epoch), of /clock (sim time), and
	// the least record time − stamp of the first.
	nearRec, nearSim []int64
	minAge           []int64
	firstSet         int64
	haveSet          bool
	spread           reservoir
	offsets          []*offsetTrack
	lastRecv         int64
	motion           syncMotion
}

// syncMotion samples the robot's speed from tf, in the frame of the
// first input that has one, for the pose cost of a steady offset.
type syncMotion struct {
	buf           *tf.Buffer
	target, frame string
	last          int64
	speed, rate   reservoir
}

// Motion sampling: the pose change over motionWindow, looked up
// motionLag before the message's stamp (tf for it has arrived by then),
// at most once per motionEvery of stamp time.
const (
	motionWindow = int64(100_000_000)
	motionLag    = int64(500_000_000)
	motionEvery  = int64(250_000_000)
	nearEpochNS  = int64(100_000) * 1_000_000_000
)

func init() {
	registerCheck(rankSync, "sync", newSyncCheck)
}

func newSyncCheck(a *analyzer) check {
	specs := a.cfg.Sync
	if specs == nil {
		specs = defaultSyncs(topics.Classify(a.bag))
	}
	c := &syncCheck{}
	maxID := 0
	for _, ts := range a.topics.list {
		maxID = max(maxID, ts.id)
	}
	c.byID = make([][]syncRef, maxID+1)
	for ri, sp := range specs {
		k := len(sp.Topics)
		r := &syncRun{spec: sp, present: make([]bool, k), zero: make([]int64, k), skipped: make([]int64, k),
			nearRec: make([]int64, k), nearSim: make([]int64, k), minAge: make([]int64, k)}
		cfg, err := syncConfig(sp)
		if err == nil {
			r.s, err = sync.New(cfg)
		}
		r.err = err
		if r.s != nil {
			r.s.OnSet = r.noteSet
		}
		counts := make([]uint64, k)
		for i, name := range sp.Topics {
			r.minAge[i] = math.MaxInt64
			ts := a.topics.find(name)
			if ts == nil || ts.role != roleStamped && ts.role != roleTimeOnly {
				continue
			}
			r.present[i] = true
			counts[i] = ts.messages
			if ts.role == roleTimeOnly {
				ts.header = true
			}
			c.byID[ts.id] = append(c.byID[ts.id], syncRef{ri, i})
		}
		for j := 1; j < k; j++ {
			r.offsets = append(r.offsets, newOffsetTrack(0, j, counts[0], counts[j], a.startNS, a.bag.EndNS))
		}
		c.runs = append(c.runs, r)
	}
	// Even without a synchronizer the check runs: its finish writes sync
	// as [] (none found), not null.
	return c
}

// syncConfig turns a spec into the emulation's configuration.
func syncConfig(sp SyncSpec) (sync.Config, error) {
	p, err := sync.ParsePolicy(sp.Policy)
	if err != nil {
		return sync.Config{}, err
	}
	cfg := sync.NewConfig(p, len(sp.Topics), sp.QueueSize)
	if sp.MaxIntervalS > 0 && p == sync.Approximate {
		cfg.MaxIntervalNS = int64(math.Round(sp.MaxIntervalS * 1e9))
	}
	if p == sync.Approximate {
		if sp.AgePenalty != nil {
			cfg.AgePenalty = *sp.AgePenalty
		}
		for _, b := range sp.LowerBoundsS {
			if !(b >= 0) || b > float64(sync.DurationMax)/1e9 {
				return cfg, fmt.Errorf("inter-message lower bound %g s out of range", b)
			}
			cfg.LowerBoundsNS = append(cfg.LowerBoundsNS, int64(math.Round(b*1e9)))
		}
	} else if sp.AgePenalty != nil || sp.LowerBoundsS != nil {
		return cfg, errors.New("the age penalty and inter-message lower bounds are ApproximateTime's; ExactTime has neither")
	}
	return cfg, cfg.Validate()
}

// ValidateSync reports a synchronizer specification the emulation refuses
// (policy, queue size, 2 to 9 topics, interval), naming it.
func ValidateSync(specs []SyncSpec) error {
	for _, sp := range specs {
		if _, err := syncConfig(sp); err != nil {
			return fmt.Errorf("synchronizer %s: %w", strings.Join(sp.Topics, ","), err)
		}
		if sp.MaxIntervalS < 0 || math.IsNaN(sp.MaxIntervalS) || sp.MaxIntervalS > float64(sync.DurationMax)/1e9 {
			return fmt.Errorf("synchronizer %s: max interval %g s out of range", strings.Join(sp.Topics, ","), sp.MaxIntervalS)
		}
	}
	return nil
}

func (c *syncCheck) onHeader(a *analyzer, m *bagread.Message, ts *topicState, stamp int64, err error) {
	if ts.id >= len(c.byID) {
		return
	}
	for _, ref := range c.byID[ts.id] {
		r := c.runs[ref.run]
		i := ref.input
		if err != nil {
			r.skipped[i]++
			continue
		}
		r.lastRecv = m.LogTimeNS
		if stamp == 0 {
			r.zero[i]++
		} else {
			age := m.LogTimeNS - stamp
			if age > -nearEpochNS && age < nearEpochNS {
				r.nearRec[i]++
				r.minAge[i] = min(r.minAge[i], age)
			}
			if a.clock.seen && a.clock.ns-stamp > -nearEpochNS && a.clock.ns-stamp < nearEpochNS {
				r.nearSim[i]++
			}
		}
		for _, o := range r.offsets {
			if o.from == i {
				o.add(0, stamp, m.LogTimeNS)
			} else if o.to == i {
				o.add(1, stamp, m.LogTimeNS)
			}
		}
		if r.s == nil {
			continue
		}
		r.s.Add(sync.Message{Topic: i, StampNS: stamp, RecvNS: m.LogTimeNS, Index: int64(r.s.Received[i])})
	}
}

// noteSet records one emitted set.
func (r *syncRun) noteSet(set sync.Set) {
	if !r.haveSet {
		r.haveSet, r.firstSet = true, set.RecvNS
	}
	lo, hi := set.StampsNS[0], set.StampsNS[0]
	for _, s := range set.StampsNS[1:] {
		lo, hi = min(lo, s), max(hi, s)
	}
	r.spread.add(float64(hi-lo) / 1e9)
}

// onStamped samples the robot's motion in the frame of a synchronizer's
// input, for the pose cost of a steady offset.
func (c *syncCheck) onStamped(a *analyzer, s *stampedMsg) {
	if s.topic.id >= len(c.byID) || s.frame == "" || s.stamp == 0 || len(s.topic.targets) == 0 {
		return
	}
	for _, ref := range c.byID[s.topic.id] {
		mo := &c.runs[ref.run].motion
		frame := strings.TrimPrefix(s.frame, "/")
		if mo.buf == nil {
			mo.buf, mo.target, mo.frame = s.topic.tf.buf, s.topic.targets[0], frame
		}
		if mo.frame != frame || s.stamp-mo.last < motionEvery {
			continue
		}
		mo.last = s.stamp
		t1 := s.stamp - motionLag
		p1, err1 := mo.buf.LookupTransform(mo.target, mo.frame, t1)
		p0, err0 := mo.buf.LookupTransform(mo.target, mo.frame, t1-motionWindow)
		if err1 != nil || err0 != nil {
			continue
		}
		d, rot := poseDistance(p1.Transform, p0.Transform)
		w := float64(motionWindow) / 1e9
		mo.speed.add(d / w)
		mo.rate.add(rot * math.Pi / 180 / w)
	}
}

func (c *syncCheck) finish(a *analyzer) {
	out := []SyncSummary{}
	for _, r := range c.runs {
		out = append(out, r.summary(a))
	}
	a.rep.Sync = out
}
