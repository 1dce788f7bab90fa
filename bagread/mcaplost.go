package bagread

import (
	"encoding/binary"
	"fmt"
	"sort"
)

// lostChunk is a chunk skipped as damaged. The Message Index records that
// follow it (one per channel) are collected; once the next other record
// comes, every entry (a message of the chunk that could not be read) of a
// selected channel is yielded, in chunk order, as a message with Err set.
type lostChunk struct {
	start   int64 // the chunk's offset
	err     error // why it was skipped
	entries []lostEntry
	held    *heldHeader // the record header that ended the indexes
}

type lostEntry struct {
	chanID   uint16
	logTime  uint64
	chunkOff uint64
}

// heldHeader is a record header read but not yet handled.
type heldHeader struct {
	op     byte
	length uint64
	start  int64
	err    error
}

// addLost collects the entries of one Message Index record (body at
// start) after a skipped chunk.
func (s *mcapStream) addLost(start int64, body []byte) {
	l := s.lost
	c := cursor{b: body}
	id := c.u16("message index channel_id")
	n := c.u32("message index records length")
	if c.err != nil || uint64(n) > uint64(len(body)-c.off) || n%16 != 0 {
		s.problem(start, fmt.Errorf("MCAP message index at byte %d (after the skipped chunk at byte %d) is malformed: its messages are not counted", start, l.start))
		return
	}
	if ch := s.channel(id); ch == nil || !s.wants(ch) {
		return
	}
	for e := body[c.off : c.off+int(n)]; len(e) >= 16; e = e[16:] {
		l.entries = append(l.entries, lostEntry{chanID: id, logTime: binary.LittleEndian.Uint64(e), chunkOff: binary.LittleEndian.Uint64(e[8:])})
	}
}

// holdLost is called with the first record header after a skipped
// chunk's indexes: the header is kept for later and the collected entries
// are put in chunk order for yieldLost. It reports whether any are left
// to yield (else the header is handled now and the lost chunk forgotten).
func (s *mcapStream) holdLost(op byte, length uint64, start int64, err error) bool {
	l := s.lost
	if len(l.entries) == 0 {
		s.lost = nil
		return false
	}
	l.held = &heldHeader{op, length, start, err}
	sort.SliceStable(l.entries, func(i, j int) bool { return l.entries[i].chunkOff < l.entries[j].chunkOff })
	return true
}

// yieldLost yields the next collected entry as a message with Err set;
// false when none is left.
func (s *mcapStream) yieldLost() bool {
	l := s.lost
	if len(l.entries) == 0 {
		return false
	}
	e := l.entries[0]
	l.entries = l.entries[1:]
	s.curChan = e.chanID
	s.msg = s.lostMessage(l, e)
	s.n++
	return true
}

// lostMessage is entry e of lost chunk l as a message with Err set.
func (s *mcapStream) lostMessage(l *lostChunk, e lostEntry) rawMessage {
	ch := s.channel(e.chanID)
	chunkOff := int64(e.chunkOff)
	if e.chunkOff > 1<<62 {
		chunkOff = -1 // not an offset any chunk can have
	}
	return rawMessage{
		topic: ch.topic, typ: ch.typ, fileIndex: s.fileIndex, logTime: int64(e.logTime),
		pos: l.start, chunkOff: chunkOff, err: l.err,
	}
}

// takeLost is holdLost for a reader that seeked to a chunk (time order):
// the Message Index records right after the skipped chunk are read here,
// and its messages of selected channels are returned, in chunk order, as
// messages with Err set, so they are counted as skipped in time order too.
func (s *mcapStream) takeLost() []rawMessage {
	l := s.lost
	for {
		op, length, start, err := s.rr.header()
		if err != nil || op != opMsgIndex {
			break
		}
		body, err := s.rr.body(&s.recBuf, length)
		if err != nil {
			break
		}
		s.addLost(start, body)
	}
	s.lost = nil
	sort.SliceStable(l.entries, func(i, j int) bool { return l.entries[i].chunkOff < l.entries[j].chunkOff })
	msgs := make([]rawMessage, 0, len(l.entries))
	for _, e := range l.entries {
		msgs = append(msgs, s.lostMessage(l, e))
		s.n++
	}
	return msgs
}

// header returns the next record header: one held back by holdLost, or
// the next from the file.
func (s *mcapStream) header() (op byte, length uint64, start int64, err error) {
	if l := s.lost; l != nil && l.held != nil {
		h := l.held
		s.lost = nil
		return h.op, h.length, h.start, h.err
	}
	return s.rr.header()
}
