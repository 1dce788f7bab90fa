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
