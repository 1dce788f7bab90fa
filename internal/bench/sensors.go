package bench

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// The sensor benchmark bag is what issue 9 asks bagclock to read cheaply:
// a camera and a 3D lidar whose messages are megabytes, of which the
// analysis needs the header alone.
const (
	sensorImageW, sensorImageH = 1920, 1080 // rgb8
	sensorImageHz              = 30
	sensorLidarRings           = 64
	sensorLidarCols            = 1024
	sensorLidarPointStep       = 16 // x, y, z, intensity as float32
	sensorLidarHz              = 10
	sensorIMUHz                = 200
	sensorTFHz                 = 100
	sensorClockHz              = 100
	// DefaultSensorDuration makes each bag a little over 2 GB.
	DefaultSensorDuration = 11 * time.Second
	sensorCacheVersion    = "bagclock-bench sensors v1"
)

// SensorTopics are the sensor bag's topics and types.
var SensorTopics = [][2]string{
	{"/camera/image_raw", "sensor_msgs/msg/Image"},
	{"/lidar/points", "sensor_msgs/msg/PointCloud2"},
	{"/imu/data", "sensor_msgs/msg/Imu"},
	{"/tf", cdr.TypeTFMessage},
	{"/tf_static", cdr.TypeTFMessage},
	{"/clock", cdr.TypeClock},
}

// EnsureSensorBags returns the camera + lidar benchmark bags (uncompressed
// MCAP and db3) of the given record-time length, generating them into dir
// first if they are missing or were made by another generator version.
func EnsureSensorBags(dir string, d time.Duration) ([]Bag, error) {
	var out []Bag
	for _, st := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		name := "sensors-mcap"
		if st == bagwrite.StorageSQLite3 {
			name = "sensors-db3"
		}
		bagDir := filepath.Join(dir, name)
		marker := filepath.Join(bagDir, ".complete")
		version := fmt.Sprintf("%s %s", sensorCacheVersion, d)
		if data, err := os.ReadFile(marker); err != nil || string(data) != version {
			if err := os.RemoveAll(bagDir); err != nil {
				return nil, fmt.Errorf("bench: clearing %s: %w", bagDir, err)
			}
			if err := writeSensorBag(bagDir, st, d); err != nil {
				return nil, fmt.Errorf("bench: generating %s: %w", bagDir, err)
			}
			if err := os.WriteFile(marker, []byte(version), 0o644); err != nil {
				return nil, fmt.Errorf("bench: %w", err)
			}
		}
		files, err := filepath.Glob(filepath.Join(bagDir, name+"_*"))
		if err != nil || len(files) != 1 {
			return nil, fmt.Errorf("bench: %s: want one storage file, found %v (%v)", bagDir, files, err)
		}
		fi, err := os.Stat(files[0])
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		out = append(out, Bag{Name: name, Dir: bagDir, File: files[0], Size: fi.Size()})
	}
	return out, nil
}

// writeSensorBag writes one sensor bag: sim-time stamps (a Gazebo-style
// recording with /clock), every header a few milliseconds behind /clock,
// tf odom->base_link at 100 Hz and the sensor mounts in /tf_static.
func writeSensorBag(dir, storage string, d time.Duration) error {
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: storage})
	if err != nil {
		return err
	}
	for _, t := range SensorTopics {
		if err := w.AddTopic(t[0], t[1]); err != nil {
			w.Close()
			return err
		}
	}
	const recStart = int64(1_760_000_000_000_000_000) // recorder's system clock
	const simStart = int64(100_000_000_000)
	stamp := func(ns int64) cdr.Time {
		return cdr.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)}
	}
	image := make([]byte, sensorImageW*sensorImageH*3)
	for i := range image {
		image[i] = byte(i*7 + i>>11)
	}
	cloud := make([]byte, sensorLidarRings*sensorLidarCols*sensorLidarPointStep)
	for i := 0; i+16 <= len(cloud); i += 16 {
		a := float64(i/16%sensorLidarCols) * 2 * math.Pi / sensorLidarCols
		r := 5 + float64(i/16/sensorLidarCols)*0.1
		binary.LittleEndian.PutUint32(cloud[i:], math.Float32bits(float32(r*math.Cos(a))))
		binary.LittleEndian.PutUint32(cloud[i+4:], math.Float32bits(float32(r*math.Sin(a))))
		binary.LittleEndian.PutUint32(cloud[i+8:], math.Float32bits(float32(i/16/sensorLidarCols)*0.05))
		binary.LittleEndian.PutUint32(cloud[i+12:], math.Float32bits(float32(i%255)))
	}
	static := cdr.AppendTFMessage(nil, &cdr.TFMessage{Transforms: []cdr.TransformStamped{
		{Header: cdr.Header{Stamp: stamp(simStart), FrameID: "base_link"}, ChildFrameID: "camera_optical_frame",
			Transform: cdr.Transform{Translation: cdr.Vector3{X: 0.2, Z: 0.5}, Rotation: cdr.Quaternion{X: -0.5, Y: 0.5, Z: -0.5, W: 0.5}}},
		{Header: cdr.Header{Stamp: stamp(simStart), FrameID: "base_link"}, ChildFrameID: "lidar_link",
			Transform: cdr.Transform{Translation: cdr.Vector3{Z: 0.8}, Rotation: cdr.Quaternion{W: 1}}},
		{Header: cdr.Header{Stamp: stamp(simStart), FrameID: "base_link"}, ChildFrameID: "imu_link",
			Transform: cdr.Transform{Rotation: cdr.Quaternion{W: 1}}},
	}}, binary.LittleEndian)
	if err := w.Write("/tf_static", recStart, recStart, static); err != nil {
		w.Close()
		return err
	}
	type src struct {
		topic  string
		period int64
		next   int64
		lag    int64 // header stamp behind the sim clock
		enc    func(buf []byte, st cdr.Time, k int) []byte
	}
	srcs := []*src{
		{topic: "/clock", period: 1e9 / sensorClockHz, enc: func(b []byte, st cdr.Time, _ int) []byte {
			return cdr.AppendClock(b, &cdr.Clock{Clock: st}, binary.LittleEndian)
		}},
		{topic: "/imu/data", period: 1e9 / sensorIMUHz, lag: 1_000_000, enc: func(b []byte, st cdr.Time, k int) []byte {
			return appendImu(b, st, k)
		}},
		{topic: "/tf", period: 1e9 / sensorTFHz, lag: 2_000_000, enc: func(b []byte, st cdr.Time, k int) []byte {
			x := float64(k) * 0.01
			return cdr.AppendTFMessage(b, &cdr.TFMessage{Transforms: []cdr.TransformStamped{{
				Header: cdr.Header{Stamp: st, FrameID: "odom"}, ChildFrameID: "base_link",
				Transform: cdr.Transform{Translation: cdr.Vector3{X: x}, Rotation: cdr.Quaternion{W: 1}}}}}, binary.LittleEndian)
		}},
		{topic: "/lidar/points", period: 1e9 / sensorLidarHz, lag: 50_000_000, enc: func(b []byte, st cdr.Time, _ int) []byte {
			return appendPointCloud2(b, st, cloud)
		}},
		{topic: "/camera/image_raw", period: int64(1e9) / sensorImageHz, lag: 20_000_000, enc: func(b []byte, st cdr.Time, k int) []byte {
			image[0] = byte(k) // frames differ
			return appendImage(b, st, image)
		}},
	}
	counts := make([]int, len(srcs))
	var buf []byte
	for {
		var s *src
		si := -1
		for i, c := range srcs {
			if s == nil || c.next < s.next {
				s, si = c, i
			}
		}
		if s.next >= int64(d) {
			break
		}
		t := s.next
		s.next += s.period
		sim := simStart + t
		buf = s.enc(buf[:0], stamp(sim-s.lag), counts[si])
		counts[si]++
		// Received a little after the header time, as a recorder does.
		if err := w.Write(s.topic, recStart+t+int64(si)*1000, recStart+t, buf); err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}

// cdrLE appends little-endian CDR fields, aligned from the end of the
// 4-byte encapsulation header at the start of the buffer.
type cdrLE struct{ b []byte }

func newCDR(b []byte) *cdrLE { return &cdrLE{b: append(b[:0], 0, 1, 0, 0)} }

func (c *cdrLE) align(n int) {
	for (len(c.b)-4)%n != 0 {
		c.b = append(c.b, 0)
	}
}
func (c *cdrLE) u8(v uint8) { c.b = append(c.b, v) }
func (c *cdrLE) u32(v uint32) {
	c.align(4)
	c.b = binary.LittleEndian.AppendUint32(c.b, v)
}
func (c *cdrLE) f64(v float64) {
	c.align(8)
	c.b = binary.LittleEndian.AppendUint64(c.b, math.Float64bits(v))
}
func (c *cdrLE) str(s string) {
	c.u32(uint32(len(s) + 1))
	c.b = append(append(c.b, s...), 0)
}
func (c *cdrLE) header(st cdr.Time, frame string) {
	c.u32(uint32(st.Sec))
	c.u32(st.Nanosec)
	c.str(frame)
}
func (c *cdrLE) bytes(p []byte) {
	c.u32(uint32(len(p)))
	c.b = append(c.b, p...)
}

// appendImage encodes a sensor_msgs/msg/Image (rgb8).
func appendImage(b []byte, st cdr.Time, data []byte) []byte {
	c := newCDR(b)
	c.header(st, "camera_optical_frame")
	c.u32(sensorImageH)
	c.u32(sensorImageW)
	c.str("rgb8")
	c.u8(0)
	c.u32(sensorImageW * 3)
	c.bytes(data)
	return c.b
}

// appendPointCloud2 encodes a sensor_msgs/msg/PointCloud2 of x, y, z,
// intensity float32 points.
func appendPointCloud2(b []byte, st cdr.Time, data []byte) []byte {
	c := newCDR(b)
	c.header(st, "lidar_link")
	c.u32(sensorLidarRings)
	c.u32(sensorLidarCols)
	names := []string{"x", "y", "z", "intensity"}
	c.u32(uint32(len(names)))
	for i, n := range names {
		c.str(n)
		c.u32(uint32(4 * i))
		c.u8(7) // FLOAT32
		c.u32(1)
	}
	c.u8(0)
	c.u32(sensorLidarPointStep)
	c.u32(sensorLidarPointStep * sensorLidarCols)
	c.bytes(data)
	c.u8(1) // is_dense
	return c.b
}

// appendImu encodes a sensor_msgs/msg/Imu.
func appendImu(b []byte, st cdr.Time, k int) []byte {
	c := newCDR(b)
	c.header(st, "imu_link")
	for _, v := range []float64{0, 0, 0, 1} {
		c.f64(v)
	}
	for range 9 {
		c.f64(0.01)
	}
	for _, v := range []float64{0, 0, 0.1 * math.Sin(float64(k)/100)} {
		c.f64(v)
	}
	for range 9 {
		c.f64(0.01)
	}
	for _, v := range []float64{0.01, 0, 9.81} {
		c.f64(v)
	}
	for range 9 {
		c.f64(0.01)
	}
	return c.b
}
