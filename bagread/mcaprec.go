package bagread

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// MCAP opcodes bagread acts on (spec §Records).
const (
	opHeader     = 0x01
	opFooter     = 0x02
	opSchema     = 0x03
	opChannel    = 0x04
	opMessage    = 0x05
	opChunk      = 0x06
	opMsgIndex   = 0x07
	opChunkIndex = 0x08
	opStatistics = 0x0B
	opDataEnd    = 0x0F
)

// recReader reads MCAP records (opcode, u64 length, body) from a file or
// from a FILE-mode zstd stream, tracking the byte offset itself so every
// error can say where. It replaces the library's linear reader, which is
// slow and cannot be bounded or located.
type recReader struct {
	src   io.ReaderAt       // random access (prefix reads, re-reads)
	sec   *io.SectionReader // sequential reads and seeks over src
	c     io.Closer
	zdec  *zstd.Decoder // non-nil for .mcap.zstd (then no seeking)
	r     *bufio.Reader
	off   int64
	size  int64 // -1 when unknown (compressed stream)
	limit int64
	hdr   [9]byte
	plan  PlannedReader // src, when a read plan is in force (readplan.go)
}

func newRecReader(h *mcapHandle) (*recReader, error) {
	src, size, c, err := h.source()
	if err != nil {
		return nil, err
	}
	sec := io.NewSectionReader(src, 0, size)
	rr := &recReader{src: src, sec: sec, c: c, size: -1, limit: h.limit}
	if h.compressed {
		d, err := newStreamDecoder(sec, h.limit)
		if err != nil {
			c.Close()
			return nil, err
		}
		rr.zdec = d
		rr.r = bufio.NewReaderSize(d, 64<<10)
	} else {
		rr.size = size
		rr.r = bufio.NewReaderSize(sec, 64<<10)
	}
	return rr, nil
}

func (rr *recReader) close() error {
	if rr.zdec != nil {
		rr.zdec.Close()
	}
	if rr.plan != nil {
		rr.plan.Close()
	}
	return rr.c.Close()
}

// usePlanned reads the rest of a plain file through p, from the current
// offset on; whatever the buffer held is read again through p.
func (rr *recReader) usePlanned(p PlannedReader) {
	if p == nil {
		return
	}
	rr.plan, rr.src = p, p
	rr.sec = io.NewSectionReader(p, 0, rr.size)
	rr.sec.Seek(rr.off, io.SeekStart)
	rr.r.Reset(rr.sec)
}

// magic consumes and checks the leading magic.
func (rr *recReader) magic() error {
	var m [8]byte
	n, err := io.ReadFull(rr.r, m[:])
	rr.off += int64(n)
	if err != nil {
		return &TruncatedError{Need: 8, Have: int64(n)}
	}
	if string(m[:]) != string(mcapMagic) {
		return fmt.Errorf("bad MCAP magic %q", m[:])
	}
	return nil
}

// header reads the next record header. io.EOF means a clean end (nothing
// left, or only the trailing magic).
func (rr *recReader) header() (op byte, length uint64, start int64, err error) {
	start = rr.off
	n, err := io.ReadFull(rr.r, rr.hdr[:])
	rr.off += int64(n)
	if err != nil {
		if n == 0 || (n == 8 && string(rr.hdr[:8]) == string(mcapMagic)) {
			return 0, 0, start, io.EOF
		}
		return 0, 0, start, &TruncatedError{Need: 9, Have: int64(n)}
	}
	op = rr.hdr[0]
	length = binary.LittleEndian.Uint64(rr.hdr[1:])
	if op == 0 {
		return op, length, start, fmt.Errorf("invalid opcode 0")
	}
	if rr.size >= 0 && length > uint64(rr.size-rr.off) {
		return op, length, start, &TruncatedError{Opcode: op, Need: length, Have: rr.size - rr.off}
	}
	if length > uint64(rr.limit) {
		return op, length, start, fmt.Errorf("record opcode 0x%02x of %d bytes: %w (%d)", op, length, ErrTooLarge, rr.limit)
	}
	return op, length, start, nil
}

// body reads a record body of n bytes into *buf (reused). Without a known
// file size it grows in steps, so a lying length costs only what is there.
func (rr *recReader) body(buf *[]byte, n uint64) ([]byte, error) {
	b := (*buf)[:0]
	for uint64(len(b)) < n {
		step := n - uint64(len(b))
		if rr.size < 0 && step > 16<<20 {
			step = 16 << 20
		}
		k := len(b)
		b = growLen(b, k+int(step))
		m, err := io.ReadFull(rr.r, b[k:])
		rr.off += int64(m)
		b = b[:k+m]
		if err != nil {
			*buf = b
			return nil, &TruncatedError{Opcode: 0xFF, Need: n, Have: int64(len(b))}
		}
	}
	*buf = b
	return b, nil
}

// skip passes over n body bytes, seeking when that is cheaper.
func (rr *recReader) skip(n uint64) error {
	if rr.zdec == nil && n > uint64(rr.r.Buffered()) {
		return rr.seekTo(rr.off + int64(n))
	}
	for n > 0 {
		step := min(n, 1<<30)
		m, err := rr.r.Discard(int(step))
		rr.off += int64(m)
		if err != nil {
			return &TruncatedError{Opcode: 0xFF, Need: n, Have: int64(m)}
		}
		n -= step
	}
	return nil
}

// seekTo moves to an absolute offset (plain files only).
func (rr *recReader) seekTo(off int64) error {
	if rr.zdec != nil {
		return errors.New("cannot seek in a zstd-compressed MCAP stream")
	}
	if _, err := rr.sec.Seek(off, io.SeekStart); err != nil {
		return err
	}
	rr.r.Reset(rr.sec)
	rr.off = off
	return nil
}

// cursor reads little-endian fields from a record body with bounds checks.
type cursor struct {
	b   []byte
	off int
	err error
}

func (c *cursor) need(n int, what string) bool {
	if c.err != nil {
		return false
	}
	if n < 0 || len(c.b)-c.off < n {
		c.err = fmt.Errorf("%s: need %d bytes at offset %d, have %d", what, n, c.off, len(c.b)-c.off)
		return false
	}
	return true
}

func (c *cursor) u16(what string) uint16 {
	if !c.need(2, what) {
		return 0
	}
	v := binary.LittleEndian.Uint16(c.b[c.off:])
	c.off += 2
	return v
}

func (c *cursor) u32(what string) uint32 {
	if !c.need(4, what) {
		return 0
	}
	v := binary.LittleEndian.Uint32(c.b[c.off:])
	c.off += 4
	return v
}

func (c *cursor) u64(what string) uint64 {
	if !c.need(8, what) {
		return 0
	}
	v := binary.LittleEndian.Uint64(c.b[c.off:])
	c.off += 8
	return v
}

func (c *cursor) str(what string) string {
	n := c.u32(what)
	if c.err != nil || !c.need(int(min(n, 1<<31-1)), what) {
		return ""
	}
	s := string(c.b[c.off : c.off+int(n)])
	c.off += int(n)
	return s
}

// bytes64 reads a u64-length-prefixed byte field without copying.
func (c *cursor) bytes64(what string) []byte {
	n := c.u64(what)
	if c.err != nil {
		return nil
	}
	if n > uint64(len(c.b)-c.off) {
		c.err = fmt.Errorf("%s: length %d exceeds the %d bytes left", what, n, len(c.b)-c.off)
		return nil
	}
	s := c.b[c.off : c.off+int(n)]
	c.off += int(n)
	return s
}

// chunkHeader is the fixed part of a Chunk record.
type chunkHeader struct {
	start, end, usize uint64
	crc               uint32
	compression       string
	records           []byte
}

func parseChunk(body []byte) (chunkHeader, error) {
	c := cursor{b: body}
	var h chunkHeader
	h.start = c.u64("chunk message_start_time")
	h.end = c.u64("chunk message_end_time")
	h.usize = c.u64("chunk uncompressed_size")
	h.crc = c.u32("chunk uncompressed_crc")
	h.compression = c.str("chunk compression")
	h.records = c.bytes64("chunk records")
	return h, c.err
}

// parseHeader reads the Header record's profile and library.
func parseHeader(body []byte) (profile, library string, err error) {
	c := cursor{b: body}
	profile = c.str("header profile")
	library = c.str("header library")
	return profile, library, c.err
}
