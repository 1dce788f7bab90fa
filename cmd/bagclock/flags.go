package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/finding"
	"github.com/bagclock/bagclock/analysis/msgfilter"
	"github.com/bagclock/bagclock/analysis/sync"
	"github.com/spf13/pflag"
)

// analysisFlagValues holds the flags shared by analyze and scan.
type analysisFlagValues struct {
	fs           *pflag.FlagSet
	topics       []string
	scanTopics   []string
	targetFrames []string
	consumer     string
	queueSize    int
	tolerance    float64
	cacheTime    float64
	jumpForward  float64
	jumpBackward float64
	rclpyBuffer  bool
	maxAge       float64
	failOn       []string
	sync         []string
	syncPolicy   string
	syncQueue    int
	syncInterval float64
	syncBounds   string
	syncPenalty  float64
}

// failOnKinds are the finding categories --fail-on accepts, in the order
// --help lists them: every finding kind (TestFailOnKinds holds them equal).
var failOnKinds = []string{string(finding.Drop), string(finding.ClockMismatch), string(finding.Jump),
	string(finding.ZeroStamp), string(finding.Skew), string(finding.Damage), string(finding.TFTree),
	string(finding.WallTimer), string(finding.ClockStep), string(finding.StuckZero), string(finding.Stale),
	string(finding.MissingLink), string(finding.Sync)}

// analysisFlags registers the analysis flags on fs.
func analysisFlags(fs *pflag.FlagSet) *analysisFlagValues {
	v := &analysisFlagValues{fs: fs}
	fs.StringArrayVar(&v.topics, "topic", nil, "topic to analyse, of any type with a std_msgs/Header (repeatable; default: every sensor topic: LaserScan, PointCloud2, Image, Imu, Range, Odometry, ...)")
	fs.StringArrayVar(&v.scanTopics, "scan-topic", nil, "LaserScan topic to analyse (repeatable; the older form of --topic)")
	fs.StringArrayVar(&v.targetFrames, "target-frame", nil, "target frame of the emulated consumer (repeatable; default: odom, or the root of the tree when the topic is in odom already or the bag has no odom; never overridden)")
	fs.StringVar(&v.consumer, "consumer", "rviz", "consumer whose tf2_ros::MessageFilter is emulated: rviz, slam_toolbox, nav2 (= nav2-amcl), or a preset: "+strings.Join(presetNames(), ", "))
	fs.IntVar(&v.queueSize, "queue-size", 0, "MessageFilter queue size; 0 = unbounded (default: the consumer's, e.g. 10 for rviz)")
	fs.Float64Var(&v.tolerance, "tolerance", 0, "MessageFilter tolerance in seconds (default: the consumer's)")
	fs.Float64Var(&v.cacheTime, "cache-time", 0, "tf buffer cache length in seconds (default: the consumer's: 10 s, 30 s for slam_toolbox)")
	fs.Float64Var(&v.jumpForward, "jump-min-forward", 0, "report /clock forward jumps of at least this many seconds (0 = auto: 10x the median tick, at least 1 s)")
	fs.Float64Var(&v.jumpBackward, "jump-min-backward", 0, "report /clock backward jumps of at least this many seconds (0 = any backward step, as tf2_ros::Buffer reacts; for steps of record time, 0 means 0.1 s: recorders reorder by a few ms)")
	fs.Float64Var(&v.maxAge, "max-age", float64(analysis.DefaultMaxAgeNS)/1e9, "age in seconds (record time, or /clock for sim-time stamps, minus header.stamp) above which a message is stale")
	fs.BoolVar(&v.rclpyBuffer, "rclpy-buffer", false, "emulate rclpy's tf buffer, which does not clear on a backward /clock jump (geometry2#606)")
	fs.StringArrayVar(&v.sync, "sync", nil, "emulate a message_filters synchronizer over these 2 to 9 stamped topics, comma-separated (repeatable; default: each image with its camera_info, each depth with its colour image)")
	fs.StringVar(&v.syncPolicy, "sync-policy", "approximate", "policy of the --sync synchronizers: approximate (ApproximateTime) or exact (ExactTime)")
	fs.IntVar(&v.syncQueue, "sync-queue", 10, "queue size of the --sync synchronizers")
	fs.Float64Var(&v.syncInterval, "sync-max-interval", 0, "ApproximateTime's max interval duration in seconds for --sync (default: none, the library's)")
	fs.StringVar(&v.syncBounds, "sync-lower-bound", "", "ApproximateTime's inter-message lower bounds in seconds for --sync: one for every topic, or one per topic, comma-separated (default: 0)")
	fs.Float64Var(&v.syncPenalty, "sync-age-penalty", sync.DefaultAgePenalty, "ApproximateTime's age penalty for --sync")
	fs.StringSliceVar(&v.failOn, "fail-on", nil, "exit 1 when any of these were found: "+strings.Join(failOnKinds, ", ")+" (comma-separated)")
	budgetFlag(fs)
	return v
}

// config turns the flags into an analysis.Config, rejecting bad values.
func (v *analysisFlagValues) config() (analysis.Config, error) {
	cfg := analysis.Config{
		Topics:       v.topics,
		ScanTopics:   v.scanTopics,
		TargetFrames: v.targetFrames,
		Consumer:     v.consumer,
		RclpyBuffer:  v.rclpyBuffer,
	}
	if _, preset := msgfilter.Presets[v.consumer]; !preset && !contains([]string{"rviz", "slam_toolbox", "nav2"}, v.consumer) {
		return cfg, fmt.Errorf("--consumer %q: want rviz, slam_toolbox, nav2 or one of %s", v.consumer, strings.Join(presetNames(), ", "))
	}
	if v.fs.Changed("queue-size") {
		if v.queueSize < 0 {
			return cfg, fmt.Errorf("--queue-size %d: must be >= 0", v.queueSize)
		}
		cfg.QueueSize, cfg.SetQueueSize = v.queueSize, true
	}
	if v.fs.Changed("tolerance") {
		if v.tolerance < 0 {
			return cfg, fmt.Errorf("--tolerance %g: must be >= 0", v.tolerance)
		}
		cfg.ToleranceS, cfg.SetTolerance = v.tolerance, true
	}
	if v.fs.Changed("cache-time") {
		if v.cacheTime <= 0 {
			return cfg, fmt.Errorf("--cache-time %g: must be > 0", v.cacheTime)
		}
		cfg.CacheTimeS, cfg.SetCacheTime = v.cacheTime, true
	}
	if v.jumpForward < 0 {
		return cfg, fmt.Errorf("--jump-min-forward %g: must be >= 0", v.jumpForward)
	}
	cfg.JumpMinForwardNS = int64(v.jumpForward * 1e9)
	// Accept either sign for the backward threshold; rcl wants it <= 0.
	b := v.jumpBackward
	if b > 0 {
		b = -b
	}
	cfg.JumpMinBackwardNS = int64(b * 1e9)
	if !(v.maxAge > 0) {
		return cfg, fmt.Errorf("--max-age %g: must be > 0", v.maxAge)
	}
	cfg.MaxAgeNS = int64(v.maxAge * 1e9)
	specs, err := v.syncSpecs()
	if err != nil {
		return cfg, err
	}
	cfg.Sync = specs
	for _, k := range v.failOn {
		if !contains(failOnKinds, k) {
			return cfg, fmt.Errorf("--fail-on %q: want some of %s", k, strings.Join(failOnKinds, ","))
		}
	}
	return cfg, nil
}

// syncSpecs turns --sync and its policy flags into synchronizers; nil
// without --sync (the analysis then picks the bag's defaults).
func (v *analysisFlagValues) syncSpecs() ([]analysis.SyncSpec, error) {
	for _, f := range []string{"sync-policy", "sync-queue", "sync-max-interval", "sync-lower-bound", "sync-age-penalty"} {
		if v.fs.Changed(f) && len(v.sync) == 0 {
			return nil, fmt.Errorf("--%s applies to --sync synchronizers: name their topics with --sync TOPIC,TOPIC", f)
		}
	}
	if len(v.sync) == 0 {
		return nil, nil
	}
	if v.syncPolicy != "approximate" && v.syncPolicy != "exact" {
		return nil, fmt.Errorf("--sync-policy %q: want approximate or exact", v.syncPolicy)
	}
	if v.syncQueue < 1 {
		return nil, fmt.Errorf("--sync-queue %d: must be >= 1", v.syncQueue)
	}
	if v.syncInterval < 0 || v.syncInterval != v.syncInterval {
		return nil, fmt.Errorf("--sync-max-interval %g: must be >= 0", v.syncInterval)
	}
	for _, f := range []string{"sync-max-interval", "sync-lower-bound", "sync-age-penalty"} {
		if v.fs.Changed(f) && v.syncPolicy == "exact" {
			return nil, fmt.Errorf("--%s applies to --sync-policy approximate only (ExactTime pairs equal stamps)", f)
		}
	}
	if !(v.syncPenalty >= 0) || math.IsInf(v.syncPenalty, 0) {
		return nil, fmt.Errorf("--sync-age-penalty %g: must be a finite number >= 0", v.syncPenalty)
	}
	bounds, err := parseLowerBounds(v.syncBounds)
	if err != nil {
		return nil, err
	}
	var out []analysis.SyncSpec
	for _, g := range v.sync {
		var names []string
		for _, n := range strings.Split(g, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		if len(names) < 2 || len(names) > 9 {
			return nil, fmt.Errorf("--sync %q: a message_filters synchronizer takes 2 to 9 topics, comma-separated", g)
		}
		sp := analysis.SyncSpec{Topics: names, Policy: v.syncPolicy, QueueSize: v.syncQueue, MaxIntervalS: v.syncInterval, Source: "--sync"}
		if v.fs.Changed("sync-age-penalty") {
			p := v.syncPenalty
			sp.AgePenalty = &p
		}
		switch {
		case len(bounds) == 1:
			for range names {
				sp.LowerBoundsS = append(sp.LowerBoundsS, bounds[0])
			}
		case len(bounds) > 1 && len(bounds) != len(names):
			return nil, fmt.Errorf("--sync-lower-bound has %d values for the %d topics of --sync %q: give one for every topic, or one per topic", len(bounds), len(names), g)
		case len(bounds) > 1:
			sp.LowerBoundsS = bounds
		}
		out = append(out, sp)
	}
	if err := analysis.ValidateSync(out); err != nil {
		return nil, fmt.Errorf("--sync: %w", err)
	}
	return out, nil
}

// parseLowerBounds reads --sync-lower-bound: seconds, comma-separated,
// each >= 0; nil when the flag is empty.
func parseLowerBounds(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		b, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(b >= 0) || math.IsInf(b, 0) {
			return nil, fmt.Errorf("--sync-lower-bound %q: want seconds >= 0, comma-separated", s)
		}
		out = append(out, b)
	}
	return out, nil
}

// presetNames lists msgfilter's consumer presets, sorted.
func presetNames() []string {
	names := make([]string, 0, len(msgfilter.Presets))
	for n := range msgfilter.Presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// findingsMatch reports whether the report found anything named in failOn.
func findingsMatch(rep *analysis.Report, failOn []string) bool {
	if rep == nil {
		return false
	}
	for _, f := range rep.Summary.Findings {
		if contains(failOn, f) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// alias makes --name another spelling of the flag --to, so -o, --out and
// --output mean the same on every command (a directory for scan and merge,
// a file for analyze). Flags are looked up through it as they are parsed.
func alias(fs *pflag.FlagSet, name, to string) {
	prev := fs.GetNormalizeFunc()
	fs.SetNormalizeFunc(func(f *pflag.FlagSet, n string) pflag.NormalizedName {
		if n == name {
			return pflag.NormalizedName(to)
		}
		return prev(f, n)
	})
}
