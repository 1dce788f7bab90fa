package cdr

import "errors"

// HeaderStampOffset is where header.stamp starts in a header-first
// message: right after the 4-byte encapsulation header (sec int32, then
// nanosec uint32, both 4-aligned).
const HeaderStampOffset = EncapsulationSize

// ErrStampRange is returned by PutStamp for a time a
// builtin_interfaces/Time cannot hold (before 1970 or past 2038).
var ErrStampRange = errors.New("stamp out of range of builtin_interfaces/Time")

// TFStampOffsets appends to dst, for each transform of a TFMessage in
// wire order, the byte offset of its header.stamp, so that a writer can
// patch one transform's stamp and leave every other byte as it was. It
// checks the message as far as DecodeTFMessage does.
func TFStampOffsets(dst []int, data []byte) ([]int, error) {
	c, _, err := newCursor(data, TypeTFMessage)
	if err != nil {
		return dst, err
	}
	n, err := c.count(minTransformStamped, "transforms")
	if err != nil {
		return dst, prefixField(err, "TFMessage.")
	}
	for i := 0; i < n; i++ {
		if err := c.need(4, "header.stamp.sec"); err != nil {
			return dst, prefixField(err, "TFMessage."+indexed("transforms", i)+".")
		}
		dst = append(dst, c.pos)
		var t TransformStamped
		if err := c.transformStamped(&t); err != nil {
			return dst, prefixField(err, "TFMessage."+indexed("transforms", i)+".")
		}
	}
	return dst, nil
}

// Stamp reads the builtin_interfaces/Time at off of a CDR message whose
// encapsulation header gives the byte order.
func Stamp(data []byte, off int) (int64, error) {
	enc, err := ReadEncapsulation(data)
	if err != nil {
		return 0, err
	}
	if !enc.Supported() {
		return 0, ErrUnsupportedEncapsulation
	}
	if off < EncapsulationSize || off+8 > len(data) {
		return 0, shortErr("", "stamp", off, 8, len(data)-off)
	}
	o := enc.ByteOrder()
	t := Time{Sec: int32(o.Uint32(data[off:])), Nanosec: o.Uint32(data[off+4:])}
	return t.Nanoseconds(), nil
}

// PutStamp writes ns as a builtin_interfaces/Time at off, in the byte
// order of the message's encapsulation header. Only those 8 bytes change.
func PutStamp(data []byte, off int, ns int64) error {
	enc, err := ReadEncapsulation(data)
	if err != nil {
		return err
	}
	if !enc.Supported() {
		return ErrUnsupportedEncapsulation
	}
	if off < EncapsulationSize || off+8 > len(data) {
		return shortErr("", "stamp", off, 8, len(data)-off)
	}
	if ns < 0 || ns/1_000_000_000 > 1<<31-1 {
		return ErrStampRange
	}
	o := enc.ByteOrder()
	o.PutUint32(data[off:], uint32(ns/1_000_000_000))
	o.PutUint32(data[off+4:], uint32(ns%1_000_000_000))
	return nil
}
