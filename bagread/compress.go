package bagread

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// zstdMagic starts every zstd frame. No CDR message can start with it
// (the encapsulation header's first byte is 0), so MESSAGE-mode frames are
// recognised per message even when metadata.yaml is missing.
var zstdMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}

func isZstdFrame(b []byte) bool { return bytes.HasPrefix(b, zstdMagic) }

// newBlockDecoder returns a decoder for DecodeAll with a memory cap, so a
// frame that claims a huge content size is refused before allocation.
// Decoders are kept in a small free list: building one costs megabytes of
// tables, more than reading a small file.
func newBlockDecoder(limit int64) (*zstd.Decoder, error) {
	decoderPool.Lock()
	defer decoderPool.Unlock()
	if l := decoderPool.free[limit]; len(l) > 0 {
		d := l[len(l)-1]
		decoderPool.free[limit] = l[:len(l)-1]
		return d, nil
	}
	d, err := zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxMemory(uint64(limit)))
	if err == nil {
		decoderPool.limit[d] = limit
	}
	return d, err
}

// releaseBlockDecoder returns a decoder from newBlockDecoder for reuse.
func releaseBlockDecoder(d *zstd.Decoder) {
	decoderPool.Lock()
	defer decoderPool.Unlock()
	limit, ok := decoderPool.limit[d]
	if !ok || len(decoderPool.free[limit]) >= 4 {
		delete(decoderPool.limit, d)
		d.Close()
		return
	}
	decoderPool.free[limit] = append(decoderPool.free[limit], d)
}

var decoderPool = struct {
	sync.Mutex
	free  map[int64][]*zstd.Decoder
	limit map[*zstd.Decoder]int64
}{free: map[int64][]*zstd.Decoder{}, limit: map[*zstd.Decoder]int64{}}

// newStreamDecoder returns a streaming decoder (FILE-mode .zstd files).
func newStreamDecoder(r io.Reader, limit int64) (*zstd.Decoder, error) {
	return zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(limit)))
}

// decompressFile streams a FILE-mode .zstd file into dst without holding
// it in memory (sqlite needs a real file to open).
func decompressFile(src, dst string, limit int64) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	dec, err := newStreamDecoder(in, limit)
	if err != nil {
		return err
	}
	defer dec.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, dec); err != nil {
		out.Close()
		return fmt.Errorf("decompress %s: %w", src, err)
	}
	return out.Close()
}

// chunkDecompressor undoes MCAP chunk compression with reused decoders.
type chunkDecompressor struct {
	limit int64
	zdec  *zstd.Decoder
	lz    *lz4.Reader
	lzSrc bytes.Reader
}

// decompress appends the decoded chunk records to dst[:0]; the declared
// size is checked against the limit first and against the output after.
func (c *chunkDecompressor) decompress(compression string, src []byte, size uint64, dst []byte) ([]byte, error) {
	if size > uint64(c.limit) {
		return nil, fmt.Errorf("chunk uncompressed size %d: %w (%d)", size, ErrTooLarge, c.limit)
	}
	switch compression {
	case "zstd":
		if c.zdec == nil {
			d, err := newBlockDecoder(c.limit)
			if err != nil {
				return nil, err
			}
			c.zdec = d
		}
		// Size the buffer once from the header instead of letting DecodeAll
		// grow it step by step; past 32 MiB a lying header must not decide
		// the allocation, so DecodeAll grows it (bounded by the limit).
		out, err := c.zdec.DecodeAll(src, growLen(dst, int(min(size, 32<<20)))[:0])
		if err != nil {
			return nil, fmt.Errorf("zstd chunk: %w", err)
		}
		if uint64(len(out)) != size {
			return out, fmt.Errorf("zstd chunk decoded to %d bytes, header says %d", len(out), size)
		}
		return out, nil
	case "lz4":
		c.lzSrc.Reset(src)
		if c.lz == nil {
			c.lz = lz4.NewReader(&c.lzSrc)
		} else {
			c.lz.Reset(&c.lzSrc)
		}
		// Grow in steps: a lying size costs only what the frame yields.
		out := dst[:0]
		for uint64(len(out)) < size {
			step := size - uint64(len(out))
			if step > 4<<20 {
				step = 4 << 20
			}
			n := len(out)
			out = growLen(out, n+int(step))
			m, err := io.ReadFull(c.lz, out[n:])
			out = out[:n+m]
			if err != nil {
				return out, fmt.Errorf("lz4 chunk: %w", err)
			}
		}
		return out, nil
	case "":
		return src, nil
	}
	return nil, fmt.Errorf("unsupported chunk compression %q", compression)
}

func (c *chunkDecompressor) close() {
	if c.zdec != nil {
		releaseBlockDecoder(c.zdec)
		c.zdec = nil
	}
}

// growLen returns b resized to n bytes, reallocating only when needed.
func growLen(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	nb := make([]byte, n, n+n/4)
	copy(nb, b)
	return nb
}

// decompressPartial decodes as much of a torn chunk as its bytes allow
// (streaming, bounded by the declared size and the limit).
func (c *chunkDecompressor) decompressPartial(compression string, src []byte, size uint64, dst []byte) []byte {
	var r io.Reader
	switch compression {
	case "":
		return src
	case "zstd":
		d, err := zstd.NewReader(bytes.NewReader(src), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(c.limit)))
		if err != nil {
			return nil
		}
		defer d.Close()
		r = d
	case "lz4":
		r = lz4.NewReader(bytes.NewReader(src))
	default:
		return nil
	}
	size = min(size, uint64(c.limit))
	out := dst[:0]
	for uint64(len(out)) < size {
		n := len(out)
		out = growLen(out, n+int(min(size-uint64(n), 1<<20)))
		m, err := io.ReadFull(r, out[n:])
		out = out[:n+m]
		if err != nil {
			break
		}
	}
	return out
}

// bigFrame is the declared size above which a MESSAGE-mode frame is
// decoded as a stream: DecodeAll would allocate the declared size up
// front, and a few lying header bytes must not cost a gigabyte.
const bigFrame = 64 << 20

// decodeFrame undoes one MESSAGE-mode zstd frame into dst.
func decodeFrame(d *zstd.Decoder, src, dst []byte, limit int64) ([]byte, error) {
	var h zstd.Header
	if err := h.Decode(src); err != nil || !h.HasFCS || h.FrameContentSize <= bigFrame {
		return d.DecodeAll(src, dst)
	}
	if h.FrameContentSize > uint64(limit) {
		return nil, fmt.Errorf("frame declares %d bytes: %w (%d)", h.FrameContentSize, ErrTooLarge, limit)
	}
	sd, err := newStreamDecoder(bytes.NewReader(src), limit)
	if err != nil {
		return nil, err
	}
	defer sd.Close()
	buf := bytes.NewBuffer(dst)
	if _, err := io.Copy(buf, io.LimitReader(sd, limit+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("frame decodes past %d bytes: %w", limit, ErrTooLarge)
	}
	return buf.Bytes(), nil
}
