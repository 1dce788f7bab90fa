package cdr

import "encoding/binary"

// DecodeLaserScanPrefixInto is DecodeLaserScanHeaderInto for a payload of
// size bytes of which data holds only the first (a prefix read: the
// storage gives the full length without the bytes). The header and the
// seven float32 after it are read from data; the two arrays are checked
// structurally, from their declared lengths against size, so a scan the
// whole decoder rejects for a length that does not fit is rejected here
// with the same error. The intensities count is checked when it lies
// within data; when it lies past it, NumIntensities is -1. Info holds the
// encapsulation only: the bytes past data were never seen.
//
// With size ≤ len(data) the message is whole and this is
// DecodeLaserScanHeaderInto of data[:size].
func DecodeLaserScanPrefixInto(dst *ScanHeader, data []byte, size int64) error {
	if size <= int64(len(data)) {
		return DecodeLaserScanHeaderInto(dst, data[:max(size, 0)])
	}
	c, enc, err := newCursor(data, TypeLaserScan)
	if err != nil {
		return err
	}
	if err := c.scanPrefix(dst, size); err != nil {
		return prefixField(err, "LaserScan.")
	}
	dst.Info = Info{Encapsulation: enc, StringsWithoutNUL: c.noNUL}
	return nil
}

// scanPrefix reads what of a scan lies in c.b and checks the array
// lengths against the payload's full size (> len(c.b)).
func (c *cursor) scanPrefix(dst *ScanHeader, size int64) error {
	if err := c.scanFront(&dst.Header); err != nil {
		return c.pastPrefix(err, size)
	}
	n, err := c.uint32("ranges")
	if err != nil {
		return c.pastPrefix(err, size)
	}
	if err := sizedCount(c.typ, "ranges", c.pos-4, n, size); err != nil {
		return err
	}
	// The count was read 4-aligned, so the floats need no padding and the
	// intensities count follows them directly.
	at := int64(c.pos) + 4*int64(n)
	if at+4 > size {
		return shortErr(c.typ, "intensities", int(at), 4, int(size-at))
	}
	dst.NumRanges, dst.NumIntensities = int(n), -1
	if at+4 > int64(len(c.b)) {
		return nil
	}
	var m uint32
	if c.le {
		m = binary.LittleEndian.Uint32(c.b[at:])
	} else {
		m = binary.BigEndian.Uint32(c.b[at:])
	}
	if err := sizedCount(c.typ, "intensities", int(at), m, size); err != nil {
		return err
	}
	dst.NumIntensities = int(m)
	return nil
}

// pastPrefix marks an error from the bytes read, in a payload that goes
// on past them: a header longer than the prefix is not a short message.
func (c *cursor) pastPrefix(err error, size int64) error {
	if de, ok := err.(*DecodeError); ok && de.Detail == "" {
		de.Detail = "only the first " + itoa(uint64(len(c.b))) + " of " + itoa(uint64(size)) + " bytes were read"
	}
	return err
}

// sizedCount is cursor.count's check for a count read at off of a payload
// of size bytes: its float32 elements must fit between the count and the
// payload's end. The error is the one count gives on the whole payload.
func sizedCount(typ, field string, off int, n uint32, size int64) error {
	left := size - int64(off) - 4
	need := 4 * uint64(n)
	if n <= maxCount && need <= uint64(max(left, 0)) {
		return nil
	}
	detail := "count " + itoa(uint64(n))
	if n > maxCount {
		detail += " exceeds the cap of " + itoa(maxCount)
	}
	return &DecodeError{Type: typ, Field: field, Offset: off, Need: int(need), Have: int(max(left, 0)),
		Detail: detail, Err: ErrBadLength}
}
