package analysis

// Config selects what Analyze looks at and which consumer it emulates. The
// zero value analyses every sensor topic (LaserScan, PointCloud2, Image,
// Imu, Range, Odometry, ...: see sensortypes.go) against odom (or the root
// of the sensor frame's tree) as RViz would, with tf2's defaults.
type Config struct {
	// Topics lists the topics to analyse: any type whose messages start
	// with std_msgs/Header. With ScanTopics nil too, every sensor topic is
	// analysed.
	Topics []string
	// ScanTopics lists LaserScan topics to analyse (the older --scan-topic;
	// joined with Topics).
	ScanTopics []string
	// TargetFrames; nil means odom when the tree has it, else the root of
	// the scan frame's tree, and that root when the frame is odom with a
	// dynamic link above it (Settings.TargetNotes says so).
	TargetFrames []string
	// Consumer is a msgfilter preset name: "rviz" (default),
	// "slam_toolbox" or "nav2".
	Consumer string
	// QueueSize, ToleranceS and CacheTimeS override the preset when >= 0
	// (a preset's cache is tf.DefaultCacheTimeNS unless it sets its own);
	// use -1 (or leave Set* false) to keep the preset.
	QueueSize    int
	SetQueueSize bool
	ToleranceS   float64
	SetTolerance bool
	CacheTimeS   float64
	SetCacheTime bool
	// JumpMinForwardNS (>= 0, 0 = auto: 10× the median /clock tick, at
	// least DefaultJumpMinForwardNS) and JumpMinBackwardNS (<= 0, 0 = any backward step) follow
	// rcl_jump_threshold_t.
	JumpMinForwardNS  int64
	JumpMinBackwardNS int64
	// MaxAgeNS is the age (reference clock − stamp) above which a message
	// counts as stale; 0 means DefaultMaxAgeNS (0.5 s).
	MaxAgeNS int64
	// RclpyBuffer emulates rclpy's buffer, which does not clear on a
	// backward jump of /clock (geometry2#606); default is tf2_ros::Buffer,
	// which does.
	RclpyBuffer bool
	// Sequential analyses on the caller's goroutine only. By default the
	// bag is read and decoded on a second goroutine while the analysis
	// runs; a caller already running one bag per core (scan -j) sets
	// this, and should open the bag with bagread.Options.Sequential too.
	Sequential bool
	// Sync lists the message_filters synchronizers to emulate (--sync);
	// nil means the ones the bag's topics suggest (syncdefaults.go):
	// image + camera_info pairs, depth + colour cameras.
	Sync []SyncSpec
	// Progress, when set, is called now and then with bytes of storage read
	// so far (for progress bars).
	Progress func(done int64)
}

// ScanSink receives each (scan, target) row as soon as it is final. The row
// is reused after the call returns.
type ScanSink func(*ScanRow) error

// SyncSpec is one synchronizer to emulate: 2 to 9 stamped topics and the
// message_filters policy that pairs them.
type SyncSpec struct {
	Topics []string
	// Policy is "approximate" (sync_policies::ApproximateTime) or "exact"
	// (sync_policies::ExactTime).
	Policy string
	// QueueSize is the policy's queue_size (at least 1).
	QueueSize int
	// MaxIntervalS is ApproximateTime's max interval duration in seconds;
	// 0 leaves the library's default (no limit).
	MaxIntervalS float64
	// LowerBoundsS are ApproximateTime's inter-message lower bounds in
	// seconds, one per topic; nil leaves the library's 0 for each.
	LowerBoundsS []float64
	// AgePenalty is ApproximateTime's age penalty; nil leaves the
	// library's default (sync.DefaultAgePenalty).
	AgePenalty *float64
	// Source says where the configuration comes from ("--sync", or the
	// consumer a default emulates).
	Source string
}
