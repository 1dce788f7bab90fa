package bagread

import (
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// mcapStream reads an MCAP file in file order. Chunks known (from the
// summary) to hold no selected channel are skipped by seeking; messages of
// unselected channels are passed over without copying. Data aliases the
// reused chunk or record buffer.
type mcapStream struct {
	h         *mcapHandle
	rr        *recReader
	fileIndex int
	sel       selection
	scan      bool // Open's scan: every message, no skipping
	skip      map[int64]bool
	want      []int8 // per channel id: 0 unknown, 1 yes, -1 no

	recBuf, chunkBuf []byte
	dec              chunkDecompressor
	inChunk          []byte // records of the current chunk not yet read
	chunkLen         int
	chunkStart       int64
	chunk            chunkHeader

	salvage   bool  // current chunk is the torn last one
	stopAt    int64 // offset of the torn record, once salvaged
	stopErr   error
	msg       rawMessage
	curChan   uint16
	n         uint64
	unknown   uint64      // messages on channels never declared
	chans     []*chanInfo // by id: see channel
	ahead     *chunkAhead // next chunks decompressing meanwhile (see mcapahead.go)
	noAhead   bool        // decided against read-ahead
	planned   bool        // startPlan has run
	skipped   int         // chunks passed over by the topic filter
	lost      *lostChunk  // the chunk just skipped as damaged, if any
	probs     []Problem
	done      bool
	sawEnd    bool
	sawFooter bool
	prefixState
}

func newMCAPStream(h *mcapHandle, fileIndex int, sel selection, scan bool) (*mcapStream, error) {
	rr, err := newRecReader(h)
	if err != nil {
		return nil, err
	}
	if err := rr.magic(); err != nil {
		rr.close()
		return nil, &FileError{Path: h.path, Offset: 0, Op: "read MCAP magic", Err: err}
	}
	s := &mcapStream{h: h, rr: rr, fileIndex: fileIndex, sel: sel, scan: scan, dec: chunkDecompressor{limit: h.limit}}
	if sel != nil && !scan {
		s.skip = map[int64]bool{}
		for _, c := range h.info.chunks {
			if c.channels != nil && !s.wantsAny(c.channels) {
				s.skip[c.offset] = true
			}
		}
	}
	return s, nil
}

func (s *mcapStream) wantsAny(chans map[uint16]bool) bool {
	for id := range chans {
		if c := s.h.info.channels[id]; c == nil || s.sel.has(c.topic) {
			return true
		}
	}
	return false
}

// channel looks up a declared channel. Declarations never change once
// made, so small ids are cached in a slice: hashing the id for every
// message was a sixth of reading an uncompressed MCAP.
func (s *mcapStream) channel(id uint16) *chanInfo {
	if int(id) < len(s.chans) && s.chans[id] != nil {
		return s.chans[id]
	}
	c := s.h.info.channels[id]
	if c != nil && id < maxCachedChannel {
		if int(id) >= len(s.chans) {
			s.chans = append(s.chans, make([]*chanInfo, int(id)+1-len(s.chans))...)
		}
		s.chans[id] = c
	}
	return c
}

// maxCachedChannel bounds the channel cache (rosbag2 numbers channels from 1).
const maxCachedChannel = 4096

// wants reports whether a channel's messages are yielded.
func (s *mcapStream) wants(c *chanInfo) bool {
	if s.sel == nil {
		return true
	}
	if s.want == nil {
		s.want = make([]int8, 1<<16)
	}
	w := s.want[c.id]
	if w == 0 {
		w = -1
		if s.sel[c.topic] {
			w = 1
		}
		s.want[c.id] = w
	}
	return w > 0
}

func (s *mcapStream) problem(off int64, err error) {
	s.probs = append(s.probs, Problem{FileIndex: s.fileIndex, File: s.h.path, Offset: off, Recovered: s.n, Err: err, WentOn: !s.done})
}

// skipProblem reports a damaged chunk that is skipped whole while reading
// goes on: the Message Index records after it (rosbag2 writes one per
// channel after every chunk) say which messages it held, and each one of
// a selected channel is then yielded with Err set, so readers count it as
// skipped (see nextLost).
func (s *mcapStream) skipProblem(off int64, err error) {
	s.probs = append(s.probs, Problem{FileIndex: s.fileIndex, File: s.h.path, Offset: off, Recovered: s.n, Err: err, Skipped: true})
	s.lost = &lostChunk{start: off, err: err}
}

// stop ends the file at a damaged record.
func (s *mcapStream) stop(off int64, err error) {
	s.done = true
	var te *TruncatedError
	if errors.As(err, &te) {
		s.problem(off, fmt.Errorf("MCAP truncated at byte %d: recovered %d messages: %w", off, s.n, err))
		return
	}
	s.problem(off, fmt.Errorf("MCAP unreadable at byte %d: recovered %d messages: %w", off, s.n, err))
}

func (s *mcapStream) next() bool {
	if !s.planned {
		s.planned = true
		s.startPlan()
	}
	for {
		if s.h.sourceErr() != nil {
			// The store failed a read: nothing after it is trusted (err).
			s.done = true
			return false
		}
		if s.cs != nil {
			if s.nextStreamed() {
				return true
			}
			continue
		}
		if len(s.inChunk) > 0 {
			if s.nextInChunk() {
				return true
			}
			continue
		}
		if s.lost != nil && s.lost.held != nil && s.yieldLost() {
			return true
		}
		if s.stopErr != nil {
			s.stop(s.stopAt, s.stopErr)
			s.stopErr = nil
		}
		if s.done {
			return false
		}
		op, length, start, err := s.header()
		if s.lost != nil && s.lost.held == nil && (err != nil || op != opMsgIndex) && s.holdLost(op, length, start, err) {
			continue // the skipped chunk's messages come first
		}
		if err != nil {
			if err == io.EOF {
				s.endClean()
				return false
			}
			if s.rr.zdec == nil && errors.Is(err, ErrTooLarge) {
				// header checked the record fits in the file: step over it.
				if s.skipOversized(op, length, start) {
					return true
				}
				continue
			}
			var te *TruncatedError
			if op == opChunk && errors.As(err, &te) {
				// Keep the complete messages of the torn last chunk.
				s.salvageTail(start, err)
				continue
			}
			s.stop(start, err)
			return false
		}
		switch op {
		case opMsgIndex:
			if s.lost == nil || s.scan {
				if err := s.rr.skip(length); err != nil {
					s.stop(start, err)
					return false
				}
				continue
			}
			body, err := s.rr.body(&s.recBuf, length)
			if err != nil {
				s.stop(start, err)
				return false
			}
			s.addLost(start, body)
		case opChunk:
			if s.skip[start] {
				s.skipped++
				if err := s.rr.skip(length); err != nil {
					s.stop(start, err)
				}
				continue
			}
			if s.ahead != nil {
				if got, ok := s.ahead.take(start); ok {
					if err := s.rr.skip(length); err != nil {
						s.stop(start, err)
						continue
					}
					old := s.chunkBuf
					s.chunkBuf = got.recs
					s.chunk, s.chunkStart = got.ch, start
					s.inChunk, s.chunkLen = got.recs, len(got.recs)
					s.salvage = false
					s.ahead.startAfter(start, old)
					continue
				}
			}
			if s.px != nil && s.streamable(length) {
				s.streamChunk(start, length)
				continue
			}
			body, err := s.rr.body(&s.recBuf, length)
			if err != nil {
				// A .mcap.zstd stream cut inside a chunk: keep what decodes.
				s.salvagePart(start, s.recBuf, err)
				continue
			}
			s.loadChunk(start, body)
			s.readAhead(start)
		case opMessage:
			if s.px != nil && length > prefixStreamRecord {
				if s.streamTopLevel(start, length) {
					return true
				}
				continue
			}
			body, err := s.rr.body(&s.recBuf, length)
			if err != nil {
				s.stop(start, err)
				return false
			}
			if s.parseMessage(body, start, -1) {
				return true
			}
		case opSchema, opChannel:
			body, err := s.rr.body(&s.recBuf, length)
			if err != nil {
				s.stop(start, err)
				return false
			}
			if err := s.h.info.register(s.h.path, start, op, body); err != nil {
				s.problem(start, err)
			}
		case opHeader:
			body, err := s.rr.body(&s.recBuf, length)
			if err != nil {
				s.stop(start, err)
				return false
			}
			if s.scan {
				s.h.info.profile, s.h.info.library, _ = parseHeader(body)
			}
		case opDataEnd:
			// The summary after DataEnd repeats what the data held; only
			// Open's scan goes on, to see whether the file is complete.
			s.sawEnd = true
			if !s.scan {
				s.endClean()
				return false
			}
			if err := s.rr.skip(length); err != nil {
				s.stop(start, err)
				return false
			}
		case opFooter:
			s.sawEnd, s.sawFooter = true, true
			s.endClean()
			return false
		default:
			if err := s.rr.skip(length); err != nil {
				s.stop(start, err)
				return false
			}
		}
	}
}

// endClean ends a file that had no torn record; a file whose summary was
// unusable still reports why it was read sequentially.
func (s *mcapStream) endClean() {
	s.done = true
	if r := s.h.info.recovery; r != nil && !s.scan && len(s.probs) == 0 {
		s.probs = append(s.probs, Problem{FileIndex: s.fileIndex, File: s.h.path, Offset: r.Offset, Recovered: s.n, Err: errors.New(r.Reason)})
	}
}

// loadChunk decompresses a chunk into the reused buffer; a bad chunk is
// reported and skipped, the records after it are still read.
func (s *mcapStream) loadChunk(start int64, body []byte) {
	ch, err := parseChunk(body)
	if err == nil {
		var recs []byte
		recs, err = s.dec.decompress(ch.compression, ch.records, ch.usize, s.chunkBuf)
		if ch.compression != "" && recs != nil {
			s.chunkBuf = recs
		}
		if err == nil {
			if cerr := checkChunkCRC(&ch, recs); cerr != nil {
				s.chunkCRCProblem(start, recs, cerr)
				return
			}
			s.chunk, s.chunkStart = ch, start
			s.inChunk, s.chunkLen = recs, len(recs)
			s.salvage = false
			return
		}
	}
	s.skipProblem(start, fmt.Errorf("MCAP chunk at byte %d skipped: %w", start, err))
}

// nextInChunk reads one record of the current chunk; true if it yielded.
func (s *mcapStream) nextInChunk() bool {
	rest := s.inChunk
	pos := int64(s.chunkLen - len(rest))
	if len(rest) < 9 {
		s.inChunk = nil
		if s.salvage {
			return false
		}
		s.problem(s.chunkStart, fmt.Errorf("MCAP chunk at byte %d: torn record header at chunk offset %d", s.chunkStart, pos))
		return false
	}
	op := rest[0]
	n := binary.LittleEndian.Uint64(rest[1:])
	if n > uint64(len(rest)-9) {
		s.inChunk = nil
		if s.salvage {
			return false // the cut; reported when the stream stops
		}
		s.problem(s.chunkStart, fmt.Errorf("MCAP chunk at byte %d: record opcode 0x%02x at chunk offset %d claims %d bytes, %d left", s.chunkStart, op, pos, n, len(rest)-9))
		return false
	}
	body := rest[9 : 9+n]
	s.inChunk = rest[9+n:]
	switch op {
	case opMessage:
		return s.parseMessage(body, s.chunkStart, pos)
	case opSchema, opChannel:
		if err := s.h.info.register(s.h.path, s.chunkStart, op, body); err != nil {
			s.problem(s.chunkStart, err)
		}
	}
	return false
}

// parseMessage fills s.msg from a Message record body when its channel
// is selected.
func (s *mcapStream) parseMessage(body []byte, pos, chunkOff int64) bool {
	if len(body) < 22 {
		s.problem(pos, fmt.Errorf("MCAP message record at byte %d (chunk offset %d) is %d bytes, need 22", pos, chunkOff, len(body)))
		return false
	}
	id := binary.LittleEndian.Uint16(body)
	c := s.channel(id)
	if c == nil {
		s.unknown++
		if s.unknown == 1 {
			s.problem(pos, fmt.Errorf("MCAP message at byte %d (chunk offset %d) on undeclared channel %d skipped", pos, chunkOff, id))
		}
		return false
	}
	if !s.wants(c) {
		return false
	}
	s.curChan = id
	s.msg.setMCAP(c, s.fileIndex, body, pos, chunkOff, body[22:], 0)
	s.n++
	return true
}

// setMCAP fills r with an MCAP message of channel c: head is the record
// body's first 22 bytes (channel, sequence, log and publish time). Field
// by field, not as a composite literal: the compiler builds a literal on
// the stack and copies it in 16-byte moves that stall on store forwarding,
// which was half of parseMessage's time in the benchmark's profile.
func (r *rawMessage) setMCAP(c *chanInfo, fileIndex int, head []byte, pos, chunkOff int64, data []byte, size int64) {
	r.topic, r.typ = c.topic, c.typ
	r.logTime = int64(binary.LittleEndian.Uint64(head[6:]))
	r.pubTime = int64(binary.LittleEndian.Uint64(head[14:]))
	r.hasPub = true
	r.pos, r.chunkOff = pos, chunkOff
	r.rowid = false
	r.data = data
	r.err = nil
	r.fileIndex = fileIndex
	r.size = size
	r.plain = false
	r.publisher = ""
}

func (s *mcapStream) message() *rawMessage { return &s.msg }
func (s *mcapStream) err() error           { return s.h.sourceErr() }
func (s *mcapStream) problems() []Problem  { return s.probs }

// readAhead starts decompressing the chunks after start on other
// goroutines, once a compressed chunk shows it is worth it, in an intact
// indexed file (the chunk index says where chunks are).
func (s *mcapStream) readAhead(start int64) {
	if s.ahead == nil {
		h := s.h
		if s.noAhead || s.chunk.compression == "" || s.chunk.usize > aheadMaxChunk || s.scan || h.compressed || h.sequential || !h.info.indexed || len(h.info.chunks) < 2 {
			s.noAhead = true
			return
		}
		if s.ahead = newChunkAhead(h, s.skip, s.rr.plan); s.ahead == nil {
			s.noAhead = true
			return
		}
	}
	s.ahead.startAfter(start, nil)
}

func (s *mcapStream) close() error {
	if s.ahead != nil {
		s.ahead.close()
		s.ahead = nil
	}
	s.dec.close()
	s.closePrefix()
	return s.rr.close()
}

// open picks the reader for the requested order: file order streams; time
// order merges chunks by their time ranges (bounded by how much chunks
// overlap), or streams when a scan showed the file already sorted.
func (h *mcapHandle) open(fileIndex int, sel selection, order Order) (stream, error) {
	info := h.info
	if order == RecordOrder || (info.scanned && info.sorted) {
		return newMCAPStream(h, fileIndex, sel, false)
	}
	if !h.compressed && !info.topLevel {
		return newChunkMerge(h, fileIndex, sel)
	}
	if !h.compressed && len(info.chunks) == 0 {
		return newOffsetSort(h, fileIndex, sel)
	}
	return newSortedStream(h, fileIndex, sel)
}

// chunkMerge yields one file in log-time order: chunks are loaded in order
// of their start time, and a message is released once no chunk not yet
// loaded can start before it (as the mcap library's indexed reader does).
type chunkMerge struct {
	base   *mcapStream
	chunks []chunkInfo
	next_  int
	pend   msgHeap
	cur    rawMessage
	// A chunk whose messages are sorted and all precede the next chunk's
	// start is served straight from direct, reusing its buffers: the
	// common case (rosbag2 writes in receive order) costs no heap work.
	direct, scratch []rawMessage
	di              int
	recBuf, decBuf  []byte
}

func newChunkMerge(h *mcapHandle, fileIndex int, sel selection) (*chunkMerge, error) {
	base, err := newMCAPStream(h, fileIndex, sel, false)
	if err != nil {
		return nil, err
	}
	m := &chunkMerge{base: base}
	for _, c := range h.info.chunks {
		if !base.skip[c.offset] {
			m.chunks = append(m.chunks, c)
		}
	}
	sort.SliceStable(m.chunks, func(i, j int) bool {
		if m.chunks[i].start != m.chunks[j].start {
			return m.chunks[i].start < m.chunks[j].start
		}
		return m.chunks[i].offset < m.chunks[j].offset
	})
	if r := h.info.recovery; r != nil {
		base.problem(r.Offset, errors.New(r.Reason))
	}
	return m, nil
}

func (m *chunkMerge) next() bool {
	for {
		if m.di < len(m.direct) {
			m.cur = m.direct[m.di]
			m.di++
			return true
		}
		m.direct = nil
		if m.next_ < len(m.chunks) && (len(m.pend) == 0 || uint64(m.pend[0].logTime) >= m.chunks[m.next_].start) {
			m.next_++
			m.load(m.next_ - 1)
			continue
		}
		break
	}
	if len(m.pend) == 0 {
		return false
	}
	m.cur = heap.Pop(&m.pend).(rawMessage)
	return true
}

// load reads chunk i and either serves it directly or queues its selected
// messages in the heap (then its buffers stay with them).
func (m *chunkMerge) load(i int) {
	c := m.chunks[i]
	s := m.base
	reuse := len(m.pend) == 0
	if reuse {
		s.recBuf, s.chunkBuf = m.recBuf, m.decBuf
	} else {
		s.recBuf, s.chunkBuf = nil, nil
	}
	if err := s.rr.seekTo(c.offset); err != nil {
		s.problem(c.offset, err)
		return
	}
	op, length, start, err := s.rr.header()
	var te *TruncatedError
	switch {
	case op == opChunk && errors.As(err, &te):
		s.salvageTail(start, err)
		s.stopErr = nil // the file-level problem is already reported
	case op == opChunk && errors.Is(err, ErrTooLarge):
		s.skipOversized(op, length, start) // as in record order
	case err == nil && op != opChunk:
		err = fmt.Errorf("chunk index points at opcode 0x%02x", op)
		fallthrough
	case err != nil:
		s.problem(start, fmt.Errorf("MCAP chunk at byte %d unreadable: %w", start, err))
		return
	default:
		body, err := s.rr.body(&s.recBuf, length)
		if err != nil {
			s.problem(start, fmt.Errorf("MCAP chunk at byte %d unreadable: %w", start, err))
			return
		}
		s.loadChunk(start, body)
	}
	if s.lost != nil {
		// A skipped chunk: its messages come from the Message Index after it.
		for _, msg := range s.takeLost() {
			heap.Push(&m.pend, msg)
		}
		return
	}
	if reuse {
		m.recBuf, m.decBuf = s.recBuf, s.chunkBuf
	}
	m.scratch = m.scratch[:0]
	sorted := true
	for len(s.inChunk) > 0 {
		if s.nextInChunk() {
			if n := len(m.scratch); n > 0 && s.msg.logTime < m.scratch[n-1].logTime {
				sorted = false
			}
			m.scratch = append(m.scratch, s.msg)
		}
	}
	if n := len(m.scratch); reuse && sorted && n > 0 &&
		(i+1 >= len(m.chunks) || m.chunks[i+1].start > uint64(m.scratch[n-1].logTime)) {
		m.direct, m.di = m.scratch, 0
		return
	}
	if reuse {
		m.recBuf, m.decBuf = nil, nil // now referenced by queued messages
	}
	for _, msg := range m.scratch {
		heap.Push(&m.pend, msg)
	}
}

func (m *chunkMerge) message() *rawMessage { return &m.cur }
func (m *chunkMerge) err() error           { return m.base.err() }
func (m *chunkMerge) problems() []Problem  { return m.base.probs }
func (m *chunkMerge) close() error         { return m.base.close() }

// msgHeap orders queued messages by log time, then file position.
type msgHeap []rawMessage

func (h msgHeap) Len() int { return len(h) }
func (h msgHeap) Less(i, j int) bool {
	if h[i].logTime != h[j].logTime {
		return h[i].logTime < h[j].logTime
	}
	if h[i].pos != h[j].pos {
		return h[i].pos < h[j].pos
	}
	return h[i].chunkOff < h[j].chunkOff
}
func (h msgHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *msgHeap) Push(x any)   { *h = append(*h, x.(rawMessage)) }
func (h *msgHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// offsetSort yields an unchunked file (rosbag2's fastwrite preset) in
// log-time order: a first pass notes (log time, offset) of the selected
// messages, 16 bytes each; if they are already sorted the file is simply
// streamed again, else each message is read back at its offset.
type offsetSort struct {
	base    *mcapStream
	entries []offEntry
	i       int
	buf     []byte
}

type offEntry struct{ t, pos int64 }

func newOffsetSort(h *mcapHandle, fileIndex int, sel selection) (stream, error) {
	base, err := newMCAPStream(h, fileIndex, sel, false)
	if err != nil {
		return nil, err
	}
	o := &offsetSort{base: base}
	sorted := true
	for base.next() {
		if n := len(o.entries); n > 0 && base.msg.logTime < o.entries[n-1].t {
			sorted = false
		}
		o.entries = append(o.entries, offEntry{base.msg.logTime, base.msg.pos})
	}
	if sorted {
		base.close()
		return newMCAPStream(h, fileIndex, sel, false)
	}
	sort.SliceStable(o.entries, func(i, j int) bool { return o.entries[i].t < o.entries[j].t })
	return o, nil
}

func (o *offsetSort) next() bool {
	s := o.base
	for o.i < len(o.entries) {
		e := o.entries[o.i]
		o.i++
		var hdr [9]byte
		if _, err := s.rr.src.ReadAt(hdr[:], e.pos); err != nil {
			s.problem(e.pos, fmt.Errorf("re-read MCAP message: %w", err))
			continue
		}
		n := binary.LittleEndian.Uint64(hdr[1:])
		if hdr[0] != opMessage || n > uint64(s.h.limit) {
			s.problem(e.pos, fmt.Errorf("re-read MCAP message: record changed under the reader"))
			continue
		}
		o.buf = growLen(o.buf, int(n))
		if _, err := s.rr.src.ReadAt(o.buf, e.pos+9); err != nil {
			s.problem(e.pos, fmt.Errorf("re-read MCAP message: %w", err))
			continue
		}
		if s.parseMessage(o.buf, e.pos, -1) {
			return true
		}
	}
	return false
}

func (o *offsetSort) message() *rawMessage { return &o.base.msg }
func (o *offsetSort) err() error           { return o.base.err() }
func (o *offsetSort) problems() []Problem  { return o.base.probs }
func (o *offsetSort) close() error         { return o.base.close() }

// sortedStream is the last resort for time order on an MCAP file that can
// be neither seeked by chunk nor streamed sorted (an unsorted .mcap.zstd,
// or a file mixing chunks and top-level messages): it holds the selected
// messages in memory.
type sortedStream struct {
	base *mcapStream
	msgs []rawMessage
	i    int
}

func newSortedStream(h *mcapHandle, fileIndex int, sel selection) (*sortedStream, error) {
	base, err := newMCAPStream(h, fileIndex, sel, false)
	if err != nil {
		return nil, err
	}
	s := &sortedStream{base: base, i: -1}
	for base.next() {
		m := base.msg
		m.data = append([]byte(nil), m.data...)
		s.msgs = append(s.msgs, m)
	}
	sort.SliceStable(s.msgs, func(i, j int) bool { return s.msgs[i].logTime < s.msgs[j].logTime })
	return s, nil
}

func (s *sortedStream) next() bool {
	s.i++
	return s.i < len(s.msgs)
}
func (s *sortedStream) message() *rawMessage { return &s.msgs[s.i] }
func (s *sortedStream) err() error           { return s.base.err() }
func (s *sortedStream) problems() []Problem  { return s.base.probs }
func (s *sortedStream) close() error         { return s.base.close() }

// salvageTail reads what is left of a torn chunk record (the file ends
// inside it) and decodes as much of it as the bytes allow, so every
// complete message before the cut is kept; the stream stops after it.
func (s *mcapStream) salvageTail(start int64, cause error) {
	var part []byte
	if s.rr.size >= 0 {
		left := s.rr.size - s.rr.off
		if left > 0 && left <= s.h.limit {
			part, _ = s.rr.body(&s.recBuf, uint64(left))
		}
	}
	s.salvagePart(start, part, cause)
}

// salvagePart decodes the bytes of a torn chunk record that could be read.
func (s *mcapStream) salvagePart(start int64, part []byte, cause error) {
	s.stopAt, s.stopErr = start, cause
	if len(part) == 0 {
		return
	}
	c := cursor{b: part}
	var ch chunkHeader
	ch.start = c.u64("chunk message_start_time")
	ch.end = c.u64("chunk message_end_time")
	ch.usize = c.u64("chunk uncompressed_size")
	ch.crc = c.u32("chunk uncompressed_crc")
	ch.compression = c.str("chunk compression")
	c.u64("chunk records length")
	if c.err != nil {
		return
	}
	ch.records = part[c.off:]
	recs := s.dec.decompressPartial(ch.compression, ch.records, ch.usize, s.chunkBuf)
	if ch.compression != "" {
		s.chunkBuf = recs
	}
	s.chunk, s.chunkStart = ch, start
	s.inChunk, s.chunkLen = recs, len(recs)
	s.salvage = true
}
