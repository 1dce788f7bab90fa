package scenario

import (
	"math"
	"time"

	"github.com/bagclock/bagclock/cdr"
)

// The RGB-D camera of Spec.Camera, with a RealSense driver's topic names:
// the colour image and its camera_info (one driver, one stamp per frame)
// and the depth image, captured together at CameraRigHz.
const (
	TopicColour     = "/camera/color/image_raw"
	TopicColourInfo = "/camera/color/camera_info"
	TopicDepth      = "/camera/depth/image_rect_raw"
	TypeCameraInfo  = "sensor_msgs/msg/CameraInfo"
	CameraRigHz     = 15
	ColourFrame     = "camera_color_optical_frame"
	DepthFrame      = "camera_depth_optical_frame"
	rigPhaseNS      = 8_000_000
)

// CameraRig describes the camera's two drivers.
type CameraRig struct {
	// Colour and Depth are the clocks the colour driver (image and
	// camera_info) and the depth driver stamp with.
	Colour, Depth Publisher
	// ColourLate and DepthLate: the driver stamps this long after capture
	// (after processing, not at exposure).
	ColourLate, DepthLate time.Duration
	// DepthDriftPPM: the depth driver's clock runs fast by this many
	// parts per million from the start of the recording.
	DepthDriftPPM float64
	// DepthEmpty records the depth topic without a single message.
	DepthEmpty bool
	// InfoZero: the colour driver stamps camera_info 0 (a driver that
	// fills only the image's header); ColourZero: it stamps the image 0
	// and camera_info right.
	InfoZero, ColourZero bool
}

// Sync case names: the synchronizer situations of issue 23 (SyncNames).
const (
	SyncAligned    = "sync_aligned"     // colour, info and depth stamped at capture on /clock
	SyncOffset     = "sync_offset"      // depth stamped 25 ms after capture (system time)
	SyncOtherClock = "sync_other_clock" // depth driver on system time, colour on /clock
	SyncZeroStamp  = "sync_zero_stamp"  // depth driver stamps 0 (sim time, never got /clock)
	SyncEmptyTopic = "sync_empty_topic" // depth recorded without a message
	SyncDrift      = "sync_drift"       // depth on another machine, its clock 300 ppm fast
	SyncLateCamera = "sync_late_camera" // colour stamped 30 ms after capture (after processing)
)

// syncAbout says what each sync case models, for baggen --list: the
// laser and tf of a sync case are healthy, the camera rig is the case.
var syncAbout = map[string]string{
	SyncAligned:    "colour, camera_info and depth stamped at capture on /clock",
	SyncOffset:     "depth stamped 25 ms after capture",
	SyncOtherClock: "the depth driver on system time, colour on /clock",
	SyncZeroStamp:  "the depth driver stamps 0 (sim time, never got /clock)",
	SyncEmptyTopic: "depth recorded without a message",
	SyncDrift:      "depth on another machine whose clock runs 300 ppm fast",
	SyncLateCamera: "colour stamped 30 ms after capture (after processing)",
}

// SyncAbout says what the camera rig of sync case name models ("" for
// another case).
func SyncAbout(name string) string { return syncAbout[name] }

// SyncNames lists the sync cases in a fixed order.
func SyncNames() []string {
	return []string{SyncAligned, SyncOffset, SyncOtherClock, SyncZeroStamp, SyncEmptyTopic, SyncDrift, SyncLateCamera}
}

// syncCase returns the spec of a sync case: both_sim or both_system with
// the camera.
func syncCase(name string) (Spec, bool) {
	sim, sys := Publisher{Clock: ClockSim}, Publisher{Clock: ClockSystem}
	s := base(name)
	s.Duration = 20 * time.Second
	onSystem := func() {
		s.ClockHz = 0
		s.Laser, s.TF = sys, sys
	}
	switch name {
	case SyncAligned:
		s.Camera = &CameraRig{Colour: sim, Depth: sim}
	case SyncOffset:
		onSystem()
		s.Camera = &CameraRig{Colour: sys, Depth: sys, DepthLate: 25 * time.Millisecond}
	case SyncOtherClock:
		s.Camera = &CameraRig{Colour: sim, Depth: sys}
	case SyncZeroStamp:
		s.Camera = &CameraRig{Colour: sim, Depth: Publisher{Clock: ClockZero}}
	case SyncEmptyTopic:
		s.Camera = &CameraRig{Colour: sim, Depth: sim, DepthEmpty: true}
	case SyncDrift:
		onSystem()
		s.Camera = &CameraRig{Colour: sys, Depth: sys, DepthDriftPPM: 300}
	case SyncLateCamera:
		onSystem()
		s.Camera = &CameraRig{Colour: sys, Depth: sys, ColourLate: 30 * time.Millisecond}
	default:
		return Spec{}, false
	}
	return s, true
}

// cameraTopics are the rig's (name, type) pairs.
func (s Spec) cameraTopics() [][2]string {
	if s.Camera == nil {
		return nil
	}
	return [][2]string{{s.TopicName(TopicColour), TypeImage}, {s.TopicName(TopicColourInfo), TypeCameraInfo}, {s.TopicName(TopicDepth), TypeImage}}
}

// rigStamp is what a rig driver on p stamps a frame captured at t with.
func (g *gen) rigStamp(p Publisher, t int64, late time.Duration, ppm float64) int64 {
	st := g.stampOn(MachineSensors, p, t)
	if st == 0 && p.Clock == ClockZero {
		return 0
	}
	return st + int64(late) + int64(math.Round(float64(t)*ppm/1e6))
}

// cameraStreams are the colour image, its camera_info and the depth
// image. Each frame is captured at the same instant by both sensors; the
// messages arrive a few ms later, info after its image.
func (g *gen) cameraStreams() []*stream {
	s, c := g.s, g.s.Camera
	if c == nil {
		return nil
	}
	p := periodNS(CameraRigHz)
	image := func(topic, frame, encoding string, pub Publisher, late time.Duration, ppm float64, bpp uint32) func(int, int64, *Record) {
		return func(_ int, t int64, r *Record) {
			st := g.rigStamp(pub, t, late, ppm)
			if c.ColourZero && topic == TopicColour {
				st = 0
			}
			w := cdrWriter{b: append(g.buf[:0], 0, byte(cdr.CDRLE), 0, 0)}
			w.time(st)
			w.str(frame)
			const width, height = 4, 3
			w.u32(height)
			w.u32(width)
			w.str(encoding)
			w.u8(0)
			w.u32(width * bpp)
			w.u32(width * height * bpp)
			for i := range width * height * bpp {
				w.u8(uint8(int64(i) + t/1e7))
			}
			r.Topic, r.Type, r.StampNS, r.PublishTimeNS = s.TopicName(topic), TypeImage, st, g.sendOn(MachineSensors, t, pub.OffsetNS)
			r.Data = w.b
			g.buf = w.b
		}
	}
	info := func(_ int, t int64, r *Record) {
		st := g.rigStamp(c.Colour, t, c.ColourLate, 0)
		if c.InfoZero {
			st = 0
		}
		w := cdrWriter{b: append(g.buf[:0], 0, byte(cdr.CDRLE), 0, 0)}
		w.time(st)
		w.str(ColourFrame)
		w.u32(3) // height
		w.u32(4) // width
		w.str("plumb_bob")
		w.u32(5) // d
		w.f64s(0, 0, 0, 0, 0)
		w.f64s(2, 0, 2, 0, 2, 1.5, 0, 0, 1)          // k
		w.f64s(1, 0, 0, 0, 1, 0, 0, 0, 1)            // r
		w.f64s(2, 0, 2, 0, 0, 2, 1.5, 0, 0, 0, 1, 0) // p
		w.u32(0)                                     // binning_x
		w.u32(0)                                     // binning_y
		w.u32(0)                                     // roi x_offset
		w.u32(0)                                     // y_offset
		w.u32(0)                                     // height
		w.u32(0)                                     // width
		w.u8(0)                                      // do_rectify
		r.Topic, r.Type, r.StampNS, r.PublishTimeNS = s.TopicName(TopicColourInfo), TypeCameraInfo, st, g.sendOn(MachineSensors, t, c.Colour.OffsetNS)
		r.Data = w.b
		g.buf = w.b
	}
	// A driver that stamps after processing publishes after stamping: its
	// messages arrive that much later too.
	cl, dl := int64(c.ColourLate), int64(c.DepthLate)
	out := []*stream{
		g.periodicOn(MachineSensors, rigPhaseNS, p, nil, g.jitter(cl+4_000_000, cl+5_000_000), image(TopicColour, ColourFrame, "rgb8", c.Colour, c.ColourLate, 0, 3)),
		g.periodicOn(MachineSensors, rigPhaseNS, p, nil, g.jitter(cl+5_500_000, cl+6_500_000), info),
	}
	if !c.DepthEmpty {
		out = append(out, g.periodicOn(MachineSensors, rigPhaseNS, p, nil, g.jitter(dl+7_000_000, dl+9_000_000), image(TopicDepth, DepthFrame, "16UC1", c.Depth, c.DepthLate, c.DepthDriftPPM, 2)))
	}
	return out
}

// cameraStatic are the rig's mounts on the robot.
func (s Spec) cameraStatic(stamp int64) []cdr.TransformStamped {
	if s.Camera == nil {
		return nil
	}
	var out []cdr.TransformStamped
	for i, f := range []string{ColourFrame, DepthFrame} {
		out = append(out, cdr.TransformStamped{
			Header:       cdr.Header{Stamp: toTime(stamp), FrameID: s.BaseFrame},
			ChildFrameID: f,
			Transform:    cdr.Transform{Translation: cdr.Vector3{X: 0.2, Y: 0.015 * float64(i), Z: 0.4}, Rotation: cdr.Quaternion{W: 1}},
		})
	}
	return out
}
