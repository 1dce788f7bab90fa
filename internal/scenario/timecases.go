package scenario

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// TimeCase is one generated recording of what bagclock's time checks
// look for (wall timers under sim time, clock steps, time stuck at 0,
// age). True time t runs from 0 to DurS seconds; the recorder's system
// clock reads DefaultSystemStartNS + t, plus StepNS from StepAtS on (an NTP
// step of the machine every node runs on: record times and system-time
// stamps step together).
//
// With RTF set, a simulator publishes /clock: sim time advances 10 ms per
// tick and a tick comes every 10 ms / RTF(t) of wall time. Topics:
//   - /sim_scan: a timer on the node's clock (10 Hz of sim time): it fires
//     on the /clock tick that reaches its deadline and stamps that tick;
//   - /wall_scan: a wall timer (20 Hz of wall time) stamping now(), the last
//     /clock value received;
//   - tf odom->base_link: a sim timer at 50 Hz of sim time.
//
// Without RTF the recording is on wall time: /scan at 20 Hz and tf at 50
// Hz, stamped with the system clock at capture, recorded 1-3 ms later.
// LateNS adds /late_scan, captured and stamped at 10 Hz and published
// LateNS later. StuckZero adds /zero_scan (10 Hz wall timer of a node whose
// ROS time is 0) and /parameter_events announcing it and a healthy node.
// Headerless replaces /wall_scan with two topics without a header: /cmd_vel
// (geometry_msgs/msg/Twist) from a 20 Hz wall timer and /battery_level
// (std_msgs/msg/Float32) from a timer on the node's clock at 10 Hz of sim
// time. ClockStartS starts the simulator (its /clock, sim timers and tf)
// that late: the wall timer's now() is 0 until the first tick arrives.
// SensorStepNS steps, at StepAtS, the clock of the machine /scan and tf
// are stamped on, not the recorder's.
type TimeCase struct {
	Name string
	// DurS is the recording's length in seconds.
	DurS float64
	// RTF is the simulator's real-time factor at true time tS; nil records
	// no /clock (a wall-time recording).
	RTF func(tS float64) float64
	// StepNS steps the system clock of the recording machine at StepAtS.
	StepAtS float64
	StepNS  int64
	// LateNS adds /late_scan, published LateNS after capture.
	LateNS    int64
	StuckZero bool
	// Remote adds /remote_scan (10 Hz) from a machine whose clock does not
	// step.
	Remote bool
	// Headerless: /cmd_vel on a wall timer and /battery_level on a sim
	// timer instead of /wall_scan (with RTF).
	Headerless bool
	// ClockStartS delays the simulator's start (with RTF).
	ClockStartS float64
	// SensorStepNS steps the sensor machine's clock at StepAtS (without RTF).
	SensorStepNS int64
	// WallJitterNS makes the wall timer's callbacks run up to that late
	// (a busy executor), so its period is irregular in both clocks.
	WallJitterNS int64
}

type timeEvent struct {
	t, logNS, pubNS int64
	topic           string
	data            []byte
}

// WriteTimeCase writes the case into the bag directory dir (which must not
// exist or be empty) and returns dir.
func WriteTimeCase(dir string, c TimeCase, opts bagwrite.Options) (string, error) {
	le := binary.LittleEndian
	rng := rand.New(rand.NewPCG(7, uint64(len(c.Name))))
	dur := int64(c.DurS * 1e9)
	sys := func(tt int64) int64 {
		v := DefaultSystemStartNS + tt
		if c.StepNS != 0 && tt >= int64(c.StepAtS*1e9) {
			v += c.StepNS
		}
		return v
	}
	ts := func(ns int64) cdr.Time { return cdr.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)} }
	// sensor is the clock /scan and tf are stamped with.
	sensor := func(tt int64) int64 {
		if c.SensorStepNS != 0 && tt >= int64(c.StepAtS*1e9) {
			return sys(tt) + c.SensorStepNS
		}
		return sys(tt)
	}
	var evs []timeEvent
	add := func(tt, latency int64, topic string, data []byte) {
		pub := sys(tt)
		if topic == "/scan" || topic == "/tf" {
			pub = sensor(tt) // MCAP publish_time is the sender's clock
		}
		evs = append(evs, timeEvent{t: tt + latency, logNS: sys(tt + latency), pubNS: pub, topic: topic, data: data})
	}
	scan := func(frame string, stamp int64) []byte {
		m := cdr.LaserScan{Header: cdr.Header{Stamp: ts(stamp), FrameID: frame}, Ranges: make([]float32, 16), RangeMax: 10}
		return cdr.AppendLaserScan(nil, &m, le)
	}
	odom := func(stamp int64, x float64) []byte {
		m := cdr.TFMessage{Transforms: []cdr.TransformStamped{{
			Header: cdr.Header{Stamp: ts(stamp), FrameID: "odom"}, ChildFrameID: "base_link",
			Transform: cdr.Transform{Translation: cdr.Vector3{X: x}, Rotation: cdr.Quaternion{W: 1}},
		}}}
		return cdr.AppendTFMessage(nil, &m, le)
	}
	topics := [][2]string{{"/tf", cdr.TypeTFMessage}, {"/tf_static", cdr.TypeTFMessage}}
	staticStamp := DefaultSystemStartNS
	if c.RTF != nil {
		staticStamp = DefaultSimStartNS
	}
	frames := []string{"laser", "laser_wall", "laser_late", "laser_zero", "laser_remote"}
	static := cdr.TFMessage{}
	for _, f := range frames {
		static.Transforms = append(static.Transforms, cdr.TransformStamped{
			Header: cdr.Header{Stamp: ts(staticStamp), FrameID: "base_link"}, ChildFrameID: f,
			Transform: cdr.Transform{Translation: cdr.Vector3{X: 0.1}, Rotation: cdr.Quaternion{W: 1}}})
	}
	add(0, 100_000, "/tf_static", cdr.AppendTFMessage(nil, &static, le))
	jit := func(lo, hi int64) int64 { return lo + rng.Int64N(hi-lo+1) }

	if c.RTF != nil {
		topics = append(topics, [2]string{"/clock", cdr.TypeClock}, [2]string{"/sim_scan", cdr.TypeLaserScan})
		if c.Headerless {
			topics = append(topics, [2]string{"/cmd_vel", TypeTwist}, [2]string{"/battery_level", TypeFloat32})
		} else {
			topics = append(topics, [2]string{"/wall_scan", cdr.TypeLaserScan})
		}
		// Ticks: (wall time, sim value), sim 10 ms per tick.
		var tickT, tickV []int64
		for tt, v := int64(c.ClockStartS*1e9), DefaultSimStartNS; tt < dur; v += 10_000_000 {
			tickT, tickV = append(tickT, tt), append(tickV, v)
			add(tt, 200_000, "/clock", cdr.AppendClock(nil, &cdr.Clock{Clock: ts(v)}, le))
			tt += int64(10e6 / c.RTF(float64(tt)/1e9))
		}
		nextSim, nextTF, nextBattery := DefaultSimStartNS, DefaultSimStartNS, DefaultSimStartNS+3_000_000
		for i, tt := range tickT {
			v := tickV[i]
			if v >= nextTF {
				add(tt, 300_000+jit(0, 300_000), "/tf", odom(v, float64(v-DefaultSimStartNS)/1e9*0.5))
				nextTF += 20_000_000
			}
			if v >= nextSim {
				add(tt, 500_000+jit(500_000, 1_500_000), "/sim_scan", scan("laser", v))
				nextSim += 100_000_000
			}
			if c.Headerless && v >= nextBattery {
				add(tt, 400_000+jit(200_000, 1_200_000), "/battery_level", float32Msg(float32(0.9-float64(v-DefaultSimStartNS)/1e12)))
				nextBattery += 100_000_000
			}
		}
		// The wall timer: now() is the last tick received (0.2 ms after
		// it was sent), 0 before the first.
		k := -1
		for tick := int64(7_000_000); tick < dur; tick += 50_000_000 {
			tt := tick
			if c.WallJitterNS > 0 {
				tt += jit(0, c.WallJitterNS)
			}
			for k+1 < len(tickT) && tickT[k+1]+200_000 <= tt {
				k++
			}
			now := int64(0)
			if k >= 0 {
				now = tickV[k]
			}
			if c.Headerless {
				add(tt, jit(500_000, 2_000_000), "/cmd_vel", twistMsg(0.2, 0.1*float64(tt%3)))
			} else {
				add(tt, jit(500_000, 2_000_000), "/wall_scan", scan("laser_wall", now))
			}
		}
		if c.StuckZero {
			topics = append(topics, [2]string{"/zero_scan", cdr.TypeLaserScan}, [2]string{"/parameter_events", cdr.TypeParameterEvent})
			for tt := int64(13_000_000); tt < dur; tt += 100_000_000 {
				add(tt, jit(500_000, 2_000_000), "/zero_scan", scan("laser_zero", 0))
			}
			for i, n := range []struct {
				node  string
				stamp int64
			}{{"/zero_driver", 0}, {"/scan_driver", DefaultSimStartNS + 100_000_000}} {
				ev := cdr.ParameterEvent{Stamp: ts(n.stamp), Node: n.node,
					NewParameters: []cdr.Parameter{{Name: "use_sim_time", Value: cdr.ParameterValue{Type: cdr.ParameterBool, BoolValue: true}}}}
				add(100_000_000+int64(i)*1_000_000, 100_000, "/parameter_events", cdr.AppendParameterEvent(nil, &ev, le))
			}
		}
	} else {
		topics = append(topics, [2]string{"/scan", cdr.TypeLaserScan})
		for tt := int64(1_000_000); tt < dur; tt += 20_000_000 {
			add(tt, jit(300_000, 1_000_000), "/tf", odom(sensor(tt), float64(tt)/1e9*0.5))
		}
		for tt := int64(3_000_000); tt < dur; tt += 50_000_000 {
			add(tt, jit(1_000_000, 3_000_000), "/scan", scan("laser", sensor(tt)))
		}
		if c.Remote {
			topics = append(topics, [2]string{"/remote_scan", cdr.TypeLaserScan})
			for tt := int64(9_000_000); tt < dur; tt += 100_000_000 {
				add(tt, jit(1_000_000, 3_000_000), "/remote_scan", scan("laser_remote", DefaultSystemStartNS+tt))
			}
		}
		if c.LateNS > 0 {
			topics = append(topics, [2]string{"/late_scan", cdr.TypeLaserScan})
			for tt := int64(5_000_000); tt < dur; tt += 100_000_000 {
				data := scan("laser_late", sys(tt))
				pub := tt + c.LateNS
				evs = append(evs, timeEvent{t: pub + 500_000, logNS: sys(pub) + jit(500_000, 1_500_000), pubNS: sys(pub), topic: "/late_scan", data: data})
			}
		}
	}
	// Storage order is the order of true time (the recorder writes as
	// messages come, whatever its clock says).
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].t < evs[j].t })
	w, err := bagwrite.Create(dir, opts)
	if err != nil {
		return "", fmt.Errorf("time case %s: %w", c.Name, err)
	}
	for _, tp := range topics {
		if err = w.AddTopic(tp[0], tp[1]); err != nil {
			break
		}
	}
	for _, e := range evs {
		if err != nil {
			break
		}
		err = w.Write(e.topic, e.logNS, e.pubNS, e.data)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("time case %s: writing %s: %w", c.Name, dir, err)
	}
	return dir, nil
}

// Names of the time cases.
const (
	TimeRTFHalf          = "rtf_0.5"                 // /clock at 0.5: a wall timer and a sim timer
	TimeRTFVarying       = "rtf_varying"             // /clock between 0.3 and 1.0
	TimeRTFOne           = "rtf_1"                   // both timers at factor 1: nothing to tell
	TimeNTPBack          = "ntp_back"                // the recorder's clock steps back 0.8 s
	TimeNTPForwardRemote = "ntp_forward_remote"      // +2 s, one publisher on a clock that does not step
	TimeNTPForwardLocal  = "ntp_forward_one_machine" // +2 s, every publisher steps too
	TimeNTPForwardSim    = "ntp_forward_sim"         // +2 s of record time in a sim recording
	TimeStuckZero        = "stuck_zero"              // a node with time 0 beside healthy ones
	TimeLate120ms        = "late_120ms"              // a topic published 120 ms after its stamp
	TimeHeaderless       = "rtf_0.5_no_header"       // /cmd_vel (no header) on a wall timer at 0.5, a sim-timer topic beside it
	TimeRTFHalfBusyWall  = "rtf_0.5_busy_wall"       // at 0.5 the wall timer's callbacks run up to 30 ms late: its clock cannot be told
	TimeSensorStep       = "ntp_back_sensor_machine" // the sensor machine's clock steps back 0.8 s, the recorder's runs on
	TimeZeroUntilClock   = "zero_until_clock"        // /clock starts 3 s late: a wall timer stamps 0 until then
)

// VaryingRTF swings between 0.3 and 1.0 with a 7 s period.
func VaryingRTF(tS float64) float64 { return 0.65 + 0.35*math.Sin(2*math.Pi*tS/7) }

func constRTF(v float64) func(float64) float64 { return func(float64) float64 { return v } }

// TimeCases lists the time cases in a fixed order.
func TimeCases() []TimeCase {
	return []TimeCase{
		{Name: TimeRTFHalf, DurS: 20, RTF: constRTF(0.5)},
		{Name: TimeRTFVarying, DurS: 28, RTF: VaryingRTF},
		{Name: TimeRTFOne, DurS: 20, RTF: constRTF(1)},
		{Name: TimeNTPBack, DurS: 20, StepAtS: 10, StepNS: -800_000_000},
		{Name: TimeNTPForwardRemote, DurS: 20, StepAtS: 10, StepNS: 2_000_000_000, Remote: true},
		{Name: TimeNTPForwardLocal, DurS: 20, StepAtS: 10, StepNS: 2_000_000_000},
		{Name: TimeNTPForwardSim, DurS: 20, RTF: constRTF(1), StepAtS: 10, StepNS: 2_000_000_000},
		{Name: TimeStuckZero, DurS: 10, RTF: constRTF(1), StuckZero: true},
		{Name: TimeLate120ms, DurS: 10, LateNS: 120_000_000},
		{Name: TimeHeaderless, DurS: 20, RTF: constRTF(0.5), Headerless: true},
		{Name: TimeSensorStep, DurS: 20, StepAtS: 10, SensorStepNS: -800_000_000},
		{Name: TimeZeroUntilClock, DurS: 10, RTF: constRTF(1), ClockStartS: 3},
		{Name: TimeRTFHalfBusyWall, DurS: 20, RTF: constRTF(0.5), WallJitterNS: 30_000_000},
	}
}

// GetTimeCase returns the named time case.
func GetTimeCase(name string) (TimeCase, error) {
	for _, c := range TimeCases() {
		if c.Name == name {
			return c, nil
		}
	}
	return TimeCase{}, fmt.Errorf("scenario: unknown time case %q", name)
}
