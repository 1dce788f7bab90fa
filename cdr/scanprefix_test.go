package cdr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// rangesEnd is the offset just past a scan's ranges count, or -1 when the
// scan's front (header, seven float32, count) does not decode.
func rangesEnd(data []byte) int {
	c, _, err := newCursor(data, TypeLaserScan)
	if err != nil {
		return -1
	}
	var h Header
	if c.scanFront(&h) != nil {
		return -1
	}
	if _, err := c.uint32("ranges"); err != nil {
		return -1
	}
	return c.pos
}

// checkScanPrefix decodes the first k bytes of data as a prefix of a
// len(data)-byte payload and holds it to the whole decode of data.
func checkScanPrefix(t *testing.T, data []byte, k int) {
	t.Helper()
	var whole, pre ScanHeader
	werr := DecodeLaserScanHeaderInto(&whole, data)
	perr := DecodeLaserScanPrefixInto(&pre, data[:k], int64(len(data)))
	end := rangesEnd(data)
	switch {
	case k >= len(data):
		if (werr == nil) != (perr == nil) || werr != nil && werr.Error() != perr.Error() || pre != whole {
			t.Fatalf("whole payload: prefix path (%+v, %v), header path (%+v, %v)", pre, perr, whole, werr)
		}
	case end < 0 || k < end:
		// The front does not decode, or lies past the prefix: never a
		// success the bytes cannot back.
		if perr == nil {
			t.Fatalf("k=%d of %d (ranges count ends at %d): prefix decoded %+v", k, len(data), end, pre)
		}
		checkDecodeErr(t, perr)
	case werr != nil:
		var de *DecodeError
		if perr == nil && pre.NumIntensities == -1 && errors.As(werr, &de) && de.Field == "LaserScan.intensities" {
			return // the intensities count lies past the prefix: unchecked, by design
		}
		if perr == nil || perr.Error() != werr.Error() {
			t.Fatalf("k=%d of %d: prefix err %v, whole err %v", k, len(data), perr, werr)
		}
	default:
		if perr != nil {
			t.Fatalf("k=%d of %d: prefix err %v on a scan that decodes whole", k, len(data), perr)
		}
		if pre.Header != whole.Header || pre.NumRanges != whole.NumRanges ||
			pre.NumIntensities != whole.NumIntensities && pre.NumIntensities != -1 {
			t.Fatalf("k=%d of %d: prefix %+v, whole %+v", k, len(data), pre, whole)
		}
		if pre.Info.Encapsulation != whole.Info.Encapsulation {
			t.Fatalf("encapsulation %v, whole %v", pre.Info.Encapsulation, whole.Info.Encapsulation)
		}
	}
}

func TestDecodeLaserScanPrefix(t *testing.T) {
	scan := sampleScan(300, "base_scan")
	le := AppendLaserScan(nil, &scan, binary.LittleEndian)
	be := AppendLaserScan(nil, &scan, binary.BigEndian)
	end := rangesEnd(le)
	intensAt := end + 4*len(scan.Ranges)
	tests := []struct {
		name string
		data []byte
		k    int
		want error // nil: decodes
		nInt int   // NumIntensities on success
	}{
		{"whole", le, len(le), nil, len(scan.Intensities)},
		{"count only", le, end, nil, -1},
		{"intensities count in prefix", le, intensAt + 4, nil, len(scan.Intensities)},
		{"big endian", be, end + 8, nil, -1},
		{"cut in ranges", le[:intensAt-8], end, ErrBadLength, 0},
		{"cut before intensities count", le[:intensAt+2], end, io.ErrUnexpectedEOF, 0},
		{"cut in intensities", le[:len(le)-4], intensAt + 4, ErrBadLength, 0},
		// What lies past the prefix is not checked: a wrong intensities
		// count there goes unnoticed (the analysis never reads the arrays).
		{"intensities count past prefix, cut in intensities", le[:len(le)-4], end, nil, -1},
		{"prefix inside header", le, 10, io.ErrUnexpectedEOF, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkScanPrefix(t, tc.data, tc.k)
			var h ScanHeader
			err := DecodeLaserScanPrefixInto(&h, tc.data[:tc.k], int64(len(tc.data)))
			if tc.want == nil {
				if err != nil || h.NumIntensities != tc.nInt || h.Header.FrameID != "base_scan" {
					t.Fatalf("got %+v, %v; want %d intensities", h, err, tc.nInt)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}
}

func FuzzDecodeLaserScanPrefix(f *testing.F) {
	for _, o := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		b := AppendLaserScan(nil, ptr(sampleScan(40, "laser")), o)
		f.Add(b, uint16(rangesEnd(b)))
		f.Add(b[:len(b)-6], uint16(rangesEnd(b)+8))
		f.Add(b[:len(b)/2], uint16(20))
	}
	f.Fuzz(func(t *testing.T, data []byte, k uint16) {
		checkScanPrefix(t, data, min(int(k), len(data)))
	})
}

// TestScanPrefixEdges pins DecodeLaserScanPrefixInto on the 72-byte doc
// example (ranges count at 52, intensities count at 68) read as a prefix:
// the intensities count may end exactly at the payload's end and may be
// torn by the prefix's end; a count at the cap 2^24 is accepted when the
// payload is that long.
func TestScanPrefixEdges(t *testing.T) {
	scan := unhex(t, hexScanLE)
	capped := bytes.Clone(scan[:56])
	binary.LittleEndian.PutUint32(capped[52:], maxCount)
	above := bytes.Clone(capped)
	binary.LittleEndian.PutUint32(above[52:], maxCount+1)
	const capSize = 56 + 4*maxCount + 4
	tests := []struct {
		name             string
		data             []byte
		size             int64
		ranges, intenses int
		want             *DecodeError
	}{
		{"intensities count ends the payload", scan[:56], 72, 3, -1, nil},
		{"intensities count torn by the prefix", scan[:70], 72, 3, -1, nil},
		{"intensities count in the prefix", scan[:72], 76, 3, 0, nil},
		{"no room for the intensities count", scan[:56], 71, 0, 0, &DecodeError{Field: "LaserScan.intensities", Offset: 68,
			Need: 4, Have: 3, Err: io.ErrUnexpectedEOF}},
		{"prefix inside the header", scan[:10], 72, 0, 0, &DecodeError{Field: "LaserScan.header.stamp.nanosec", Offset: 8,
			Need: 4, Have: 2, Detail: "only the first 10 of 72 bytes were read", Err: io.ErrUnexpectedEOF}},
		{"ranges at the cap", capped, capSize, maxCount, -1, nil},
		{"ranges at the cap, payload one byte short", capped, capSize - 5, 0, 0, &DecodeError{Field: "LaserScan.ranges", Offset: 52,
			Need: 4 * maxCount, Have: 4*maxCount - 1, Detail: "count 16777216", Err: ErrBadLength}},
		{"ranges above the cap", above, capSize + 4, 0, 0, &DecodeError{Field: "LaserScan.ranges", Offset: 52,
			Need: 4 * (maxCount + 1), Have: 4*maxCount + 8, Detail: "count 16777217 exceeds the cap of 16777216", Err: ErrBadLength}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h ScanHeader
			err := DecodeLaserScanPrefixInto(&h, tt.data, tt.size)
			if tt.want != nil {
				checkDecodeError(t, err, tt.want)
				return
			}
			if err != nil || h.NumRanges != tt.ranges || h.NumIntensities != tt.intenses || h.Header != exampleScan.Header {
				t.Errorf("got %+v, %v; want %d ranges, %d intensities", h, err, tt.ranges, tt.intenses)
			}
		})
	}
}
