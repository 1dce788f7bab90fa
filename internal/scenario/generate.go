package scenario

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/bagclock/bagclock/cdr"
)

// Topic names and types the generator records.
const (
	TopicScan      = "/scan"
	TopicTF        = "/tf"
	TopicTFStatic  = "/tf_static"
	TopicClock     = "/clock"
	TopicRosout    = "/rosout"
	TopicPoints    = "/points"
	TopicImu       = "/imu"
	TopicImage     = "/camera/image_raw"
	rosoutNodeName = "rviz2"
)

// Types of the Sensors topics.
const (
	TypePointCloud2 = "sensor_msgs/msg/PointCloud2"
	TypeImu         = "sensor_msgs/msg/Imu"
	TypeImage       = "sensor_msgs/msg/Image"
)

// Record is one generated message.
type Record struct {
	Topic, Type string
	// LogTimeNS is the record time (recorder's system clock at reception),
	// PublishTimeNS the publisher's system clock when it sent the message.
	LogTimeNS, PublishTimeNS int64
	// StampNS is the header stamp (scans, tf, logs) or the /clock value.
	StampNS int64
	// Data is the CDR message (encapsulation header included); it is
	// reused after the callback returns.
	Data []byte
}

// Topics returns the (name, type) pairs a spec records, in the order the
// writer registers them.
func (s Spec) Topics() [][2]string {
	out := [][2]string{}
	if s.ClockHz > 0 && !s.ClockNotRecorded {
		out = append(out, [2]string{TopicClock, cdr.TypeClock})
	}
	if !s.NoTF {
		out = append(out, [2]string{s.TopicName(TopicTFStatic), cdr.TypeTFMessage})
	}
	if s.TFHz > 0 && !s.NoTF {
		out = append(out, [2]string{s.TopicName(TopicTF), cdr.TypeTFMessage})
	}
	out = append(out, [2]string{s.TopicName(TopicScan), cdr.TypeLaserScan})
	if tp := s.republishTopic(); tp != "" {
		out = append(out, [2]string{tp, cdr.TypeLaserScan})
	}
	if s.Sensors {
		out = append(out, [2]string{s.TopicName(TopicPoints), TypePointCloud2},
			[2]string{s.TopicName(TopicImu), TypeImu}, [2]string{s.TopicName(TopicImage), TypeImage})
	}
	if s.Odometry {
		out = append(out, [2]string{s.TopicName(TopicOdom), TypeOdometry})
	}
	out = append(out, s.cameraTopics()...)
	if s.Rosout || s.Replayer {
		out = append(out, [2]string{TopicRosout, cdr.TypeLog})
	}
	return out
}

// event is a stream's next message, produced lazily so a 600 s bag never
// sits in memory.
type stream struct {
	next  func() bool // advances to the next event; false when done
	logNS int64       // record time of the current event
	emit  func(*Record)
}

// gen holds the timeline of one spec.
type gen struct {
	s        Spec
	dur      int64
	clockP   int64
	rtf      float64
	rng      *rand.Rand
	buf      []byte
	scan     cdr.LaserScan
	tf       cdr.TFMessage
	logMsg   cdr.Log
	rosoutOn bool
	noise    *noiseState // nil without Noise
}

// recNS is the recorder's system clock at true time t (ns since start).
func (g *gen) recNS(t int64) int64 { return g.s.SystemStartNS + t }

// sendNS is the publisher's system clock at true time t (MCAP
// publish_time): offset from the recorder's by its machine's offset, or
// the recorder's own when a player on the recorder's machine republishes
// a recording (Spec.Replayed).
func (g *gen) sendNS(t, offsetNS int64) int64 {
	if g.s.Replayed {
		return g.recNS(t)
	}
	return g.recNS(t) + offsetNS
}

// simNS is the simulator's time at true time t.
func (g *gen) simNS(t int64) int64 {
	switch {
	case g.s.LoopPeriod > 0:
		t %= int64(g.s.LoopPeriod)
	case g.s.ResetAt > 0 && t >= int64(g.s.ResetAt):
		return g.s.ResetToNS + int64(float64(t-int64(g.s.ResetAt))*g.rtf)
	}
	return g.s.SimStartNS + int64(float64(t)*g.rtf)
}

// rosNowNS is what a sim-time node's now() returns at t: the last /clock
// value published at or before t.
func (g *gen) rosNowNS(t int64) int64 {
	if g.clockP <= 0 {
		return 0
	}
	return g.simNS(t / g.clockP * g.clockP)
}

// stamp is the time publisher p puts in a header at true time t.
func (g *gen) stamp(p Publisher, t int64) int64 {
	switch p.Clock {
	case ClockSim:
		return g.rosNowNS(t)
	case ClockSystem:
		return g.recNS(t) + p.OffsetNS
	}
	return 0
}

// stampOn is stamp for a publisher on machine m: a system clock moves
// with the machine's steps and offset (Noise).
func (g *gen) stampOn(m Machine, p Publisher, t int64) int64 {
	if p.Clock == ClockSystem {
		return g.stamp(p, t) + g.noise.stepNS(m, t)
	}
	return g.stamp(p, t)
}

// sendOn is sendNS for a publisher on machine m.
func (g *gen) sendOn(m Machine, t, offsetNS int64) int64 {
	if g.s.Replayed {
		return g.sendNS(t, offsetNS)
	}
	return g.sendNS(t, offsetNS) + g.noise.stepNS(m, t)
}

// motionS is the time the robot has been driving at t: it restarts with a
// looped bag or a simulator reset.
func (g *gen) motionS(t int64) float64 {
	switch {
	case g.s.LoopPeriod > 0:
		t %= int64(g.s.LoopPeriod)
	case g.s.ResetAt > 0 && t >= int64(g.s.ResetAt):
		t -= int64(g.s.ResetAt)
	}
	return float64(t) / 1e9
}

// Robot motion: a circle of radius 1.5 m at 0.3 rad/s inside a 10 m x 8 m
// room centred on the odom origin.
const (
	circleRadius = 1.5
	yawRate      = 0.3
	roomHalfX    = 5.0
	roomHalfY    = 4.0
	laserX       = 0.1
	laserZ       = 0.2
)

func pose(m float64) (x, y, yaw float64) {
	yaw = yawRate * m
	return circleRadius * math.Sin(yaw), circleRadius * (1 - math.Cos(yaw)), yaw
}

func toTime(ns int64) cdr.Time {
	sec := ns / 1_000_000_000
	nsec := ns % 1_000_000_000
	if nsec < 0 {
		sec--
		nsec += 1_000_000_000
	}
	return cdr.Time{Sec: int32(sec), Nanosec: uint32(nsec)}
}

func seed(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// Generate calls fn for every message of the spec, in record order (the
// order a recorder writes them: ascending record time).
func Generate(s Spec, fn func(*Record) error) error {
	if err := s.Validate(); err != nil {
		return err
	}
	g := &gen{s: s, dur: int64(s.Duration), clockP: periodNS(s.ClockHz), rtf: s.RealTimeFactor,
		rng: rand.New(rand.NewPCG(seed(s.Name), 0x6261_67636c6f636b)), noise: newNoiseState(s.Noise)}
	if g.rtf == 0 {
		g.rtf = 1
	}
	streams := g.streams()
	var rec Record
	for {
		// Few streams: a linear scan for the earliest beats a heap.
		best := -1
		for i, st := range streams {
			if st.logNS >= 0 && (best < 0 || st.logNS < streams[best].logNS) {
				best = i
			}
		}
		if best < 0 {
			return nil
		}
		st := streams[best]
		st.emit(&rec)
		if err := fn(&rec); err != nil {
			return fmt.Errorf("scenario %s: %w", s.Name, err)
		}
		if !st.next() {
			st.logNS = -1
		}
	}
}

// periodic builds a stream ticking at phase + k*period while < dur, with
// the given latency (ns) from publication to record time.
func (g *gen) periodic(phase, period int64, latency func() int64, emit func(k int, t int64, r *Record)) *stream {
	return g.periodicExcept(phase, period, nil, latency, emit)
}

// periodicExcept is periodic without the ticks skip reports true for (a
// publisher that is silent for a while).
func (g *gen) periodicExcept(phase, period int64, skip func(t int64) bool, latency func() int64, emit func(k int, t int64, r *Record)) *stream {
	return g.periodicOn(0, phase, period, skip, latency, emit)
}

// periodicOn is periodicExcept for a publisher on machine m, which Noise
// acts on (m 0: none). Its messages arrive in the order they were sent
// (one connection): never before the previous one.
func (g *gen) periodicOn(m Machine, phase, period int64, skip func(t int64) bool, latency func() int64, emit func(k int, t int64, r *Record)) *stream {
	st := &stream{}
	k := g.noise.firstTick(m, phase, period)
	// Jitter and loss apply to periodic streams, not to a once-only
	// message (/tf_static); latency noise to both.
	nm := m
	periodicNoise := period <= g.dur
	var t int64
	prevLog := int64(math.MinInt64)
	st.next = func() bool {
		for {
			t = phase + int64(k)*period
			for skip != nil && period > 0 && t < g.dur && skip(t) {
				k++
				t = phase + int64(k)*period
			}
			if t >= g.dur || period <= 0 {
				return false
			}
			// lost draws first, so the random draws stay those of a spec
			// without lossy stalls.
			if !periodicNoise || !(g.noise.lost(nm) || g.noise.stallLost(nm, t)) {
				break
			}
			k++
		}
		lat := latency()
		if g.noise == nil || nm == 0 {
			st.logNS = g.recNS(t) + lat
			return true
		}
		if periodicNoise {
			t = g.noise.publishAt(nm, t, period)
		}
		st.logNS = max(g.recNS(g.noise.deliver(nm, t, lat)), prevLog+100_000)
		prevLog = st.logNS
		return true
	}
	st.emit = func(r *Record) {
		r.LogTimeNS = st.logNS
		emit(k, t, r)
		k++
	}
	if !st.next() {
		st.logNS = -1
	}
	return st
}

func (g *gen) jitter(minNS, maxNS int64) func() int64 {
	return func() int64 { return minNS + g.rng.Int64N(maxNS-minNS+1) }
}

func (g *gen) streams() []*stream {
	s := g.s
	var out []*stream
	if g.clockP > 0 && !s.ClockNotRecorded {
		out = append(out, g.periodic(0, g.clockP, func() int64 { return 200_000 }, func(_ int, t int64, r *Record) {
			v := g.simNS(t)
			r.Topic, r.Type, r.StampNS, r.PublishTimeNS = TopicClock, cdr.TypeClock, v, g.recNS(t)
			r.Data = cdr.AppendClock(g.buf[:0], &cdr.Clock{Clock: toTime(v)}, binary.LittleEndian)
			g.buf = r.Data
		}))
	}
	// /tf_static: once at the start, and again each time a looped bag
	// restarts (ros2 bag play republishes it).
	staticPeriod := g.dur + 1
	if s.LoopPeriod > 0 {
		staticPeriod = int64(s.LoopPeriod)
	}
	tfStart := int64(s.TFStart)
	static := g.periodicOn(MachineTF, tfStart+staticPhaseNS, staticPeriod, nil, func() int64 { return 300_000 }, func(_ int, t int64, r *Record) {
		st := g.stampOn(MachineTF, s.TF, t)
		mount := s.BaseFrame
		if s.LaserMount != "" {
			mount = s.LaserMount
		}
		m := cdr.TFMessage{Transforms: []cdr.TransformStamped{{
			Header:       cdr.Header{Stamp: toTime(st), FrameID: mount},
			ChildFrameID: s.LaserFrame,
			Transform:    cdr.Transform{Translation: cdr.Vector3{X: laserX, Z: laserZ}, Rotation: cdr.Quaternion{W: 1}},
		}}}
		if s.Sensors {
			for i, f := range []string{LidarFrame, ImuFrame, CameraFrame} {
				m.Transforms = append(m.Transforms, cdr.TransformStamped{
					Header:       cdr.Header{Stamp: toTime(st), FrameID: s.BaseFrame},
					ChildFrameID: f,
					Transform:    cdr.Transform{Translation: cdr.Vector3{X: 0.05 * float64(i), Z: 0.3}, Rotation: cdr.Quaternion{W: 1}},
				})
			}
		}
		m.Transforms = append(m.Transforms, s.cameraStatic(st)...)
		for i := range s.StaticLinks {
			m.Transforms = append(m.Transforms, cdr.TransformStamped{
				Header:       cdr.Header{Stamp: toTime(g.stamp(s.StaticClock, t)), FrameID: s.BaseFrame},
				ChildFrameID: fmt.Sprintf("static_%d", i),
				Transform:    cdr.Transform{Translation: cdr.Vector3{X: 0.01 * float64(i), Z: 0.2}, Rotation: cdr.Quaternion{W: 1}},
			})
		}
		r.Topic, r.Type, r.StampNS, r.PublishTimeNS = s.TopicName(TopicTFStatic), cdr.TypeTFMessage, st, g.sendOn(MachineTF, t, s.TF.OffsetNS)
		r.Data = cdr.AppendTFMessage(g.buf[:0], &m, binary.LittleEndian)
		g.buf = r.Data
	})
	if !s.NoTF {
		out = append(out, static)
	}
	if p := periodNS(s.TFHz); p > 0 && !s.NoTF {
		g.tf.Transforms = make([]cdr.TransformStamped, 1)
		// After a reset, the odometry restarts TFPause later.
		paused := func(t int64) bool {
			return s.ResetAt > 0 && t >= int64(s.ResetAt) && t < int64(s.ResetAt+s.TFPause)
		}
		out = append(out, g.periodicOn(MachineTF, tfStart+tfPhaseNS, p, paused, g.jitter(300_000, 1_000_000), func(_ int, t int64, r *Record) {
			st := g.stampOn(MachineTF, s.TF, t)
			x, y, yaw := pose(g.motionS(t))
			g.tf.Transforms[0] = cdr.TransformStamped{
				Header:       cdr.Header{Stamp: toTime(st), FrameID: s.OdomFrame},
				ChildFrameID: s.BaseFrame,
				Transform: cdr.Transform{Translation: cdr.Vector3{X: x, Y: y},
					Rotation: cdr.Quaternion{Z: math.Sin(yaw / 2), W: math.Cos(yaw / 2)}},
			}
			r.Topic, r.Type, r.StampNS, r.PublishTimeNS = s.TopicName(TopicTF), cdr.TypeTFMessage, st, g.sendOn(MachineTF, t, s.TF.OffsetNS)
			r.Data = cdr.AppendTFMessage(g.buf[:0], &g.tf, binary.LittleEndian)
			g.buf = r.Data
		}))
	}
	scanP := periodNS(s.ScanHz)
	out = append(out, g.periodicOn(MachineSensors, scanPhaseNS, scanP, nil, g.jitter(1_500_000, 3_000_000), func(_ int, t int64, r *Record) {
		st := g.stampOn(MachineSensors, s.Laser, t)
		g.fillScan(t, st, scanP)
		r.Topic, r.Type, r.StampNS, r.PublishTimeNS = s.TopicName(TopicScan), cdr.TypeLaserScan, st, g.sendOn(MachineSensors, t, s.Laser.OffsetNS)
		r.Data = cdr.AppendLaserScan(g.buf[:0], &g.scan, binary.LittleEndian)
		g.buf = r.Data
	}))
	if s.Sensors {
		out = append(out, g.sensorStreams()...)
	}
	if s.republishTopic() != "" {
		out = append(out, g.republishStream(scanP))
	}
	if s.Odometry {
		out = append(out, g.odometryStream())
	}
	out = append(out, g.cameraStreams()...)
	out = append(out, g.treeStreams()...)
	if s.Rosout {
		out = append(out, g.rosoutStreams(scanP)...)
	}
	if s.Replayer {
		// ros2 bag play logs once when it starts; the recorder on the same
		// machine records it.
		out = append(out, g.periodic(scanPhaseNS/2, g.dur+1, func() int64 { return 100_000 }, func(_ int, t int64, r *Record) {
			g.emitLog(r, t, Publisher{Clock: ClockSystem}, logInfo, "rosbag2_player", "Playback until timestamp: -1", "play")
		}))
	}
	return out
}

// fillScan sets g.scan to what a 2D laser at the robot's pose in the room
// measures: the distance to the walls along each beam, with centimetre
// noise, rounded to millimetres.
func (g *gen) fillScan(t, stampNS, periodNS int64) {
	s := g.s
	n := s.Ranges
	sc := &g.scan
	sc.Header = cdr.Header{Stamp: toTime(stampNS), FrameID: s.LaserFrame}
	inc := 0.0
	if n > 0 {
		inc = 2 * math.Pi / float64(n)
	}
	sc.AngleMin = float32(-math.Pi)
	sc.AngleMax = float32(-math.Pi + inc*float64(max(n-1, 0)))
	sc.AngleIncrement = float32(inc)
	sc.ScanTime = float32(float64(periodNS) / 1e9)
	if n > 0 {
		sc.TimeIncrement = sc.ScanTime / float32(n)
	}
	sc.RangeMin, sc.RangeMax = 0.12, 12
	if cap(sc.Ranges) < n {
		sc.Ranges = make([]float32, n)
	}
	sc.Ranges = sc.Ranges[:n]
	sc.Intensities = sc.Intensities[:0]
	x, y, yaw := pose(g.motionS(t))
	x += laserX * math.Cos(yaw)
	y += laserX * math.Sin(yaw)
	for i := range n {
		a := yaw - math.Pi + inc*float64(i)
		c, sn := math.Cos(a), math.Sin(a)
		d := math.Inf(1)
		if c > 1e-9 {
			d = (roomHalfX - x) / c
		} else if c < -1e-9 {
			d = (-roomHalfX - x) / c
		}
		if sn > 1e-9 {
			d = min(d, (roomHalfY-y)/sn)
		} else if sn < -1e-9 {
			d = min(d, (-roomHalfY-y)/sn)
		}
		d += g.rng.NormFloat64() * 0.01
		sc.Ranges[i] = float32(math.Round(d*1000) / 1000)
	}
	if s.Intensities {
		for range n {
			sc.Intensities = append(sc.Intensities, float32(100+g.rng.IntN(50)))
		}
	}
}

// Log levels of rcl_interfaces/msg/Log.
const (
	logInfo = 20
	logWarn = 30
)

// Reason strings of tf2_ros::MessageFilter (Galactic and later).
const (
	reasonQueueFull  = "discarding message because the queue is full"
	reasonOutTheBack = "the timestamp on the message is earlier than all the data in the transform cache"
)

// rosoutStreams records what an RViz LaserScan display on sim time would
// log: a drop line per scan the clock mismatch drops (for QueueFull the
// evicted, older scan, logged when the newer one arrives) and a warning on
// each backward /clock jump. The consumer stamps its logs with its own
// clock (sim time when there is /clock).
func (g *gen) rosoutStreams(scanP int64) []*stream {
	s := g.s
	consumer := Publisher{Clock: ClockSystem}
	if g.clockP > 0 {
		consumer = Publisher{Clock: ClockSim}
	}
	var out []*stream
	rule := s.dropRule()
	if rule != dropNone {
		lag := 0
		reason := reasonOutTheBack
		if rule == dropQueueFull {
			lag, reason = RosoutQueueSize, reasonQueueFull
		}
		// The drop is logged when scan k+lag arrives; its own latency is
		// fixed so the log lands after that scan's record.
		out = append(out, g.periodic(scanPhaseNS+int64(lag)*scanP, scanP, func() int64 { return 3_500_000 }, func(k int, t int64, r *Record) {
			droppedT := t - int64(lag)*scanP
			st := g.stamp(s.Laser, droppedT)
			msg := fmt.Sprintf("Message Filter dropping message: frame '%s' at time %.3f for reason '%s'",
				s.LaserFrame, float64(st)/1e9, reason)
			g.emitLog(r, t, consumer, logInfo, rosoutNodeName, msg, "signalFailure")
		}))
	}
	if g.clockP > 0 && (s.LoopPeriod > 0 || s.ResetAt > 0) {
		first, period := int64(s.LoopPeriod), int64(s.LoopPeriod)
		if s.ResetAt > 0 {
			first, period = int64(s.ResetAt), g.dur+1
		}
		out = append(out, g.periodic(first, period, func() int64 { return 400_000 }, func(_ int, t int64, r *Record) {
			g.emitLog(r, t, consumer, logWarn, "tf2_buffer", "Detected jump back in time. Clearing TF buffer.", "onTimeJump")
		}))
	}
	return out
}

func (g *gen) emitLog(r *Record, t int64, p Publisher, level uint8, name, msg, function string) {
	st := g.stamp(p, t)
	g.logMsg = cdr.Log{Stamp: toTime(st), Level: level, Name: name, Msg: msg, File: "tf2_ros", Function: function}
	r.Topic, r.Type, r.StampNS, r.PublishTimeNS = TopicRosout, cdr.TypeLog, st, g.recNS(t)
	r.Data = cdr.AppendLog(g.buf[:0], &g.logMsg, binary.LittleEndian)
	g.buf = r.Data
}
