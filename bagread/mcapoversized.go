package bagread

import (
	"encoding/binary"
	"fmt"
)

// A record longer than the decode budget is not read. In a plain file its
// length has been checked against the file's size, so it is stepped over
// and reading goes on with the next record, as for a chunk that fails to
// decompress. (A .mcap.zstd stream cannot be checked or seeked: there the
// file stops at such a record, as before.)

// skipOversized passes over the record at start (its header read, length
// over the budget) and notes it as skipped damage naming the declared
// size. A chunk's messages are then counted from the Message Index
// records after it (see mcaplost.go); a top-level message of a selected
// channel is yielded with Err set, or read as a prefix when its topic
// asks for one. It reports whether a message was yielded.
func (s *mcapStream) skipOversized(op byte, length uint64, start int64) bool {
	why := fmt.Errorf("record opcode 0x%02x at byte %d declares %d bytes: %w (decode budget %d bytes)", op, start, length, ErrTooLarge, s.h.limit)
	switch op {
	case opChunk:
		if err := s.rr.skip(length); err != nil {
			s.stop(start, err)
			return false
		}
		s.skipProblem(start, fmt.Errorf("MCAP chunk at byte %d skipped: %w", start, why))
		return false
	case opMessage:
		return s.skipOversizedMessage(length, start, why)
	case opHeader, opSchema, opChannel, opMsgIndex, opDataEnd, opFooter:
		// Records bagread would read: their loss is damage.
		s.probs = append(s.probs, Problem{FileIndex: s.fileIndex, File: s.h.path, Offset: start, Recovered: s.n, Err: why, Skipped: true})
	}
	// Anything else (attachments, metadata, unknown opcodes) is never read.
	if err := s.rr.skip(length); err != nil {
		s.stop(start, err)
	}
	return false
}

// skipOversizedMessage handles a top-level Message record over the
// budget: its 22-byte head says the channel and log time.
func (s *mcapStream) skipOversizedMessage(length uint64, start int64, why error) bool {
	if length < 22 {
		// Cannot be over any budget; here for completeness.
		return false
	}
	head, err := s.rr.r.Peek(22)
	if err != nil {
		s.stop(start, &TruncatedError{Opcode: opMessage, Need: 22, Have: int64(len(head))})
		return false
	}
	c := s.channel(binary.LittleEndian.Uint16(head))
	if c != nil && s.wants(c) && s.px != nil && s.isPrefix(c) {
		// Only the first bytes are wanted: read them, skip the rest.
		return s.streamTopLevel(start, length)
	}
	logTime := int64(binary.LittleEndian.Uint64(head[6:]))
	pubTime := int64(binary.LittleEndian.Uint64(head[14:]))
	if err := s.rr.skip(length); err != nil {
		s.stop(start, err)
		return false
	}
	s.probs = append(s.probs, Problem{FileIndex: s.fileIndex, File: s.h.path, Offset: start, Recovered: s.n,
		Err: fmt.Errorf("MCAP message at byte %d skipped: %w", start, why), Skipped: true})
	if c == nil || !s.wants(c) {
		return false
	}
	s.curChan = c.id
	s.msg = rawMessage{
		topic: c.topic, typ: c.typ, fileIndex: s.fileIndex, logTime: logTime, pubTime: pubTime, hasPub: true,
		pos: start, chunkOff: -1, err: why,
	}
	s.n++
	return true
}
