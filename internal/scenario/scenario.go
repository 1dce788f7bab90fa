// Package scenario generates deterministic rosbag2 recordings of the clock
// situations bagclock diagnoses: laser and tf on /clock, both on system
// time, one of them on the wrong clock, a laser that never got /clock,
// /clock looping or reset, two machines seconds apart, a static-only path.
//
// Each case is a Spec (rates, frames, which clock each publisher uses);
// Spec.Truth derives, from the spec alone, what an analysis must find, and
// the package's tests check the generated messages against it. The bytes
// are CDR from package cdr; bags are written through internal/bagwrite.
package scenario

import (
	"fmt"
	"math"
	"time"
)

// Case names.
const (
	BothSim          = "both_sim"            // laser and tf follow /clock
	BothSystem       = "both_system"         // a real robot: no /clock, all on system time
	LaserSystemTFSim = "laser_system_tf_sim" // laser driver ignores use_sim_time
	LaserSimTFSystem = "laser_sim_tf_system" // a tf publisher ignores use_sim_time
	LaserZeroStamp   = "laser_zero_stamp"    // laser on sim time but never got /clock: stamp 0
	ClockLoop        = "clock_loop"          // ros2 bag play --loop: /clock restarts every period
	SimReset         = "sim_reset"           // simulator reset: /clock back to near 0
	Skew2500ms       = "skew_2_5s"           // two machines 2.5 s apart on system time
	StaticOnly       = "static_only"         // scan path has only static links
	Demo             = "demo"                // laser on system time and a sim reset, with /rosout
	TFDetectorSystem = "tf_detector_system"  // tree on /clock, a detector broadcasting on system time
	TFOffsetDays     = "tf_offset_days"      // robot 4.8 days behind the recorder, map->odom 100 s stale
	TFStaticConflict = "tf_static_conflict"  // a second static publisher moves the laser mount 8 cm
	Large            = "large"               // the benchmark bag (both on /clock, 600 s)
)

// Class names, as analysis reports them (analysis.Class values).
const (
	ClassSameClock          = "same_clock"
	ClassLaserOnSystemClock = "laser_on_system_clock"
	ClassTFOnSystemClock    = "tf_on_system_clock"
	ClassZeroStamp          = "zero_stamp"
	ClassClockSkew          = "clock_skew"
	ClassStaticOnly         = "static_only"
	ClassNoTransform        = "no_transform"
)

// Clock is the time source a publisher stamps its messages with.
type Clock int

const (
	// ClockSim is ROS time from /clock: the last /clock value received.
	ClockSim Clock = iota
	// ClockSystem is the publishing machine's system clock.
	ClockSystem
	// ClockZero is a node with use_sim_time that never received /clock:
	// now() returns 0.
	ClockZero
)

func (c Clock) String() string {
	switch c {
	case ClockSim:
		return "sim"
	case ClockSystem:
		return "system"
	case ClockZero:
		return "zero"
	}
	return fmt.Sprintf("Clock(%d)", int(c))
}

// Publisher is one node's clock: its source, and for ClockSystem how far
// its machine's clock is ahead of the recorder's.
type Publisher struct {
	Clock    Clock
	OffsetNS int64
}

// Spec describes one recording. Times are relative to the start of
// recording unless named *NS (absolute nanoseconds).
type Spec struct {
	Name string
	// Duration of the recording.
	Duration time.Duration
	// Rates in Hz. ClockHz 0 records no /clock; TFHz 0 records no /tf
	// (only /tf_static).
	ScanHz, TFHz, ClockHz float64
	// Ranges per scan; Intensities adds as many intensities.
	Ranges      int
	Intensities bool
	// Frames: OdomFrame -> BaseFrame dynamic on /tf, BaseFrame ->
	// LaserFrame static on /tf_static; scans use LaserFrame.
	OdomFrame, BaseFrame, LaserFrame string
	// Laser and TF say which clock the laser driver and the tf publishers
	// (odometry and static broadcaster) stamp with.
	Laser, TF Publisher
	// SimStartNS is the /clock value when recording starts (120 s).
	SimStartNS int64
	// SystemStartNS is the recorder's system time when recording starts;
	// record times (sqlite timestamp, MCAP log_time) are on this clock.
	SystemStartNS int64
	// RealTimeFactor of the simulator (sim seconds per second); 0 means 1.
	RealTimeFactor float64
	// LoopPeriod > 0 makes /clock (and everything stamped from it) start
	// over every LoopPeriod, as ros2 bag play --loop of a bag that long.
	LoopPeriod time.Duration
	// ResetAt > 0 resets the simulator at that time: /clock jumps back to
	// ResetToNS and the robot to its start pose.
	ResetAt   time.Duration
	ResetToNS int64
	// Rosout records /rosout with what a consumer (RViz, queue
	// RosoutQueueSize) logs: "Message Filter dropping message" lines for
	// the scans a clock mismatch drops, and "Detected jump back in time"
	// on each backward /clock jump.
	Rosout bool
	// Sensors adds, beside the laser, a PointCloud2 lidar (LidarHz), an
	// Imu (ImuHz) and a camera Image (CameraHz), stamped with the laser
	// driver's clock (one machine, one clock setting for all drivers),
	// each with a static link from BaseFrame.
	Sensors bool
	// Namespace puts the robot's topics under it ("/robot1" records
	// /robot1/tf, /robot1/tf_static, /robot1/scan, ...); /clock and
	// /rosout stay global.
	Namespace string
	// NoSlash names the tf topics "tf" and "tf_static", without the
	// leading slash (as some recorders and rosbags conversions do).
	NoSlash bool

	// Faults of the tf tree alone, each an extra publisher on the tf
	// topics. Detector, when set, broadcasts BaseFrame -> DetectorFrame on
	// /tf at DetectorHz stamped with its own clock. MapLag > 0 adds a
	// localiser publishing map -> OdomFrame at MapHz, stamped with the tf
	// publishers' clock minus MapLag. StaticConflictM > 0 adds a second
	// static publisher that republishes BaseFrame -> LaserFrame halfway
	// through the recording, that many metres further along x.
	Detector        *Publisher
	MapLag          time.Duration
	StaticConflictM float64

	// The verdict cases (VerdictNames) use these.

	// NoTF records neither /tf nor /tf_static: a bag of sensors alone.
	NoTF bool
	// ClockNotRecorded: publishers on ClockSim follow a /clock that runs
	// (at ClockHz) but is not in the bag (recorded without /clock).
	ClockNotRecorded bool
	// StaticLinks adds that many static links base_link->static_<i> to
	// the /tf_static message, stamped with StaticClock (a robot
	// description published by a node on another clock).
	StaticLinks int
	StaticClock Publisher
	// TFStart delays /tf and /tf_static: scans published before the tree
	// exists are start-up drops.
	TFStart time.Duration
	// Replayer records one /rosout line of rosbag2_player (the recording
	// was made while a bag was replayed).
	Replayer bool
	// TFPause silences /tf for this long after ResetAt: the odometry
	// restarts with the simulator, later than the sensors.
	TFPause time.Duration
	// Odometry records /odom (nav_msgs/Odometry in OdomFrame) from the
	// odometry node, on the tf publishers' clock. Localiser adds AMCL's
	// map -> OdomFrame on /tf at MapHz, stamped 1 s ahead (its default
	// transform_tolerance).
	Odometry, Localiser bool
	// LaserMount, when set, is the parent of LaserFrame on /tf_static
	// instead of BaseFrame: a frame no transform connects to the robot
	// (a URDF joint missing), so the scans never reach odom.
	LaserMount string
	// Replayed: the publishers' offsets are the age of a replayed
	// recording, not their machines' clocks: messages are sent on the
	// recorder's clock (publish_time = record time − latency).
	Replayed bool

	// Camera, when set, records an RGB-D camera (camera.go): colour image,
	// its camera_info and a depth image, the sync cases' subject.
	Camera *CameraRig

	// Noise, when set, adds a real robot's imperfections (noise.go). The
	// counts of Truth hold only without it (lost messages, a backlog);
	// the class holds unless Noise steps a clock.
	Noise *Noise
}

// Verdict case names: situations the verdict must word right, beyond the
// clock cases.
const (
	StartupDrop     = "startup_drop"      // laser starts 600 ms before tf: start-up drops only
	SimWallRecorder = "sim_wall_recorder" // every publisher on /clock, recorder on wall time
	SimNoClock      = "sim_no_clock"      // sim-time stamps, /clock not recorded
	NoTFBag         = "no_tf"             // sensors without any tf
	ManyStatic      = "many_static"       // 59 static links stamped on system time in a sim bag
	ReRecorded      = "re_recorded"       // stamps 30 days behind record time, rosbag2_player in /rosout
	ResetRefill     = "reset_refill"      // sim reset, /tf back 600 ms later: start-up drops after the reset
	ResetTFLate     = "reset_tf_late"     // sim reset, /tf back 12 s later: drops past the 10 s cache window count
	OdomUnderMap    = "odom_under_map"    // /odom in odom, AMCL's map -> odom above it: checked against map
	MissingLink     = "missing_link"      // laser hangs off laser_mount, which nothing connects to base_link
	ReRecordedQuiet = "re_recorded_quiet" // re_recorded without the rosbag2_player line: publish times tell
)

// VerdictNames lists the verdict cases in a fixed order.
func VerdictNames() []string {
	return []string{StartupDrop, SimWallRecorder, SimNoClock, NoTFBag, ManyStatic, ReRecorded, ResetRefill, ResetTFLate, OdomUnderMap, MissingLink, ReRecordedQuiet}
}

// Rates and frames of the extra sensors of Spec.Sensors and the tf-tree
// publishers.
const (
	DetectorHz    = 10
	DetectorFrame = "object_1"
	MapHz         = 2
	MapFrame      = "map"

	LidarHz     = 10
	ImuHz       = 100
	CameraHz    = 15
	LidarFrame  = "lidar"
	ImuFrame    = "imu_link"
	CameraFrame = "camera_optical"
)

// TopicName is the name a spec records the topic base (one of the Topic*
// constants) under: in its Namespace, or without the slash for tf topics
// when NoSlash.
func (s Spec) TopicName(base string) string {
	switch {
	case base == TopicClock || base == TopicRosout:
		return base
	case s.Namespace != "":
		return s.Namespace + base
	case s.NoSlash && (base == TopicTF || base == TopicTFStatic):
		return base[1:]
	}
	return base
}

// Default epochs: sim time starts at 120 s, system time at a fixed
// instant in 2026 (~1.79e9 s) so every generated bag is identical.
const (
	DefaultSimStartNS    = int64(120 * time.Second)
	DefaultSystemStartNS = int64(1_790_000_000*time.Second) + 250_000_000
	// RosoutQueueSize is the MessageFilter queue of the consumer whose
	// log lines Rosout records (RViz's LaserScan display default).
	RosoutQueueSize = 10
)

// Phases inside each period, so that streams do not tick at the same
// instant (and record order is unambiguous).
const (
	scanPhaseNS     = 3_000_000
	tfPhaseNS       = 1_000_000
	staticPhaseNS   = 500_000
	imuPhaseNS      = 2_000_000
	lidarPhaseNS    = 4_000_000
	cameraPhaseNS   = 5_000_000
	detectorPhaseNS = 6_000_000
	mapPhaseNS      = 7_000_000
)

// base returns the spec every case starts from: 30 s, 20 Hz scans of 360
// ranges, 50 Hz tf, 100 Hz /clock, everything on /clock.
func base(name string) Spec {
	return Spec{
		Name: name, Duration: 30 * time.Second,
		ScanHz: 20, TFHz: 50, ClockHz: 100, Ranges: 360,
		OdomFrame: "odom", BaseFrame: "base_link", LaserFrame: "laser",
		SimStartNS: DefaultSimStartNS, SystemStartNS: DefaultSystemStartNS,
	}
}

// Names lists the clock cases (not Demo or Large) in a fixed order.
func Names() []string {
	return []string{BothSim, BothSystem, LaserSystemTFSim, LaserSimTFSystem, LaserZeroStamp,
		ClockLoop, SimReset, Skew2500ms, StaticOnly}
}

// TreeNames lists the tf-tree cases: faults of the tree alone, the scans
// on the tree's clock (Truth.TFFindings says what the tree check finds).
func TreeNames() []string {
	return []string{TFDetectorSystem, TFOffsetDays, TFStaticConflict}
}

// Get returns the named case (any of Names, Demo or Large) at its full
// size.
func Get(name string) (Spec, error) {
	s := base(name)
	sys := Publisher{Clock: ClockSystem}
	switch name {
	case BothSim:
	case BothSystem:
		s.ClockHz = 0
		s.Laser, s.TF = sys, sys
	case LaserSystemTFSim:
		s.Laser = sys
		s.Rosout = true
	case LaserSimTFSystem:
		s.TF = sys
		s.Rosout = true
	case LaserZeroStamp:
		s.Laser = Publisher{Clock: ClockZero}
	case ClockLoop:
		s.LoopPeriod = 10 * time.Second
		s.Rosout = true
	case SimReset:
		s.ResetAt = 15 * time.Second
		s.ResetToNS = 500_000_000
		s.Rosout = true
	case Skew2500ms:
		s.ClockHz = 0
		s.Laser = Publisher{Clock: ClockSystem, OffsetNS: 2_500_000_000}
		s.TF = sys
	case StaticOnly:
		s.TFHz = 0
		s.Laser = sys
	case Demo:
		s.Duration = 10 * time.Second
		s.Ranges = 90
		s.Laser = sys
		s.ResetAt = 6 * time.Second
		s.ResetToNS = 500_000_000
		s.Rosout = true
	case TFDetectorSystem:
		s.Detector = &sys
	case TFOffsetDays:
		// Two machines, no time sync: the robot's clock (laser and tf) is
		// 4.8 days behind the recorder's; its localiser's map->odom is a
		// further 100 s stale.
		s.ClockHz = 0
		behind := Publisher{Clock: ClockSystem, OffsetNS: -int64(4.8 * 86400 * 1e9)}
		s.Laser, s.TF = behind, behind
		s.MapLag = 100 * time.Second
	case TFStaticConflict:
		s.StaticConflictM = 0.08
	case Large:
		s.Duration = 600 * time.Second
		s.Ranges = 1080
		s.Intensities = true
		s.TFHz = 100
	case StartupDrop:
		s.Duration = 5 * time.Second
		s.TFStart = 600 * time.Millisecond // 12 scans before the tree: the queue of 10 overflows
	case SimWallRecorder:
		s.Duration = 5 * time.Second
	case SimNoClock:
		s.Duration = 5 * time.Second
		s.ClockNotRecorded = true
	case NoTFBag:
		s.Duration = 5 * time.Second
		s.ClockHz = 0
		s.Laser, s.TF = sys, sys
		s.NoTF = true
	case ManyStatic:
		s.Duration = 5 * time.Second
		s.StaticLinks = 59
		s.StaticClock = sys
	case ReRecorded, ReRecordedQuiet:
		s.Duration = 5 * time.Second
		s.ClockHz = 0
		month := Publisher{Clock: ClockSystem, OffsetNS: -30 * 86400 * int64(time.Second)}
		s.Laser, s.TF = month, month
		s.Replayed = true
		s.Replayer = name == ReRecorded
	case ResetRefill, ResetTFLate:
		s.ResetAt = 15 * time.Second
		s.ResetToNS = 500_000_000
		s.TFPause = 600 * time.Millisecond // 12 scans wait: the queue of 10 overflows
		if name == ResetTFLate {
			s.TFPause = 12 * time.Second // 2 s past tf2's 10 s cache window
		}
	case MissingLink:
		s.Duration = 5 * time.Second
		s.LaserMount = "laser_mount"
	case OdomUnderMap:
		s.Duration = 5 * time.Second
		s.Odometry, s.Localiser = true, true
	default:
		if sc, ok := syncCase(name); ok {
			return sc, nil
		}
		return Spec{}, fmt.Errorf("scenario: unknown case %q (known: %v, %v, %v, %v, %s, %s)", name, Names(), TreeNames(), VerdictNames(), SyncNames(), Demo, Large)
	}
	return s, nil
}

// Sample shrinks a spec to under two seconds (the demo to four) and 30
// ranges, for the bags
// committed under testdata/samples; loop and reset times shrink with it.
func (s Spec) Sample() Spec {
	full := s.Duration
	s.Duration = 1600 * time.Millisecond
	if s.Name == Demo {
		s.Duration = 4 * time.Second
	}
	s.Ranges = 30
	s.Intensities = false
	if s.LoopPeriod > 0 {
		s.LoopPeriod = 500 * time.Millisecond
	}
	if s.ResetAt > 0 {
		// Same fraction of the recording, on a whole 10 ms /clock tick.
		frac := float64(s.ResetAt) / float64(full)
		s.ResetAt = time.Duration(math.Round(frac*float64(s.Duration)/1e7)) * 10 * time.Millisecond
	}
	return s
}

// Scale returns the spec lasting factor times as long (the 10x benchmark
// bag); periodic events keep their period.
func (s Spec) Scale(factor int) Spec {
	s.Duration *= time.Duration(factor)
	return s
}

// Validate reports specs the generator cannot honour.
func (s Spec) Validate() error {
	switch {
	case s.Duration <= 0:
		return fmt.Errorf("scenario %s: duration must be positive", s.Name)
	case s.ScanHz <= 0 || s.TFHz < 0 || s.ClockHz < 0:
		return fmt.Errorf("scenario %s: rates must be positive (tf and clock may be 0)", s.Name)
	case s.Ranges < 0:
		return fmt.Errorf("scenario %s: negative range count", s.Name)
	case s.ClockHz == 0 && (s.Laser.Clock == ClockSim || s.TF.Clock == ClockSim):
		return fmt.Errorf("scenario %s: a publisher on sim time needs /clock", s.Name)
	case s.NoTF && (s.TFHz > 0 && s.TFStart > 0 || s.StaticLinks > 0):
		return fmt.Errorf("scenario %s: NoTF leaves no tf to delay or extend", s.Name)
	case s.Noise.validate(s.Name) != nil:
		return s.Noise.validate(s.Name)
	case s.LoopPeriod > 0 && s.ResetAt > 0:
		return fmt.Errorf("scenario %s: loop and reset together are not supported", s.Name)
	case s.TFPause < 0 || s.TFPause > 0 && s.ResetAt == 0:
		return fmt.Errorf("scenario %s: a tf pause needs a reset to follow", s.Name)
	case s.LoopPeriod < 0 || s.ResetAt < 0:
		return fmt.Errorf("scenario %s: negative loop period or reset time", s.Name)
	case s.LoopPeriod > 0 && periodNS(s.ClockHz) > 0 && int64(s.LoopPeriod)%periodNS(s.ClockHz) != 0:
		return fmt.Errorf("scenario %s: loop period must be a multiple of the /clock period", s.Name)
	case s.ResetAt > 0 && periodNS(s.ClockHz) > 0 && int64(s.ResetAt)%periodNS(s.ClockHz) != 0:
		return fmt.Errorf("scenario %s: reset time must be a multiple of the /clock period", s.Name)
	}
	return nil
}

// Truth is what an analysis of the spec's bag must find, derived from the
// spec by reasoning, not by running the generator.
type Truth struct {
	// Class is the class of every scan (against the odom frame, or
	// base_link when there is no /tf).
	Class string
	// DiffS is the approximate scan stamp minus tf stamp, in seconds, of
	// the first scan (NaN for static_only: no dynamic link to compare).
	DiffS float64
	// BackwardJumps counts /clock going backwards.
	BackwardJumps int
	// ZeroStampScans counts scans stamped 0.
	ZeroStampScans int
	// Counts per topic.
	Scans, TFMessages, StaticMessages, ClockMessages, RosoutMessages int
	// SensorMessages counts the messages of each Sensors topic (base
	// name: TopicPoints, TopicImu, TopicImage); each has Class too.
	SensorMessages map[string]int
	// RosoutDrops counts the "Message Filter dropping message" lines.
	RosoutDrops int
	// TFFindings are the kinds of the tf-tree findings (analysis
	// TFFinding.Kind), most important first, for the tree cases.
	TFFindings []string
}

// periodNS turns a rate into a whole number of nanoseconds.
func periodNS(hz float64) int64 {
	if hz <= 0 {
		return 0
	}
	return int64(math.Round(1e9 / hz))
}

// ticks counts k >= 0 with phase + k*period < dur.
func ticks(dur, phase, period int64) int {
	if period <= 0 || phase >= dur {
		return 0
	}
	return int((dur-phase-1)/period) + 1
}

// Truth derives the expected findings.
func (s Spec) Truth() Truth {
	dur := int64(s.Duration)
	t := Truth{
		Scans:         ticks(dur, scanPhaseNS, periodNS(s.ScanHz)),
		TFMessages:    ticks(dur, tfPhaseNS, periodNS(s.TFHz)),
		ClockMessages: ticks(dur, 0, periodNS(s.ClockHz)),
	}
	if s.TFPause > 0 && int64(s.ResetAt) < dur {
		// The ticks in [ResetAt, ResetAt+TFPause) are not published.
		t.TFMessages -= ticks(min(dur, int64(s.ResetAt+s.TFPause)), tfPhaseNS, periodNS(s.TFHz)) - ticks(int64(s.ResetAt), tfPhaseNS, periodNS(s.TFHz))
	}
	if s.Detector != nil {
		t.TFMessages += ticks(dur, detectorPhaseNS, periodNS(DetectorHz))
		t.TFFindings = append(t.TFFindings, "other_clock_family")
	}
	if s.MapLag > 0 || s.Localiser {
		t.TFMessages += ticks(dur, mapPhaseNS, periodNS(MapHz))
		t.TFFindings = append(t.TFFindings, "stale_link")
	}
	if s.TF.Clock == ClockSystem && s.TF.OffsetNS <= -int64(time.Second) && s.Laser == s.TF {
		t.TFFindings = append(t.TFFindings, "offset_from_recorder")
	}
	// /tf_static once, and again at every restart of a looped bag.
	t.StaticMessages = 1
	if s.StaticConflictM > 0 {
		t.StaticMessages += ticks(dur, dur/2, dur+1)
		t.TFFindings = append(t.TFFindings, "static_conflict")
	}
	if s.LoopPeriod > 0 && s.ClockHz > 0 {
		t.BackwardJumps = ticks(dur, int64(s.LoopPeriod), int64(s.LoopPeriod))
		t.StaticMessages += t.BackwardJumps
	}
	if s.ResetAt > 0 && s.ClockHz > 0 && int64(s.ResetAt) < dur {
		t.BackwardJumps = 1
	}
	if s.Sensors {
		t.SensorMessages = map[string]int{
			TopicPoints: ticks(dur, lidarPhaseNS, periodNS(LidarHz)),
			TopicImu:    ticks(dur, imuPhaseNS, periodNS(ImuHz)),
			TopicImage:  ticks(dur, cameraPhaseNS, periodNS(CameraHz)),
		}
	}
	if s.Laser.Clock == ClockZero {
		t.ZeroStampScans = t.Scans
	}
	epoch := float64(s.SystemStartNS-s.SimStartNS) / 1e9
	switch {
	case s.NoTF:
		t.Class, t.DiffS = ClassNoTransform, math.NaN()
	case s.TFHz == 0:
		t.Class, t.DiffS = ClassStaticOnly, math.NaN()
	case s.Laser.Clock == ClockZero:
		t.Class, t.DiffS = ClassZeroStamp, -float64(s.SimStartNS)/1e9
	case s.Laser.Clock == ClockSystem && s.TF.Clock == ClockSim:
		t.Class, t.DiffS = ClassLaserOnSystemClock, epoch
	case s.Laser.Clock == ClockSim && s.TF.Clock == ClockSystem:
		t.Class, t.DiffS = ClassTFOnSystemClock, -epoch
	case s.Laser.Clock == ClockSystem && s.TF.Clock == ClockSystem && s.Laser.OffsetNS != s.TF.OffsetNS:
		t.Class, t.DiffS = ClassClockSkew, float64(s.Laser.OffsetNS-s.TF.OffsetNS)/1e9
	default:
		t.Class, t.DiffS = ClassSameClock, 0
	}
	if s.Rosout {
		t.RosoutDrops = s.rosoutDrops(t.Scans)
		t.RosoutMessages = t.RosoutDrops + t.BackwardJumps
	}
	return t
}

// dropRule is the MessageFilter outcome the Rosout stream logs for a
// clock mismatch: scans far in tf's future wait until the queue evicts
// them (QueueFull, logged for the evicted scan); scans far in tf's past
// are older than the cache at once (OutTheBack).
type dropRule int

const (
	dropNone dropRule = iota
	dropQueueFull
	dropOutTheBack
)

func (s Spec) dropRule() dropRule {
	if s.TFHz == 0 || s.Laser.Clock == ClockZero {
		return dropNone
	}
	switch {
	case s.Laser.Clock == ClockSystem && s.TF.Clock == ClockSim:
		return dropQueueFull
	case s.Laser.Clock == ClockSim && s.TF.Clock == ClockSystem:
		return dropOutTheBack
	}
	return dropNone
}

func (s Spec) rosoutDrops(scans int) int {
	switch s.dropRule() {
	case dropQueueFull:
		return max(0, scans-RosoutQueueSize)
	case dropOutTheBack:
		return scans
	}
	return 0
}
