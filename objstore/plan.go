package objstore

import (
	"context"
	"io"
	"sort"
	"sync"

	"github.com/bagclock/bagclock/bagread"
)

// A read pass over an MCAP object needs a few hundred small ranges, one
// per large message, megabytes apart: one GET each, which on their own
// cost a round trip apiece. planned fetches them ahead, Parallel at a
// time, in the order the pass reads them, within a memory budget.

const (
	// planMergeGap: ranges this close are fetched as one; the bytes
	// between cost less than another request.
	planMergeGap = 32 << 10
	// planPiece bounds one GET of a plan, so a long range is fetched by
	// several requests side by side.
	planPiece = 4 << 20
	// planKeepBehind is how far behind the furthest read a fetched piece
	// is kept: the chunk read-ahead reads up to two chunks ahead of the
	// stream, which then reads the message indexes between them.
	planKeepBehind = 16 << 20
	// planAheadPieces bounds how many pieces are fetched ahead of the
	// piece being read, per Parallel: a pass that stops early (the tf
	// look-ahead) wastes no more.
	planAheadPieces = 4
	// planKeepBytes bounds the pieces an Object keeps once a pass is done
	// with them, for the next pass of the same plan: analyze reads a
	// bag's first seconds twice (its tf look-ahead, then the replay).
	planKeepBytes = 8 << 20
)

// kept is what an Object keeps of finished passes: pieces by offset and
// length, those furthest into the object given up first, since a pass
// starts at the beginning.
type kept struct {
	mu    sync.Mutex
	by    map[[2]int64][]byte
	bytes int64
}

// take removes and returns the kept bytes of exactly this piece.
func (k *kept) take(off int64, n int) []byte {
	k.mu.Lock()
	defer k.mu.Unlock()
	key := [2]int64{off, int64(n)}
	b, ok := k.by[key]
	if !ok {
		return nil
	}
	delete(k.by, key)
	k.bytes -= int64(n)
	return b
}

// put keeps a fetched piece, dropping the furthest beyond planKeepBytes.
func (k *kept) put(off int64, b []byte) {
	if len(b) == 0 || len(b) > planKeepBytes {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.by == nil {
		k.by = map[[2]int64][]byte{}
	}
	key := [2]int64{off, int64(len(b))}
	if _, ok := k.by[key]; ok {
		return
	}
	k.by[key] = b
	k.bytes += int64(len(b))
	for k.bytes > planKeepBytes {
		var last [2]int64
		for key := range k.by {
			if key[0] >= last[0] {
				last = key
			}
		}
		k.bytes -= last[1]
		delete(k.by, last)
	}
}

// piece states
const (
	pieceIdle = iota
	pieceFetching
	pieceDone
	pieceDropped
)

type piece struct {
	off   int64
	buf   []byte
	n     int
	state int
	err   error
}

func (p *piece) end() int64 { return p.off + int64(p.n) }

// planned is an Object read through a plan (bagread.RangeReader).
type planned struct {
	o      *Object
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	cond     *sync.Cond
	pieces   []*piece
	next     int   // no idle piece before it
	reading  int   // piece of the latest read
	furthest int64 // end of the furthest read
	held     int64 // bytes of pieces fetching or fetched, not dropped
	low      int   // pieces before it are dropped
	closed   bool
}

// Plan starts fetching ranges ahead (see planned); the reader it returns
// serves any read of the object.
func (o *Object) Plan(ranges []bagread.Range) bagread.PlannedReader {
	ctx, cancel := context.WithCancel(context.Background())
	p := &planned{o: o, ctx: ctx, cancel: cancel, pieces: o.pieces(ranges)}
	p.cond = sync.NewCond(&p.mu)
	for _, pc := range p.pieces {
		if b := o.kept.take(pc.off, pc.n); b != nil {
			pc.buf, pc.state = b, pieceDone
			p.held += int64(pc.n)
		}
	}
	workers := min(o.store.set.Parallel, len(p.pieces))
	for range workers {
		p.wg.Add(1)
		go p.work()
	}
	return p
}

// pieces turns a plan into the GETs that fetch it: without what the kept
// head and tail hold, ranges close together merged, long ones split.
func (o *Object) pieces(ranges []bagread.Range) []*piece {
	rs := append([]bagread.Range(nil), ranges...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Off < rs[j].Off })
	headEnd, tailStart := int64(len(o.head)), o.info.Size-int64(len(o.tail))
	var merged []bagread.Range
	for _, r := range rs {
		lo, hi := max(r.Off, headEnd), min(r.Off+r.Len, tailStart, o.info.Size)
		if lo >= hi {
			continue
		}
		if k := len(merged) - 1; k >= 0 && lo <= merged[k].Off+merged[k].Len+planMergeGap {
			merged[k].Len = max(merged[k].Len, hi-merged[k].Off)
			continue
		}
		merged = append(merged, bagread.Range{Off: lo, Len: hi - lo})
	}
	var out []*piece
	for _, r := range merged {
		for off := r.Off; off < r.Off+r.Len; off += planPiece {
			out = append(out, &piece{off: off, n: int(min(planPiece, r.Off+r.Len-off))})
		}
	}
	return out
}

// work fetches idle pieces in file order while the budget allows.
func (p *planned) work() {
	defer p.wg.Done()
	budget := p.o.store.set.AheadBytes
	ahead := planAheadPieces * p.o.store.set.Parallel
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		for p.next < len(p.pieces) && p.pieces[p.next].state != pieceIdle {
			p.next++
		}
		if p.closed || p.next >= len(p.pieces) {
			return
		}
		pc := p.pieces[p.next]
		if p.next-p.reading > ahead || (p.held > 0 && p.held+int64(pc.n) > budget) {
			p.cond.Wait()
			continue
		}
		p.fetchLocked(pc)
	}
}

// fetchLocked fetches one idle piece, unlocking meanwhile.
func (p *planned) fetchLocked(pc *piece) {
	pc.state = pieceFetching
	p.held += int64(pc.n)
	p.mu.Unlock()
	buf := make([]byte, pc.n)
	err := p.o.fetch(p.ctx, buf, pc.off)
	p.mu.Lock()
	pc.buf, pc.err, pc.state = buf, err, pieceDone
	if pc.err != nil {
		pc.buf = nil
	}
	p.cond.Broadcast()
}

// ReadAt serves a read from the pieces that hold it, waiting for them
// (or fetching an idle one itself); bytes no piece holds come from the
// object directly.
func (p *planned) ReadAt(b []byte, off int64) (int, error) {
	o := p.o
	if off < 0 || off >= o.info.Size || off+int64(len(b)) <= int64(len(o.head)) || off >= o.info.Size-int64(len(o.tail)) {
		return o.ReadAt(b, off)
	}
	want := min(int64(len(b)), o.info.Size-off)
	done := int64(0)
	p.mu.Lock()
	k := sort.Search(len(p.pieces), func(i int) bool { return p.pieces[i].end() > off })
	for done < want && k < len(p.pieces) && !p.closed {
		pc := p.pieces[k]
		at := off + done
		if pc.off > at || pc.state == pieceDropped {
			break
		}
		if k > p.reading {
			p.reading = k
			p.cond.Broadcast()
		}
		switch pc.state {
		case pieceIdle:
			p.fetchLocked(pc)
			continue
		case pieceFetching:
			p.cond.Wait()
			continue
		}
		if pc.err != nil {
			p.mu.Unlock()
			return int(done), pc.err
		}
		done += int64(copy(b[done:want], pc.buf[at-pc.off:]))
		k++
	}
	p.furthest = max(p.furthest, off+done)
	p.dropBehindLocked()
	p.mu.Unlock()
	if done < want {
		o.store.unplanned.Add(1)
		n, err := o.ReadAt(b[done:want], off+done)
		done += int64(n)
		if err != nil {
			return int(done), err
		}
	}
	if done < int64(len(b)) {
		return int(done), io.EOF
	}
	return int(done), nil
}

// dropBehindLocked frees the pieces far behind the furthest read, and
// gives up those never fetched: a read there is served directly.
func (p *planned) dropBehindLocked() {
	freed := false
	for ; p.low < len(p.pieces); p.low++ {
		pc := p.pieces[p.low]
		if pc.end()+planKeepBehind > p.furthest || pc.state == pieceFetching {
			break
		}
		if pc.state == pieceDone {
			p.held -= int64(pc.n)
			freed = true
			p.o.kept.put(pc.off, pc.buf)
		}
		pc.buf, pc.state = nil, pieceDropped
	}
	if freed {
		p.cond.Broadcast()
	}
}

// Close stops the fetches and drops every piece.
func (p *planned) Close() error {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
	p.mu.Lock()
	for _, pc := range p.pieces {
		if pc.state == pieceDone {
			p.o.kept.put(pc.off, pc.buf)
		}
		pc.buf = nil
	}
	p.held = 0
	p.mu.Unlock()
	return nil
}
