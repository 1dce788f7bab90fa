package tf

// entry is one cached transform of a child frame (tf2's TransformStorage
// without the child id, which is the cache's own frame).
type entry struct {
	stamp  int64
	rot    Quat
	trans  Vec3
	parent uint32
}

// same is TransformStorage::operator== for two entries of one cache.
func (e *entry) same(o *entry) bool {
	return e.stamp == o.stamp && e.parent == o.parent &&
		e.rot.X == o.rot.X && e.rot.Y == o.rot.Y && e.rot.Z == o.rot.Z && e.rot.W == o.rot.W &&
		e.trans.X == o.trans.X && e.trans.Y == o.trans.Y && e.trans.Z == o.trans.Z
}

// timeCache is tf2's TimeCache: entries sorted by stamp, held in a ring so
// that the usual operations (append a newest entry, prune the oldest) are
// O(1) and the storage is reused once the cache window is full. Logical
// index 0 is the oldest entry. Among entries with equal stamps the one
// inserted last has the highest index, matching tf2's newest-first list
// where a new entry goes in front of existing same-stamp entries.
type timeCache struct {
	buf  []entry // len is 0 or a power of two
	head int     // physical index of the oldest entry
	n    int
}

func (c *timeCache) at(i int) *entry { return &c.buf[(c.head+i)&(len(c.buf)-1)] }

func (c *timeCache) newest() *entry { return c.at(c.n - 1) }

func (c *timeCache) oldest() *entry { return c.at(0) }

func (c *timeCache) popOldest() {
	c.head = (c.head + 1) & (len(c.buf) - 1)
	c.n--
}

func (c *timeCache) clear() { c.head, c.n = 0, 0 }

// upperBound returns the first logical index whose stamp is > s.
func (c *timeCache) upperBound(s int64) int {
	if c.n == 0 || c.newest().stamp <= s {
		return c.n // in-order data: the common case
	}
	// Lookups are mostly near the newest data: try a few entries first.
	for i, stop := c.n-1, max(c.n-8, 0); i > stop; i-- {
		if c.at(i-1).stamp <= s {
			return i
		}
	}
	lo, hi := 0, c.n-1 // the answer is in [lo, hi]
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if c.at(mid).stamp > s {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

func (c *timeCache) grow() {
	nb := make([]entry, max(2*len(c.buf), 16))
	for i := 0; i < c.n; i++ {
		nb[i] = *c.at(i)
	}
	c.buf, c.head = nb, 0
}

// insertAt puts e at logical index pos, shifting newer entries up.
func (c *timeCache) insertAt(pos int, e *entry) {
	if c.n == len(c.buf) {
		c.grow()
	}
	for i := c.n; i > pos; i-- {
		*c.at(i) = *c.at(i - 1)
	}
	*c.at(pos) = *e
	c.n++
}

// hasCopy reports whether an identical entry sits among the same-stamp
// entries just below pos (tf2 scans only those; an identical entry cannot
// have another stamp).
func (c *timeCache) hasCopy(pos int, e *entry) bool {
	for i := pos - 1; i >= 0; i-- {
		o := c.at(i)
		if o.stamp != e.stamp {
			return false
		}
		if o.same(e) {
			return true
		}
	}
	return false
}

// pruneBefore drops oldest entries while oldest + maxAge < latest. Its
// callers pass the newest stamp as latest and maxAge > 0, so the newest
// entry stays and the cache is never emptied.
func (c *timeCache) pruneBefore(latest, maxAge int64) {
	for c.oldest().stamp+maxAge < latest {
		c.popOldest()
	}
}

// insert is TimeCache::insertData for the chosen generation. It returns
// false when tf2 would reject the entry as TF_OLD_DATA.
func (c *timeCache) insert(e *entry, maxAge int64, gen Generation) bool {
	switch gen {
	case GenerationPruneAfter, GenerationLegacy:
		if c.n > 0 && c.newest().stamp > e.stamp+maxAge {
			return false
		}
		pos := c.upperBound(e.stamp)
		if gen == GenerationLegacy || !c.hasCopy(pos, e) {
			c.insertAt(pos, e)
		}
		c.pruneBefore(c.newest().stamp, maxAge)
		return true
	default:
		if c.n > 0 {
			latest := c.newest().stamp
			c.pruneBefore(latest, maxAge)
			if e.stamp < latest-maxAge {
				return false
			}
		}
		pos := c.upperBound(e.stamp)
		if !c.hasCopy(pos, e) {
			c.insertAt(pos, e)
		}
		return true
	}
}

// probe is the outcome of looking up one link at one time.
type probe struct {
	parent uint32 // 0 on failure
	rot    Quat
	trans  Vec3
	fail   msgForm // why it failed (formNone on success)
	have   int64   // the stamp named in the failure message
}

// find is TimeCache::findClosest + getData: the entry at t, interpolated
// between its neighbours when they share a parent. With interp false only
// the parent is computed (TimeCache::getParent).
func (c *timeCache) find(t int64, interp bool) probe {
	if c.n == 0 {
		return probe{fail: formEmptyCache}
	}
	if t == 0 {
		e := c.newest()
		return probe{parent: e.parent, rot: e.rot, trans: e.trans}
	}
	if c.n == 1 {
		e := c.at(0)
		if e.stamp == t {
			return probe{parent: e.parent, rot: e.rot, trans: e.trans}
		}
		return probe{fail: formSingle, have: e.stamp}
	}
	newest, oldest := c.newest(), c.oldest()
	switch {
	case t > newest.stamp:
		return probe{fail: formFuture, have: newest.stamp}
	case t < oldest.stamp:
		return probe{fail: formPast, have: oldest.stamp}
	case t == newest.stamp:
		return probe{parent: newest.parent, rot: newest.rot, trans: newest.trans}
	case t == oldest.stamp:
		return probe{parent: oldest.parent, rot: oldest.rot, trans: oldest.trans}
	}
	i := c.upperBound(t) - 1
	one, two := c.at(i), c.at(i+1) // one older (stamp <= t), two newer
	if !interp || one.parent != two.parent {
		return probe{parent: one.parent, rot: one.rot, trans: one.trans}
	}
	if one.stamp == two.stamp {
		return probe{parent: two.parent, rot: two.rot, trans: two.trans}
	}
	r := float64(t-one.stamp) / float64(two.stamp-one.stamp)
	return probe{parent: one.parent, rot: slerp(one.rot, two.rot, r), trans: lerp(one.trans, two.trans, r)}
}
