// Package msgfilter emulates tf2_ros::MessageFilter (Jazzy) over a replayed
// tf buffer: per message it decides what RViz, slam_toolbox or Nav2 would
// have done (pass now, pass after waiting, drop because the queue is full,
// drop as OutTheBack, drop for an empty frame id, or still pending) and the
// exact log line the consumer prints.
package msgfilter

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

// Params configures one filter. Zero values: QueueSize 0 = unbounded (as
// tf2_ros), ToleranceNS 0 = none, BufferTimeoutNS 0 = no timeout (tf2_ros's
// default of duration::max).
type Params struct {
	QueueSize       int
	ToleranceNS     int64
	BufferTimeoutNS int64
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
