package msgfilter

// ROS 1 semantics: tf2_ros::MessageFilter of noetic over tf2::BufferCore's
// transformable requests, read in ros/geometry2 noetic-devel
// (tf2_ros/include/tf2_ros/message_filter.h and tf2/src/buffer_core.cpp;
// the same code is Debian's geometry2 0.7.6, /usr/include/tf2_ros/
// message_filter.h). Where ROS 1 differs from the ROS 2 emulation of
// filter.go:
//   - add() asks the buffer first: addTransformableRequest answers 0
//     (transformable now), all-ones (never: too old) or a pending handle,
//     one request per target and a second at stamp + tolerance. The first
//     all-ones drops the message as OutTheBack at once and returns, leaving
//     the requests it already made registered with no message behind them.
//     When every request was answered 0 the message passes without a
//     re-check; only a message that must wait is queued, and only then is
//     the oldest queued message evicted when the queue is full (reason
//     Unknown, its requests cancelled).
//   - transformable(): every callback counts; the last one decides: a
//     TransformAvailable result re-checks canTransform of every target (and
//     stamp + tolerance) and passes or drops as Unknown; a failure (the
//     request became too old) drops as Unknown too.
//   - Reasons are the enum values Unknown, OutTheBack and EmptyFrameID;
//     signalFailure only runs the failure callbacks, so the filter logs no
//     line of its own (LogLine is empty).
//   - No buffer_timeout: the filter takes a BufferCore, which has no timers.
//   - BufferCore::testTransformableRequests collects the completed requests
//     with boost::ref to its loop-local result and calls them back after
//     the loop: every callback of one pass sees the result the last test of
//     the loop left (TransformAvailable when that request stayed pending).
//     Still in noetic-devel; the ROS 2 loop calls back inside the loop.
//   - ros::Time holds unsigned 32-bit seconds: a negative stamp cannot be
//     built (it cannot come from a ROS 1 bag either); such a message is
//     RejectedNegativeStamp with no reason.

// addROS1 is noetic's add(MEvent).
func (f *Filter) addROS1(m Msg) {
	g := f.g
	if m.StampNS < 0 || m.StampNS/sec > 0xffffffff {
		f.emit(Result{Key: m.Key, Outcome: RejectedNegativeStamp, DecidedAtNS: m.ArrivalNS})
		return
	}
	frame := stripSlash(m.FrameID)
	if frame == "" {
		f.emit(Result{Key: m.Key, Outcome: DroppedEmptyFrame, Reason: ReasonROS1EmptyFrameID, DecidedAtNS: m.ArrivalNS})
		return
	}
	e := f.spare
	if e != nil {
		f.spare = nil
		*e = entry{msg: m, frame: frame, tfAt: g.tfCount, reqs: e.reqs[:0]}
	} else {
		e = &entry{msg: m, frame: frame, tfAt: g.tfCount}
	}
	for _, target := range f.targets {
		if !f.requestROS1(e, target, m.StampNS) ||
			(f.p.ToleranceNS != 0 && !f.requestROS1(e, target, m.StampNS+f.p.ToleranceNS)) {
			f.emit(f.resultROS1(e, DroppedOutTheBack, ReasonROS1OutTheBack, m.ArrivalNS))
			if len(e.reqs) == 0 {
				f.spare = e
			}
			return
		}
	}
	if e.success == f.expected {
		f.emit(f.resultROS1(e, Passed, "", m.ArrivalNS))
		f.spare = e
		return
	}
	if f.p.QueueSize > 0 && len(f.queue)+1 > f.p.QueueSize {
		old := f.queue[0]
		f.queue = f.queue[1:]
		old.queued = false
		for _, r := range old.reqs {
			if r.pair != nil { // still pending: not yet called back
				g.cancel(r)
			}
		}
		old.reqs = nil
		f.emit(f.resultROS1(old, DroppedQueueFull, ReasonROS1Unknown, m.ArrivalNS))
	}
	e.queued = true
	f.queue = append(f.queue, e)
}

// requestROS1 is addTransformableRequest for one (target, time): it counts
// an immediate answer, registers a pending request, and returns false for
// a request that can never be answered (too old).
func (f *Filter) requestROS1(e *entry, target string, t int64) bool {
	g := f.g
	if target == e.frame || g.buf.CanTransform(target, e.frame, t) {
		e.success++
		return true
	}
	if g.tooOld(target, e.frame, t) {
		return false
	}
	r := &request{f: f, e: e, target: target, source: e.frame, t: t, heapIdx: -1}
	e.reqs = append(e.reqs, r)
	g.addRequest(r)
	return true
}

// callbackROS1 is noetic's transformable(): a request whose message was
// dropped in add() finds no message and is ignored.
func (f *Filter) callbackROS1(e *entry, ok bool) {
	if !e.queued {
		return
	}
	e.success++
	if e.success < f.expected {
		return
	}
	f.remove(e)
	e.reqs = nil
	now := f.g.at
	if ok {
		for _, target := range f.targets {
			if !f.g.buf.CanTransform(target, e.frame, e.msg.StampNS) ||
				(f.p.ToleranceNS != 0 && !f.g.buf.CanTransform(target, e.frame, e.msg.StampNS+f.p.ToleranceNS)) {
				ok = false
				break
			}
		}
	}
	if ok {
		f.emit(f.resultROS1(e, PassedAfterWait, "", now))
		return
	}
	f.emit(f.resultROS1(e, DroppedUnknown, ReasonROS1Unknown, now))
}

// resultROS1 is result without a log line: noetic's filter logs no drop.
func (f *Filter) resultROS1(e *entry, out Outcome, reason string, now int64) Result {
	return Result{Key: e.msg.Key, Outcome: out, Reason: reason, DecidedAtNS: now,
		WaitNS: now - e.msg.ArrivalNS, WaitTFMessages: f.g.tfCount - e.tfAt}
}

// flushROS1 runs the callbacks a ROS 1 retest pass collected, in the order
// the loop completed them, all with the result its last test left.
func (g *Group) flushROS1() {
	if len(g.later) == 0 {
		return
	}
	ok := g.lastOK
	for i, r := range g.later {
		g.later[i] = nil
		r.f.callback(r.e, ok)
	}
	g.later = g.later[:0]
}
