package ros1msg

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// minTransformStamped is the smallest serialized TransformStamped: seq 4,
// stamp 8, two empty strings' lengths 4+4, seven float64 56.
const minTransformStamped = 76

// shortName turns "sensor_msgs/LaserScan" into "LaserScan" for paths.
func shortName(typ string) string { return typ[strings.LastIndexByte(typ, '/')+1:] }

// DecodeHeaderInto reads the std_msgs/Header at the start of a stamped
// message (StampedFromDefinition says which types have one) into dst,
// ignoring the rest, so data may be a prefix of the payload. dst.FrameID is
// kept when unchanged. typ names the type in errors. A frame id with a
// control byte or invalid UTF-8 gives ErrBadFrameID with dst filled.
func DecodeHeaderInto(dst *Header, data []byte, typ string) error {
	c := cursor{b: data, typ: typ}
	if err := c.header(dst); err != nil {
		return prefixField(err, shortName(typ)+".")
	}
	if why := frameIDProblem(dst.FrameID); why != "" {
		return &DecodeError{Type: typ, Field: shortName(typ) + ".header.frame_id", Offset: 12, Detail: why, Err: ErrBadFrameID}
	}
	return nil
}

// frameIDProblem says what is wrong with the bytes of a frame id, or "".
// A leading '/' is legal: ROS 1 tf2 strips it (see the analysis).
func frameIDProblem(id string) string {
	for i := 0; i < len(id); i++ {
		if b := id[i]; b < 0x20 || b == 0x7f {
			return "control byte 0x" + strconv.FormatUint(uint64(b), 16) + " at index " + strconv.Itoa(i)
		}
	}
	if !utf8.ValidString(id) {
		return "not valid UTF-8"
	}
	return ""
}

// DecodeLaserScanHeaderInto reads a whole sensor_msgs/LaserScan's header
// and timing fields and checks that its two float32 arrays fit the message
// exactly as their counts say, without copying them.
func DecodeLaserScanHeaderInto(dst *ScanHeader, data []byte) error {
	return DecodeLaserScanPrefixInto(dst, data, int64(len(data)))
}

// DecodeLaserScanPrefixInto is DecodeLaserScanHeaderInto for a payload of
// size bytes of which data holds only the first (a prefix read). The
// array counts are checked against size; an intensities count past data
// gives NumIntensities −1. Info.Size is then the bytes the arrays would
// end at, from the counts.
func DecodeLaserScanPrefixInto(dst *ScanHeader, data []byte, size int64) error {
	if size <= int64(len(data)) {
		data, size = data[:max(size, 0)], int64(len(data[:max(size, 0)]))
	}
	c := cursor{b: data, typ: TypeLaserScan}
	if err := c.scanHeader(dst, size); err != nil {
		return prefixField(err, "LaserScan.")
	}
	dst.Info = Info{Size: c.pos, Trailing: int(size) - c.pos}
	return nil
}

// scanHeader reads the header and the seven float32 from c.b and checks
// the arrays against size (≥ len(c.b)); c.pos ends past the arrays.
func (c *cursor) scanHeader(dst *ScanHeader, size int64) error {
	if err := c.header(&dst.Header); err != nil {
		return err
	}
	names := [...]string{"angle_min", "angle_max", "angle_increment", "time_increment", "scan_time", "range_min", "range_max"}
	var v [len(names)]float32
	for i, n := range names {
		var err error
		if v[i], err = c.float32(n); err != nil {
			return err
		}
	}
	dst.TimeIncrement, dst.ScanTime = v[3], v[4]
	dst.NumRanges, dst.NumIntensities = -1, -1
	for _, f := range [...]struct {
		name string
		n    *int
	}{{"ranges", &dst.NumRanges}, {"intensities", &dst.NumIntensities}} {
		if c.pos+4 > len(c.b) && int64(c.pos)+4 <= size {
			return nil // the count lies past the prefix, within the payload
		}
		n, err := c.sizedCount(f.name, size)
		if err != nil {
			return err
		}
		*f.n = n
		if c.pos += 4 * n; c.pos > len(c.b) {
			// Past the prefix: the next count cannot be read.
			c.b = c.b[:0]
		}
	}
	return nil
}

// sizedCount reads a float32 array count at c.pos (in c.b) and checks it
// against a payload of size bytes.
func (c *cursor) sizedCount(field string, size int64) (int, error) {
	at := c.pos
	n, err := c.uint32(field)
	if err != nil {
		return 0, err
	}
	left := size - int64(c.pos)
	if 4*uint64(n) > uint64(max(left, 0)) {
		return 0, &DecodeError{Type: c.typ, Field: field, Offset: at, Need: int(min(4*uint64(n), 1<<31-1)), Have: int(max(left, 0)),
			Detail: "count " + strconv.FormatUint(uint64(n), 10), Err: ErrBadLength}
	}
	return int(n), nil
}

// DecodeTFMessageInto decodes a tf2_msgs/TFMessage or tf/tfMessage into
// dst, reusing dst.Transforms and unchanged frame ids. On error dst holds
// partial data. The caller must not keep dst.Transforms across calls.
func DecodeTFMessageInto(dst *TFMessage, data []byte) (Info, error) {
	c := cursor{b: data, typ: TypeTFMessage}
	n, err := c.count(minTransformStamped, "transforms")
	if err != nil {
		return Info{}, prefixField(err, "TFMessage.")
	}
	if cap(dst.Transforms) < n {
		dst.Transforms = append(dst.Transforms[:cap(dst.Transforms)], make([]TransformStamped, n-cap(dst.Transforms))...)
	}
	dst.Transforms = dst.Transforms[:n]
	for i := range dst.Transforms {
		if err := c.transformStamped(&dst.Transforms[i]); err != nil {
			dst.Transforms = dst.Transforms[:i]
			return Info{}, prefixField(err, "TFMessage."+indexed("transforms", i)+".")
		}
	}
	return c.info(), nil
}

func (c *cursor) transformStamped(t *TransformStamped) error {
	if c.transformStampedFast(t) {
		return nil
	}
	return c.transformStampedChecked(t)
}

// transformStampedFast reads a TransformStamped whose bytes are all there
// with one bounds check per string instead of one call per field: tf is
// most of a bag's messages. It reads exactly what transformStampedChecked
// does (FuzzTransformStampedFast holds them equal); false leaves c and t
// alone, and the checked path then finds and reports the problem.
func (c *cursor) transformStampedFast(t *TransformStamped) bool {
	b := c.b[c.pos:]
	if len(b) < 16 {
		return false
	}
	fl := uint64(binary.LittleEndian.Uint32(b[12:]))
	if fl+4 > uint64(len(b)-16) {
		return false
	}
	p := 16 + int(fl)
	cl := uint64(binary.LittleEndian.Uint32(b[p:]))
	if cl+56 > uint64(len(b)-p-4) {
		return false
	}
	q := p + 4 + int(cl)
	t.Header.Seq = binary.LittleEndian.Uint32(b)
	t.Header.Stamp = Time{Sec: binary.LittleEndian.Uint32(b[4:]), Nsec: binary.LittleEndian.Uint32(b[8:])}
	if raw := b[16:p]; string(raw) != t.Header.FrameID {
		t.Header.FrameID = string(raw)
	}
	if raw := b[p+4 : q]; string(raw) != t.ChildFrameID {
		t.ChildFrameID = string(raw)
	}
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b[q+8*i:])) }
	t.Transform = Transform{
		Translation: Vector3{X: f(0), Y: f(1), Z: f(2)},
		Rotation:    Quaternion{X: f(3), Y: f(4), Z: f(5), W: f(6)},
	}
	c.pos += q + 56
	return true
}

// transformStampedChecked reads a TransformStamped field by field, naming
// the field that does not fit.
func (c *cursor) transformStampedChecked(t *TransformStamped) error {
	if err := c.header(&t.Header); err != nil {
		return err
	}
	var err error
	if t.ChildFrameID, err = c.string("child_frame_id", t.ChildFrameID); err != nil {
		return err
	}
	tr := &t.Transform
	for _, f := range [...]struct {
		p    *float64
		name string
	}{
		{&tr.Translation.X, "transform.translation.x"}, {&tr.Translation.Y, "transform.translation.y"},
		{&tr.Translation.Z, "transform.translation.z"}, {&tr.Rotation.X, "transform.rotation.x"},
		{&tr.Rotation.Y, "transform.rotation.y"}, {&tr.Rotation.Z, "transform.rotation.z"},
		{&tr.Rotation.W, "transform.rotation.w"},
	} {
		if *f.p, err = c.float64(f.name); err != nil {
			return err
		}
	}
	return nil
}

// DecodeClock decodes a rosgraph_msgs/Clock.
func DecodeClock(data []byte) (Clock, Info, error) {
	c := cursor{b: data, typ: TypeClock}
	t, err := c.time("clock")
	if err != nil {
		return Clock{}, Info{}, prefixField(err, "Clock.")
	}
	return Clock{Clock: t}, c.info(), nil
}

// DecodeLog decodes a rosgraph_msgs/Log.
func DecodeLog(data []byte) (Log, Info, error) {
	c := cursor{b: data, typ: TypeLog}
	var l Log
	if err := c.log(&l); err != nil {
		return Log{}, Info{}, prefixField(err, "Log.")
	}
	return l, c.info(), nil
}

func (c *cursor) log(l *Log) error {
	if err := c.header(&l.Header); err != nil {
		return err
	}
	var err error
	if l.Level, err = c.uint8("level"); err != nil {
		return err
	}
	for _, f := range [...]struct {
		p    *string
		name string
	}{{&l.Name, "name"}, {&l.Msg, "msg"}, {&l.File, "file"}, {&l.Function, "function"}} {
		if *f.p, err = c.string(f.name, ""); err != nil {
			return err
		}
	}
	if l.Line, err = c.uint32("line"); err != nil {
		return err
	}
	n, err := c.count(4, "topics")
	if err != nil {
		return err
	}
	l.Topics = make([]string, 0, min(n, 64))
	for i := range n {
		s, err := c.string(indexed("topics", i), "")
		if err != nil {
			return err
		}
		l.Topics = append(l.Topics, s)
	}
	return nil
}
