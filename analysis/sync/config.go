package sync

import (
	"errors"
	"fmt"
	"math"
)

// Policy is the synchronizer policy.
type Policy int

const (
	// Approximate is sync_policies::ApproximateTime.
	Approximate Policy = iota
	// Exact is sync_policies::ExactTime.
	Exact
)

// String is the policy's name in flags and reports.
func (p Policy) String() string {
	if p == Exact {
		return "exact"
	}
	return "approximate"
}

// ParsePolicy reads "approximate" or "exact".
func ParsePolicy(s string) (Policy, error) {
	switch s {
	case "approximate", "approx", "ApproximateTime":
		return Approximate, nil
	case "exact", "ExactTime":
		return Exact, nil
	}
	return 0, fmt.Errorf("sync policy %q: want approximate or exact", s)
}

// Flavor chooses which library's arithmetic and features are emulated.
type Flavor int

const (
	// FlavorROS2 is ros2/message_filters with rclcpp time (the default).
	FlavorROS2 Flavor = iota
	// FlavorROS1 is ros_comm message_filters 1.15.15 with ros::Time.
	FlavorROS1
)

// MaxTopics is the most inputs a message_filters::Synchronizer takes.
const MaxTopics = 9

// DurationMax is ApproximateTime's default max interval duration:
// ros::DURATION_MAX in ROS 1 (approximate_time.h 111-126) and
// rclcpp::Duration(INT32_MAX, 999999999) in ROS 2 (the constructor of
// approximate_time.hpp): 2^31-1 s + 999999999 ns.
const DurationMax = int64(math.MaxInt32)*1_000_000_000 + 999_999_999

// DefaultAgePenalty is ApproximateTime's age_penalty_ until setAgePenalty.
const DefaultAgePenalty = 0.1

// Config is one synchronizer's parameters.
type Config struct {
	Policy Policy
	// Topics is the number of inputs, 2 to 9.
	Topics int
	// QueueSize is the constructor's queue_size: per topic for
	// ApproximateTime (deque plus moved-aside messages), tuples for
	// ExactTime (0 is unbounded there).
	QueueSize int
	// MaxIntervalNS is ApproximateTime's setMaxIntervalDuration, in ns
	// (DurationMax when never set).
	MaxIntervalNS int64
	// LowerBoundsNS are ApproximateTime's setInterMessageLowerBound per
	// topic, in ns (nil: 0 for every topic).
	LowerBoundsNS []int64
	// AgePenalty is ApproximateTime's setAgePenalty (DefaultAgePenalty when
	// never set).
	AgePenalty float64
	// Flavor is the library emulated.
	Flavor Flavor
	// Reset is ROS 1's setReset(true) under sim time; ROS 2 has no such
	// setter, so it is refused with FlavorROS2.
	Reset bool
	// Unbounded allows ExactTime's queue size 0 (an unbounded map
	// upstream); without it Validate refuses it, since memory must stay
	// bounded.
	Unbounded bool
}

// NewConfig is a configuration with the upstream defaults for policy p on
// k topics with the given queue size.
func NewConfig(p Policy, k, queue int) Config {
	return Config{Policy: p, Topics: k, QueueSize: queue, MaxIntervalNS: DurationMax, AgePenalty: DefaultAgePenalty}
}

// Validate reports a configuration the library would refuse (an assertion
// upstream) or this emulation cannot run.
func (c Config) Validate() error {
	if c.Topics < 2 || c.Topics > MaxTopics {
		return fmt.Errorf("sync: %d topics: a Synchronizer takes 2 to %d", c.Topics, MaxTopics)
	}
	if c.QueueSize < 0 || c.QueueSize > math.MaxUint32 {
		return fmt.Errorf("sync: queue size %d out of range", c.QueueSize)
	}
	if c.Policy == Approximate && c.QueueSize == 0 {
		// ROS_ASSERT(queue_size_ > 0) in ApproximateTime's constructor.
		return errors.New("sync: ApproximateTime needs a queue size of at least 1")
	}
	if c.Policy == Exact && c.QueueSize == 0 && !c.Unbounded {
		return errors.New("sync: ExactTime with queue size 0 keeps every unmatched stamp (unbounded memory); give a queue size")
	}
	if c.MaxIntervalNS < 0 {
		return errors.New("sync: max interval duration must be >= 0")
	}
	if c.LowerBoundsNS != nil && len(c.LowerBoundsNS) != c.Topics {
		return fmt.Errorf("sync: %d lower bounds for %d topics", len(c.LowerBoundsNS), c.Topics)
	}
	for _, b := range c.LowerBoundsNS {
		if b < 0 {
			return errors.New("sync: inter-message lower bounds must be >= 0")
		}
	}
	if !(c.AgePenalty >= 0) || math.IsInf(c.AgePenalty, 0) {
		return errors.New("sync: age penalty must be a finite number >= 0")
	}
	if c.Reset && c.Flavor != FlavorROS1 {
		return errors.New("sync: reset on time jumps exists only in ROS 1 (setReset); ROS 2 has none")
	}
	return nil
}

func (c Config) lowerBound(i int) int64 {
	if c.LowerBoundsNS == nil {
		return 0
	}
	return c.LowerBoundsNS[i]
}
