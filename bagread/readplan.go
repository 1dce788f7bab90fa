package bagread

import (
	"io"
	"sort"
)

// A file in an object store costs a request per read, and requests cost
// little side by side but add up one after another. So before a
// record-order pass over an indexed MCAP file, the stream works out from
// the chunk index which bytes it will read, in file order, and reads
// through a reader that may fetch them ahead, several at once (the
// source's RangeReader). The plan is a forecast, never a condition: a
// read it missed is still served, one request at a time.

// Range is Len bytes of a storage file from offset Off.
type Range struct{ Off, Len int64 }

// RangeReader is a Source's ReaderAt that can fetch planned ranges ahead
// (an object in a store). Plan gets the ranges a read pass expects to
// read, in file order, and returns the reader that pass then uses; it
// must serve any read, planned or not, as ReadAt would.
type RangeReader interface {
	io.ReaderAt
	Plan(ranges []Range) PlannedReader
}

// PlannedReader reads the bytes of the RangeReader that made it; Close
// drops whatever it fetched and stops fetching.
type PlannedReader interface {
	io.ReaderAt
	io.Closer
}

// planGapBytes is the largest stretch between two chunks (other records,
// an attachment) that a plan reads whole rather than only its start.
const planGapBytes = 64 << 10

// startPlan hands the stream's remaining reads to a planned reader when
// the file is an intact, indexed, plain MCAP from a RangeReader; it is
// called once, before the first record after the magic is read.
func (s *mcapStream) startPlan() {
	h := s.h
	if h.mem == nil || h.compressed || s.scan || !h.info.indexed || h.info.recovery != nil || len(h.info.chunks) == 0 {
		return
	}
	rr, ok := h.mem.ra.(RangeReader)
	if !ok {
		return
	}
	plan := s.readPlan(int64(s.rr.r.Size()))
	if len(plan) == 0 {
		return
	}
	s.rr.usePlanned(rr.Plan(plan))
}

// readPlan lists the byte ranges a record-order pass reads, in file
// order, each extended by buf (the stream's read buffer, which is filled
// whole after every seek) and merged where they meet. Per chunk: its
// record header when the topic filter skips it; its first bytes when it
// is parsed record by record (a large uncompressed chunk of a prefix
// read: the payload of its large message is seeked over, and writers put
// that message last, since it is what fills the chunk); the whole chunk
// otherwise. After each chunk, its message index records; between chunks,
// whatever else is there when it is small.
func (s *mcapStream) readPlan(buf int64) []Range {
	h := s.h
	chunks := append([]chunkInfo(nil), h.info.chunks...)
	sort.Slice(chunks, func(i, j int) bool { return chunks[i].offset < chunks[j].offset })
	var out []Range
	add := func(off, n int64) {
		end := min(off+n+buf, h.mem.size)
		if off >= end {
			return
		}
		if k := len(out) - 1; k >= 0 && off <= out[k].Off+out[k].Len {
			out[k].Len = max(out[k].Len, end-out[k].Off)
			return
		}
		out = append(out, Range{Off: off, Len: end - off})
	}
	pos := s.rr.off
	for _, c := range chunks {
		if c.length < 9 || c.offset < pos {
			return nil // not what a well-formed file's index says: no forecast
		}
		if gap := c.offset - pos; gap <= planGapBytes {
			add(pos, gap)
		} else {
			add(pos, 9)
		}
		switch {
		case s.skip[c.offset]:
			add(c.offset, 9)
		case s.px != nil && c.compression == "" && (c.length-9 > prefixStreamChunk || c.usize > prefixStreamChunk):
			add(c.offset, 9+40)
		default:
			add(c.offset, c.length)
		}
		pos = max(c.idxEnd, c.offset+c.length)
		add(c.offset+c.length, pos-(c.offset+c.length))
	}
	add(pos, 9) // the Data End record (or whatever follows)
	return out
}
