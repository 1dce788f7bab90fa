package sync

import "fmt"

// Message is one input as add<i>() sees it.
type Message struct {
	Topic int
	// StampNS is header.stamp in ns.
	StampNS int64
	// RecvNS is the receipt time (the record time in a bag); only ROS 1's
	// reset path reads it, and Tally reports the first set's.
	RecvNS int64
	// Index identifies the message to the caller (its ordinal in the
	// topic, say); it comes back in sets and drops.
	Index int64
}

// Set is one emitted set: the i-th entries belong to topic i. The slices
// are valid only during the OnSet call.
type Set struct {
	StampsNS []int64
	Indices  []int64
	// Event is the 0-based ordinal of the Add during which it was emitted.
	Event int64
	// RecvNS is that Add's receipt time.
	RecvNS int64
}

// DropReason says why a message left the policy unused.
type DropReason int

// Drop reasons. ApproximateTime's are told apart by the code path taken;
// ExactTime's drop signal covers both of its reasons upstream.
const (
	DropQueueFull    DropReason = iota // oldest of a topic over queue_size
	DropMaxInterval                    // heads span more than max interval
	DropPivotDropped                   // the topic that would be pivot had dropped messages
	DropSuperseded                     // a better candidate was found (past cleared)
	DropOlderThanSet                   // ExactTime: stamp <= last published set
	DropOverwritten                    // ExactTime: same topic and stamp again
	DropReset                          // ROS 1 reset on a jump back in time
	DropBoundBroken                    // ROS 1 reset mode: out of order or closer than the bound
)

var dropNames = [...]string{"queue_full", "max_interval", "pivot_dropped", "superseded", "older_than_set", "overwritten", "reset", "bound_broken"}

func (r DropReason) String() string {
	if int(r) < len(dropNames) {
		return dropNames[r]
	}
	return fmt.Sprintf("drop%d", int(r))
}

// Drop is one message the policy let go without using it.
type Drop struct {
	Topic   int
	Index   int64
	StampNS int64
	Event   int64
	Reason  DropReason
}

type msg struct {
	stamp, recv, index int64
	ok                 bool // a real message (a candidate slot may be empty)
}

// policy is what the two sync policies implement.
type policy interface {
	add(i int, m msg)
	live(f func(topic int, m msg))
}

// Sync is one message_filters::Synchronizer with its policy.
type Sync struct {
	cfg    Config
	pol    policy
	ar     arith
	event  int64
	recv   int64
	OnSet  func(Set)
	OnDrop func(Drop)

	stamps, indices [MaxTopics]int64

	// Per topic: received, used in sets, dropped by reason, not
	// representable (skipped before the policy).
	Received, InSets, Unrepresentable [MaxTopics]int64
	Dropped                           [MaxTopics][len(dropNames)]int64
}

// New makes a synchronizer. OnSet and OnDrop may be set afterwards.
func New(cfg Config) (*Sync, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Sync{cfg: cfg, ar: arith{flavor: cfg.Flavor, rounding: cfg.Flavor, scale: 1 + cfg.AgePenalty}}
	if cfg.Policy == Exact {
		s.pol = &exact{s: s}
	} else {
		s.pol = newApprox(s)
	}
	return s, nil
}

// Config is the synchronizer's configuration.
func (s *Sync) Config() Config { return s.cfg }

// Err is the exception that stopped the synchronizer, if any.
func (s *Sync) Err() error { return s.ar.err }

// Events is the number of Add calls so far.
func (s *Sync) Events() int64 { return s.event }

// Add feeds one message, in receive order. It returns the exception the
// library would have thrown; after one, the Sync ignores further input.
// A stamp the library cannot hold is counted in Unrepresentable and not fed.
func (s *Sync) Add(m Message) error {
	if m.Topic < 0 || m.Topic >= s.cfg.Topics {
		return fmt.Errorf("sync: topic %d out of range 0..%d", m.Topic, s.cfg.Topics-1)
	}
	if s.ar.err != nil {
		return s.ar.err
	}
	s.event++
	s.recv = m.RecvNS
	s.Received[m.Topic]++
	if !representable(s.cfg.Flavor, m.StampNS) {
		s.Unrepresentable[m.Topic]++
		return nil
	}
	s.pol.add(m.Topic, msg{stamp: m.StampNS, recv: m.RecvNS, index: m.Index, ok: true})
	return s.ar.err
}

// Pending calls f for every message still inside the policy (never used,
// never dropped), by topic.
func (s *Sync) Pending(f func(topic int, stampNS, index int64)) {
	s.pol.live(func(topic int, m msg) { f(topic, m.stamp, m.index) })
}

// PendingCounts is the number of messages still inside the policy per topic.
func (s *Sync) PendingCounts() (n [MaxTopics]int64) {
	s.pol.live(func(topic int, _ msg) { n[topic]++ })
	return n
}

func (s *Sync) emit(set []msg) {
	k := s.cfg.Topics
	for i := 0; i < k; i++ {
		s.stamps[i], s.indices[i] = set[i].stamp, set[i].index
		s.InSets[i]++
	}
	if s.OnSet != nil {
		s.OnSet(Set{StampsNS: s.stamps[:k], Indices: s.indices[:k], Event: s.event - 1, RecvNS: s.recv})
	}
}

func (s *Sync) drop(topic int, m msg, r DropReason) {
	s.Dropped[topic][r]++
	if s.OnDrop != nil {
		s.OnDrop(Drop{Topic: topic, Index: m.index, StampNS: m.stamp, Event: s.event - 1, Reason: r})
	}
}

// DroppedTotal is the number of topic i's messages dropped for any reason.
func (s *Sync) DroppedTotal(i int) int64 {
	var n int64
	for _, c := range s.Dropped[i] {
		n += c
	}
	return n
}
