package render

import (
	"math"
	"strconv"

	"github.com/bagclock/bagclock/analysis"
)

// The synthetic case: a 60 s simulation bag recorded on a machine whose
// system clock reads about 1.79e9 s. /clock starts 0.4 s into the
// recording and is looped once by `ros2 bag play --loop` at 30 s. The
// driver of /scan ignores use_sim_time (stamps ≈ system time), the driver
// of /scan_front follows /clock; its first two scans came before any
// /clock and carry stamp 0.
const (
	fxStart  = int64(1_790_000_000_123_000_000) // record time of the first message
	fxSystem = int64(1_790_000_000_000_000_000) // system clock at sim time 0
)

// fxSim is the simulated time at record offset t (seconds), with the loop.
func fxSim(t float64) float64 {
	if t >= 30 {
		return t - 30
	}
	return t
}

func s2ns(s float64) int64 { return int64(math.Round(s * 1e9)) }

// sampleRows returns a handful of rows covering every column shape: with
// and without tf, publish time and /clock, and a drop log line.
func sampleRows() []analysis.ScanRow {
	return []analysis.ScanRow{
		{Topic: "/scan_front", ScanIndex: 0, LogTimeNS: fxStart + 100_000_000, StampNS: 0,
			FrameID: "laser_front", TargetFrame: "odom", TFLatestNS: 0, HasTF: false,
			Class: analysis.ZeroStamp, FilterOutcome: "passed", FilterReason: "",
			FilterLogLine: ""},
		{Topic: "/scan", ScanIndex: 0, LogTimeNS: fxStart + 500_000_000, StampNS: fxSystem + 500_000_123,
			FrameID: "laser", TargetFrame: "odom", TFLatestNS: 450_000_000, HasTF: true,
			DiffS: float64(fxSystem+500_000_123-450_000_000) / 1e9, Class: analysis.LaserOnSystemClock,
			FilterOutcome: "dropped_queue_full", FilterReason: "discarding message because the queue is full",
			PublishTimeNS: fxStart + 499_000_000, HasPublishTime: true,
			ClockNS: 490_000_000, HasClock: true,
			AgeNS: fxStart + 500_000_000 - (fxSystem + 500_000_123), HasAge: true, // system-time stamp: record time
			StalestParent: "odom", StalestChild: "base_link", StalestTopic: "/tf",
			FilterWaitNS: 2_100_000_000, FilterWaitTF: 21,
			FilterLogLine: "Message Filter dropping message: frame 'laser' at time 1790000000.500 for reason 'discarding message because the queue is full'"},
		{Topic: "/scan_front", ScanIndex: 5, LogTimeNS: fxStart + 600_000_000, StampNS: 597_000_000,
			FrameID: "laser_front", TargetFrame: "odom", TFLatestNS: 595_000_000, HasTF: true,
			DiffS: 0.002, Class: analysis.SameClock, FilterOutcome: "passed_after_wait",
			ClockNS: 590_000_000, HasClock: true, AgeNS: -7_000_000, HasAge: true, // sim-time stamp: /clock
			StalestParent: "odom", StalestChild: "base_link", StalestTopic: "/tf",
			FilterWaitNS: 9_000_000, FilterWaitTF: 1},
		{Topic: "/scan_front", ScanIndex: 6, LogTimeNS: fxStart + 700_000_000, StampNS: 697_000_000,
			FrameID: "laser_front", TargetFrame: "map, \"quoted\"", TFLatestNS: 0, HasTF: false,
			Class: analysis.StaticOnly, FilterOutcome: "passed", ClockNS: 690_000_000, HasClock: true,
			AgeNS: -7_000_000, HasAge: true},
		{Topic: "/scan_front", ScanIndex: 599, LogTimeNS: fxStart + 59_900_000_000, StampNS: 29_897_000_000,
			FrameID: "laser_front", TargetFrame: "odom", TFLatestNS: 29_900_000_001, HasTF: true,
			DiffS: -0.003000001, Class: analysis.SameClock, FilterOutcome: "pending_at_end",
			ClockNS: 29_890_000_000, HasClock: true, AgeNS: -7_000_000, HasAge: true,
			StalestParent: "odom", StalestChild: "base_link", StalestTopic: "/tf"},
	}
}

// sampleReport is the bounded report that goes with sampleRows, with
// series as analysis would downsample them.
func sampleReport() *analysis.Report {
	const dur = 60.0
	r := &analysis.Report{
		Bag: analysis.BagSummary{Path: "testdata/bags/sim_laser_system_time", Storage: "mcap",
			Files: []string{"sim_laser_system_time_0.mcap"}, SizeBytes: 3_481_220, Messages: 14_823,
			StartNS: fxStart, EndNS: fxStart + s2ns(dur)},
		Settings: analysis.Settings{Consumer: "rviz", QueueSize: 10, ToleranceS: 0, CacheTimeS: 10,
			ScanTopics: []string{"/scan", "/scan_front"}, TargetFrames: []string{"odom"}, SimTimeClear: true},
		Summary: analysis.Summary{
			Verdict: "The laser driver publishes /scan with system time while tf follows /clock: set use_sim_time:=true on the node publishing /scan.",
			Scans:   1200, Rows: 1200,
			Classes:        map[string]int{"laser_on_system_clock": 600, "same_clock": 598, "zero_stamp": 2},
			Filter:         map[string]int{"dropped_queue_full": 600, "passed": 590, "passed_after_wait": 9, "pending_at_end": 1},
			ZeroStampScans: 2,
			ClockJumps: []analysis.ClockJump{{Index: 2960, LogTimeNS: fxStart + s2ns(30), FromNS: s2ns(29.99),
				ToNS: 0, Kind: "backward", Topic: "/clock"}},
			Skipped:  3,
			Findings: []string{"drop", "clock-mismatch", "jump", "zero-stamp"},
		},
		Verdict: analysis.Verdict{
			Class:    "laser_on_system_clock",
			Sentence: "The laser driver publishes /scan with system time while tf follows /clock: set use_sim_time:=true on the node publishing /scan.",
			Evidence: []string{
				"600 of 600 scans on /scan are 1.790e9 s ahead of odom → base_link (median), the distance from sim time to system time.",
				"All 600 were dropped by the filter: queue full, as RViz logs it.",
				"/scan_front, on the same bag, is within 3 ms of tf: the tf side follows /clock.",
			},
			Commands: []string{
				"ros2 param get /lidar_driver use_sim_time",
				"ros2 topic echo /scan --field header.stamp --once",
				"ros2 run tf2_ros tf2_echo odom base_link",
			},
		},
		ClockJumps: []analysis.ClockJump{{Index: 2960, LogTimeNS: fxStart + s2ns(30), FromNS: s2ns(29.99),
			ToNS: 0, Kind: "backward", Topic: "/clock"}},
		StampJumps: []analysis.ClockJump{{Index: 1480, LogTimeNS: fxStart + s2ns(30.01), FromNS: s2ns(29.98),
			ToNS: s2ns(0.01), Kind: "backward", Topic: "/tf", Link: "odom->base_link"}},
		Stalls: []analysis.Stall{{StartLogNS: fxStart + s2ns(44), EndLogNS: fxStart + s2ns(46.5),
			ClockNS: s2ns(14), Messages: 250}},
		ClockRate: &analysis.ClockRate{Messages: 5960, FirstNS: 0, LastNS: s2ns(29.99),
			RealTimeFactor: 0.96, MedianTickNS: 10_000_000},
		ZeroStamp: analysis.ZeroStampSummary{Count: 2, BeforeFirstClock: 2,
			FirstLogTimeNS: fxStart + 100_000_000, LastLogTimeNS: fxStart + 200_000_000,
			MaxDisplacementM: 0.042, MedianDisplacementM: 0.021, MaxRotationDeg: 1.8, MedianRotationDeg: 0.9},
		Skew: []analysis.Skew{
			{Topic: "/scan", Count: 600, MedianS: -1.789999999e9, P95S: -1.789999999e9, MaxS: -1.789999999e9,
				MinS: -1.79e9, PublishMedianS: -1.79e9, Kind: "constant_offset"},
			{Topic: "/scan_front", Count: 600, MedianS: 0.004, P95S: 0.009, MaxS: 0.031, MinS: 0.001, Kind: "jitter"},
			{Topic: "/tf", Link: "odom->base_link", Count: 3000, MedianS: 0.002, P95S: 0.004, MaxS: 0.011, MinS: 0.0005, Kind: "ok"},
		},
		TFTree: []analysis.TFLink{
			{Parent: "odom", Child: "base_link", Topic: "/tf", Count: 3000, RateHz: 50, OldestNS: 0, NewestNS: s2ns(29.98), DelayS: 0.002},
			{Parent: "base_link", Child: "laser", Topic: "/tf_static", Static: true, Count: 1},
			{Parent: "base_link", Child: "laser_front", Topic: "/tf_static", Static: true, Count: 1},
			{Parent: "map", Child: "odom", Topic: "/tf", Count: 300, RateHz: 5, OldestNS: 0, NewestNS: s2ns(29.8), DelayS: 0.03},
		},
		Pairs: []analysis.PairSummary{
			{Topic: "/scan", FrameID: "laser", TargetFrame: "odom"},
			{Topic: "/scan_front", FrameID: "laser_front", TargetFrame: "odom"},
		},
		Rosout: []analysis.RosoutLine{
			{Index: 12, LogTimeNS: fxStart + s2ns(2.6), StampNS: s2ns(2.58), Node: "rviz", Level: 30, Kind: "filter_drop",
				Text: "Message Filter dropping message: frame 'laser' at time 1790000000.500 for reason 'discarding message because the queue is full'", Matched: true},
			{Index: 301, LogTimeNS: fxStart + s2ns(30.02), StampNS: s2ns(0.02), Node: "rviz", Level: 30, Kind: "jump_back",
				Text: "Detected jump back in time. Clearing TF buffer.", Matched: false},
		},
		Skipped: []analysis.Skipped{{Topic: "/diagnostics", Count: 3, FirstError: "cdr: DiagnosticArray.status[2].values: need 4 bytes, have 1"}},
		Nodes: []analysis.NodeClock{
			{Node: "/laser_driver", UseSimTime: "false", UseSimTimeAtS: 0.4, StampClock: "system", ParameterEvents: 2},
			{Node: "/robot_state_publisher", UseSimTime: "true", UseSimTimeAtS: 0.6, StampClock: "sim", ParameterEvents: 3, RosoutLines: 1},
			{Node: "rviz", StampClock: "sim", RosoutLines: 2},
		},
	}
	// Series as analysis downsamples them: 10 Hz.
	r.Series.Diff = map[string][]analysis.Point{}
	for i := 0; i < 600; i++ {
		t := 0.5 + float64(i)*0.1
		if t > dur {
			break
		}
		sim := fxSim(t)
		// /scan points name their scan, as analysis fills them.
		stamp := fxSystem + s2ns(sim) + 123
		r.Series.Diff["/scan → odom"] = append(r.Series.Diff["/scan → odom"],
			analysis.Point{X: t, Y: float64(fxSystem)/1e9 + sim - (sim - 0.05), Index: uint64(2*i + 1), StampNS: stamp,
				Outcome: "dropped_queue_full",
				LogLine: "Message Filter dropping message: frame 'laser' at time " + formatNSAsSeconds(stamp) + " for reason 'discarding message because the queue is full'"})
		if i < 2 {
			r.Series.Diff["/scan_front → odom"] = append(r.Series.Diff["/scan_front → odom"],
				analysis.Point{X: 0.1 + float64(i)*0.1, Y: -sim})
			continue
		}
		r.Series.Diff["/scan_front → odom"] = append(r.Series.Diff["/scan_front → odom"],
			analysis.Point{X: t, Y: 0.002 + 0.0015*math.Sin(float64(i)/7)})
	}
	for i := 0; i < 600; i++ {
		t := 0.4 + float64(i)*0.1
		sim := fxSim(t) - 0.4
		if t >= 44 && t < 46.5 {
			sim = 14 - 0.4
		}
		if sim < 0 {
			sim = 0
		}
		r.Series.Clock = append(r.Series.Clock, analysis.Point{X: t, Y: sim})
	}
	for b := 0; b < 60; b++ {
		x := float64(b) + 0.5
		r.Series.Outcomes = append(r.Series.Outcomes,
			analysis.OutcomePoint{X: x, Outcome: "dropped_queue_full", Count: 10},
			analysis.OutcomePoint{X: x, Outcome: "passed", Count: 10 - b%3/2})
		if b%7 == 3 {
			r.Series.Outcomes = append(r.Series.Outcomes, analysis.OutcomePoint{X: x, Outcome: "passed_after_wait", Count: 1})
		}
	}
	return r
}

// hostile is the string planted in every bag-derived field.
const (
	hostileFrame = `<script>window.__xss=1</script>`
	hostileTopic = `"><img src=x onerror="window.__xss=2">`
	hostileKey   = `</script><script>window.__xss=3</script>`
	hostilePath  = `</title><script>window.__xss=4</script>`
)

// hostileReport plants script-bearing names everywhere a bag string shows.
func hostileReport() *analysis.Report {
	r := sampleReport()
	r.Bag.Path = hostilePath
	r.Bag.Files = []string{hostileFrame}
	r.Bag.Problems = []string{hostileTopic}
	r.Settings.ScanTopics = []string{hostileTopic}
	r.Settings.TargetFrames = []string{hostileFrame}
	r.Verdict.Sentence = "Frame " + hostileFrame + " on " + hostileTopic + " is on system time."
	r.Verdict.Evidence = append(r.Verdict.Evidence, hostileKey)
	r.Verdict.Commands = append(r.Verdict.Commands, "ros2 topic echo "+hostileTopic)
	r.Summary.Classes[hostileFrame] = 1
	r.Summary.Filter[hostileTopic] = 1
	r.Series.Diff[hostileKey] = r.Series.Diff["/scan → odom"]
	r.Series.Outcomes = append(r.Series.Outcomes, analysis.OutcomePoint{X: 3, Outcome: hostileFrame, Count: 2})
	r.ClockJumps = append(r.ClockJumps, analysis.ClockJump{Index: 1, LogTimeNS: fxStart, Kind: hostileFrame, Topic: hostileTopic})
	r.StampJumps[0].Link = hostileFrame
	r.Skew[0].Topic, r.Skew[0].Kind = hostileTopic, hostileFrame
	r.TFTree = append(r.TFTree, analysis.TFLink{Parent: "base_link", Child: hostileFrame, Topic: hostileTopic, Count: 3, RateHz: 1})
	r.Rosout[0].Node, r.Rosout[0].Text = hostileKey, hostileFrame
	r.Skipped[0].Topic, r.Skipped[0].FirstError = hostileTopic, "javascript:window.__xss=5"
	r.Nodes[0].Node, r.Nodes[1].StampClock = hostileKey, hostileFrame
	return r
}

// hourReport is a one-hour report whose series and tables were *not*
// bounded, to check that render bounds them itself.
func hourReport() *analysis.Report {
	r := sampleReport()
	const dur = 3600.0
	r.Bag.EndNS = fxStart + s2ns(dur)
	r.Series.Diff = map[string][]analysis.Point{}
	for k := 0; k < 20; k++ {
		name := "/scan_" + strconv.Itoa(k) + " → odom"
		pts := make([]analysis.Point, 0, 144_000)
		for i := 0; i < 144_000; i++ {
			t := float64(i) / 40
			// Every point names its scan and carries a drop log line, as
			// analysis fills them: the worst case for the page size.
			stamp := fxSystem + s2ns(t)
			pts = append(pts, analysis.Point{X: t, Y: 0.003 + 0.001*math.Sin(t) + float64(k), Index: uint64(i), StampNS: stamp,
				Outcome: "dropped_queue_full",
				LogLine: "Message Filter dropping message: frame 'laser_" + strconv.Itoa(k) + "' at time " + formatNSAsSeconds(stamp) + " for reason 'discarding message because the queue is full'"})
		}
		r.Series.Diff[name] = pts
	}
	r.Series.Clock = make([]analysis.Point, 0, 360_000)
	for i := 0; i < 360_000; i++ {
		t := float64(i) / 100
		r.Series.Clock = append(r.Series.Clock, analysis.Point{X: t, Y: math.Mod(t, 60)})
	}
	r.Series.Outcomes = nil
	for i := 0; i < 36_000; i++ {
		x := float64(i) / 10
		r.Series.Outcomes = append(r.Series.Outcomes,
			analysis.OutcomePoint{X: x, Outcome: "passed", Count: 3},
			analysis.OutcomePoint{X: x, Outcome: "dropped_queue_full", Count: 1})
	}
	r.ClockJumps = nil
	for i := 0; i < 60; i++ {
		r.ClockJumps = append(r.ClockJumps, analysis.ClockJump{Index: uint64(i * 6000), LogTimeNS: fxStart + s2ns(float64(i)*60),
			FromNS: s2ns(59.99), ToNS: 0, Kind: "backward", Topic: "/clock"})
	}
	r.StampJumps = nil
	for i := 0; i < 5000; i++ {
		r.StampJumps = append(r.StampJumps, analysis.ClockJump{Index: uint64(i), LogTimeNS: fxStart + s2ns(float64(i)*0.7),
			FromNS: s2ns(59.99), ToNS: 0, Kind: "backward", Topic: "/tf", Link: "odom->base_link"})
	}
	for i := 0; i < 3000; i++ {
		r.Stalls = append(r.Stalls, analysis.Stall{StartLogNS: fxStart + s2ns(float64(i)), EndLogNS: fxStart + s2ns(float64(i)+0.5), ClockNS: s2ns(float64(i)), Messages: 50})
		r.Rosout = append(r.Rosout, r.Rosout[0])
		r.TFTree = append(r.TFTree, analysis.TFLink{Parent: "base_link", Child: "f" + strconv.Itoa(i), Topic: "/tf_static", Static: true, Count: 1})
		r.Skew = append(r.Skew, r.Skew[1])
	}
	return r
}
