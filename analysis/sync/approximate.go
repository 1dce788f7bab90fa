package sync

// approx is sync_policies::ApproximateTime. Each topic has a deque of
// messages not yet examined and a "past" vector of messages moved aside
// while a candidate set is open; a candidate is the set of deque heads at
// the time it was made, and its pivot is the topic of its latest stamp.
// Line numbers are ros_comm 1.15.15's approximate_time.h; ros2's
// approximate_time.hpp has the same functions under the same names.
type approx struct {
	s        *Sync
	k        int
	q        [MaxTopics]ring
	past     [MaxTopics][]msg
	nonEmpty int // num_non_empty_deques_, kept as the library keeps it
	pivot    int // -1: NO_PIVOT
	pivotT   int64
	candS    int64 // candidate_start_
	candE    int64 // candidate_end_
	cand     [MaxTopics]msg
	dropped  [MaxTopics]bool // has_dropped_messages_
	warned   [MaxTopics]bool // warned_about_incorrect_bound_
	lastRecv [MaxTopics]int64
	numReset int
	vt       [MaxTopics]int64
}

func newApprox(s *Sync) *approx {
	return &approx{s: s, k: s.cfg.Topics, pivot: -1}
}

func (a *approx) live(f func(int, msg)) {
	for i := 0; i < a.k; i++ {
		for _, m := range a.past[i] {
			f(i, m)
		}
		for j := 0; j < a.q[i].len(); j++ {
			f(i, a.q[i].at(j))
		}
	}
}

// add is add<i>() (209-282).
func (a *approx) add(i int, m msg) {
	cfg := &a.s.cfg
	if cfg.Reset {
		// ROS 1 only, under sim time: a receipt time that goes back
		// clears this topic's queue (214-232).
		if m.recv < a.lastRecv[i] {
			a.numReset++
			a.clearDeque(i)
			if a.numReset >= a.k {
				a.numReset = 0
			}
		}
		a.lastRecv[i] = m.recv
	}
	a.q[i].pushBack(m)
	if a.q[i].len() == 1 {
		// process() runs only when a deque goes from empty to non-empty
		// and every deque then holds a message (236-244).
		a.nonEmpty++
		if a.nonEmpty == a.k {
			a.process()
		}
	} else if ok := a.checkBound(i); a.s.ar.err != nil {
		return
	} else if !ok && cfg.Reset {
		a.deleteFront(i, DropBoundBroken)
	}
	if a.s.ar.err != nil {
		return
	}
	// Overflow (253-281): the deque plus the moved-aside messages over
	// queue_size: every moved message goes back, the oldest of this topic
	// goes, the topic is marked, and an open candidate is destroyed.
	if a.q[i].len()+len(a.past[i]) > cfg.QueueSize {
		a.nonEmpty = 0
		a.recoverAll()
		a.s.drop(i, a.q[i].popFront(), DropQueueFull)
		a.dropped[i] = true
		if a.pivot >= 0 {
			a.cand = [MaxTopics]msg{}
			a.pivot = -1
			a.process()
		}
	}
}

// checkBound is checkInterMessageBound<i>() (161-206): is the newest
// message of topic i in order and at least the lower bound after the one
// before it? ROS 2 stops checking a topic after its first failure (only
// the warning depends on it there); ROS 1 checks every time, and its reset
// mode acts on the answer.
func (a *approx) checkBound(i int) bool {
	if a.s.cfg.Flavor == FlavorROS2 && a.warned[i] {
		return true
	}
	q := &a.q[i]
	last := q.back().stamp
	var prev int64
	if q.len() == 1 {
		if len(a.past[i]) == 0 {
			return true
		}
		prev = a.past[i][len(a.past[i])-1].stamp
	} else {
		prev = q.at(q.len() - 2).stamp
	}
	if last < prev {
		a.warned[i] = true
		return false
	}
	if a.s.ar.sub(last, prev) < a.s.cfg.lowerBound(i) {
		a.warned[i] = true
		return false
	}
	return true
}

// clearDeque is ROS 1's clearDeque<i>() (316-338).
func (a *approx) clearDeque(i int) {
	a.nonEmpty = 0
	a.recoverAll()
	if a.q[i].len() > 0 {
		a.nonEmpty--
	}
	for a.q[i].len() > 0 {
		a.s.drop(i, a.q[i].popFront(), DropReset)
	}
	a.warned[i] = false
	a.cand = [MaxTopics]msg{}
	a.pivot = -1
}

func (a *approx) deleteFront(i int, r DropReason) {
	a.s.drop(i, a.q[i].popFront(), r)
	if a.q[i].len() == 0 {
		a.nonEmpty--
	}
}

func (a *approx) moveFrontToPast(i int) {
	a.past[i] = append(a.past[i], a.q[i].popFront())
	if a.q[i].len() == 0 {
		a.nonEmpty--
	}
}

// makeCandidate (441-487): the heads become the candidate, and the
// moved-aside messages are forgotten: a better candidate supersedes them.
func (a *approx) makeCandidate() {
	for i := 0; i < a.k; i++ {
		a.cand[i] = a.q[i].front()
		for _, m := range a.past[i] {
			a.s.drop(i, m, DropSuperseded)
		}
		a.past[i] = a.past[i][:0]
	}
}

// recover puts the last n moved-aside messages of topic i back at the
// front of its deque.
func (a *approx) recover(i, n int) {
	for ; n > 0; n-- {
		p := a.past[i]
		a.q[i].pushFront(p[len(p)-1])
		a.past[i] = p[:len(p)-1]
	}
	if a.q[i].len() > 0 {
		a.nonEmpty++
	}
}

func (a *approx) recoverAll() {
	for i := 0; i < a.k; i++ {
		a.recover(i, len(a.past[i]))
	}
}

// publish is publishCandidate() (565-587): emit, restore the moved
// messages and delete the published ones (each topic's front).
func (a *approx) publish() {
	a.s.emit(a.cand[:a.k])
	a.cand = [MaxTopics]msg{}
	a.pivot = -1
	a.nonEmpty = 0
	for i := 0; i < a.k; i++ {
		for p := a.past[i]; len(p) > 0; p = p[:len(p)-1] {
			a.q[i].pushFront(p[len(p)-1])
		}
		a.past[i] = a.past[i][:0]
		if a.q[i].len() == 0 {
			a.s.ar.fail("internal: publishing from an empty deque")
			return
		}
		a.q[i].popFront()
		if a.q[i].len() > 0 {
			a.nonEmpty++
		}
	}
}

// boundary is getCandidateBoundary (607-686) over times t: the earliest
// (lowest index on ties) or, with end, the latest (highest index on ties).
func boundary(t []int64, end bool) (int, int64) {
	idx, time := 0, t[0]
	for i := 1; i < len(t); i++ {
		if (t[i] < time) != end {
			idx, time = i, t[i]
		}
	}
	return idx, time
}

func (a *approx) heads() []int64 {
	for i := 0; i < a.k; i++ {
		a.vt[i] = a.q[i].front().stamp
	}
	return a.vt[:a.k]
}

// virtualTimes is getVirtualTime<i>() (690-716) for every topic: an empty
// topic's next message can come no earlier than its last stamp plus its
// lower bound, and no earlier than the pivot.
func (a *approx) virtualTimes() []int64 {
	for i := 0; i < a.k; i++ {
		if a.q[i].len() > 0 {
			a.vt[i] = a.q[i].front().stamp
			continue
		}
		if len(a.past[i]) == 0 {
			a.s.ar.fail("internal: virtual time of a topic with no message")
			return nil
		}
		lb := a.s.ar.plus(a.past[i][len(a.past[i])-1].stamp, a.s.cfg.lowerBound(i))
		a.vt[i] = max(lb, a.pivotT)
	}
	return a.vt[:a.k]
}

// process (763-897): while every topic has a message in its deque, grow
// or replace the candidate, and publish it once no later message can
// make a better one.
func (a *approx) process() {
	ar := &a.s.ar
	for a.nonEmpty == a.k && ar.err == nil {
		endIdx, endT := boundary(a.heads(), true)
		startIdx, startT := boundary(a.heads(), false)
		for i := 0; i < a.k; i++ {
			if i != endIdx {
				a.dropped[i] = false
			}
		}
		if a.pivot < 0 {
			span := ar.sub(endT, startT)
			if ar.err != nil {
				return
			}
			if span > a.s.cfg.MaxIntervalNS {
				a.deleteFront(startIdx, DropMaxInterval)
				continue
			}
			if a.dropped[endIdx] {
				a.deleteFront(startIdx, DropPivotDropped)
				continue
			}
			a.makeCandidate()
			a.candS, a.candE = startT, endT
			a.pivot, a.pivotT = endIdx, endT
			a.moveFrontToPast(startIdx)
		} else {
			l, r := ar.scaled(ar.sub(endT, a.candE)), ar.sub(startT, a.candS)
			if ar.err != nil {
				return
			}
			if l < r {
				// A better candidate; the pivot stays.
				a.makeCandidate()
				a.candS, a.candE = startT, endT
			}
			a.moveFrontToPast(startIdx)
		}
		if startIdx == a.pivot {
			a.publish()
			continue
		}
		l, r := ar.scaled(ar.sub(endT, a.candE)), ar.sub(a.pivotT, a.candS)
		if ar.err != nil {
			return
		}
		if l >= r {
			// Any later candidate must span [pivot, end]: already worse.
			a.publish()
			continue
		}
		if a.nonEmpty < a.k {
			a.virtualSearch()
		}
	}
}

// virtualSearch (847-895) tries to prove the candidate optimal from the
// lower bounds, moving heads aside as if the missing messages had come.
func (a *approx) virtualSearch() {
	ar := &a.s.ar
	var moves [MaxTopics]int
	for {
		vt := a.virtualTimes()
		if ar.err != nil {
			return
		}
		_, endT := boundary(vt, true)
		startIdx, startT := boundary(vt, false)
		l, proved := ar.scaled(ar.sub(endT, a.candE)), ar.sub(a.pivotT, a.candS)
		if ar.err != nil {
			return
		}
		if l >= proved {
			a.publish()
			return
		}
		if better := ar.sub(startT, a.candS); ar.err != nil {
			return
		} else if l < better {
			// An optimistic candidate would be better: undo and wait.
			a.nonEmpty = 0
			for i := 0; i < a.k; i++ {
				a.recover(i, moves[i])
			}
			return
		}
		if a.q[startIdx].len() == 0 {
			ar.fail("internal: virtual search ran out of messages")
			return
		}
		a.moveFrontToPast(startIdx)
		moves[startIdx]++
	}
}
