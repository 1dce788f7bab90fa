package bagread

import (
	"container/heap"
	"errors"
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// Iterator streams messages. Use it like database/sql.Rows:
//
//	it := bag.Messages(opts)
//	defer it.Close()
//	for it.Next() { m := it.Message(); ... }
//	if err := it.Err(); err != nil { ... }
type Iterator struct {
	bag   *Bag
	order Order
	sel   selection

	streams []stream // one per file, nil until opened / after a file failed
	cur     int      // RecordOrder: index of the file being read
	merge   streamHeap
	last    *heapItem // TimeOrder: stream whose head was yielded last
	started bool

	msg      Message
	err      error
	problems []Problem
	// perTopic numbers each topic's messages and says how its payloads
	// are cut; recent holds the topics met last, so interleaved topics
	// (tf, clock and scans in turn) cost a few string compares per
	// message, not three map lookups.
	perTopic   map[string]*topicCursor
	recent     [8]*topicCursor
	nextRecent int

	// px is the prefix request (nil: whole messages); lastPrefix and
	// lastTimeOnly say how the current message's topic is cut.
	px           *prefixSpec
	lastPrefix   bool
	lastTimeOnly bool

	zdec *zstd.Decoder
	zbuf []byte
}

// selection is the set of topic names to read; nil means all.
type selection map[string]bool

func (s selection) has(name string) bool { return s == nil || s[name] }

// rawMessage is what a storage backend yields before message compression
// is undone and the per-topic index assigned.
type rawMessage struct {
	topic, typ string
	logTime    int64
	pubTime    int64
	hasPub     bool
	pos        int64
	chunkOff   int64
	rowid      bool
	data       []byte
	err        error
	fileIndex  int
	// size is the full payload length when data is only its prefix
	// (prefix reads); 0 otherwise.
	size int64
	// plain: the payload is never a MESSAGE-mode zstd frame (ROS 1).
	plain bool
	// publisher is a ROS 1 connection's callerid.
	publisher string
}

// stream is one file's message source.
type stream interface {
	next() bool
	message() *rawMessage
	// err is a fatal error; damage that just ends the file early is
	// reported by problems instead.
	err() error
	problems() []Problem
	close() error
}

// fileHandle is an opened storage file of a bag.
type fileHandle interface {
	open(fileIndex int, sel selection, order Order) (stream, error)
	close() error
}

// Messages starts a read. Damage that ends a file early is not an error:
// it is reported in File.Recovery and Iterator.Problems, and iteration goes
// on with the next file.
func (b *Bag) Messages(opts ReadOptions) *Iterator {
	it := &Iterator{bag: b, order: opts.Order, perTopic: map[string]*topicCursor{}, px: newPrefixSpec(opts)}
	if opts.Topics != nil {
		it.sel = selection{}
		for _, t := range opts.Topics {
			it.sel[t] = true
		}
	}
	it.streams = make([]stream, len(b.handles))
	return it
}

// Next advances to the next message; false at the end or on a fatal error.
func (it *Iterator) Next() bool {
	if it.err != nil || it.bag == nil {
		return false
	}
	var raw *rawMessage
	if it.order == TimeOrder {
		raw = it.nextMerged()
	} else {
		raw = it.nextSequential()
	}
	if raw == nil {
		return false
	}
	it.fill(raw)
	return true
}

func (it *Iterator) openStream(i int) stream {
	var s stream
	var err error
	if po, ok := it.bag.handles[i].(prefixOpener); ok && it.px != nil {
		s, err = po.openPrefix(i, it.sel, it.order, it.px)
	} else {
		s, err = it.bag.handles[i].open(i, it.sel, it.order)
	}
	if sf, ok := it.bag.handles[i].(interface{ sourceErr() error }); ok && sf.sourceErr() != nil {
		it.err = sf.sourceErr() // the store failed, not the file (failReader)
		if s != nil {
			s.close()
		}
		return nil
	}
	if err != nil {
		// A file that cannot be read at all is damage, not the end of the
		// whole read: report it and go on with the others.
		it.problems = append(it.problems, Problem{FileIndex: i, File: it.bag.Files[i].Path, Offset: -1, Err: err})
		return nil
	}
	it.streams[i] = s
	return s
}

func (it *Iterator) nextSequential() *rawMessage {
	for it.cur < len(it.streams) {
		s := it.streams[it.cur]
		if s == nil && !it.started {
			if s = it.openStream(it.cur); it.err != nil {
				return nil
			}
		}
		it.started = true
		if s != nil && s.next() {
			return s.message()
		}
		if s != nil {
			if err := s.err(); err != nil {
				it.err = err
				return nil
			}
			it.finish(it.cur)
		}
		it.cur++
		it.started = false
	}
	return nil
}

func (it *Iterator) nextMerged() *rawMessage {
	if !it.started {
		it.started = true
		for i := range it.streams {
			s := it.openStream(i)
			if it.err != nil {
				return nil
			}
			if s == nil {
				continue
			}
			if !it.stage(&heapItem{s: s, file: i}, false) {
				return nil
			}
		}
		heap.Init(&it.merge)
	} else if it.last != nil {
		if !it.stage(it.last, true) {
			return nil
		}
	}
	it.last = nil
	if it.merge.Len() == 0 {
		return nil
	}
	it.last = heap.Pop(&it.merge).(*heapItem)
	return it.last.s.message()
}

// stage advances an item's stream and puts it (back) in the merge heap;
// false only on a fatal error.
func (it *Iterator) stage(h *heapItem, push bool) bool {
	if h.s.next() {
		if push {
			heap.Push(&it.merge, h)
		} else {
			it.merge.items = append(it.merge.items, h)
		}
		return true
	}
	if err := h.s.err(); err != nil {
		it.err = err
		return false
	}
	it.finish(h.file)
	return true
}

// finish closes stream i and keeps its problems.
func (it *Iterator) finish(i int) {
	s := it.streams[i]
	if s == nil {
		return
	}
	it.problems = append(it.problems, s.problems()...)
	if err := s.close(); err != nil && it.err == nil {
		it.err = err
	}
	it.streams[i] = nil
}

// fill turns a raw message into the public Message, undoing MESSAGE-mode
// zstd into a reused buffer.
func (it *Iterator) fill(r *rawMessage) {
	m := &it.msg
	c := it.cursor(r.topic)
	it.lastPrefix, it.lastTimeOnly = c.prefix, c.timeOnly
	idx := c.n
	c.n++
	// Field by field, not *m = Message{...}: see rawMessage.setMCAP.
	m.Topic, m.Type = r.topic, r.typ
	m.LogTimeNS, m.PublishTimeNS, m.HasPublishTime = r.logTime, r.pubTime, r.hasPub
	m.FileIndex, m.Position, m.ChunkOffset = r.fileIndex, r.pos, r.chunkOff
	m.Index, m.Data, m.Size = idx, r.data, int64(len(r.data))
	m.Prefix, m.Publisher, m.Err = false, r.publisher, nil
	if it.px != nil {
		defer it.cutPrefix(m, r)
	}
	fail := func(err error) {
		m.Data, m.Size = nil, 0
		m.Err = &MessageError{File: it.bag.Files[r.fileIndex].Path, Topic: r.topic, Index: idx, Position: r.pos, Rowid: r.rowid, ChunkOffset: r.chunkOff, Err: err}
	}
	if r.err != nil {
		fail(r.err)
		return
	}
	if it.lastTimeOnly {
		it.fillTimeOnly(m, r)
		return
	}
	if !r.plain && isZstdFrame(r.data) {
		if it.zdec == nil {
			d, err := newBlockDecoder(it.bag.limit())
			if err != nil {
				fail(err)
				return
			}
			it.zdec = d
		}
		out, err := decodeFrame(it.zdec, r.data, it.zbuf[:0], it.bag.limit())
		if err != nil {
			fail(fmt.Errorf("MESSAGE-mode zstd frame: %w", err))
			return
		}
		it.zbuf = out
		m.Data, m.Size = out, int64(len(out))
	}
}

// topicCursor is what fill keeps per topic.
type topicCursor struct {
	name             string
	n                uint64 // messages yielded so far
	prefix, timeOnly bool   // how its payloads are cut (see prefix.go)
}

// cursor returns topic's cursor, from the recent ones when it is there.
func (it *Iterator) cursor(topic string) *topicCursor {
	for _, c := range it.recent {
		if c != nil && c.name == topic {
			return c
		}
	}
	c := it.perTopic[topic]
	if c == nil {
		c = &topicCursor{name: topic, prefix: it.px.has(topic), timeOnly: it.px.timeOnly(topic)}
		it.perTopic[topic] = c
	}
	it.recent[it.nextRecent] = c
	it.nextRecent = (it.nextRecent + 1) % len(it.recent)
	return c
}

// Message returns the current message (valid until the next Next).
func (it *Iterator) Message() *Message { return &it.msg }

// Err returns the fatal error that ended iteration, if any.
func (it *Iterator) Err() error { return it.err }

// Problems lists the damage met so far (truncated files, unreadable WAL...)
// as data, one entry per incident.
func (it *Iterator) Problems() []Problem {
	out := append([]Problem(nil), it.problems...)
	for _, s := range it.streams {
		if s != nil {
			out = append(out, s.problems()...)
		}
	}
	return out
}

// Close ends the iteration.
func (it *Iterator) Close() error {
	var errs []error
	for i, s := range it.streams {
		if s != nil {
			it.problems = append(it.problems, s.problems()...)
			errs = append(errs, s.close())
			it.streams[i] = nil
		}
	}
	if it.zdec != nil {
		releaseBlockDecoder(it.zdec)
		it.zdec = nil
	}
	it.bag = nil
	return errors.Join(errs...)
}

// Problem is damage met while reading one file: where reading of the file
// stopped, or what part of it (a chunk, a record) was skipped while
// reading went on, why, and how many messages came before it.
type Problem struct {
	FileIndex int
	File      string
	Offset    int64 // byte offset, -1 when unknown
	Err       error
	Recovered uint64
	// Skipped is true when reading went on after the damaged part (a
	// chunk over the decode budget or with a bad CRC, a bad record); its
	// messages, when the file's message indexes count them, are yielded
	// as messages with Err set.
	Skipped bool
	// WentOn is true for damage met while reading went on that is not a
	// skipped part (a record on an undeclared channel, the torn rest of a
	// chunk, a CRC found wrong after the chunk's messages were delivered):
	// it must not read as where reading stopped.
	WentOn bool
}

// String reads like "file: stopped at byte N after M messages: why",
// "file: skipped at byte N (reading went on): why", or "file: damage at
// byte N (reading went on): why".
func (p Problem) String() string {
	if p.Skipped {
		return fmt.Sprintf("%s: skipped at byte %d (reading went on): %v", p.File, p.Offset, p.Err)
	}
	if p.WentOn {
		return fmt.Sprintf("%s: damage at byte %d (reading went on): %v", p.File, p.Offset, p.Err)
	}
	if p.Offset < 0 {
		return fmt.Sprintf("%s: stopped after %d messages: %v", p.File, p.Recovered, p.Err)
	}
	return fmt.Sprintf("%s: stopped at byte %d after %d messages: %v", p.File, p.Offset, p.Recovered, p.Err)
}

type heapItem struct {
	s    stream
	file int
}

// streamHeap orders file streams by their head message: record time, then
// file order. It holds one item per file (a stream yields its own
// messages in record order), so no two items tie on both.
type streamHeap struct {
	items []*heapItem
}

func (h *streamHeap) Len() int { return len(h.items) }
func (h *streamHeap) Less(i, j int) bool {
	a, b := h.items[i].s.message(), h.items[j].s.message()
	if a.logTime != b.logTime {
		return a.logTime < b.logTime
	}
	return h.items[i].file < h.items[j].file
}
func (h *streamHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *streamHeap) Push(x any)    { h.items = append(h.items, x.(*heapItem)) }
func (h *streamHeap) Pop() any {
	n := len(h.items)
	x := h.items[n-1]
	h.items = h.items[:n-1]
	return x
}
