package analysis

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bagclock/bagclock/analysis/msgfilter"
	"github.com/bagclock/bagclock/bagread"
)

// Thresholds of the per-scan classes. They are exported so that render and
// README can quote them.
const (
	// EpochThresholdNS: |diff| at or above this (≈ 3.2 years) means the scan
	// and the tf link are on different clock families: one on system time
	// (≈ 1.79e9 s in 2026), the other on /clock (sim time, minutes to days).
	// No simulation runs for years and no two synchronised machines drift
	// that far, so nothing else reaches it.
	EpochThresholdNS = int64(100_000_000) * 1_000_000_000
	// ClockSkewThresholdNS: |diff| at or above this (1 s) on the same clock
	// family is clock_skew. Below it lie transport latency and the period of
	// the stalest tf publisher (20 ms for 50 Hz odometry, 200 ms for a 5 Hz
	// one). 1 s is also where tf2_ros::MessageFilter starts to drop: a scan
	// stamped 1 s ahead of tf waits 1 s, longer than the RViz queue of 10
	// scans lasts at 10-20 Hz. The cache length (10 s by default) is the
	// second boundary, quoted in the verdict: a scan more than cache_time
	// behind tf is dropped at once (OutTheBack), one less far behind still
	// transforms.
	ClockSkewThresholdNS = int64(1_000_000_000)
	// StallMinNS is the shortest record-time stretch without /clock
	// progress reported as a stall.
	StallMinNS = int64(1_000_000_000)
)

// Bounds on what a report keeps whatever the bag length; counts stay exact.
const (
	maxJumpsKept     = 1000
	maxStallsKept    = 200
	maxRosoutKept    = 500
	maxPredictedKept = 20000
	maxZeroPending   = 64
)

const (
	topicTF       = "/tf"
	topicTFStatic = "/tf_static"
	topicClock    = "/clock"
	topicRosout   = "/rosout"
)

// consumerPresets maps Config.Consumer to a msgfilter preset name.
var consumerPresets = map[string]string{
	"":             "rviz-laserscan",
	"rviz":         "rviz-laserscan",
	"slam_toolbox": "slam_toolbox",
	// AMCL is the Nav2 node that subscribes every scan through a
	// MessageFilter whatever the costmap setup; "nav2-obstacle-layer"
	// (queue 50, tolerance 50 ms) can be asked for by its preset name.
	"nav2": "nav2-amcl",
}

func resolvePreset(name string) (msgfilter.Preset, error) {
	key, ok := consumerPresets[name]
	if !ok {
		key = name
	}
	p, ok := msgfilter.Presets[key]
	if !ok {
		return p, fmt.Errorf("unknown consumer %q: want rviz, slam_toolbox or nav2", name)
	}
	return p, nil
}

func isType(typ, want string) bool {
	if typ == want {
		return true
	}
	// Pre-Dashing bags spell types without "/msg/".
	return strings.Replace(want, "/msg/", "/", 1) == typ
}

// Analyze replays bag and streams rows to sink (which may be nil).
//
// The report comes back without a verdict (Report.Verdict and
// Summary.Verdict empty): the caller decides it from the finished report
// (package analysis/verdict), so that data flows analysis → verdict.
//
// One pass over the bag in record order (after a short look-ahead over the
// first seconds of /tf and /tf_static that picks default target frames);
// memory is bounded by the tf cache window, the filters' queues and fixed
// size summaries, never by the bag length. A message that cannot be read or
// decoded is counted in Report.Skipped and the pass goes on; only a fatal
// read error or a sink error ends it, and the partial report is returned
// with the error.
func Analyze(bag *bagread.Bag, cfg Config, sink ScanSink) (*Report, error) {
	if bag == nil {
		return nil, errors.New("nil bag")
	}
	a, err := newAnalyzer(bag, cfg, sink)
	if err != nil {
		return nil, err
	}
	lookAhead := len(cfg.TargetFrames) == 0 && len(a.scanTopics) > 0
	if lookAhead && cfg.Sequential {
		a.lookAheadTF()
		lookAhead = false
	}
	err = a.run(lookAhead)
	rep := a.finish()
	if bag.Storage == bagread.StorageROS1 {
		ros1Publishers(rep, bag)
	}
	assessDamage(rep, bag)
	// finish hands the filters' last rows to the sink: its error counts
	// as much as one during the pass.
	if err == nil && a.rows.sinkErr != nil {
		err = fmt.Errorf("writing row: %w", a.rows.sinkErr)
	}
	if err != nil {
		return rep, err
	}
	return rep, nil
}
