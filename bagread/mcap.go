package bagread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/foxglove/mcap/go/mcap"
)

// footerLen is the Footer record plus trailing magic (C++ FooterLength).
const footerLen = 37

// chanInfo is one MCAP channel with its schema's type name.
type chanInfo struct {
	id                   uint16
	topic, typ, encoding string
	qos, hash            string
	schemaID             uint16
}

// chunkInfo locates one chunk; channels nil means "unknown, assume all".
type chunkInfo struct {
	offset     int64
	start, end uint64
	channels   map[uint16]bool
	// From the chunk index only (zero after a scan): the chunk record's
	// length with its opcode and length prefix, the end of the message
	// index records after it, its compression and uncompressed size.
	length, idxEnd int64
	compression    string
	usize          uint64
}

// mcapInfo is what Open learns about an MCAP file, from its summary when
// it has a usable one, else from a full sequential scan.
type mcapInfo struct {
	profile, library string
	schemas          map[uint16]string // id -> type name
	channels         map[uint16]*chanInfo
	order            []uint16 // channel ids in order of appearance
	counts           map[uint16]uint64
	messages         uint64
	start, end       uint64
	chunks           []chunkInfo
	topLevel         bool // messages outside chunks
	scanned          bool
	sorted           bool // scan saw log times never decrease (file order)
	indexed          bool
	recovery         *Recovery
	// defs: schema id -> encoding, data (schemadef.go).
	defs map[uint16][2]string
}

func newMCAPInfo() *mcapInfo {
	return &mcapInfo{schemas: map[uint16]string{}, channels: map[uint16]*chanInfo{}, counts: map[uint16]uint64{}}
}

// register parses a Schema or Channel record (through the library, with
// panics turned into errors).
func (in *mcapInfo) register(path string, off int64, op byte, body []byte) error {
	return guard(path, off, "parse record", func() error {
		switch op {
		case opSchema:
			s, err := mcap.ParseSchema(body)
			if err != nil {
				return &FileError{Path: path, Offset: off, Op: "parse schema", Err: err}
			}
			if _, ok := in.schemas[s.ID]; ok {
				return nil // known: no write, so iterators can share the map
			}
			in.schemas[s.ID] = s.Name
			in.addDef(s)
			for _, c := range in.channels {
				if c.schemaID == s.ID && c.typ == "" {
					c.typ = s.Name
				}
			}
		case opChannel:
			c, err := mcap.ParseChannel(body)
			if err != nil {
				return &FileError{Path: path, Offset: off, Op: "parse channel", Err: err}
			}
			if _, ok := in.channels[c.ID]; ok {
				return nil
			}
			in.channels[c.ID] = &chanInfo{id: c.ID, topic: c.Topic, typ: in.schemas[c.SchemaID], encoding: c.MessageEncoding,
				qos: c.Metadata["offered_qos_profiles"], hash: c.Metadata["topic_type_hash"], schemaID: c.SchemaID}
			in.order = append(in.order, c.ID)
		}
		return nil
	})
}

// mcapHandle is an MCAP file of a bag.
type mcapHandle struct {
	path       string
	compressed bool
	limit      int64
	info       *mcapInfo
	sequential bool     // Options.Sequential: no chunk read-ahead
	mem        *memFile // the bytes, when in memory; nil: read path
}

func (h *mcapHandle) close() error { return nil }

// openMCAP reads the summary of an intact file, or scans the whole file
// when the summary is missing, unusable or unreachable (.mcap.zstd).
func (b *Bag) openMCAP(path string, compressed bool) (*opened, error) {
	return b.openMCAPFrom(path, nil, compressed)
}

// openMCAPFrom is openMCAP on the file at path or, when mem is not nil,
// on bytes in memory.
func (b *Bag) openMCAPFrom(path string, mem *memFile, compressed bool) (*opened, error) {
	h := &mcapHandle{path: path, compressed: compressed, limit: b.limit(), sequential: b.opts.Sequential, mem: mem}
	var info *mcapInfo
	var sumErr error
	if !compressed {
		info, sumErr = readSummary(h)
		if sumErr != nil {
			info = nil // fall back to a scan, which says what is wrong
		}
	}
	if info == nil {
		var err error
		info, err = scanMCAP(h)
		if err != nil {
			return nil, err
		}
		if errors.Is(sumErr, errSummaryCRC) && info.recovery == nil {
			info.recovery = &Recovery{Reason: fmt.Sprintf("%v: summary ignored, read sequentially, recovered %d messages", sumErr, info.messages),
				Offset: -1, Recovered: info.messages}
		}
	}
	h.info = info
	o := &opened{handle: h}
	o.file = File{Library: info.library, Profile: info.profile, Indexed: info.indexed, MessageCount: info.messages, Recovery: info.recovery}
	if info.messages > 0 {
		o.file.StartNS, o.file.EndNS = clampNS(info.start), clampNS(info.end)
	}
	for _, id := range info.order {
		c := info.channels[id]
		d := info.defs[c.schemaID]
		o.topics = append(o.topics, storageTopic{Name: c.topic, Type: c.typ, Format: c.encoding, OfferedQoS: c.qos, Hash: c.hash, Count: info.counts[id],
			DefEncoding: d[0], Def: d[1]})
	}
	return o, nil
}

// readSummary reads footer and summary section: schemas, channels,
// statistics and chunk indexes. Any doubt returns an error and the caller
// scans instead.
func readSummary(h *mcapHandle) (*mcapInfo, error) {
	path, limit := h.path, h.limit
	f, size, c, err := h.source()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if size < 8+9+footerLen {
		return nil, errors.New("too short for a footer")
	}
	tail := make([]byte, footerLen)
	if _, err := f.ReadAt(tail, size-footerLen); err != nil {
		return nil, err
	}
	if string(tail[29:]) != string(mcapMagic) || tail[0] != opFooter || binary.LittleEndian.Uint64(tail[1:]) != 20 {
		return nil, errors.New("no footer")
	}
	summaryStart := binary.LittleEndian.Uint64(tail[9:])
	summaryOffsetStart := binary.LittleEndian.Uint64(tail[17:])
	end := uint64(size - footerLen)
	if summaryOffsetStart != 0 && summaryOffsetStart < end {
		end = summaryOffsetStart
	}
	if summaryStart == 0 || summaryStart < 8 || summaryStart > end || end-summaryStart > uint64(limit) {
		return nil, errors.New("no usable summary")
	}
	sum := make([]byte, end-summaryStart)
	if _, err := f.ReadAt(sum, int64(summaryStart)); err != nil {
		return nil, err
	}
	if err := summaryCRC(f, sum, end, size, tail); err != nil {
		return nil, err
	}
	info := newMCAPInfo()
	info.indexed = true
	var stats *mcap.Statistics
	for c := 0; c < len(sum); {
		if len(sum)-c < 9 {
			return nil, errors.New("torn summary record")
		}
		op := sum[c]
		n := binary.LittleEndian.Uint64(sum[c+1:])
		if n > uint64(len(sum)-c-9) {
			return nil, errors.New("summary record runs past the summary")
		}
		body := sum[c+9 : c+9+int(n)]
		off := int64(summaryStart) + int64(c)
		c += 9 + int(n)
		switch op {
		case opSchema, opChannel:
			if err := info.register(path, off, op, body); err != nil {
				return nil, err
			}
		case opStatistics:
			err = guard(path, off, "parse statistics", func() error {
				var err error
				stats, err = mcap.ParseStatistics(body)
				return err
			})
		case opChunkIndex:
			var ci *mcap.ChunkIndex
			err = guard(path, off, "parse chunk index", func() error {
				var err error
				ci, err = mcap.ParseChunkIndex(body)
				return err
			})
			if err == nil {
				if ci.ChunkStartOffset < 8 || ci.ChunkLength > summaryStart || ci.ChunkStartOffset > summaryStart-ci.ChunkLength {
					return nil, fmt.Errorf("chunk index points outside the data section")
				}
				chans := map[uint16]bool{}
				for id := range ci.MessageIndexOffsets {
					chans[id] = true
				}
				if len(chans) == 0 {
					chans = nil
				}
				end := ci.ChunkStartOffset + ci.ChunkLength
				idxEnd := end
				if ci.MessageIndexLength <= summaryStart-end {
					idxEnd += ci.MessageIndexLength
				}
				info.chunks = append(info.chunks, chunkInfo{offset: int64(ci.ChunkStartOffset), start: ci.MessageStartTime, end: ci.MessageEndTime, channels: chans,
					length: int64(ci.ChunkLength), idxEnd: int64(idxEnd), compression: string(ci.Compression), usize: ci.UncompressedSize})
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if stats == nil {
		return nil, errors.New("summary has no statistics")
	}
	info.messages = stats.MessageCount
	info.start, info.end = stats.MessageStartTime, stats.MessageEndTime
	var sum64 uint64
	for id, n := range stats.ChannelMessageCounts {
		info.counts[id] = n
		sum64 += n
	}
	if sum64 != stats.MessageCount {
		return nil, errors.New("statistics per-channel counts do not add up")
	}
	if info.messages > 0 && len(info.chunks) == 0 {
		// Unchunked (fastwrite) or chunked without chunk indexes: only a
		// scan tells which, and whether the file is already sorted.
		return nil, errors.New("summary has no chunk indexes")
	}
	// Profile and library live in the Header right after the magic.
	head := make([]byte, 8+9)
	if _, err := f.ReadAt(head, 0); err == nil && head[8] == opHeader {
		n := binary.LittleEndian.Uint64(head[9:])
		if n < 1<<20 && int64(n) < size {
			body := make([]byte, n)
			if _, err := f.ReadAt(body, 17); err == nil {
				info.profile, info.library, _ = parseHeader(body)
			}
		}
	}
	return info, nil
}

// scanMCAP reads a file sequentially, counting what is there and noting
// where and why it stops.
func scanMCAP(h *mcapHandle) (*mcapInfo, error) {
	h.info = newMCAPInfo()
	s, err := newMCAPStream(h, 0, nil, true)
	if err != nil {
		return nil, &FileError{Path: h.path, Offset: 0, Op: "open MCAP", Err: err}
	}
	defer s.close()
	info := h.info
	info.scanned, info.sorted = true, true
	var last uint64
	var cur *chunkInfo
	for s.next() {
		m := &s.msg
		lt := uint64(m.logTime)
		if info.messages == 0 || lt < info.start {
			info.start = lt
		}
		if info.messages == 0 || lt > info.end {
			info.end = lt
		}
		if info.messages > 0 && lt < last {
			info.sorted = false
		}
		last = lt
		info.messages++
		info.counts[s.curChan]++
		if m.chunkOff < 0 {
			info.topLevel = true
			continue
		}
		if cur == nil || cur.offset != m.pos {
			info.chunks = append(info.chunks, chunkInfo{offset: m.pos, start: s.chunk.start, end: s.chunk.end, channels: map[uint16]bool{}})
			cur = &info.chunks[len(info.chunks)-1]
		}
		cur.channels[s.curChan] = true
	}
	if err := s.err(); err != nil {
		return nil, err
	}
	var stopped []Problem // skipped chunks are not where reading ended
	for _, p := range s.problems() {
		if !p.Skipped {
			stopped = append(stopped, p)
		}
	}
	if len(stopped) > 0 {
		last := stopped[len(stopped)-1]
		info.recovery = &Recovery{Reason: last.Err.Error(), Offset: last.Offset, Recovered: info.messages}
	} else if s.sawFooter {
		// Complete file whose summary lacked what bagread needs
		// (e.g. no Statistics): scanned, nothing lost.
	} else if s.sawEnd {
		info.recovery = &Recovery{Reason: fmt.Sprintf("MCAP summary/footer unreadable (data section complete up to byte %d): read sequentially, recovered %d messages", s.rr.off, info.messages),
			Offset: s.rr.off, Recovered: info.messages}
	} else {
		info.recovery = &Recovery{Reason: fmt.Sprintf("MCAP has no summary/footer (ends at byte %d): read sequentially, recovered %d messages", s.rr.off, info.messages),
			Offset: s.rr.off, Recovered: info.messages}
	}
	sort.SliceStable(info.chunks, func(i, j int) bool { return info.chunks[i].offset < info.chunks[j].offset })
	return info, nil
}
