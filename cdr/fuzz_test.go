package cdr

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// Each target decodes arbitrary bytes; on success it re-encodes in the
// message's own byte order, decodes again and requires the same value
// (floats compared by bit pattern, so NaN payloads must survive), and
// requires the re-encoding to be a fixed point. Failures must be
// *DecodeErrors with one of the documented causes. Crashers found by
// `go test -fuzz` are kept in testdata/fuzz/FuzzXxx/ and replayed by plain
// `go test`.

// seeds returns the encoder's output in both orders plus the doc examples
// and a few damaged variants.
func seeds(f *testing.F, hexes []string, encode func(binary.ByteOrder) [][]byte) {
	for _, h := range hexes {
		b := unhex(f, h)
		f.Add(b)
		f.Add(append(bytes.Clone(b), 0, 0, 0)) // Cyclone-style padding
		f.Add(b[:len(b)/2])
	}
	for _, o := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		for _, b := range encode(o) {
			f.Add(b)
		}
	}
}

func checkDecodeErr(t *testing.T, err error) {
	t.Helper()
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error is not a *DecodeError: %v", err)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, ErrBadLength) && !errors.Is(err, ErrUnsupportedEncapsulation) {
		t.Fatalf("undocumented cause: %v", err)
	}
	if de.Field == "" || de.Offset < 0 || de.Have < 0 || de.Need < 0 {
		t.Fatalf("incomplete error: %+v", de)
	}
}

func orderOf(data []byte) binary.ByteOrder {
	enc, _ := ReadEncapsulation(data)
	return enc.ByteOrder()
}

func FuzzDecodeLaserScan(f *testing.F) {
	seeds(f, []string{hexScanLE, hexScanBE}, func(o binary.ByteOrder) [][]byte {
		return [][]byte{
			AppendLaserScan(nil, ptr(sampleScan(16, "base_scan")), o),
			AppendLaserScan(nil, ptr(sampleScan(0, "")), o),
			AppendLaserScan(nil, &LaserScan{Header: Header{FrameID: "l"}, Ranges: []float32{1}}, o),
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeLaserScan(data)
		h, herr := DecodeLaserScanHeader(data)
		if (err == nil) != (herr == nil) {
			t.Fatalf("full decode err %v, header path err %v", err, herr)
		}
		if err != nil {
			checkDecodeErr(t, err)
			if err.Error() != herr.Error() {
				t.Fatalf("errors differ: %v vs %v", err, herr)
			}
			return
		}
		if h.Header != m.Header || h.NumRanges != len(m.Ranges) || h.NumIntensities != len(m.Intensities) {
			t.Fatalf("header path %+v disagrees with full decode", h)
		}
		enc := AppendLaserScan(nil, &m, orderOf(data))
		m2, err := DecodeLaserScan(enc)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !sameLaserScan(&m, &m2) {
			t.Fatalf("round trip changed the value:\n%+v\n%+v", m, m2)
		}
		if enc2 := AppendLaserScan(nil, &m2, orderOf(data)); !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not a fixed point")
		}
		// Decoding into a value holding this scan must give it again.
		if _, err := DecodeLaserScanInto(&m2, data); err != nil || !sameLaserScan(&m, &m2) {
			t.Fatalf("reused decode differs (err %v)", err)
		}
	})
}

func FuzzDecodeTFMessage(f *testing.F) {
	seeds(f, []string{hexTFLE, hexTFBE}, func(o binary.ByteOrder) [][]byte {
		return [][]byte{
			AppendTFMessage(nil, ptr(sampleTF()), o),
			AppendTFMessage(nil, &TFMessage{}, o),
			AppendTFMessage(nil, &TFMessage{Transforms: make([]TransformStamped, 2)}, o),
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeTFMessage(data)
		if err != nil {
			checkDecodeErr(t, err)
			return
		}
		enc := AppendTFMessage(nil, &m, orderOf(data))
		m2, err := DecodeTFMessage(enc)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !sameTF(&m, &m2) {
			t.Fatalf("round trip changed the value:\n%+v\n%+v", m, m2)
		}
		if enc2 := AppendTFMessage(nil, &m2, orderOf(data)); !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not a fixed point")
		}
		reused := sampleTF()
		if _, err := DecodeTFMessageInto(&reused, data); err != nil || !sameTF(&m, &reused) {
			t.Fatalf("reused decode differs (err %v)", err)
		}
	})
}

func FuzzDecodeClock(f *testing.F) {
	seeds(f, []string{hexClockLE, hexClockBE}, func(o binary.ByteOrder) [][]byte {
		return [][]byte{AppendClock(nil, &Clock{Clock: Time{Sec: -1, Nanosec: 4_000_000_000}}, o)}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeClock(data)
		if err != nil {
			checkDecodeErr(t, err)
			return
		}
		enc := AppendClock(nil, &m, orderOf(data))
		m2, err := DecodeClock(enc)
		if err != nil || m2 != m {
			t.Fatalf("round trip: %+v -> %+v (err %v)", m, m2, err)
		}
		if !bytes.Equal(enc[4:], data[4:12]) { // same order: the body must come back byte for byte
			t.Fatalf("clock body changed: % x vs % x", enc, data)
		}
	})
}

func FuzzDecodeLog(f *testing.F) {
	seeds(f, []string{hexLogLE}, func(o binary.ByteOrder) [][]byte {
		return [][]byte{
			AppendLog(nil, &exampleLog, o),
			AppendLog(nil, &Log{Level: LogWarn, Msg: "Message Filter dropping message: frame 'laser' at time 12.300 for reason 'discarding message because the queue is full'"}, o),
			AppendLog(nil, &Log{}, o),
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeLog(data)
		if err != nil {
			checkDecodeErr(t, err)
			return
		}
		enc := AppendLog(nil, &m, orderOf(data))
		m2, err := DecodeLog(enc)
		if err != nil || m2 != m {
			t.Fatalf("round trip: %+v -> %+v (err %v)", m, m2, err)
		}
		if enc2 := AppendLog(nil, &m2, orderOf(data)); !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not a fixed point")
		}
	})
}

// FuzzTFFastPath: whenever the little-endian TFMessage fast path accepts
// bytes, the general cursor decodes them to the same value and Info; when
// the general cursor accepts little-endian bytes, so does the fast path.
func FuzzTFFastPath(f *testing.F) {
	seeds(f, []string{hexTFLE}, func(o binary.ByteOrder) [][]byte {
		noNUL := AppendTFMessage(nil, ptr(sampleTF()), binary.LittleEndian)
		return [][]byte{
			AppendTFMessage(nil, ptr(sampleTF()), o),
			AppendTFMessage(nil, &TFMessage{}, o),
			AppendTFMessage(nil, &TFMessage{Transforms: make([]TransformStamped, 2)}, o),
			noNUL[:len(noNUL)-3],
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		var slow TFMessage
		c, enc, err := newCursor(data, TypeTFMessage)
		if err == nil {
			err = c.tfMessage(&slow)
		}
		if enc != CDRLE {
			return
		}
		var fast TFMessage
		end, noNUL, ok := tfMessageLE(&fast, data)
		switch {
		case ok && err != nil:
			t.Fatalf("fast path accepted what the cursor refuses: %v", err)
		case !ok && err == nil:
			t.Fatalf("fast path refused what the cursor decodes")
		case ok && (!sameTF(&fast, &slow) || end != c.pos || noNUL != c.noNUL):
			t.Fatalf("fast path: end %d, %d without NUL, %+v\ncursor:    end %d, %d, %+v", end, noNUL, fast, c.pos, c.noNUL, slow)
		}
	})
}
