// Package msgfilter emulates tf2_ros::MessageFilter (Jazzy) over a replayed
// tf buffer: per message it decides what RViz, slam_toolbox or Nav2 would
// have done (pass now, pass after waiting, drop because the queue is full,
// drop as OutTheBack, drop for an empty frame id, or still pending) and the
// exact log line the consumer prints.
//
// Replay a bag in record order against one tf.Buffer:
//
//	buf := tf.NewBuffer(tf.Options{CacheTimeNS: pr.CacheTimeNS})
//	f := msgfilter.New(buf, "odom", pr.Params, func(r msgfilter.Result) { ... })
//	// for each transform of /tf and /tf_static, at its record time:
//	if buf.SetTransform(st, authority, static) == nil {
//		f.TransformStored(recordNS, st.Stamp, static)
//	}
//	// for each scan: f.Add(msgfilter.Msg{Key: i, FrameID: ..., StampNS: ..., ArrivalNS: recordNS})
//	// at the end: f.Finish()
//
// What is emulated (tf2_ros/message_filter.h of Humble/Jazzy, with
// tf2_ros::Buffer::waitForTransform and BufferCore's transformable
// requests):
//   - add(): empty frame id (after stripping one '/') drops at once; the
//     oldest queued message is evicted (QueueFull) before the new one's
//     requests are made, and its requests are not cancelled; one request
//     per target, two with a tolerance (stamp and stamp + tolerance).
//   - A request is transformable now (handle 0), too old (both frames
//     known, latest common time L != 0 and t + cache_time < L) or pending;
//     pending ones are retested after every insert in tf2's swap-remove
//     order, too-old first.
//   - Every callback counts; the last one decides: failure -> OutTheBack,
//     success -> canTransform of every target (and stamp + tolerance) again,
//     pass or 'unknown'.
//   - buffer_timeout: a timer per pending request on the arrival clock;
//     expiry cancels the request (keeping the order of the others) and
//     counts as a failed callback. Filters that share one tf2_ros::Buffer
//     share a Group, hence one request vector.
//
// Approximations: timers run on the record clock, not the consumer's ROS
// clock (equal rates during a normal replay; a /clock jump is not
// modelled); timers due at the very instant of an event fire before it;
// rclcpp's handling of the default duration::max timer is not verified and
// treated as no timeout.
//
// Params.Semantics = ROS1 emulates noetic's tf2_ros::MessageFilter instead,
// for the consumers of ROS 1 bags (filter_ros1.go).
package msgfilter

import "strconv"

// Outcome is what happened to one message. The string values are the CSV /
// JSON vocabulary.
type Outcome string

const (
	Passed            Outcome = "passed"
	PassedAfterWait   Outcome = "passed_after_wait"
	DroppedQueueFull  Outcome = "dropped_queue_full"
	DroppedOutTheBack Outcome = "dropped_out_the_back"
	DroppedEmptyFrame Outcome = "dropped_empty_frame"
	// DroppedUnknown is tf2_ros's reason 'unknown' (future ok, re-check
	// failed); only reachable with a tolerance.
	DroppedUnknown Outcome = "dropped_unknown"
	PendingAtEnd   Outcome = "pending_at_end"
	// RejectedNegativeStamp: header.stamp.sec < 0 (StampNS < 0 here) makes
	// the rclcpp::Time conversion inside tf2_ros's add() throw before the
	// message is queued; the filter neither passes nor logs it (a real node
	// usually dies of the exception). Not a tf2_ros reason.
	RejectedNegativeStamp Outcome = "rejected_negative_stamp"
)

// tf2_ros's reason strings (get_filter_failure_reason_string, Galactic to
// Rolling), as they appear inside the drop log line.
const (
	ReasonUnknown      = "unknown"
	ReasonOutTheBack   = "the timestamp on the message is earlier than all the data in the transform cache"
	ReasonEmptyFrameID = "the frame id of the message is empty"
	ReasonQueueFull    = "discarding message because the queue is full"
	// ReasonNegativeStamp is rclcpp's exception text, not a filter reason.
	ReasonNegativeStamp = "cannot store a negative time point in rclcpp::Time"
)

// ROS 1's reasons: the names of tf2_ros::filter_failure_reasons in noetic
// (ros/geometry2 noetic-devel tf2_ros/include/tf2_ros/message_filter.h,
// Debian 0.7.6), which has no queue-full reason and no reason strings: the
// failure callback gets the enum value.
const (
	ReasonROS1Unknown      = "Unknown"
	ReasonROS1OutTheBack   = "OutTheBack"
	ReasonROS1EmptyFrameID = "EmptyFrameID"
)

// Semantics selects which tf2_ros::MessageFilter, and which BufferCore
// request loop under it, a filter emulates.
type Semantics uint8

const (
	// ROS2 is tf2_ros of Humble to Jazzy, the default.
	ROS2 Semantics = iota
	// ROS1 is tf2_ros of noetic (ros/geometry2 noetic-devel, Debian
	// geometry2 0.7.6), the consumer of a ROS 1 bag. It differs from ROS2
	// in add()'s order, the reasons, the missing buffer_timeout and the
	// retest pass's shared result; see filter_ros1.go.
	ROS1
)

// String names the semantics.
func (s Semantics) String() string {
	switch s {
	case ROS2:
		return "ros2"
	case ROS1:
		return "ros1"
	}
	return "Semantics(" + strconv.Itoa(int(s)) + ")"
}

// Params configures one filter. Zero values: QueueSize 0 = unbounded (as
// tf2_ros), ToleranceNS 0 = none, BufferTimeoutNS 0 = no timeout (tf2_ros's
// default of duration::max), Semantics ROS2.
type Params struct {
	QueueSize   int
	ToleranceNS int64
	// BufferTimeoutNS is ignored under ROS1: noetic's filter has no
	// buffer_timeout.
	BufferTimeoutNS int64
	// Semantics is the tf2_ros generation emulated. The filters of one
	// Group share it (one node runs one ROS); the Group's request loop
	// follows its first filter's.
	Semantics Semantics
}

// Msg is one message offered to the filter.
type Msg struct {
	// Key identifies the message to the caller (e.g. its scan index).
	Key       uint64
	FrameID   string
	StampNS   int64
	ArrivalNS int64 // record time of the message, the filter's "now"
}

// Result is the final decision on one message.
type Result struct {
	Key     uint64
	Outcome Outcome
	// Reason is tf2_ros's reason string for drops ("" for passes).
	Reason string
	// LogLine is the line the consumer logs for a drop ("" for passes):
	// Message Filter dropping message: frame 'laser' at time 3.960 for reason '...'
	LogLine string
	// DecidedAtNS is the record time at which the decision fell; WaitNS =
	// DecidedAtNS - ArrivalNS; WaitTFMessages counts successful transform
	// insertions between arrival and decision.
	DecidedAtNS    int64
	WaitNS         int64
	WaitTFMessages int
}
