package bagread

import "fmt"

// ros1Stream yields a ROS 1 bag's messages chunk by chunk, in file order.
// Both orders yield record order: rosbag record writes messages as they
// arrive, so within a file that is also (nearly) record-time order; files
// are merged by time by the Iterator as for the other storages.
type ros1Stream struct {
	h         *ros1Handle
	fileIndex int
	sel       selection
	rf        ros1File
	dec       ros1Decompressor

	chunk int    // next chunk to open
	buf   []byte // current decompressed chunk
	p     int    // next record in buf
	cur   *ros1Chunk
	// pending error messages of a chunk that could not be read: one per
	// message its chunk info counts (conn, left).
	pendConn []ros1ChunkConn
	pendErr  error
	// byID caches connections by id with whether the selection wants
	// them: a map lookup and a topic lookup per message cost a tenth of
	// walking an uncompressed bag.
	byID []ros1Pick
	// ahead reads the next chunks on other goroutines; nil reads them here.
	ahead     *ros1Ahead
	msg       rawMessage
	probs     []Problem
	delivered uint64
}

func (h *ros1Handle) open(fileIndex int, sel selection, order Order) (stream, error) {
	s := &ros1Stream{h: h, fileIndex: fileIndex, sel: sel, chunk: 0}
	s.rf = ros1File{path: h.path, f: h.f, size: h.size, limit: h.limit}
	s.dec.cd.limit = h.limit
	for _, p := range h.damage {
		p.FileIndex = fileIndex
		s.probs = append(s.probs, p)
	}
	var load []int
	for i := range h.chunks {
		if s.wanted(&h.chunks[i]) {
			load = append(load, i)
		}
	}
	s.ahead = newROS1Ahead(h, load)
	return s, nil
}

// wanted reports whether a chunk holds a selected connection.
func (s *ros1Stream) wanted(ch *ros1Chunk) bool {
	if s.sel == nil {
		return true
	}
	for _, cc := range ch.conns {
		if c := s.h.conns[cc.conn]; c != nil && s.sel.has(c.info.topic) {
			return true
		}
	}
	return false
}

func (s *ros1Stream) next() bool {
	for {
		if len(s.pendConn) > 0 {
			cc := &s.pendConn[0]
			c := s.h.conns[cc.conn]
			if cc.count == 0 || c == nil || !s.sel.has(c.info.topic) {
				s.pendConn = s.pendConn[1:]
				continue
			}
			cc.count--
			s.msg = rawMessage{topic: c.info.topic, typ: c.info.typ, logTime: s.cur.start, pos: s.cur.pos, chunkOff: -1, err: s.pendErr, fileIndex: s.fileIndex, plain: true, publisher: c.Callerid}
			return true
		}
		if s.buf != nil && s.p < len(s.buf) {
			if s.nextInChunk() {
				return true
			}
			continue
		}
		s.buf = nil
		if s.chunk >= len(s.h.chunks) {
			return false
		}
		s.cur = &s.h.chunks[s.chunk]
		s.chunk++
		if !s.wanted(s.cur) {
			continue
		}
		s.loadChunk()
	}
}

// loadChunk reads and decompresses the current chunk; on failure its
// messages (as the chunk info counts them) are yielded with Err set.
func (s *ros1Stream) loadChunk() {
	fail := func(err error) {
		s.probs = append(s.probs, Problem{FileIndex: s.fileIndex, File: s.h.path, Offset: s.cur.pos, Err: err, Skipped: true, Recovered: s.delivered})
		s.pendConn = append(s.pendConn[:0], s.cur.conns...)
		s.pendErr = err
	}
	var buf []byte
	var err error
	ok := false
	if s.ahead != nil {
		buf, err, ok = s.ahead.take(s.chunk - 1)
	}
	if !ok {
		buf, err = readROS1Chunk(&s.rf, &s.dec, s.cur.pos)
	}
	if err != nil {
		fail(err)
		return
	}
	s.buf, s.p = buf, 0
}

// readROS1Chunk reads and decompresses the chunk record at pos into rf's
// and dec's buffers.
func readROS1Chunk(rf *ros1File, dec *ros1Decompressor, pos int64) ([]byte, error) {
	a, err := rf.at(pos)
	if err != nil {
		return nil, fmt.Errorf("chunk record: %w", err)
	}
	if a.rec.op != ros1OpChunk || !a.rec.hasSize {
		return nil, fmt.Errorf("the index points at a record of op 0x%02x, not a chunk", a.rec.op)
	}
	src, err := rf.data(a)
	if err != nil {
		return nil, fmt.Errorf("chunk data: %w", err)
	}
	buf, err := dec.decompress(a.rec.compression, src, a.rec.size)
	if err != nil {
		return nil, fmt.Errorf("chunk: %w", err)
	}
	return buf, nil
}

// nextInChunk yields the next selected message of the current chunk;
// false when the chunk has no more (or its rest is torn).
func (s *ros1Stream) nextInChunk() bool {
	var r ros1Record
	for s.p < len(s.buf) {
		off := s.p
		data, next, err := ros1Slice(s.buf, s.p, &r)
		if err != nil {
			s.probs = append(s.probs, Problem{FileIndex: s.fileIndex, File: s.h.path, Offset: s.cur.pos, Err: fmt.Errorf("chunk offset %d: %w", off, err), WentOn: true, Recovered: s.delivered})
			s.p = len(s.buf)
			return false
		}
		s.p = next
		if r.op != ros1OpMessage {
			continue
		}
		c, want := s.conn(r.conn)
		if c == nil {
			s.probs = append(s.probs, Problem{FileIndex: s.fileIndex, File: s.h.path, Offset: s.cur.pos, Err: fmt.Errorf("chunk offset %d: message on connection %d, which has no connection record", off, r.conn), WentOn: true, Recovered: s.delivered})
			continue
		}
		if !want {
			continue
		}
		s.msg = rawMessage{topic: c.info.topic, typ: c.info.typ, logTime: r.time, pos: s.cur.pos, chunkOff: int64(off), data: data, fileIndex: s.fileIndex, plain: true, publisher: c.Callerid}
		s.delivered++
		return true
	}
	return false
}

type ros1Pick struct {
	c    *ros1Conn
	want bool
}

// maxCachedConn bounds byID: rosbag numbers connections from 0, so real
// ids are small; a larger (hostile) id is looked up without the cache.
const maxCachedConn = 4096

// conn returns connection id (nil when the bag has no record of it) and
// whether the stream's selection wants its topic.
func (s *ros1Stream) conn(id uint32) (*ros1Conn, bool) {
	if id < uint32(len(s.byID)) && s.byID[id].c != nil {
		return s.byID[id].c, s.byID[id].want
	}
	c := s.h.conns[id]
	if c == nil {
		return nil, false
	}
	want := s.sel.has(c.info.topic)
	if id < maxCachedConn {
		if int(id) >= len(s.byID) {
			s.byID = append(s.byID, make([]ros1Pick, int(id)+1-len(s.byID))...)
		}
		s.byID[id] = ros1Pick{c, want}
	}
	return c, want
}

func (s *ros1Stream) message() *rawMessage { return &s.msg }
func (s *ros1Stream) err() error           { return nil }
func (s *ros1Stream) problems() []Problem  { return s.probs }
func (s *ros1Stream) close() error {
	if s.ahead != nil {
		s.ahead.close()
		s.ahead = nil
	}
	s.dec.cd.close()
	return nil
}
