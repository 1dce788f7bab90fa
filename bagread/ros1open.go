package bagread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sort"
)

// ros1File reads records of a ROS 1 bag by offset.
type ros1File struct {
	path  string
	f     *os.File
	size  int64
	limit int64
	hbuf  []byte
	dbuf  []byte
}

// ros1At is one record read from the file: its parsed header and where
// its data lies.
type ros1At struct {
	rec     ros1Record
	dataOff int64
	dataLen uint32
	next    int64
}

// at reads the record header at off (not its data).
func (rf *ros1File) at(off int64) (ros1At, error) {
	var a ros1At
	var lb [4]byte
	if rf.size-off < 4 {
		return a, &TruncatedError{Need: 4, Have: rf.size - off}
	}
	if _, err := rf.f.ReadAt(lb[:], off); err != nil {
		return a, err
	}
	hl := binary.LittleEndian.Uint32(lb[:])
	if err := ros1SizeCheck("record header", uint64(hl)+4, rf.size-off-4, maxROS1Header); err != nil {
		return a, err
	}
	rf.hbuf = growLen(rf.hbuf, int(hl)+4)
	if _, err := rf.f.ReadAt(rf.hbuf, off+4); err != nil {
		return a, err
	}
	if err := parseROS1Record(rf.hbuf[:hl], &a.rec); err != nil {
		return a, err
	}
	a.dataLen = binary.LittleEndian.Uint32(rf.hbuf[hl:])
	a.dataOff = off + 8 + int64(hl)
	if err := ros1SizeCheck(fmt.Sprintf("record op 0x%02x", a.rec.op), uint64(a.dataLen), rf.size-a.dataOff, rf.limit); err != nil {
		var te *TruncatedError
		if errors.As(err, &te) {
			te.Opcode = a.rec.op
		}
		return a, err
	}
	a.next = a.dataOff + int64(a.dataLen)
	return a, nil
}

// data reads a record's data into a reused buffer.
func (rf *ros1File) data(a ros1At) ([]byte, error) {
	rf.dbuf = growLen(rf.dbuf, int(a.dataLen))
	if _, err := rf.f.ReadAt(rf.dbuf, a.dataOff); err != nil {
		return nil, err
	}
	return rf.dbuf, nil
}

// ros1Chunk is one chunk of the file: where it is, what it holds.
type ros1Chunk struct {
	pos        int64
	start, end int64
	conns      []ros1ChunkConn
}

type ros1ChunkConn struct{ conn, count uint32 }

// ros1Conn is a connection with the topic it belongs to.
type ros1Conn struct {
	Connection
	info ros1ConnInfo
}

// ros1Handle is an opened ROS 1 bag file.
type ros1Handle struct {
	path   string
	f      *os.File
	size   int64
	limit  int64
	conns  map[uint32]*ros1Conn
	chunks []ros1Chunk
	// scanned: the file had no usable index; chunks were found by a
	// linear scan, which stopped at scanEnd (the first record it could
	// not read, or the end of the file).
	scanned bool
	scanEnd int64
	// damaged: the scan met damage; problems repeats it on every read.
	damage []Problem
}

func (h *ros1Handle) close() error { return h.f.Close() }

// openROS1 opens a ROS 1 bag: from its index when the recorder closed
// it, else by a linear scan of every complete record.
func (b *Bag) openROS1(path string) (*opened, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, &FileError{Path: path, Offset: -1, Op: "open", Err: err}
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &FileError{Path: path, Offset: -1, Op: "stat", Err: err}
	}
	h := &ros1Handle{path: path, f: f, size: st.Size(), limit: b.limit(), conns: map[uint32]*ros1Conn{}}
	rf := &ros1File{path: path, f: f, size: h.size, limit: h.limit}
	o := &opened{handle: h}
	o.file.Storage = StorageROS1
	start := int64(len(ros1Magic))
	hdr, err := rf.at(start)
	var why string
	switch {
	case err != nil:
		f.Close()
		return nil, &FileError{Path: path, Offset: start, Op: "read the bag header record", Err: err}
	case hdr.rec.op != ros1OpBagHeader:
		f.Close()
		return nil, &FileError{Path: path, Offset: start, Op: "read the bag header record", Err: fmt.Errorf("first record has op 0x%02x, not the bag header's 0x03", hdr.rec.op)}
	case hdr.rec.indexPos == 0:
		why = "unindexed ROS 1 bag (index_pos is 0: the recorder never closed it, as in a .bag.active left by a crash)"
	case hdr.rec.indexPos < uint64(hdr.next) || hdr.rec.indexPos >= uint64(h.size):
		why = fmt.Sprintf("ROS 1 bag index at byte %d is outside the file (%d bytes): the file was cut", hdr.rec.indexPos, h.size)
	default:
		if err := h.readIndex(rf, int64(hdr.rec.indexPos), hdr.rec.connCount, hdr.rec.chunkCount); err != nil {
			why = fmt.Sprintf("ROS 1 bag index unreadable (%v)", err)
			h.conns, h.chunks = map[uint32]*ros1Conn{}, nil
		}
	}
	if why != "" {
		h.scan(rf, hdr.next, why, o)
	} else {
		o.file.Indexed = true
	}
	h.fill(o)
	return o, nil
}

// readIndex reads the connections and chunk infos written at close.
func (h *ros1Handle) readIndex(rf *ros1File, off int64, nConn, nChunk uint32) error {
	for off < h.size {
		a, err := rf.at(off)
		if err != nil {
			return fmt.Errorf("at byte %d: %w", off, err)
		}
		switch a.rec.op {
		case ros1OpConnection:
			data, err := rf.data(a)
			if err != nil {
				return err
			}
			if err := h.addConn(a.rec.conn, a.rec.topic, data); err != nil {
				return fmt.Errorf("connection record at byte %d: %w", off, err)
			}
		case ros1OpChunkInfo:
			data, err := rf.data(a)
			if err != nil {
				return err
			}
			ch := ros1Chunk{pos: int64(a.rec.chunkPos), start: a.rec.startTime, end: a.rec.endTime}
			if a.rec.chunkPos >= uint64(h.size) {
				return fmt.Errorf("chunk info at byte %d points past the end of the file (%d)", off, a.rec.chunkPos)
			}
			if uint64(a.rec.count)*8 != uint64(len(data)) {
				return fmt.Errorf("chunk info at byte %d: %d connections need %d bytes, data has %d", off, a.rec.count, uint64(a.rec.count)*8, len(data))
			}
			for i := 0; i+8 <= len(data); i += 8 {
				ch.conns = append(ch.conns, ros1ChunkConn{binary.LittleEndian.Uint32(data[i:]), binary.LittleEndian.Uint32(data[i+4:])})
			}
			h.chunks = append(h.chunks, ch)
		}
		off = a.next
	}
	if uint32(len(h.conns)) != nConn || uint32(len(h.chunks)) != nChunk {
		return fmt.Errorf("the bag header promises %d connections and %d chunks, the index holds %d and %d", nConn, nChunk, len(h.conns), len(h.chunks))
	}
	for _, ch := range h.chunks {
		for _, cc := range ch.conns {
			c := h.conns[cc.conn]
			if c == nil {
				return fmt.Errorf("chunk at byte %d counts messages of connection %d, which has no connection record", ch.pos, cc.conn)
			}
			c.Count += uint64(cc.count)
		}
	}
	sort.SliceStable(h.chunks, func(i, j int) bool { return h.chunks[i].pos < h.chunks[j].pos })
	return nil
}

// addConn records a connection (the first record of an id wins; the copy
// in the index repeats the one in the chunk).
func (h *ros1Handle) addConn(id uint32, topic string, data []byte) error {
	if h.conns[id] != nil {
		return nil
	}
	ci, err := parseROS1ConnData(data)
	if err != nil {
		return err
	}
	if topic != "" {
		// The record header's topic is the one the bag files it under;
		// the connection header's may be missing or a remapped original.
		ci.topic = topic
	}
	h.conns[id] = &ros1Conn{Connection: Connection{ID: id, Callerid: ci.callerid, Latching: ci.latching, MD5Sum: ci.md5}, info: ci}
	return nil
}

// scan finds every complete chunk and connection by walking the records
// from off to the first one it cannot read, decompressing each chunk to
// count its messages. It reports how it read the file in o.file.Recovery.
func (h *ros1Handle) scan(rf *ros1File, off int64, why string, o *opened) {
	h.scanned = true
	var dec ros1Decompressor
	dec.cd.limit = h.limit
	defer dec.cd.close()
	var n uint64
	stop := ""
	for off < h.size {
		a, err := rf.at(off)
		if err != nil {
			stop = fmt.Sprintf("stopped at byte %d: %v", off, err)
			break
		}
		switch a.rec.op {
		case ros1OpConnection:
			data, err := rf.data(a)
			if err == nil {
				err = h.addConn(a.rec.conn, a.rec.topic, data)
			}
			if err != nil {
				h.damage = append(h.damage, Problem{File: h.path, Offset: off, Err: fmt.Errorf("connection record: %w", err), WentOn: true})
			}
		case ros1OpChunk:
			ch, cnt, err := h.scanChunk(rf, a, off, &dec)
			if err != nil {
				h.damage = append(h.damage, Problem{File: h.path, Offset: off, Err: err, Skipped: true, Recovered: n})
			} else {
				h.chunks = append(h.chunks, ch)
				n += cnt
			}
		}
		off = a.next
	}
	h.scanEnd = off
	reason := why + "; read by a linear scan of every complete record"
	if stop != "" {
		reason += "; " + stop
	}
	o.file.Recovery = &Recovery{Reason: reason, Offset: off, Recovered: n}
}

// scanChunk decompresses one chunk found by the scan and counts its
// messages per connection (learning connections recorded inside it).
func (h *ros1Handle) scanChunk(rf *ros1File, a ros1At, off int64, dec *ros1Decompressor) (ros1Chunk, uint64, error) {
	ch := ros1Chunk{pos: off, start: -1}
	if !a.rec.hasSize {
		return ch, 0, errors.New("chunk record has no size field")
	}
	src, err := rf.data(a)
	if err != nil {
		return ch, 0, err
	}
	buf, err := dec.decompress(a.rec.compression, src, a.rec.size)
	if err != nil {
		return ch, 0, fmt.Errorf("chunk: %w", err)
	}
	counts := map[uint32]uint32{}
	var order []uint32
	var r ros1Record
	var n uint64
	for p := 0; p < len(buf); {
		data, next, err := ros1Slice(buf, p, &r)
		if err != nil {
			// The messages before the tear are kept; the chunk's rest is
			// reported by the stream when it meets it.
			break
		}
		switch r.op {
		case ros1OpConnection:
			if err := h.addConn(r.conn, r.topic, data); err != nil {
				h.damage = append(h.damage, Problem{File: h.path, Offset: off, Err: fmt.Errorf("connection record in chunk at offset %d: %w", p, err), WentOn: true})
			}
		case ros1OpMessage:
			if _, ok := counts[r.conn]; !ok {
				order = append(order, r.conn)
			}
			counts[r.conn]++
			if ch.start < 0 || r.time < ch.start {
				ch.start = r.time
			}
			ch.end = max(ch.end, r.time)
			n++
		}
		p = next
	}
	for _, c := range order {
		ch.conns = append(ch.conns, ros1ChunkConn{c, counts[c]})
		if hc := h.conns[c]; hc != nil {
			hc.Count += uint64(counts[c])
		}
	}
	if ch.start < 0 {
		ch.start = 0
	}
	return ch, n, nil
}

// fill turns the connections and chunks into the file's topics and
// totals.
func (h *ros1Handle) fill(o *opened) {
	ids := make([]uint32, 0, len(h.conns))
	for id := range h.conns {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	byTopic := map[string]int{}
	for _, id := range ids {
		c := h.conns[id]
		i, ok := byTopic[c.info.topic]
		if !ok {
			i = len(o.topics)
			byTopic[c.info.topic] = i
			o.topics = append(o.topics, storageTopic{Name: c.info.topic, Type: c.info.typ, Format: SerializationROS1, DefEncoding: DefinitionROS1, Def: c.info.def})
		}
		t := &o.topics[i]
		t.Count += c.Count
		t.Conns = append(t.Conns, c.Connection)
	}
	first := true
	for _, ch := range h.chunks {
		var n uint64
		for _, cc := range ch.conns {
			n += uint64(cc.count)
		}
		if n == 0 {
			continue
		}
		o.file.MessageCount += n
		if first || ch.start < o.file.StartNS {
			o.file.StartNS = ch.start
		}
		if first || ch.end > o.file.EndNS {
			o.file.EndNS = ch.end
		}
		first = false
	}
}

// mergeConnections adds a file's connections of a topic to the bag's:
// the same publisher (callerid and latching) in several split files is
// one entry with the counts summed.
func mergeConnections(have, add []Connection) []Connection {
	for _, c := range add {
		found := false
		for i := range have {
			if have[i].Callerid == c.Callerid && have[i].Latching == c.Latching {
				have[i].Count += c.Count
				found = true
				break
			}
		}
		if !found {
			have = append(have, c)
		}
	}
	return have
}
