package analysis

// SyncSummary is what one emulated message_filters::Synchronizer did with
// the bag's messages, fed in record order with their header stamps as a
// live node would receive them (synccheck.go).
type SyncSummary struct {
	Topics []string `json:"topics"`
	// Policy is "approximate" or "exact".
	Policy    string `json:"policy"`
	QueueSize int    `json:"queue_size"`
	// MaxIntervalS is ApproximateTime's max interval duration; null when
	// the library's default (no limit) or ExactTime.
	MaxIntervalS *float64 `json:"max_interval_s"`
	// LowerBoundsS and AgePenalty are ApproximateTime's inter-message
	// lower bounds (per topic, in Topics order) and age penalty as
	// emulated, the library's defaults (0 s each, 0.1) unless --sync set
	// them; null with ExactTime, which has neither.
	LowerBoundsS []float64 `json:"inter_message_lower_bounds_s"`
	AgePenalty   *float64  `json:"age_penalty"`
	// Source names the consumer whose synchronizer this is, or "--sync".
	Source string `json:"source"`
	// Sets is the number of sets the synchronizer emitted (its callback
	// calls); FirstSetS the record time (s since the bag's start) of the
	// message whose arrival emitted the first one, null without sets.
	Sets      int64    `json:"sets"`
	FirstSetS *float64 `json:"first_set_s"`
	// Per topic (in Topics order): messages fed in, used in a set, never
	// used (dropped by the policy, still queued at the end, or a stamp
	// the library cannot hold), stamped 0, and skipped because they did
	// not decode (never fed).
	Received   []int64 `json:"received"`
	InSets     []int64 `json:"in_sets"`
	Unused     []int64 `json:"unused"`
	ZeroStamps []int64 `json:"zero_stamps"`
	Skipped    []int64 `json:"skipped"`
	// Spread of the stamps inside a set (latest − earliest), over the
	// sets: null without sets.
	SpreadMedianS *float64 `json:"spread_median_s"`
	SpreadP95S    *float64 `json:"spread_p95_s"`
	SpreadMaxS    *float64 `json:"spread_max_s"`
	// Fires is false when the synchronizer never emits a set; Reason then
	// says why (one of the SyncReason* values), as Sentence does in words.
	Fires    bool   `json:"fires"`
	Reason   string `json:"reason,omitempty"`
	Sentence string `json:"sentence"`
	// Offsets are the stamp offsets between the first topic and each
	// other one.
	Offsets []SyncOffset `json:"offsets"`
}

// Why a synchronizer never fires (SyncSummary.Reason) or fires poorly.
const (
	SyncReasonEmptyTopic     = "empty_topic"      // a topic has no messages
	SyncReasonZeroStamps     = "zero_stamps"      // a topic's stamps are all 0
	SyncReasonDifferentClock = "different_clocks" // stamps an epoch apart (sim, system, 0)
	SyncReasonOffset         = "offset_beyond_interval"
	SyncReasonNeverEqual     = "stamps_never_equal" // ExactTime: no stamp in common
	SyncReasonNoSet          = "no_set"             // none of the above explains it
	SyncReasonFewSets        = "few_sets"           // fires, but leaves most messages unused
)

// Pair clock relations (SyncOffset.Clock).
const (
	SyncClockOneDriver   = "one_driver"   // identical stamps: one driver stamps both
	SyncClockOneClock    = "one_clock"    // a steady offset on one clock
	SyncClockTwoMachines = "two_machines" // drifting apart, or one ahead of the recorder
	SyncClockDifferent   = "different_clocks"
	SyncClockUnknown     = "unknown" // no stamps to compare
)

// SyncOffset is the stamp offset of one topic against another: for each
// message of the slower topic, To's stamp minus the nearest stamp of From.
type SyncOffset struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Samples int    `json:"samples"`
	// MedianS and P95AbsS: the median offset and the 95th percentile of
	// its magnitude.
	MedianS float64 `json:"median_s"`
	P95AbsS float64 `json:"p95_abs_s"`
	// DriftS is how much the median offset moved from the first to the
	// last stretch of the bag, DriftPPM the same per second elapsed (µs/s).
	DriftS   float64 `json:"drift_s"`
	DriftPPM float64 `json:"drift_ppm"`
	// Clock says whether both topics are stamped by one driver, on one
	// clock, on two machines or on different clocks; ClockBasis why.
	Clock      string `json:"clock"`
	ClockBasis string `json:"clock_basis"`
	// Series is the median offset over the bag (record time s since the
	// start), for the report's plot.
	Series []SyncOffsetPoint `json:"series"`
	// Cost is what a steady offset costs in pose, when the robot moved.
	Cost *SyncPoseCost `json:"pose_cost,omitempty"`

	epochs string // which clock each side is on, for the sentence
}

// SyncOffsetPoint is one stretch of the bag's median offset.
type SyncOffsetPoint struct {
	XS      float64 `json:"x_s"`
	MedianS float64 `json:"median_s"`
	N       int     `json:"n"`
}

// SyncPoseCost is the pose error a steady stamp offset causes at the
// robot's speed: the robot's motion over the offset, computed as the
// stamp-0 check costs a stamp of 0 (poseDistance between the two poses
// tf gives at the two times).
type SyncPoseCost struct {
	OffsetS float64 `json:"offset_s"`
	// Target and Frame: the transform looked up (the sensor's frame in
	// the target of its rows).
	Target string `json:"target"`
	Frame  string `json:"frame"`
	// SpeedMS and RateRadS are the robot's median speed and turn rate
	// while it moved; DisplacementM and RotationDeg the median pose error
	// over the offset, MaxDisplacementM and MaxRotationDeg the largest.
	SpeedMS          float64 `json:"speed_m_s"`
	RateRadS         float64 `json:"rate_rad_s"`
	DisplacementM    float64 `json:"displacement_m"`
	RotationDeg      float64 `json:"rotation_deg"`
	MaxDisplacementM float64 `json:"max_displacement_m"`
	MaxRotationDeg   float64 `json:"max_rotation_deg"`
	Samples          int     `json:"samples"`
	Sentence         string  `json:"sentence"`
}
