package cdr

import (
	"encoding/binary"
	"math"
	"strings"
)

// minTransformStamped is the smallest encoded TransformStamped, used to
// bound sequence counts before allocating: stamp 8 + two empty strings'
// lengths 4+4 + seven float64 56 (cdr.md §8.5).
const minTransformStamped = 72

// Info describes how a message sat in its bytes, for callers that want to
// flag oddities the decoder tolerates.
type Info struct {
	Encapsulation Encapsulation
	// Size is the number of bytes the decoded fields used, header included.
	Size int
	// Trailing is len(data) − Size. 0–3 zero bytes are normal padding
	// (rmw_cyclonedds rounds samples up to 4 bytes); see SuspiciousTrailing.
	Trailing int
	// StringsWithoutNUL counts strings whose terminating NUL was missing.
	StringsWithoutNUL int
}

// SuspiciousTrailing reports trailing bytes that are not plain padding
// (more than 3, or not all zero): a hint that the topic's type is not the
// one decoded. data must be the slice the Info was computed from.
func (in Info) SuspiciousTrailing(data []byte) bool {
	if in.Trailing > 3 {
		return true
	}
	if in.Size < 0 {
		return false
	}
	for _, b := range data[min(in.Size, len(data)):] {
		if b != 0 {
			return true
		}
	}
	return false
}

func (c *cursor) info(enc Encapsulation) Info {
	return Info{Encapsulation: enc, Size: c.pos, Trailing: len(c.b) - c.pos, StringsWithoutNUL: c.noNUL}
}

// time reads builtin_interfaces/Time; the two names are passed whole so
// the success path builds no strings.
func (c *cursor) time(secName, nsName string) (Time, error) {
	sec, err := c.int32(secName)
	if err != nil {
		return Time{}, err
	}
	ns, err := c.uint32(nsName)
	if err != nil {
		return Time{}, err
	}
	return Time{Sec: sec, Nanosec: ns}, nil
}

// header reads std_msgs/Header. Field names are written out so the success
// path builds no strings.
func (c *cursor) header(dst *Header) error {
	sec, err := c.int32("header.stamp.sec")
	if err != nil {
		return err
	}
	ns, err := c.uint32("header.stamp.nanosec")
	if err != nil {
		return err
	}
	id, err := c.string("header.frame_id", dst.FrameID)
	if err != nil {
		return err
	}
	dst.Stamp = Time{Sec: sec, Nanosec: ns}
	dst.FrameID = id
	return nil
}

// DecodeHeader reads the std_msgs/Header at the start of any stamped message
// (LaserScan, Odometry, Imu, ...), ignoring the rest. typ is only used in
// errors.
func DecodeHeader(data []byte, typ string) (Header, error) {
	c, _, err := newCursor(data, typ)
	if err != nil {
		return Header{}, err
	}
	var h Header
	if err := c.header(&h); err != nil {
		return Header{}, prefixField(err, shortName(typ)+".")
	}
	return h, nil
}

// shortName turns "sensor_msgs/msg/LaserScan" into "LaserScan" for paths.
func shortName(typ string) string {
	return typ[strings.LastIndexByte(typ, '/')+1:]
}

// DecodeLaserScan decodes a whole sensor_msgs/msg/LaserScan message (4-byte
// encapsulation header included).
func DecodeLaserScan(data []byte) (LaserScan, error) {
	var m LaserScan
	if _, err := DecodeLaserScanInto(&m, data); err != nil {
		return LaserScan{}, err
	}
	return m, nil
}

// DecodeLaserScanInto decodes into dst, reusing dst.Ranges and
// dst.Intensities when they have capacity and dst.Header.FrameID when it is
// unchanged, so a stream of scans decodes without allocating. On error dst
// holds partial data. The caller must not keep dst's slices across calls.
func DecodeLaserScanInto(dst *LaserScan, data []byte) (Info, error) {
	c, enc, err := newCursor(data, TypeLaserScan)
	if err != nil {
		return Info{}, err
	}
	if err := c.laserScan(dst); err != nil {
		return Info{}, prefixField(err, "LaserScan.")
	}
	return c.info(enc), nil
}

func (c *cursor) laserScan(m *LaserScan) error {
	if err := c.header(&m.Header); err != nil {
		return err
	}
	var err error
	fields := [...]struct {
		p    *float32
		name string
	}{
		{&m.AngleMin, "angle_min"}, {&m.AngleMax, "angle_max"},
		{&m.AngleIncrement, "angle_increment"}, {&m.TimeIncrement, "time_increment"},
		{&m.ScanTime, "scan_time"}, {&m.RangeMin, "range_min"}, {&m.RangeMax, "range_max"},
	}
	for _, f := range fields {
		if *f.p, err = c.float32(f.name); err != nil {
			return err
		}
	}
	n, err := c.count(4, "ranges")
	if err != nil {
		return err
	}
	m.Ranges = resize(m.Ranges, n)
	if err := c.float32s(m.Ranges, "ranges"); err != nil {
		return err
	}
	n, err = c.count(4, "intensities")
	if err != nil {
		return err
	}
	m.Intensities = resize(m.Intensities, n)
	return c.float32s(m.Intensities, "intensities")
}

// resize returns s with length n, reusing its array when it is big enough.
// A nil s stays nil for n == 0 so decoded empty arrays compare equal to
// zero values.
func resize(s []float32, n int) []float32 {
	if n <= cap(s) {
		return s[:n]
	}
	return make([]float32, n)
}

// ScanHeader is what the LaserScan fast path returns: the header, and the
// array lengths without copying the arrays.
type ScanHeader struct {
	Header         Header
	NumRanges      int
	NumIntensities int
	// Info is filled as by DecodeLaserScanInto: a message that passes the
	// fast path decodes fully with the same Size and Trailing.
	Info Info
}

// DecodeLaserScanHeader reads stamp and frame_id and checks the arrays'
// bounds without copying them. It accepts exactly the messages
// DecodeLaserScan accepts. The frame id is the only allocation; use
// DecodeLaserScanHeaderInto to avoid even that.
func DecodeLaserScanHeader(data []byte) (ScanHeader, error) {
	var h ScanHeader
	if err := DecodeLaserScanHeaderInto(&h, data); err != nil {
		return ScanHeader{}, err
	}
	return h, nil
}

// DecodeLaserScanHeaderInto is DecodeLaserScanHeader writing into dst; when
// dst.Header.FrameID already holds the message's frame id it is kept, so a
// stream of scans from one laser decodes with zero allocations.
func DecodeLaserScanHeaderInto(dst *ScanHeader, data []byte) error {
	c, enc, err := newCursor(data, TypeLaserScan)
	if err != nil {
		return err
	}
	if err := c.scanHeader(dst); err != nil {
		return prefixField(err, "LaserScan.")
	}
	dst.Info = c.info(enc)
	return nil
}

func (c *cursor) scanHeader(dst *ScanHeader) error {
	if err := c.scanFront(&dst.Header); err != nil {
		return err
	}
	n, err := c.count(4, "ranges")
	if err != nil {
		return err
	}
	if err := c.skipFloat32s(n, "ranges"); err != nil {
		return err
	}
	m, err := c.count(4, "intensities")
	if err != nil {
		return err
	}
	if err := c.skipFloat32s(m, "intensities"); err != nil {
		return err
	}
	dst.NumRanges, dst.NumIntensities = n, m
	return nil
}

// scanFront reads the header and steps over angle_min .. range_max,
// seven float32 the fast path does not need.
func (c *cursor) scanFront(h *Header) error {
	if err := c.header(h); err != nil {
		return err
	}
	if err := c.skip(4, 4, "angle_min"); err != nil {
		return err
	}
	if err := c.skip(24, 4, "angle_max"); err != nil {
		return c.float32Fields(err)
	}
	return nil
}

// float32Fields rewrites a short skip over angle_max..range_max into the
// error the full decoder gives, naming the first field that does not fit.
func (c *cursor) float32Fields(err error) error {
	de, ok := err.(*DecodeError)
	if !ok {
		return err
	}
	names := [...]string{"angle_max", "angle_increment", "time_increment", "scan_time", "range_min", "range_max"}
	i := de.Have / 4 // Have < 24, as the skip over the 24 bytes failed: i < 6
	de.Field = names[i]
	de.Offset += 4 * i
	de.Need = 4
	de.Have = max(len(c.b)-de.Offset, 0)
	return de
}

// DecodeTFMessage decodes a tf2_msgs/msg/TFMessage.
func DecodeTFMessage(data []byte) (TFMessage, error) {
	var m TFMessage
	if _, err := DecodeTFMessageInto(&m, data); err != nil {
		return TFMessage{}, err
	}
	return m, nil
}

// DecodeTFMessageInto decodes into dst, reusing dst.Transforms' array and
// any frame id strings that are unchanged at the same position, so a steady
// /tf stream decodes without allocating. On error dst holds partial data.
// The caller must not keep dst.Transforms across calls (copy the elements).
func DecodeTFMessageInto(dst *TFMessage, data []byte) (Info, error) {
	if enc, _ := ReadEncapsulation(data); enc == CDRLE {
		if end, noNUL, ok := tfMessageLE(dst, data); ok {
			return Info{Encapsulation: CDRLE, Size: end, Trailing: len(data) - end, StringsWithoutNUL: noNUL}, nil
		}
	}
	c, enc, err := newCursor(data, TypeTFMessage)
	if err != nil {
		return Info{}, err
	}
	if err := c.tfMessage(dst); err != nil {
		return Info{}, prefixField(err, "TFMessage.")
	}
	return c.info(enc), nil
}

func (c *cursor) tfMessage(m *TFMessage) error {
	n, err := c.count(minTransformStamped, "transforms")
	if err != nil {
		return err
	}
	if n <= cap(m.Transforms) {
		m.Transforms = m.Transforms[:n]
	} else {
		old := m.Transforms
		m.Transforms = make([]TransformStamped, n)
		copy(m.Transforms, old) // keeps their strings for reuse
	}
	for i := range m.Transforms {
		if err := c.transformStamped(&m.Transforms[i]); err != nil {
			return prefixField(err, indexed("transforms", i)+".")
		}
	}
	return nil
}

func (c *cursor) transformStamped(t *TransformStamped) error {
	if err := c.header(&t.Header); err != nil {
		return err
	}
	id, err := c.string("child_frame_id", t.ChildFrameID)
	if err != nil {
		return err
	}
	t.ChildFrameID = id
	// The seven float64 are contiguous once aligned: one check for all.
	c.align(8)
	if have := len(c.b) - c.pos; have < 56 {
		i := max(have, 0) / 8 // the first value that does not fit
		return shortErr(c.typ, transformFields[i], c.pos+8*i, 8, have-8*i)
	}
	var v [7]float64
	b := c.b[c.pos : c.pos+56]
	if c.le {
		for i := range v {
			v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[:8]))
			b = b[8:]
		}
	} else {
		for i := range v {
			v[i] = math.Float64frombits(binary.BigEndian.Uint64(b[:8]))
			b = b[8:]
		}
	}
	c.pos += 56
	t.Transform = Transform{Translation: Vector3{X: v[0], Y: v[1], Z: v[2]},
		Rotation: Quaternion{X: v[3], Y: v[4], Z: v[5], W: v[6]}}
	return nil
}

// transformFields names a Transform's float64 fields in wire order.
var transformFields = [...]string{
	"transform.translation.x", "transform.translation.y", "transform.translation.z",
	"transform.rotation.x", "transform.rotation.y", "transform.rotation.z", "transform.rotation.w",
}

// DecodeClock decodes a rosgraph_msgs/msg/Clock.
func DecodeClock(data []byte) (Clock, error) {
	m, _, err := DecodeClockInfo(data)
	return m, err
}

// DecodeClockInfo is DecodeClock that also returns the layout Info.
func DecodeClockInfo(data []byte) (Clock, Info, error) {
	c, enc, err := newCursor(data, TypeClock)
	if err != nil {
		return Clock{}, Info{}, err
	}
	t, err := c.time("clock.sec", "clock.nanosec")
	if err != nil {
		return Clock{}, Info{}, prefixField(err, "Clock.")
	}
	return Clock{Clock: t}, c.info(enc), nil
}

// Log severity levels (rcl_interfaces/msg/Log constants).
const (
	LogDebug uint8 = 10
	LogInfo  uint8 = 20
	LogWarn  uint8 = 30
	LogError uint8 = 40
	LogFatal uint8 = 50
)

// DecodeLog decodes an rcl_interfaces/msg/Log (what /rosout carries).
func DecodeLog(data []byte) (Log, error) {
	m, _, err := DecodeLogInfo(data)
	return m, err
}

// DecodeLogInfo is DecodeLog that also returns the layout Info.
func DecodeLogInfo(data []byte) (Log, Info, error) {
	c, enc, err := newCursor(data, TypeLog)
	if err != nil {
		return Log{}, Info{}, err
	}
	var m Log
	if err := c.log(&m); err != nil {
		return Log{}, Info{}, prefixField(err, "Log.")
	}
	return m, c.info(enc), nil
}

func (c *cursor) log(m *Log) error {
	var err error
	if m.Stamp, err = c.time("stamp.sec", "stamp.nanosec"); err != nil {
		return err
	}
	if m.Level, err = c.uint8("level"); err != nil {
		return err
	}
	for _, f := range [...]struct {
		p    *string
		name string
	}{{&m.Name, "name"}, {&m.Msg, "msg"}, {&m.File, "file"}, {&m.Function, "function"}} {
		if *f.p, err = c.string(f.name, ""); err != nil {
			return err
		}
	}
	m.Line, err = c.uint32("line")
	return err
}
