package bagread

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// openPrefix reads payload prefixes itself on record-order reads of a
// file Open found intact; anything else is read whole and cut later.
func (h *mcapHandle) openPrefix(fileIndex int, sel selection, order Order, px *prefixSpec) (stream, error) {
	info := h.info
	if info.recovery != nil || !(order == RecordOrder || (info.scanned && info.sorted)) {
		return h.open(fileIndex, sel, order)
	}
	s, err := newMCAPStream(h, fileIndex, sel, false)
	if err != nil {
		return nil, err
	}
	s.px = px
	if !h.compressed {
		// After each seek past a payload the reader refills its buffer:
		// a smaller one reads less of what is then skipped again.
		if _, err := s.rr.sec.Seek(s.rr.off, io.SeekStart); err != nil {
			s.close()
			return nil, err
		}
		s.rr.r = bufio.NewReaderSize(s.rr.sec, prefixReadBuffer)
	}
	return s, nil
}

// prefixReadBuffer is the file read buffer of an MCAP prefix read.
const prefixReadBuffer = 16 << 10

// prefixState is what an mcapStream needs for prefix reads.
type prefixState struct {
	px    *prefixSpec
	pxOf  []int8     // per channel id: 0 unknown, 1 prefix, -1 whole
	cs    *chunkFeed // chunk being parsed record by record, nil if none
	data  []byte     // payload (or prefix) of the current message
	small [22]byte
	zdec  *zstd.Decoder
	lz    *lz4.Reader
}

// isPrefix reports whether channel c is read as a prefix.
func (s *mcapStream) isPrefix(c *chanInfo) bool {
	if s.pxOf == nil {
		s.pxOf = make([]int8, 1<<16)
	}
	v := s.pxOf[c.id]
	if v == 0 {
		v = -1
		if s.px.has(c.topic) {
			v = 1
		}
		s.pxOf[c.id] = v
	}
	return v > 0
}

// byteSource is where a record-by-record parse gets its bytes: the file
// itself (uncompressed chunks, top-level records) or a decompressor.
type byteSource interface {
	readFull(p []byte) error
	discard(n uint64) error
}

// readFull reads len(p) bytes of the file at the current offset.
func (rr *recReader) readFull(p []byte) error {
	n, err := io.ReadFull(rr.r, p)
	rr.off += int64(n)
	if err != nil {
		return &TruncatedError{Opcode: 0xFF, Need: uint64(len(p)), Have: int64(n)}
	}
	return nil
}

func (rr *recReader) discard(n uint64) error { return rr.skip(n) }

// limitedFile reads at most left bytes of the file through rr (the
// compressed records of a chunk), keeping rr's offset right.
type limitedFile struct {
	rr   *recReader
	left uint64
}

func (l *limitedFile) Read(p []byte) (int, error) {
	if l.left == 0 {
		return 0, io.EOF
	}
	if uint64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.rr.r.Read(p)
	l.rr.off += int64(n)
	l.left -= uint64(n)
	if err == io.EOF && l.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// decSource reads decompressed chunk records.
type decSource struct {
	r       io.Reader
	scratch []byte
	crc     uint32 // CRC32 of every byte decoded so far
}

func (d *decSource) readFull(p []byte) error {
	n, err := io.ReadFull(d.r, p)
	d.crc = crc32.Update(d.crc, crc32.IEEETable, p[:n])
	if err != nil {
		return fmt.Errorf("decompressed records end after %d of %d bytes: %w", n, len(p), err)
	}
	return nil
}

func (d *decSource) discard(n uint64) error {
	if d.scratch == nil {
		d.scratch = make([]byte, 32<<10)
	}
	for n > 0 {
		k := min(n, uint64(len(d.scratch)))
		if err := d.readFull(d.scratch[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// chunkFeed is a chunk being parsed record by record.
type chunkFeed struct {
	src   byteSource
	left  uint64 // record bytes (decompressed) not yet parsed
	total uint64 // record bytes in all
	usize uint64
	end   int64 // file offset just past the chunk record
	comp  *limitedFile
}

// streamable says whether the chunk record whose header was just read is
// large enough, compressed or not, to be parsed record by record.
func (s *mcapStream) streamable(length uint64) bool {
	if length > prefixStreamChunk {
		return true
	}
	head, err := s.rr.r.Peek(24)
	return err == nil && binary.LittleEndian.Uint64(head[16:]) > prefixStreamChunk
}

// streamChunk starts parsing the chunk record at start (its header just
// read) record by record. Errors are reported like loadChunk's and the
// chunk is skipped.
func (s *mcapStream) streamChunk(start int64, length uint64) {
	end := s.rr.off + int64(length)
	fail := func(err error) {
		s.skipProblem(start, fmt.Errorf("MCAP chunk at byte %d skipped: %w", start, err))
		if s.rr.off < end {
			if err := s.rr.skip(uint64(end - s.rr.off)); err != nil {
				s.stop(start, err)
			}
		}
	}
	var fixed [32]byte
	if length < 40 {
		fail(fmt.Errorf("chunk record of %d bytes is too short", length))
		return
	}
	if err := s.rr.readFull(fixed[:]); err != nil {
		s.stop(start, err)
		return
	}
	var ch chunkHeader
	ch.start = binary.LittleEndian.Uint64(fixed[0:])
	ch.end = binary.LittleEndian.Uint64(fixed[8:])
	ch.usize = binary.LittleEndian.Uint64(fixed[16:])
	ch.crc = binary.LittleEndian.Uint32(fixed[24:])
	clen := uint64(binary.LittleEndian.Uint32(fixed[28:]))
	if clen > 64 || 40+clen > length {
		fail(fmt.Errorf("chunk compression: length %d does not fit", clen))
		return
	}
	tail := s.data[:0]
	tail = growLen(tail, int(clen)+8)
	if err := s.rr.readFull(tail); err != nil {
		s.stop(start, err)
		return
	}
	ch.compression = string(tail[:clen])
	recLen := binary.LittleEndian.Uint64(tail[clen:])
	if recLen > length-40-clen {
		fail(fmt.Errorf("chunk records: length %d exceeds the %d bytes left", recLen, length-40-clen))
		return
	}
	f := &chunkFeed{end: end, usize: ch.usize}
	switch ch.compression {
	case "":
		f.src, f.left, f.total = s.rr, recLen, recLen
	case "zstd", "lz4":
		if ch.usize > uint64(s.h.limit) {
			fail(fmt.Errorf("chunk uncompressed size %d: %w (%d)", ch.usize, ErrTooLarge, s.h.limit))
			return
		}
		f.comp = &limitedFile{rr: s.rr, left: recLen}
		r, err := s.decoderFor(ch.compression, f.comp)
		if err != nil {
			fail(err)
			return
		}
		f.src, f.left, f.total = &decSource{r: r}, ch.usize, ch.usize
	default:
		fail(fmt.Errorf("unsupported chunk compression %q", ch.compression))
		return
	}
	ch.records = nil
	s.chunk, s.chunkStart = ch, start
	s.cs = f
}

// decoderFor returns the stream's reused decompressor reading r.
func (s *mcapStream) decoderFor(compression string, r io.Reader) (io.Reader, error) {
	if compression == "lz4" {
		if s.lz == nil {
			s.lz = lz4.NewReader(r)
		} else {
			s.lz.Reset(r)
		}
		return s.lz, nil
	}
	if s.zdec == nil {
		d, err := newStreamDecoder(r, s.h.limit)
		if err != nil {
			return nil, err
		}
		s.zdec = d
		return d, nil
	}
	if err := s.zdec.Reset(r); err != nil {
		return nil, err
	}
	return s.zdec, nil
}

// endChunk leaves the streamed chunk: whatever of its record was not
// parsed is skipped so the file reader is at the next record.
func (s *mcapStream) endChunk() {
	f := s.cs
	s.cs = nil
	if f.comp != nil && f.left == 0 {
		// All records decoded: the stream must end here too.
		src := f.src.(*decSource)
		// Count what decodes past the declared size (bounded by the
		// budget) so the note gives both sizes.
		if rest, _ := io.Copy(io.Discard, io.LimitReader(src.r, s.h.limit-int64(f.usize)+1)); rest > 0 {
			err := &SizeError{What: s.chunk.compression + " chunk", HasDeclared: true, Declared: f.usize, Actual: int64(f.usize) + rest, Limit: s.h.limit}
			s.problem(s.chunkStart, fmt.Errorf("MCAP chunk at byte %d: %w (its messages were already delivered)", s.chunkStart, err))
		} else if want := s.chunk.crc; want != 0 && src.crc != want {
			// Every byte was decoded, so the CRC can be checked, but only
			// now that the chunk's messages were delivered.
			s.problem(s.chunkStart, fmt.Errorf("MCAP chunk at byte %d: damaged: CRC32 of its %d uncompressed bytes is %08x, header says %08x (its messages were already delivered)",
				s.chunkStart, f.usize, src.crc, want))
		}
	}
	if s.rr.off < f.end {
		if err := s.rr.skip(uint64(f.end - s.rr.off)); err != nil {
			s.stop(s.chunkStart, err)
		}
	}
}

// nextStreamed parses records of the streamed chunk until one message is
// yielded (true) or the chunk ends (false).
func (s *mcapStream) nextStreamed() bool {
	f := s.cs
	for f.left > 0 {
		pos := int64(f.total - f.left)
		if f.left < 9 {
			s.problem(s.chunkStart, fmt.Errorf("MCAP chunk at byte %d: torn record header at chunk offset %d", s.chunkStart, pos))
			break
		}
		var hdr [9]byte
		if err := f.src.readFull(hdr[:]); err != nil {
			s.problem(s.chunkStart, fmt.Errorf("MCAP chunk at byte %d skipped from chunk offset %d: %w", s.chunkStart, pos, err))
			break
		}
		f.left -= 9
		op := hdr[0]
		n := binary.LittleEndian.Uint64(hdr[1:])
		if n > f.left {
			s.problem(s.chunkStart, fmt.Errorf("MCAP chunk at byte %d: record opcode 0x%02x at chunk offset %d claims %d bytes, %d left", s.chunkStart, op, pos, n, f.left))
			break
		}
		f.left -= n
		yielded, err := s.streamRecord(f.src, op, n, s.chunkStart, pos)
		if err != nil {
			s.problem(s.chunkStart, fmt.Errorf("MCAP chunk at byte %d skipped from chunk offset %d: %w", s.chunkStart, pos, err))
			break
		}
		if yielded {
			return true
		}
	}
	if f.left > 0 {
		// Abandoned at a bad record: decode the rest of what the header
		// declares (time, not memory), so the checks at the end (data past
		// the declared size, CRC) still run; a decode error ends them.
		if f.comp == nil || f.src.discard(f.left) != nil {
			f.comp = nil
		}
		f.left = 0
	}
	s.endChunk()
	return false
}

// streamRecord handles one record of n body bytes from src: a message is
// read as the selection and prefix ask, schemas and channels are
// registered, anything else is passed over.
func (s *mcapStream) streamRecord(src byteSource, op byte, n uint64, pos, chunkOff int64) (bool, error) {
	switch op {
	case opMessage:
	case opSchema, opChannel:
		if n > uint64(s.h.limit) {
			return false, fmt.Errorf("record opcode 0x%02x of %d bytes: %w (%d)", op, n, ErrTooLarge, s.h.limit)
		}
		s.data = growLen(s.data, int(n))
		if err := src.readFull(s.data); err != nil {
			return false, err
		}
		if err := s.h.info.register(s.h.path, pos, op, s.data); err != nil {
			s.problem(pos, err)
		}
		return false, nil
	default:
		return false, src.discard(n)
	}
	if n < 22 {
		s.problem(pos, fmt.Errorf("MCAP message record at byte %d (chunk offset %d) is %d bytes, need 22", pos, chunkOff, n))
		return false, src.discard(n)
	}
	head := s.small[:]
	if err := src.readFull(head); err != nil {
		return false, err
	}
	payload := n - 22
	id := binary.LittleEndian.Uint16(head)
	c := s.channel(id)
	if c == nil {
		s.unknown++
		if s.unknown == 1 {
			s.problem(pos, fmt.Errorf("MCAP message at byte %d (chunk offset %d) on undeclared channel %d skipped", pos, chunkOff, id))
		}
		return false, src.discard(payload)
	}
	if !s.wants(c) {
		return false, src.discard(payload)
	}
	take := payload
	if s.px.timeOnly(c.topic) {
		take = 0
	} else if s.isPrefix(c) {
		// At least a zstd magic's worth, to tell a MESSAGE-mode frame.
		take = min(payload, uint64(max(s.px.n, len(zstdMagic))))
	}
	if take > uint64(s.h.limit) {
		return false, fmt.Errorf("message of %d bytes: %w (%d)", take, ErrTooLarge, s.h.limit)
	}
	s.data = growLen(s.data, int(take))
	if err := src.readFull(s.data); err != nil {
		return false, err
	}
	var size int64
	if take < payload {
		if isZstdFrame(s.data) {
			// MESSAGE-mode frame: only the whole frame decodes.
			if payload > uint64(s.h.limit) {
				return false, fmt.Errorf("message of %d bytes: %w (%d)", payload, ErrTooLarge, s.h.limit)
			}
			s.data = growLen(s.data, int(payload))
			if err := src.readFull(s.data[take:]); err != nil {
				return false, err
			}
		} else {
			if err := src.discard(payload - take); err != nil {
				return false, err
			}
			size = int64(payload)
		}
	}
	s.curChan = id
	s.msg.setMCAP(c, s.fileIndex, head, pos, chunkOff, s.data, size)
	s.n++
	return true, nil
}

// streamTopLevel reads a top-level message record (header just read)
// without reading a payload past the prefix; false if nothing yielded.
func (s *mcapStream) streamTopLevel(start int64, length uint64) bool {
	yielded, err := s.streamRecord(s.rr, opMessage, length, start, -1)
	if err != nil {
		s.stop(start, err)
		return false
	}
	return yielded
}

// closePrefix releases the prefix decompressors.
func (s *mcapStream) closePrefix() {
	if s.zdec != nil {
		s.zdec.Close()
		s.zdec = nil
	}
}
