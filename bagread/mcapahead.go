package bagread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
)

// chunkAhead decompresses the next chunks of an indexed, chunk-compressed
// MCAP on other goroutines while the stream parses the current one:
// decompression is about 90% of reading a zstd-chunked file, so it is two
// chunks decompressing side by side, not the overlap with parsing, that
// pays. Chunks are read with a second file handle at the offsets the chunk
// index gives, so the stream's sequential reader just skips them; they are
// handed back strictly in file order. Anything unexpected (an unreadable
// or malformed chunk, an uncompressed one, a chunk the index does not
// list) makes take report false, and the stream reads that chunk itself
// with its usual errors. Memory: aheadDepth chunks in flight, each at most
// aheadMaxChunk.
type chunkAhead struct {
	f       io.ReaderAt
	c       io.Closer
	offsets []int64 // chunk records in file order
	next    int     // index in offsets of the next chunk to queue
	limit   int64
	queue   []*aheadSlot // in flight, in file order
	idle    []*aheadSlot
	bufs    [][]byte // free chunk buffers
}

// aheadDepth is how many chunks decompress at once; chunks larger than
// aheadMaxChunk (uncompressed) are not read ahead, so read-ahead adds at
// most a few times that to a read's memory (rosbag2 writes 768 KiB chunks).
const (
	aheadDepth    = 2
	aheadMaxChunk = 8 << 20
)

// aheadSlot is one fetch: its own decompressor and record buffer.
type aheadSlot struct {
	dec  chunkDecompressor
	body []byte
	off  int64
	done chan aheadChunk
}

type aheadChunk struct {
	ch   chunkHeader
	recs []byte
	err  error
}

// newChunkAhead prepares read-ahead over the chunks of h not in skip,
// through the stream's planned reader when it has one; nil when the file
// cannot be opened a second time (the stream reads alone).
func newChunkAhead(h *mcapHandle, skip map[int64]bool, planned io.ReaderAt) *chunkAhead {
	f, _, c, err := h.source()
	if err != nil {
		return nil
	}
	if planned != nil {
		f = planned
	}
	a := &chunkAhead{f: f, c: c, limit: h.limit}
	for _, c := range h.info.chunks {
		if !skip[c.offset] {
			a.offsets = append(a.offsets, c.offset)
		}
	}
	sort.Slice(a.offsets, func(i, j int) bool { return a.offsets[i] < a.offsets[j] })
	for range aheadDepth {
		a.idle = append(a.idle, &aheadSlot{dec: chunkDecompressor{limit: h.limit}, done: make(chan aheadChunk, 1)})
	}
	return a
}

// startAfter takes back buf (a chunk buffer the stream no longer needs,
// or nil) and keeps aheadDepth chunks after off in flight.
func (a *chunkAhead) startAfter(off int64, buf []byte) {
	if buf != nil {
		a.bufs = append(a.bufs, buf)
	}
	if len(a.queue) == 0 {
		a.next = sort.Search(len(a.offsets), func(i int) bool { return a.offsets[i] > off })
	}
	for len(a.idle) > 0 && a.next < len(a.offsets) {
		sl := a.idle[len(a.idle)-1]
		a.idle = a.idle[:len(a.idle)-1]
		var dst []byte
		if n := len(a.bufs); n > 0 {
			dst, a.bufs = a.bufs[n-1], a.bufs[:n-1]
		}
		sl.off = a.offsets[a.next]
		a.next++
		a.queue = append(a.queue, sl)
		go func() { sl.done <- sl.fetch(a.f, a.limit, dst) }()
	}
}

// fetch reads and decompresses the chunk record at sl.off into dst.
func (sl *aheadSlot) fetch(f io.ReaderAt, limit int64, dst []byte) aheadChunk {
	var head [9]byte
	if _, err := f.ReadAt(head[:], sl.off); err != nil {
		return aheadChunk{recs: dst, err: err}
	}
	length := binary.LittleEndian.Uint64(head[1:])
	if head[0] != opChunk || length > uint64(limit) {
		return aheadChunk{recs: dst, err: fmt.Errorf("no chunk record of sane length at byte %d", sl.off)}
	}
	sl.body = growLen(sl.body, int(length))
	if _, err := f.ReadAt(sl.body, sl.off+9); err != nil {
		return aheadChunk{recs: dst, err: err}
	}
	ch, err := parseChunk(sl.body)
	switch {
	case err != nil:
	case ch.compression == "":
		err = errors.New("uncompressed chunk: nothing to read ahead")
	case ch.usize > aheadMaxChunk:
		err = fmt.Errorf("chunk of %d bytes: too large to read ahead", ch.usize)
	}
	if err != nil {
		return aheadChunk{recs: dst, err: err}
	}
	recs, err := sl.dec.decompress(ch.compression, ch.records, ch.usize, dst)
	if err == nil {
		// A mismatch sends the chunk back to the stream, which reports it.
		err = checkChunkCRC(&ch, recs)
	}
	ch.records = nil // aliases body, which the slot's next fetch reuses
	if recs == nil {
		recs = dst
	}
	return aheadChunk{ch: ch, recs: recs, err: err}
}

// take returns the chunk at off if it was read ahead without trouble. On
// false nothing is in flight any more and the caller reads the chunk
// itself; the next startAfter starts over after it.
func (a *chunkAhead) take(off int64) (aheadChunk, bool) {
	if len(a.queue) == 0 || a.queue[0].off != off {
		a.drain()
		return aheadChunk{}, false
	}
	sl := a.queue[0]
	got := <-sl.done
	a.queue = a.queue[1:]
	a.idle = append(a.idle, sl)
	if got.err != nil {
		a.bufs = append(a.bufs, got.recs)
		a.drain()
		return aheadChunk{}, false
	}
	return got, true
}

// drain waits for every fetch in flight and keeps their buffers.
func (a *chunkAhead) drain() {
	for _, sl := range a.queue {
		got := <-sl.done
		if got.recs != nil {
			a.bufs = append(a.bufs, got.recs)
		}
		a.idle = append(a.idle, sl)
	}
	a.queue = a.queue[:0]
}

func (a *chunkAhead) close() {
	a.drain()
	for _, sl := range a.idle {
		sl.dec.close()
	}
	a.c.Close()
}
