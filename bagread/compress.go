package bagread

import (
	"bytes"
	"errors"
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

// newBlockDecoder returns a decoder for DecodeAll that never writes past
// cap(dst): every caller sizes dst from a declared (and budget-checked)
// size first, so a frame that decodes to more fails as soon as it passes
// that size instead of growing the buffer by doubling. Decoders are kept
// in a small free list: building one costs megabytes of tables, more than
// reading a small file.
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
		zstd.WithDecoderMaxMemory(uint64(limit)),
		zstd.WithDecodeAllCapLimit(true))
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

// FileModeRatio bounds how much a FILE-mode .zstd file may write to the
// temp dir: at most this many times its own size, or the decode budget
// when that is larger. Real db3 files compress a few times over; a file
// of concatenated bomb frames stops at the bound instead of filling the
// disk (the per-frame limit alone lets every frame through).
const FileModeRatio = 100

// decompressFile streams a FILE-mode .zstd file into dst without holding
// it in memory (sqlite needs a real file to open). It stops, removes dst
// and reports both sizes once the output passes the larger of limit and
// FileModeRatio times the compressed size.
func decompressFile(src, dst string, limit int64) error {
	in, err := openRegular(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	maxOut := max(limit, FileModeRatio*st.Size())
	dec, err := newStreamDecoder(in, limit)
	if err != nil {
		return err
	}
	defer dec.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(dec, maxOut+1))
	if err == nil && n > maxOut {
		err = fmt.Errorf("decompresses past %d bytes from %d compressed bytes (over %dx and the %d-byte decode budget): %w",
			maxOut, st.Size(), FileModeRatio, limit, ErrTooLarge)
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
		return fmt.Errorf("decompress %s: %w", src, err)
	}
	return nil
}

// SizeError says a compressed chunk or frame decodes to more than it
// declares or than the decode budget allows. It unwraps to ErrTooLarge.
type SizeError struct {
	What        string // "zstd chunk", "zstd frame"...
	HasDeclared bool   // false for a zstd frame without a content size
	Declared    uint64 // declared uncompressed size, as read from the data
	Actual      int64  // bytes it decodes to, or Limit+1 when it goes past Limit
	Limit       int64  // the decode budget
}

// Error gives the declared and the real size as read from the data.
func (e *SizeError) Error() string {
	decl := "declares no size"
	if e.HasDeclared {
		decl = fmt.Sprintf("declares %d bytes", e.Declared)
	}
	act := fmt.Sprintf("decodes to %d bytes", e.Actual)
	if e.Actual > e.Limit {
		act = fmt.Sprintf("decodes to more than %d bytes", e.Limit)
	}
	if e.HasDeclared && e.Declared > uint64(e.Limit) {
		act = "not decoded"
	}
	return fmt.Sprintf("%s %s, %s: %v (decode budget %d bytes)", e.What, decl, act, ErrTooLarge, e.Limit)
}

// Unwrap returns ErrTooLarge.
func (e *SizeError) Unwrap() error { return ErrTooLarge }

// measureZstd counts the bytes src decodes to, streaming through a small
// buffer, and stops at limit+1: it costs decoding time, not memory.
func measureZstd(src []byte, limit int64) (int64, error) {
	d, err := newStreamDecoder(bytes.NewReader(src), limit)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	return io.Copy(io.Discard, io.LimitReader(d, limit+1))
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
	if compression == "" {
		return src, nil
	}
	if size > uint64(c.limit) {
		return nil, &SizeError{What: compression + " chunk", HasDeclared: true, Declared: size, Limit: c.limit}
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
		// The buffer is sized from the header (checked against the budget
		// above) and DecodeAll never writes past its capacity, so a chunk
		// that decodes to more than it declares fails there.
		out, err := c.zdec.DecodeAll(src, growLen(dst, int(size))[:0])
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) || (err == nil && uint64(len(out)) > size) {
			actual, _ := measureZstd(src, c.limit)
			return nil, &SizeError{What: "zstd chunk", HasDeclared: true, Declared: size, Actual: actual, Limit: c.limit}
		}
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
		// More output than declared: count it (bounded) for the note.
		if rest, _ := io.Copy(io.Discard, io.LimitReader(c.lz, c.limit-int64(size)+1)); rest > 0 {
			return nil, &SizeError{What: "lz4 chunk", HasDeclared: true, Declared: size, Actual: int64(size) + rest, Limit: c.limit}
		}
		return out, nil
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

// decodeFrame undoes one MESSAGE-mode zstd frame (or several frames
// back to back) into dst. The output buffer is sized first (from the
// frame's content size, or for a frame without one by counting what it
// decodes to through a small buffer), never past limit, and DecodeAll
// cannot write past it: memory is bounded by the budget whatever the
// frame claims.
func decodeFrame(d *zstd.Decoder, src, dst []byte, limit int64) ([]byte, error) {
	var h zstd.Header
	if err := h.Decode(src); err != nil {
		return nil, fmt.Errorf("zstd frame header: %w", err)
	}
	if h.HasFCS {
		if h.FrameContentSize > uint64(limit) {
			return nil, &SizeError{What: "zstd frame", HasDeclared: true, Declared: h.FrameContentSize, Limit: limit}
		}
	}
	size := int64(h.FrameContentSize)
	if !h.HasFCS {
		n, err := measureZstd(src, limit)
		if err != nil {
			return nil, fmt.Errorf("zstd frame: %w", err)
		}
		if n > limit {
			return nil, &SizeError{What: "zstd frame", Actual: n, Limit: limit}
		}
		size = n
	}
	out, err := d.DecodeAll(src, growLen(dst, int(size))[:0])
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		// More than declared (or a second frame after the first).
		actual, _ := measureZstd(src, limit)
		return nil, &SizeError{What: "zstd frame", HasDeclared: h.HasFCS, Declared: h.FrameContentSize, Actual: actual, Limit: limit}
	}
	return out, err
}
