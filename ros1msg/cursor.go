package ros1msg

import (
	"encoding/binary"
	"math"
	"strconv"
)

// cursor reads ROS 1 serialized fields from b in order.
type cursor struct {
	b   []byte
	pos int
	typ string
}

func (c *cursor) need(n int, field string) error {
	if len(c.b)-c.pos < n {
		return shortErr(c.typ, field, c.pos, n, len(c.b)-c.pos)
	}
	return nil
}

func (c *cursor) uint8(field string) (uint8, error) {
	if err := c.need(1, field); err != nil {
		return 0, err
	}
	v := c.b[c.pos]
	c.pos++
	return v, nil
}

func (c *cursor) uint32(field string) (uint32, error) {
	if err := c.need(4, field); err != nil {
		return 0, err
	}
	v := binary.LittleEndian.Uint32(c.b[c.pos:])
	c.pos += 4
	return v, nil
}

func (c *cursor) float32(field string) (float32, error) {
	v, err := c.uint32(field)
	return math.Float32frombits(v), err
}

func (c *cursor) float64(field string) (float64, error) {
	if err := c.need(8, field); err != nil {
		return 0, err
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(c.b[c.pos:]))
	c.pos += 8
	return v, nil
}

func (c *cursor) time(field string) (Time, error) {
	if err := c.need(8, field); err != nil {
		return Time{}, err
	}
	t := Time{Sec: binary.LittleEndian.Uint32(c.b[c.pos:]), Nsec: binary.LittleEndian.Uint32(c.b[c.pos+4:])}
	c.pos += 8
	return t, nil
}

// count reads an array count whose elements take at least elem bytes
// each, and checks them against the bytes left before anyone allocates.
func (c *cursor) count(elem int, field string) (int, error) {
	at := c.pos
	n, err := c.uint32(field)
	if err != nil {
		return 0, err
	}
	left := len(c.b) - c.pos
	if uint64(n)*uint64(elem) > uint64(left) {
		return 0, &DecodeError{Type: c.typ, Field: field, Offset: at, Need: int(min(uint64(n)*uint64(elem), math.MaxInt32)), Have: left,
			Detail: "count " + strconv.FormatUint(uint64(n), 10), Err: ErrBadLength}
	}
	return int(n), nil
}

// string reads a length-prefixed string; old is returned (no allocation)
// when the bytes equal it.
func (c *cursor) string(field, old string) (string, error) {
	at := c.pos
	n, err := c.uint32(field)
	if err != nil {
		return "", err
	}
	left := len(c.b) - c.pos
	if uint64(n) > uint64(left) {
		return "", &DecodeError{Type: c.typ, Field: field, Offset: at, Need: int(min(uint64(n), math.MaxInt32)), Have: left, Err: ErrBadLength}
	}
	raw := c.b[c.pos : c.pos+int(n)]
	c.pos += int(n)
	if string(raw) == old {
		return old, nil
	}
	return string(raw), nil
}

func (c *cursor) header(dst *Header) error {
	var err error
	if dst.Seq, err = c.uint32("header.seq"); err != nil {
		return err
	}
	if dst.Stamp, err = c.time("header.stamp"); err != nil {
		return err
	}
	dst.FrameID, err = c.string("header.frame_id", dst.FrameID)
	return err
}

func (c *cursor) info() Info { return Info{Size: c.pos, Trailing: len(c.b) - c.pos} }
