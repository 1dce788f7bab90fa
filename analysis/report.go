// Package analysis replays a bag's /tf, /tf_static and /clock through a tf2
// buffer and reports, per LaserScan, the stamp difference to the transforms
// it needs, its clock class and what tf2_ros::MessageFilter would have done,
// plus clock jumps, time-zero scans, skew, the tf tree and the findings.
// The verdict is decided from the finished report by analysis/verdict.
//
// It takes opened bags (bagread) and decoded messages (cdr) in and gives
// plain values out: no printing, no files of its own.
//
// One replay loop (replay.go) feeds the tf replay, the /clock state, the
// per-topic rows and a set of registered checks, one file each; check.go
// and DEVELOPERS.md say how to add a check.
package analysis

import "github.com/bagclock/bagclock/analysis/finding"

// Class is the clock diagnosis of one (scan, target) pair.
type Class string

const (
	SameClock          Class = "same_clock"
	LaserOnSystemClock Class = "laser_on_system_clock"
	TFOnSystemClock    Class = "tf_on_system_clock"
	ZeroStamp          Class = "zero_stamp"
	ClockSkew          Class = "clock_skew"
	StaticOnly         Class = "static_only"
	NoTransform        Class = "no_transform"
)

// ScanRow is one (message, target frame) result of an analysed topic (the
// name is from the days when only LaserScan was analysed). Rows are streamed to a sink
// while the bag is read, never collected for the whole bag.
type ScanRow struct {
	Topic string `json:"topic"`
	// Type is the topic's message type (sensor_msgs/msg/LaserScan, ...).
	Type        string `json:"type"`
	ScanIndex   uint64 `json:"scan_index"`
	LogTimeNS   int64  `json:"log_time_ns"`
	StampNS     int64  `json:"stamp_ns"`
	FrameID     string `json:"frame_id"`
	TargetFrame string `json:"target_frame"`
	// TFLatestNS is the latest stamp of the stalest dynamic link on the
	// path (HasTF false: static-only or no path).
	TFLatestNS int64   `json:"tf_latest_ns"`
	HasTF      bool    `json:"has_tf"`
	DiffS      float64 `json:"diff_s"`
	Class      Class   `json:"class"`
	// FilterOutcome / FilterReason: msgfilter outcome and tf2_ros reason.
	FilterOutcome string `json:"filter_outcome"`
	FilterReason  string `json:"filter_reason"`

	PublishTimeNS  int64 `json:"publish_time_ns,omitempty"`
	HasPublishTime bool  `json:"has_publish_time,omitempty"`
	ClockNS        int64 `json:"clock_ns"` // /clock in force at record time
	HasClock       bool  `json:"has_clock"`
	// AgeNS is the message's age against the clock its stamp is on, as
	// the ages table measures it (messageAge); HasAge false for a stamp
	// of 0 and for sim-time stamps before the first /clock.
	AgeNS         int64  `json:"age_ns"`
	HasAge        bool   `json:"has_age"`
	StalestParent string `json:"stalest_parent,omitempty"`
	StalestChild  string `json:"stalest_child,omitempty"`
	StalestTopic  string `json:"stalest_topic,omitempty"`
	FilterWaitNS  int64  `json:"filter_wait_ns"`
	FilterWaitTF  int    `json:"filter_wait_tf_messages"`
	FilterLogLine string `json:"filter_log_line,omitempty"`
}

// ClockJump is a discontinuity of /clock (or of a topic's stamps).
type ClockJump struct {
	Index     uint64 `json:"index"` // message index on the topic
	LogTimeNS int64  `json:"log_time_ns"`
	FromNS    int64  `json:"from_ns"`
	ToNS      int64  `json:"to_ns"`
	Kind      string `json:"kind"` // "backward" or "forward"
	// Topic is "/clock" for clock jumps; for stamp jumps the topic, and
	// Link "parent->child" for a tf link.
	Topic string `json:"topic,omitempty"`
	Link  string `json:"link,omitempty"`
	// PrevLogTimeNS is, for a stamp jump, the record time of the message
	// before it in its series (0 for /clock jumps): the jump of the stamps
	// less the record time between the two messages is how far the clock
	// stepped. Not in the JSON contract.
	PrevLogTimeNS int64 `json:"-"`
}

// Stall is a stretch where /clock did not advance while record time did.
type Stall struct {
	StartLogNS int64 `json:"start_log_time_ns"`
	EndLogNS   int64 `json:"end_log_time_ns"`
	ClockNS    int64 `json:"clock_ns"`
	Messages   int   `json:"messages"`
}

// ClockRate is /clock against record time.
type ClockRate struct {
	Messages        int     `json:"messages"`
	FirstNS         int64   `json:"first_ns"`
	LastNS          int64   `json:"last_ns"`
	RealTimeFactor  float64 `json:"real_time_factor"`
	MedianTickNS    int64   `json:"median_tick_ns"`
	BeforeFirstScan bool    `json:"-"`
}

// ZeroStampSummary describes scans with header.stamp == 0.
type ZeroStampSummary struct {
	Count            int   `json:"count"`
	BeforeFirstClock int   `json:"before_first_clock"`
	FirstLogTimeNS   int64 `json:"first_log_time_ns"`
	LastLogTimeNS    int64 `json:"last_log_time_ns"`
	// Max and median cost: distance and rotation between the pose at the
	// scan's record time and the latest pose tf2 pairs a stamp-0 scan with.
	MaxDisplacementM    float64 `json:"max_displacement_m"`
	MedianDisplacementM float64 `json:"median_displacement_m"`
	MaxRotationDeg      float64 `json:"max_rotation_deg"`
	MedianRotationDeg   float64 `json:"median_rotation_deg"`
	// Costed counts the scans whose cost could be computed; the others
	// (Count − Costed) had no pose at their real time in the buffer.
	Costed int `json:"costed"`
}

// Skew is header stamp vs record time (and publish time) for one topic or
// tf link.
type Skew struct {
	Topic string `json:"topic"`
	Link  string `json:"link,omitempty"`
	Count int    `json:"count"`
	// Age = record time − header stamp, in seconds.
	MedianS float64 `json:"median_s"`
	P95S    float64 `json:"p95_s"`
	MaxS    float64 `json:"max_s"`
	MinS    float64 `json:"min_s"`
	// PublishMedianS is publish time − header stamp when MCAP had it.
	PublishMedianS float64 `json:"publish_median_s,omitempty"`
	// Kind: "constant_offset" (clock skew, check chrony), "jitter"
	// (latency), "different_clock" (stamps and record time on different
	// clock families, e.g. sim-time stamps recorded without --use-sim-time:
	// not a fault by itself) or "ok".
	Kind string `json:"kind"`
}

// TFLink is one edge of the tf tree as view_frames draws it.
type TFLink struct {
	Parent   string  `json:"parent"`
	Child    string  `json:"child"`
	Topic    string  `json:"topic"`
	Static   bool    `json:"static"`
	Count    int     `json:"count"`
	RateHz   float64 `json:"rate_hz"`
	OldestNS int64   `json:"oldest_ns"`
	NewestNS int64   `json:"newest_ns"`
	// DelayS is the median record time − stamp.
	DelayS float64 `json:"delay_s"`
}

// RosoutLine is a recorded /rosout line that matters here.
type RosoutLine struct {
	Index     uint64 `json:"index"`
	LogTimeNS int64  `json:"log_time_ns"`
	StampNS   int64  `json:"stamp_ns"`
	Node      string `json:"node"`
	Level     uint8  `json:"level"`
	Kind      string `json:"kind"` // "filter_drop" or "jump_back"
	Text      string `json:"text"`
	// Matched is true when bagclock predicted the same drop (same frame
	// and stamp text).
	Matched bool `json:"matched"`
}

// Skipped counts messages that could not be read or decoded on one topic.
type Skipped struct {
	Topic      string `json:"topic"`
	Count      int    `json:"count"`
	FirstError string `json:"first_error"`
}

// Point is one sample of a downsampled series for plots.
type Point struct {
	X float64 `json:"x"` // record time, seconds since bag start
	Y float64 `json:"y"`
	// Index, StampNS, Outcome and LogLine say which scan a diff point is,
	// so a plot readout can show the data behind it (zero elsewhere).
	Index   uint64 `json:"index,omitempty"`
	StampNS int64  `json:"stamp_ns,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	LogLine string `json:"log_line,omitempty"`
}

// OutcomePoint is one downsampled filter decision for plots.
type OutcomePoint struct {
	X       float64 `json:"x"`
	Outcome string  `json:"outcome"`
	Count   int     `json:"count"`
}

// Series holds bounded, downsampled data for the HTML plots.
type Series struct {
	// Diff is diff_s per (topic → target) over record time.
	Diff map[string][]Point `json:"diff"`
	// Clock is /clock seconds over record time.
	Clock []Point `json:"clock"`
	// Outcomes is filter outcomes over record time (bucketed counts).
	Outcomes []OutcomePoint `json:"outcomes"`
}

// Summary is the headline of a report.
type Summary struct {
	Verdict        string         `json:"verdict"`
	Scans          int            `json:"scans"`
	Rows           int            `json:"rows"`
	Classes        map[string]int `json:"classes"`
	Filter         map[string]int `json:"filter"`
	ZeroStampScans int            `json:"zero_stamp_scans"`
	ClockJumps     []ClockJump    `json:"clock_jumps"`
	Skipped        int            `json:"skipped_messages"`
	// Findings are the --fail-on categories of Report.Findings, once
	// each, in finding.Kinds order (finding.Categories).
	Findings []string `json:"findings"`
}

// Verdict is the one-sentence diagnosis, its evidence and the commands that
// confirm it on the robot.
type Verdict struct {
	// Class names what the headline is about: a row class
	// (laser_on_system_clock, ...), one of the Verdict* constants
	// (no_problem, no_tf, empty_frame_id, ...), or "tf_tree:" + a
	// TFFinding kind. Damage leads the sentence but not the class (see
	// Report.Damage).
	Class    string   `json:"class"`
	Sentence string   `json:"sentence"`
	Evidence []string `json:"evidence"`
	Commands []string `json:"commands"`
}

// BagSummary describes the analysed bag.
type BagSummary struct {
	Path                  string   `json:"path"`
	Storage               string   `json:"storage"`
	Files                 []string `json:"files"`
	SizeBytes             int64    `json:"size_bytes"`
	Messages              uint64   `json:"messages"`
	StartNS               int64    `json:"start_ns"`
	EndNS                 int64    `json:"end_ns"`
	MetadataReconstructed bool     `json:"metadata_reconstructed"`
	Problems              []string `json:"problems,omitempty"`
}

// Settings echoes the effective configuration.
type Settings struct {
	Consumer     string   `json:"consumer"`
	QueueSize    int      `json:"queue_size"`
	ToleranceS   float64  `json:"tolerance_s"`
	CacheTimeS   float64  `json:"cache_time_s"`
	ScanTopics   []string `json:"scan_topics"`
	TargetFrames []string `json:"target_frames"`
	// TargetNotes say why a default target is not odom (the sensor's
	// frame is odom, or odom is not in its tree): one per reason.
	TargetNotes []string `json:"target_notes,omitempty"`
	// TargetDecisions are the typed decisions TargetNotes render, in the
	// same order, for rules that need frame, root and reason.
	TargetDecisions []TargetDecision `json:"-"`
	SimTimeClear    bool             `json:"sim_time_clear"`
}

// Report is everything analyze found except the per-scan rows, which go to
// the sink as they are produced. Its size is bounded whatever the bag length.
type Report struct {
	Bag BagSummary `json:"bag"`
	// Nodes are the nodes the bag names (/parameter_events, /rosout) and
	// what it shows of their clocks.
	Nodes []NodeClock `json:"nodes,omitempty"`
	// Damage says how complete the bag is; it leads the verdict. Analyze
	// always sets it.
	Damage   *Damage  `json:"damage,omitempty"`
	Settings Settings `json:"settings"`
	Summary  Summary  `json:"summary"`
	Verdict  Verdict  `json:"verdict"`
	// Findings are every check's typed findings, most important first
	// (finding.Sort); Summary.Findings lists their kinds.
	Findings   []finding.Finding `json:"findings"`
	ClockJumps []ClockJump       `json:"clock_jumps"`
	StampJumps []ClockJump       `json:"stamp_jumps"`
	// LeadSteps are moves of a stamp series ahead of its record time at
	// once, too small for rcl's forward threshold (stampjumps.go): the
	// clock-step check joins those of several series into a step. Not in
	// the JSON contract.
	LeadSteps []ClockJump `json:"-"`
	// DeviceClocks are analysed topics stamped on a clock of their own in
	// a bag without /clock (devicetime.go). Not in the JSON contract: the
	// verdict and a clock-mismatch finding carry them.
	DeviceClocks []DeviceClock    `json:"-"`
	Stalls       []Stall          `json:"stalls"`
	ClockRate    *ClockRate       `json:"clock_rate,omitempty"`
	ZeroStamp    ZeroStampSummary `json:"zero_stamp"`
	Skew         []Skew           `json:"skew"`
	TFTree       []TFLink         `json:"tf_tree"`
	// TFFindings diagnose the tf tree itself, most important first.
	TFFindings []TFFinding  `json:"tf_findings"`
	Rosout     []RosoutLine `json:"rosout"`
	Skipped    []Skipped    `json:"skipped"`
	Series     Series       `json:"series"`
	// Pairs summarises each (scan topic, target frame) pair: the input of
	// the verdict.
	Pairs []PairSummary `json:"pairs"`
	// Counts of items found, beyond the kept lists' bounds.
	Counts Counts `json:"counts"`
	// Topics lists the topics the analysis read or left out, with why.
	Topics []TopicSummary `json:"topics"`
	// TimerClocks, ClockSteps, StuckZero and Ages are what the bag shows
	// of the clocks the nodes use: wall timers under sim time
	// (walltimer.go), system clock steps (clockstep.go), topics stuck at
	// time 0 (stuckzero.go), and each topic's age (age.go).
	TimerClocks []TimerClock `json:"timer_clocks"`
	// RealTimeFactorRange is /clock's real-time factor over 2 s windows
	// (absent without /clock or with fewer than three windows).
	RealTimeFactorRange *RealTimeFactorRange `json:"real_time_factor_range,omitempty"`
	ClockSteps          []ClockStep          `json:"clock_steps"`
	StuckZero           []StuckZero          `json:"stuck_zero"`
	Ages                []TopicAge           `json:"ages"`
	// LagFloor is the least lag of every system-time series behind record
	// time, when it is 20 ms or more: latency, or the stamping clock behind
	// (agelag.go); nil otherwise.
	LagFloor *LagFloor `json:"lag_floor,omitempty"`
	// Sync is every emulated message_filters synchronizer (synccheck.go).
	Sync []SyncSummary `json:"sync"`
	// Pass is what the verdict needs of the pass beyond the fields above.
	Pass PassFacts `json:"-"`
}

// PassFacts are facts of the pass the verdict rules read that the JSON
// contract does not carry (the report's other fields say them in other
// words, or not at all).
type PassFacts struct {
	// StartNS is the record time the bag starts at: the metadata's, or the
	// first message's when the metadata has none.
	StartNS int64
	// HasClock: /clock holds messages.
	HasClock bool
	// ClockSeen: a /clock value was decoded; ClockFirstNS and ClockLastNS
	// are the first and the last.
	ClockSeen                 bool
	ClockFirstNS, ClockLastNS int64
	// ParamEvents: /parameter_events holds messages (the node table could
	// have named a node's use_sim_time).
	ParamEvents bool
	// Publishers (ROS 1 bags): each topic's callerids in connection order,
	// which the verdict puts where it would guess the publisher.
	Publishers map[string][]string
}

// Topic roles in TopicSummary.Role.
const (
	TopicAnalysed    = "analysed"     // per-message rows (stamped sensor topic or --topic)
	TopicNotAnalysed = "not_analysed" // stamped but left out, or of a type bagclock cannot read
	// TopicRecordTime: a topic without a header, read for its record times
	// alone (its timer's clock, timer_clocks).
	TopicRecordTime = "record_time"
)

// TopicSummary is one topic as the analysis saw it: a role topic (tf,
// tf_static, clock, rosout, parameter_events), an analysed one, or one
// left out with the reason.
type TopicSummary struct {
	Topic string `json:"topic"`
	Type  string `json:"type"`
	Role  string `json:"role"`
	// Messages decoded (analysed topics) or recorded (the others, from
	// storage).
	Messages int `json:"messages"`
	// Consumer is the MessageFilter preset emulated for an analysed topic.
	Consumer string `json:"consumer,omitempty"`
	// NoFrame counts messages with an empty frame_id, which get no rows
	// (types other than the sensor types only).
	NoFrame int `json:"no_frame,omitempty"`
	// Reason says why a topic is not analysed.
	Reason string `json:"reason,omitempty"`
}

// PairSummary is one (scan topic, target frame) pair across the bag.
type PairSummary struct {
	Topic string `json:"topic"`
	// Type is the topic's message type; Consumer the preset emulated.
	Type        string         `json:"type"`
	Consumer    string         `json:"consumer"`
	TargetFrame string         `json:"target_frame"`
	FrameID     string         `json:"frame_id"`
	Classes     map[string]int `json:"classes"`
	Filter      map[string]int `json:"filter"`
	// MedianDiffS / MinDiffS / MaxDiffS over rows with a dynamic link.
	MedianDiffS float64 `json:"median_diff_s"`
	MinDiffS    float64 `json:"min_diff_s"`
	MaxDiffS    float64 `json:"max_diff_s"`
	// Stalest is the link most often stalest: "parent->child on topic".
	Stalest string `json:"stalest,omitempty"`
	// StalestParent, StalestChild and StalestTopic are Stalest's link as
	// data, for what words or compares it (the verdict), so that no one
	// splits Stalest's words; empty with it.
	StalestParent string `json:"-"`
	StalestChild  string `json:"-"`
	StalestTopic  string `json:"-"`
	// StartupDrops counts drops of messages stamped before the first
	// transform on their path (the sensor started before the tf tree):
	// kept in Filter, left out of the "drop" finding.
	StartupDrops int `json:"startup_drops"`
	// ResetDrops counts, of StartupDrops, the drops within one cache time
	// after a /clock jump back (simulator reset, looping bag): tf2 cleared
	// its buffer and the tree refills, a start-up again.
	ResetDrops int `json:"reset_drops"`

	// What the verdict needs of the pass and the JSON contract leaves out.

	// QueueSize is the emulated filter's queue.
	QueueSize int `json:"-"`
	// PathSeen: a row of this pair found a path to the target, so rows and
	// drops before it are start-up effects.
	PathSeen bool `json:"-"`
	// StartupRows counts rows without a path before the first path, or in
	// the refill after a /clock jump back; 0 when no path was ever seen.
	StartupRows int `json:"-"`
	// DiffRows counts rows with a dynamic link, those MedianDiffS is over.
	DiffRows int `json:"-"`
	// ConnectedAtEnd: the topic's tf tree joins FrameID, as the rows looked
	// it up, to the target once the whole bag is read.
	ConnectedAtEnd bool `json:"-"`
	// FrameConnectedAtEnd is ConnectedAtEnd for FrameID without a leading
	// '/', the frame the verdict names (they differ for "//laser").
	FrameConnectedAtEnd bool `json:"-"`
	// FrameRoot is the root of that frame's tree in the topic's tf at the
	// end of the bag ("" when no transform names the frame).
	FrameRoot string `json:"-"`
}

// Counts are totals; the lists in Report keep at most a bounded number.
type Counts struct {
	ClockJumps     int `json:"clock_jumps"`
	StampJumps     int `json:"stamp_jumps"`
	Stalls         int `json:"stalls"`
	RosoutLines    int `json:"rosout_lines"`
	PredictedDrops int `json:"predicted_drops"`
	MatchedDrops   int `json:"matched_drops"`
	BackwardJumps  int `json:"backward_jumps"`
	ClockMessages  int `json:"clock_messages"`
	// ClockSteps counts system clock steps (clock_steps keeps 100).
	ClockSteps int `json:"clock_steps"`
}
