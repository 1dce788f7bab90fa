package scenario

import (
	"encoding/binary"
	"math"

	"github.com/bagclock/bagclock/cdr"
)

// sensorStreams are the lidar, IMU and camera of Spec.Sensors. Their
// drivers stamp with the laser driver's clock; the messages are small
// (64 points, an 8x6 mono8 image) but complete, so any CDR decoder reads
// them.
func (g *gen) sensorStreams() []*stream {
	s := g.s
	lat := g.jitter(500_000, 1_000_000)
	emit := func(base, typ string, fill func(w *cdrWriter, t int64)) func(int, int64, *Record) {
		return func(_ int, t int64, r *Record) {
			st := g.stampOn(MachineSensors, s.Laser, t)
			w := cdrWriter{b: append(g.buf[:0], 0, byte(cdr.CDRLE), 0, 0)}
			w.time(st)
			w.str(map[string]string{TopicPoints: LidarFrame, TopicImu: ImuFrame, TopicImage: CameraFrame}[base])
			fill(&w, t)
			r.Topic, r.Type, r.StampNS, r.PublishTimeNS = s.TopicName(base), typ, st, g.sendOn(MachineSensors, t, s.Laser.OffsetNS)
			r.Data = w.b
			g.buf = w.b
		}
	}
	return []*stream{
		g.periodicOn(MachineSensors, imuPhaseNS, periodNS(ImuHz), nil, lat, emit(TopicImu, TypeImu, func(w *cdrWriter, t int64) {
			_, _, yaw := pose(g.motionS(t))
			// orientation, its covariance, angular velocity, its
			// covariance, linear acceleration, its covariance.
			w.f64s(0, 0, math.Sin(yaw/2), math.Cos(yaw/2))
			w.f64s(make([]float64, 9)...)
			w.f64s(0, 0, yawRate)
			w.f64s(make([]float64, 9)...)
			w.f64s(circleRadius*yawRate*yawRate, 0, 9.81)
			w.f64s(make([]float64, 9)...)
		})),
		g.periodicOn(MachineSensors, lidarPhaseNS, periodNS(LidarHz), nil, lat, emit(TopicPoints, TypePointCloud2, func(w *cdrWriter, _ int64) {
			const n = 64
			w.u32(1) // height
			w.u32(n) // width
			w.u32(3) // fields x, y, z: float32 (datatype 7)
			for i, name := range []string{"x", "y", "z"} {
				w.str(name)
				w.u32(uint32(4 * i))
				w.u8(7)
				w.u32(1)
			}
			w.u8(0)       // is_bigendian
			w.u32(12)     // point_step
			w.u32(12 * n) // row_step
			w.u32(12 * n)
			for i := range n {
				a := 2 * math.Pi * float64(i) / n
				for _, v := range []float64{3 * math.Cos(a), 3 * math.Sin(a), 0.3} {
					w.b = binary.LittleEndian.AppendUint32(w.b, math.Float32bits(float32(v)))
				}
			}
			w.u8(1) // is_dense
		})),
		g.periodicOn(MachineSensors, cameraPhaseNS, periodNS(CameraHz), nil, lat, emit(TopicImage, TypeImage, func(w *cdrWriter, t int64) {
			const width, height = 8, 6
			w.u32(height)
			w.u32(width)
			w.str("mono8")
			w.u8(0)      // is_bigendian
			w.u32(width) // step
			w.u32(width * height)
			for i := range width * height {
				w.u8(uint8(i*5 + int(t/1e7)))
			}
		})),
	}
}

// cdrWriter appends little-endian XCDR1 after a 4-byte encapsulation
// header; alignment counts from the end of that header.
type cdrWriter struct{ b []byte }

func (w *cdrWriter) align(n int) {
	for (len(w.b)-4)%n != 0 {
		w.b = append(w.b, 0)
	}
}

func (w *cdrWriter) u8(v uint8) { w.b = append(w.b, v) }

func (w *cdrWriter) u32(v uint32) {
	w.align(4)
	w.b = binary.LittleEndian.AppendUint32(w.b, v)
}

func (w *cdrWriter) f64s(vs ...float64) {
	for _, v := range vs {
		w.align(8)
		w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v))
	}
}

// time writes builtin_interfaces/Time (int32 sec, uint32 nanosec).
func (w *cdrWriter) time(ns int64) {
	t := toTime(ns)
	w.u32(uint32(t.Sec))
	w.u32(t.Nanosec)
}

// str writes a CDR string: length with the NUL, bytes, NUL.
func (w *cdrWriter) str(s string) {
	w.u32(uint32(len(s) + 1))
	w.b = append(w.b, s...)
	w.b = append(w.b, 0)
}
