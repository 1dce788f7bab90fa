package bagread

// ros1Ahead reads and decompresses the next chunks a ROS 1 stream will
// load on other goroutines while the stream walks the current one: on an
// lz4 bag decompression is most of reading, and on an uncompressed one
// the copy out of the page cache is, and both overlap the record walk and
// the analysis that way (bz2 chunks, slower than everything else, then
// decompress two side by side). Each slot has its own file buffers and
// decompressor, and a slot's chunk stays untouched until the stream has
// moved past it, so message data keeps the contract it has without
// read-ahead: valid until the stream's next chunk. Memory: ros1AheadDepth
// chunks in flight plus the one being read, each at most the decode
// budget (rosbag writes 768 KiB chunks).
type ros1Ahead struct {
	chunks []ros1Chunk
	order  []int // indexes into chunks of the chunks the stream loads, in order
	next   int   // position in order of the next chunk to queue
	queue  []*ros1Slot
	idle   []*ros1Slot
	held   *ros1Slot // the slot whose chunk the stream is reading
}

// ros1AheadDepth is how many chunks are read ahead at once.
const ros1AheadDepth = 2

type ros1Slot struct {
	rf    ros1File
	dec   ros1Decompressor
	chunk int
	done  chan ros1Fetched
}

type ros1Fetched struct {
	buf []byte
	err error
}

// newROS1Ahead prepares read-ahead over the chunks of order; nil when
// there are too few for it to pay.
func newROS1Ahead(h *ros1Handle, order []int) *ros1Ahead {
	if len(order) < 2 {
		return nil
	}
	a := &ros1Ahead{chunks: h.chunks, order: order}
	for range ros1AheadDepth + 1 {
		sl := &ros1Slot{rf: ros1File{path: h.path, f: h.f, size: h.size, limit: h.limit}, done: make(chan ros1Fetched, 1)}
		sl.dec.cd.limit = h.limit
		a.idle = append(a.idle, sl)
	}
	a.fill()
	return a
}

// fill keeps ros1AheadDepth chunks in flight.
func (a *ros1Ahead) fill() {
	for len(a.queue) < ros1AheadDepth && len(a.idle) > 0 && a.next < len(a.order) {
		sl := a.idle[len(a.idle)-1]
		a.idle = a.idle[:len(a.idle)-1]
		sl.chunk = a.order[a.next]
		a.next++
		a.queue = append(a.queue, sl)
		pos := a.chunks[sl.chunk].pos
		go func() {
			buf, err := readROS1Chunk(&sl.rf, &sl.dec, pos)
			sl.done <- ros1Fetched{buf, err}
		}()
	}
}

// take hands over chunk (an index into chunks) as readROS1Chunk would
// return it; ok is false when chunk is not the next one read ahead, and
// the caller reads it itself.
func (a *ros1Ahead) take(chunk int) (buf []byte, err error, ok bool) {
	if len(a.queue) == 0 || a.queue[0].chunk != chunk {
		return nil, nil, false
	}
	if a.held != nil {
		a.idle = append(a.idle, a.held)
		a.held = nil
	}
	sl := a.queue[0]
	a.queue = a.queue[1:]
	a.fill()
	got := <-sl.done
	a.held = sl
	return got.buf, got.err, true
}

// close waits for the fetches in flight and releases the decompressors.
func (a *ros1Ahead) close() {
	for _, sl := range a.queue {
		<-sl.done
		a.idle = append(a.idle, sl)
	}
	a.queue = nil
	if a.held != nil {
		a.idle = append(a.idle, a.held)
		a.held = nil
	}
	for _, sl := range a.idle {
		sl.dec.cd.close()
	}
}
