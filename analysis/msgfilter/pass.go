package msgfilter

import (
	"cmp"
	"container/heap"
	"slices"
	"sort"
)

// The retest pass. tf2's testTransformableRequests walks the whole request
// vector after every insert: with a queue that keeps evicting and no
// buffer_timeout (RViz), the requests of evicted messages are never
// cancelled and the vector grows by one per scan for as long as the scans
// cannot be transformed, so an hour of system-stamped scans against sim-time
// tf costs tf2 (and a naive replay) a quadratic amount of work.
//
// The outcome of a pass is a function of which requests complete: the
// buffer does not change during a pass, so each request completes or not
// independently of the others, and the swap-remove order can be replayed
// from the sorted positions of the completing ones. Requests are indexed
// per frame pair and sorted by stamp, so that whole runs are settled
// without a lookup each:
//   - a pair with an unknown frame completes nothing (canTransformInternal
//     with id 0 is false, and the too-old rule needs both frames);
//   - stamps below L - cache_time are too old;
//   - stamps above every dynamic stamp ever inserted (G, known when the
//     caller reports stamps through TransformStored) all answer like one
//     another: every dynamic cache refuses them (future extrapolation), so
//     canTransform is true exactly when the path is made of static links;
//   - the rest is tested one by one, as tf2 does.

type pairKey struct{ target, source string }

// pairList holds a pair's pending requests sorted by stamp. The order among
// equal stamps does not matter: the list is only searched by stamp, and a
// pass sorts what completes by vector position.
type pairList struct {
	key  pairKey
	reqs []*request
}

func (p *pairList) insert(r *request) {
	i, _ := slices.BinarySearchFunc(p.reqs, r.t, func(q *request, t int64) int { return cmp.Compare(q.t, t) })
	p.reqs = slices.Insert(p.reqs, i, r)
}

// firstAtLeast returns the index of the first request with t >= v.
func (p *pairList) firstAtLeast(v int64) int {
	return sort.Search(len(p.reqs), func(i int) bool { return p.reqs[i].t >= v })
}

// firstAbove returns the index of the first request with t > v.
func (p *pairList) firstAbove(v int64) int {
	return sort.Search(len(p.reqs), func(i int) bool { return p.reqs[i].t > v })
}

func (g *Group) addRequest(r *request) {
	r.pos = len(g.reqs)
	g.reqs = append(g.reqs, r)
	k := pairKey{r.target, r.source}
	p := g.pairs[k]
	if p == nil {
		p = &pairList{key: k}
		g.pairs[k] = p
	}
	r.pair = p
	p.insert(r)
}

// unpair drops r from its pair list.
func (g *Group) unpair(r *request) {
	p := r.pair
	r.pair = nil
	i := p.firstAtLeast(r.t)
	i += slices.Index(p.reqs[i:], r) // r is in the run of its stamp
	p.reqs = slices.Delete(p.reqs, i, i+1)
	// Empty lists stay: a group sees few frame pairs, and re-creating one
	// per scan would allocate.
}

// cancel is cancelTransformableRequest: an order-keeping removal, unlike
// the swap-remove of completed requests.
func (g *Group) cancel(r *request) {
	i := r.pos
	copy(g.reqs[i:], g.reqs[i+1:])
	g.reqs[len(g.reqs)-1] = nil
	g.reqs = g.reqs[:len(g.reqs)-1]
	for j := i; j < len(g.reqs); j++ {
		g.reqs[j].pos = j
	}
	g.unpair(r)
}

// TransformAdded runs BufferCore::testTransformableRequests; call it after
// every SetTransform that returned nil (per transform, not per TFMessage),
// with the record time of the insertion. Timers due at or before nowNS fire
// first. In a Group shared by several filters call it once per insertion,
// on the Group or on any one of its filters. Prefer TransformStored, which
// also knows the stamp: once one insertion is reported without it, the
// group can no longer settle future-stamped requests in bulk.
func (f *Filter) TransformAdded(nowNS int64) { f.g.TransformAdded(nowNS) }

// TransformStored is TransformAdded with the inserted transform's stamp and
// kind; report every successful insertion into the buffer this way.
func (f *Filter) TransformStored(nowNS, stampNS int64, static bool) {
	f.g.TransformStored(nowNS, stampNS, static)
}

// TransformAdded is Filter.TransformAdded for the whole group.
func (g *Group) TransformAdded(nowNS int64) {
	g.blind = true
	g.pass(nowNS)
}

// TransformStored is Filter.TransformStored for the whole group.
func (g *Group) TransformStored(nowNS, stampNS int64, static bool) {
	if !static {
		if g.anyStamp {
			stampNS = max(stampNS, g.maxStamp)
		}
		g.maxStamp, g.anyStamp = stampNS, true
	}
	g.pass(nowNS)
}

func (g *Group) pass(nowNS int64) {
	g.advance(nowNS)
	g.at = nowNS
	g.tfCount++
	if len(g.reqs) == 0 {
		return
	}
	if g.reference {
		g.passReference()
		return
	}
	cache := g.buf.CacheTimeNS()
	done := g.done[:0]
	for _, p := range g.pairs {
		k := p.key
		if len(p.reqs) == 0 || !g.buf.HasFrame(k.target) || !g.buf.HasFrame(k.source) {
			continue
		}
		l := g.latest(k.target, k.source)
		from := 0
		if l != 0 {
			from = p.firstAtLeast(l - cache) // t + cache < l  <=>  t < l - cache
			for _, r := range p.reqs[:from] {
				r.ok = false
				done = append(done, r)
			}
		}
		to := len(p.reqs)
		if g.anyStamp && !g.blind {
			to = max(from, p.firstAbove(g.maxStamp))
		}
		for _, r := range p.reqs[from:to] {
			if g.buf.CanTransform(k.target, k.source, r.t) {
				r.ok = true
				done = append(done, r)
			}
		}
		if to < len(p.reqs) && g.buf.CanTransform(k.target, k.source, p.reqs[to].t) {
			for _, r := range p.reqs[to:] {
				r.ok = true
				done = append(done, r)
			}
		}
	}
	if len(done) == 0 {
		g.done = done
		return
	}
	slices.SortFunc(done, func(a, b *request) int { return cmp.Compare(a.pos, b.pos) })
	for _, r := range done {
		g.unpair(r)
		if r.heapIdx >= 0 {
			heap.Remove(&g.timers, r.heapIdx)
		}
	}

	// Replay tf2's loop: the completing request at position p is called
	// back, the last request moves into p and is tested next; the last
	// request completes iff it is the highest completing position left.
	lo, hi := 0, len(done)-1
	for lo <= hi {
		r := done[lo]
		lo++
		p := r.pos
		for {
			last := len(g.reqs) - 1
			g.complete(r, last == p)
			moved := g.reqs[last]
			g.reqs[last] = nil
			g.reqs = g.reqs[:last]
			if last == p {
				break
			}
			g.reqs[p] = moved
			moved.pos = p
			if lo <= hi && done[hi] == moved {
				hi--
				r = moved
				continue
			}
			break
		}
	}
	clear(done)
	g.done = done[:0]
	g.flushROS1()
}

// complete delivers the callback of a request the loop just completed;
// atBack says it was the vector's last element, so that (when it is the
// pass's last completion) the loop tests nothing after it. ROS 2 calls back
// inside the loop; ROS 1 collects the completions and calls back after it
// (flushROS1), and the result its callbacks see is the last test's.
func (g *Group) complete(r *request, atBack bool) {
	if g.sem != ROS1 {
		r.f.callback(r.e, r.ok)
		return
	}
	g.later = append(g.later, r)
	// A completion not at the back moves a pending request into its place,
	// and the loop's next test leaves the result at TransformAvailable.
	g.lastOK = !atBack || r.ok
}

// passReference is tf2's loop verbatim, one lookup per request; tests
// compare it with the indexed pass.
func (g *Group) passReference() {
	cache := g.buf.CacheTimeNS()
	for i := 0; i < len(g.reqs); {
		r := g.reqs[i]
		l := g.latest(r.target, r.source)
		var ok bool
		if l != 0 && r.t+cache < l {
			ok = false
		} else if g.buf.CanTransform(r.target, r.source, r.t) {
			ok = true
		} else {
			g.lastOK = true // a pending request leaves the result available
			i++
			continue
		}
		g.unpair(r)
		if r.heapIdx >= 0 {
			heap.Remove(&g.timers, r.heapIdx)
		}
		r.ok = ok
		last := len(g.reqs) - 1
		g.complete(r, i == last)
		g.reqs[i] = g.reqs[last]
		g.reqs[i].pos = i
		g.reqs[last] = nil
		g.reqs = g.reqs[:last]
	}
	g.flushROS1()
}

// latest is getLatestCommonTime as testTransformableRequests uses it:
// 0 for unknown frames or any error.
func (g *Group) latest(target, source string) int64 {
	if !g.buf.HasFrame(target) || !g.buf.HasFrame(source) {
		return 0
	}
	l, err := g.buf.LatestCommonTime(target, source)
	if err != nil {
		return 0
	}
	return l
}
