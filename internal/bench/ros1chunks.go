package bench

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pierrec/lz4/v4"
)

// ROS1Chunks decompresses every chunk of a ROS 1 bag (format 2.0) with the
// libraries bagread uses and does nothing else: the floor for reading a
// bz2 or lz4 bag. Its buffers are reused from call to call.
type ROS1Chunks struct {
	hdr, rec, out []byte
	lz            *lz4.Reader
}

// Decompress walks path's top-level records and decompresses each chunk,
// returning the uncompressed bytes.
func (d *ROS1Chunks) Decompress(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	magic := make([]byte, 13)
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != "#ROSBAG V2.0\n" {
		return 0, fmt.Errorf("bench: %s: not a ROS 1 bag (%v)", path, err)
	}
	var total int64
	var lb [4]byte
	for {
		if _, err := io.ReadFull(r, lb[:]); errors.Is(err, io.EOF) {
			return total, nil
		} else if err != nil {
			return total, fmt.Errorf("bench: %s: %w", path, err)
		}
		d.hdr = grow(d.hdr, int(binary.LittleEndian.Uint32(lb[:])))
		if _, err := io.ReadFull(r, d.hdr); err != nil {
			return total, fmt.Errorf("bench: %s: %w", path, err)
		}
		op, comp, size := ros1ChunkFields(d.hdr)
		if _, err := io.ReadFull(r, lb[:]); err != nil {
			return total, fmt.Errorf("bench: %s: %w", path, err)
		}
		n := int(binary.LittleEndian.Uint32(lb[:]))
		if op != 0x05 {
			if _, err := r.Discard(n); err != nil {
				return total, fmt.Errorf("bench: %s: %w", path, err)
			}
			continue
		}
		d.rec = grow(d.rec, n)
		if _, err := io.ReadFull(r, d.rec); err != nil {
			return total, fmt.Errorf("bench: %s: %w", path, err)
		}
		d.out = grow(d.out, int(size))
		var src io.Reader
		switch comp {
		case "none":
			total += int64(n)
			continue
		case "bz2":
			src = bzip2.NewReader(bytes.NewReader(d.rec))
		case "lz4":
			if d.lz == nil {
				d.lz = lz4.NewReader(nil)
			}
			d.lz.Reset(bytes.NewReader(d.rec))
			src = d.lz
		default:
			return total, fmt.Errorf("bench: %s: chunk compression %q", path, comp)
		}
		if _, err := io.ReadFull(src, d.out); err != nil {
			return total, fmt.Errorf("bench: %s: %s chunk: %w", path, comp, err)
		}
		total += int64(len(d.out))
	}
}

// ros1ChunkFields reads op, compression and size from a record header.
func ros1ChunkFields(h []byte) (op byte, comp string, size uint32) {
	for len(h) >= 4 {
		n := int(binary.LittleEndian.Uint32(h))
		if n > len(h)-4 {
			break
		}
		name, val, _ := bytes.Cut(h[4:4+n], []byte("="))
		switch string(name) {
		case "op":
			if len(val) == 1 {
				op = val[0]
			}
		case "compression":
			comp = string(val)
		case "size":
			if len(val) == 4 {
				size = binary.LittleEndian.Uint32(val)
			}
		}
		h = h[4+n:]
	}
	return op, comp, size
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
