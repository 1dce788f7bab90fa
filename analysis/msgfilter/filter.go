package msgfilter

import (
	"container/heap"
	"strconv"

	"github.com/bagclock/bagclock/analysis/tf"
)

// Group is what one tf2 BufferCore holds for its MessageFilters: the vector
// of pending transformable requests (tf2's transformable_requests_), tested
// after every successful insert in tf2's swap-remove order, and the
// buffer_timeout timers of tf2_ros::Buffer::waitForTransform. Filters that
// share a tf2_ros::Buffer in the emulated node (RViz displays, a costmap's
// observation sources) belong in one Group so their requests interleave as
// in tf2; New makes a private Group per filter, which gives the same
// decisions and differs only in the order of simultaneous callbacks.
//
// The Group only reads the buffer (HasFrame, LatestCommonTime,
// CanTransform, CacheTimeNS); the caller inserts transforms and then calls
// TransformStored (or TransformAdded) once per successful insertion. A Group is not safe for concurrent use, and onResult
// callbacks must not call back into it.
type Group struct {
	buf     *tf.Buffer
	reqs    []*request // tf2's transformable_requests_, in vector order
	timers  timerHeap
	seq     uint64 // timer creation order
	now     int64  // latest time seen, for Finish
	at      int64  // time of the event being processed: DecidedAtNS
	tfCount int    // TransformAdded calls so far
	filters []*Filter

	pairs     map[pairKey]*pairList
	maxStamp  int64 // newest dynamic stamp reported by TransformStored
	anyStamp  bool  // maxStamp holds a value
	blind     bool  // some insert came without its stamp: maxStamp unusable
	reference bool  // test hook: run the plain tf2 loop instead of the index
	done      []*request

	sem    Semantics  // of the first filter: which request loop runs
	later  []*request // ROS1: completions whose callbacks run after the loop
	lastOK bool       // ROS1: the result the loop's last test left
}

// NewGroup returns an empty Group reading buf.
func NewGroup(buf *tf.Buffer) *Group {
	return &Group{buf: buf, pairs: make(map[pairKey]*pairList)}
}

// Filter emulates one tf2_ros::MessageFilter (Jazzy message_filter.h).
type Filter struct {
	g        *Group
	targets  []string
	p        Params
	onResult func(Result)
	expected int      // tf2_ros's expected_success_count_
	queue    []*entry // tf2_ros's messages_, oldest first
	// spare is an entry decided inside the Add that made it, with no
	// request made for it, so referenced by nothing: the next Add reuses it.
	spare *entry
}

// entry is one queued message (tf2_ros's MessageInfo).
type entry struct {
	msg     Msg
	frame   string // slash-stripped frame id
	success int    // callbacks received so far, failures included
	queued  bool   // still in the queue (false once decided or evicted)
	tfAt    int    // Group.tfCount at arrival
	inAdd   bool   // decided synchronously inside Add
	// canNow counts the waits of Add answered by a true CanTransform: when
	// all were, the buffer has not changed since, and callback's re-test
	// would ask the same questions again, so it is skipped.
	canNow int
	// reqs are the entry's pending requests (ROS1 only: its add() keeps the
	// handles, to cancel them when the entry is evicted).
	reqs []*request
}

// request is one BufferCore transformable request, owned by an entry. A
// request outlives its entry when the entry is evicted (QueueFull): tf2_ros
// does not cancel it, and its later callback finds no message.
type request struct {
	f        *Filter
	e        *entry
	target   string
	source   string
	t        int64
	deadline int64 // buffer_timeout expiry on the arrival clock; valid if timed
	timed    bool
	seq      uint64
	heapIdx  int
	pos      int       // index in Group.reqs
	pair     *pairList // the group's requests on the same frame pair
	ok       bool      // outcome while a retest pass delivers callbacks
}

// New returns a filter on buf for one target frame, in its own Group.
// onResult receives every decision (it may be nil).
func New(buf *tf.Buffer, target string, p Params, onResult func(Result)) *Filter {
	return NewGroup(buf).NewFilter([]string{target}, p, onResult)
}

// NewFilter adds a filter for the given target frames (tf2_ros's
// setTargetFrames; leading '/' stripped) to the group. A message must be
// transformable into every target before it passes. With no targets, Add
// ignores messages as tf2_ros does (no Result at all).
func (g *Group) NewFilter(targets []string, p Params, onResult func(Result)) *Filter {
	f := &Filter{g: g, p: p, onResult: onResult}
	if len(g.filters) == 0 {
		g.sem = p.Semantics
	}
	for _, t := range targets {
		f.targets = append(f.targets, stripSlash(t))
	}
	per := 1
	if p.ToleranceNS != 0 {
		per = 2
	}
	f.expected = len(f.targets) * per
	g.filters = append(g.filters, f)
	return f
}

// Targets returns the filter's target frames.
func (f *Filter) Targets() []string { return append([]string(nil), f.targets...) }

// Params returns the filter's configuration.
func (f *Filter) Params() Params { return f.p }

// Queued returns how many messages wait in the filter's queue.
func (f *Filter) Queued() int { return len(f.queue) }

// Pending returns how many transformable requests the group's BufferCore
// holds, including those of evicted messages that tf2_ros never cancels.
func (g *Group) Pending() int { return len(g.reqs) }

func stripSlash(s string) string {
	if len(s) > 0 && s[0] == '/' {
		return s[1:]
	}
	return s
}

// Add offers a message arriving at m.ArrivalNS (tf2_ros's add()). Timers due
// at or before the arrival fire first. Decisions that fall inside Add (drops
// of the evicted oldest message, immediate passes or drops of m) are
// delivered before Add returns, in tf2_ros's order.
func (f *Filter) Add(m Msg) {
	g := f.g
	g.advance(m.ArrivalNS)
	g.at = m.ArrivalNS
	if len(f.targets) == 0 {
		return
	}
	if f.p.Semantics == ROS1 {
		f.addROS1(m)
		return
	}
	if m.StampNS < 0 {
		f.emit(Result{Key: m.Key, Outcome: RejectedNegativeStamp, Reason: ReasonNegativeStamp,
			DecidedAtNS: m.ArrivalNS})
		return
	}
	frame := stripSlash(m.FrameID)
	if frame == "" {
		f.emit(Result{Key: m.Key, Outcome: DroppedEmptyFrame, Reason: ReasonEmptyFrameID,
			LogLine: LogLine(frame, m.StampNS, ReasonEmptyFrameID), DecidedAtNS: m.ArrivalNS})
		return
	}

	// The oldest message goes before m's requests are even made, so m may
	// evict a message although m itself then passes at once.
	if f.p.QueueSize > 0 && len(f.queue)+1 > f.p.QueueSize {
		old := f.queue[0]
		f.queue = f.queue[1:]
		old.queued = false
		f.emit(f.result(old, DroppedQueueFull, ReasonQueueFull, m.ArrivalNS))
	}
	e := f.spare
	if e != nil {
		f.spare = nil
		*e = entry{msg: m, frame: frame, queued: true, tfAt: g.tfCount, inAdd: true}
	} else {
		e = &entry{msg: m, frame: frame, queued: true, tfAt: g.tfCount, inAdd: true}
	}
	f.queue = append(f.queue, e)

	for _, target := range f.targets {
		f.wait(e, target, m.StampNS)
		if f.p.ToleranceNS != 0 {
			f.wait(e, target, m.StampNS+f.p.ToleranceNS)
		}
	}
	e.inAdd = false
	if !e.queued {
		// Decided inside Add: every one of its waits called back at once,
		// so no request was made and nothing refers to e any more.
		f.spare = e
	}
}

// wait is tf2_ros::Buffer::waitForTransform over BufferCore's
// addTransformableRequest: handle 0 (transformable now) and all-ones (too
// old) call back synchronously; anything else becomes a pending request.
func (f *Filter) wait(e *entry, target string, t int64) {
	g := f.g
	if target == e.frame {
		f.callback(e, true)
		return
	}
	if g.buf.CanTransform(target, e.frame, t) {
		if e.inAdd {
			e.canNow++
		}
		f.callback(e, true)
		return
	}
	if g.tooOld(target, e.frame, t) {
		f.callback(e, false)
		return
	}
	r := &request{f: f, e: e, target: target, source: e.frame, t: t, heapIdx: -1}
	if f.p.BufferTimeoutNS > 0 {
		r.timed = true
		r.deadline = e.msg.ArrivalNS + f.p.BufferTimeoutNS
		g.seq++
		r.seq = g.seq
		heap.Push(&g.timers, r)
	}
	g.addRequest(r)
}

// tooOld is BufferCore's "never transformable" rule: both frames known, the
// latest common time L of the path non-zero and t + cache_time < L. Any
// error of getLatestCommonTime leaves L at 0, as in tf2.
func (g *Group) tooOld(target, source string, t int64) bool {
	if !g.buf.HasFrame(target) || !g.buf.HasFrame(source) {
		return false
	}
	l, err := g.buf.LatestCommonTime(target, source)
	if err != nil || l == 0 {
		return false
	}
	return t+g.buf.CacheTimeNS() < l
}

// callback is tf2_ros's transformReadyCallback: every callback counts, and
// only the last one's outcome (ok) decides, followed by a fresh
// canTransform of every target.
func (f *Filter) callback(e *entry, ok bool) {
	if f.p.Semantics == ROS1 {
		f.callbackROS1(e, ok)
		return
	}
	if !e.queued {
		return // evicted earlier: tf2_ros finds no message for the handle
	}
	e.success++
	if e.success < f.expected {
		return
	}
	f.remove(e)
	now := f.g.at
	if !ok {
		f.emit(f.result(e, DroppedOutTheBack, ReasonOutTheBack, now))
		return
	}
	for _, target := range f.targets {
		if e.inAdd && e.canNow == f.expected {
			break // every question was answered yes inside this Add
		}
		if !f.g.buf.CanTransform(target, e.frame, e.msg.StampNS) ||
			(f.p.ToleranceNS != 0 && !f.g.buf.CanTransform(target, e.frame, e.msg.StampNS+f.p.ToleranceNS)) {
			f.emit(f.result(e, DroppedUnknown, ReasonUnknown, now))
			return
		}
	}
	out := PassedAfterWait
	if e.inAdd {
		out = Passed
	}
	f.emit(f.result(e, out, "", now))
}

func (f *Filter) remove(e *entry) {
	e.queued = false
	for i, q := range f.queue {
		if q == e {
			f.queue = append(f.queue[:i], f.queue[i+1:]...)
			return
		}
	}
}

// result fills the bookkeeping fields of a decision taken at now.
func (f *Filter) result(e *entry, out Outcome, reason string, now int64) Result {
	r := Result{Key: e.msg.Key, Outcome: out, Reason: reason, DecidedAtNS: now,
		WaitNS: now - e.msg.ArrivalNS, WaitTFMessages: f.g.tfCount - e.tfAt}
	if reason != "" {
		r.LogLine = LogLine(e.frame, e.msg.StampNS, reason)
	}
	return r
}

func (f *Filter) emit(r Result) {
	if f.onResult != nil {
		f.onResult(r)
	}
}

// LogLine is the INFO line tf2_ros's signalFailure logs for a drop:
// the slash-stripped frame and rclcpp::Time::seconds() of the stamp, i.e.
// double(ns)/1e9, printed with %.3f (Go's 'f' formatting rounds the exact
// binary value half-to-even, as glibc's printf does).
func LogLine(frame string, stampNS int64, reason string) string {
	// Room for the longest reason with a frame of some 20 characters; the
	// line is built on the stack, so the string is the only allocation.
	var buf [192]byte
	b := append(buf[:0], "Message Filter dropping message: "...)
	b = appendLogKey(b, frame, stampNS)
	b = append(b, " for reason '"...)
	b = append(b, reason...)
	b = append(b, '\'')
	return string(b)
}

// LogKey is the part of a drop's log line that names the message, "frame
// 'X' at time T" with T in seconds to the millisecond, as ROS prints it: the
// key a /rosout line is matched to a predicted drop by.
func LogKey(frame string, stampNS int64) string {
	var buf [96]byte
	return string(appendLogKey(buf[:0], frame, stampNS))
}

func appendLogKey(b []byte, frame string, stampNS int64) []byte {
	b = append(b, "frame '"...)
	b = append(b, frame...)
	b = append(b, "' at time "...)
	return strconv.AppendFloat(b, float64(stampNS)/1e9, 'f', 3, 64)
}

// Advance moves time to nowNS and fires the buffer_timeout timers due at or
// before it (tf2_ros::Buffer::timerCallback: the request is cancelled and
// the filter gets a TimeoutException, which it reports as OutTheBack).
// Timers run on the arrival (record) clock; simultaneous ones fire in
// creation order.
func (f *Filter) Advance(nowNS int64) { f.g.advance(nowNS) }

// Advance is Filter.Advance for the whole group.
func (g *Group) Advance(nowNS int64) { g.advance(nowNS) }

func (g *Group) advance(nowNS int64) {
	for len(g.timers) > 0 && g.timers[0].deadline <= nowNS {
		r := heap.Pop(&g.timers).(*request)
		g.at = r.deadline
		g.cancel(r)
		r.f.callback(r.e, false)
	}
	// Every deadline fired is at or before nowNS, and nothing reads g.now
	// while they fire (callbacks use g.at).
	g.now = max(g.now, nowNS)
}

// Finish ends the replay for this filter: every message still queued is
// reported as PendingAtEnd, oldest first, decided at the latest time the
// group has seen.
func (f *Filter) Finish() {
	for _, e := range f.queue {
		e.queued = false
		f.emit(f.result(e, PendingAtEnd, "", f.g.now))
	}
	f.queue = f.queue[:0]
}

// Finish is Filter.Finish for every filter of the group, in creation order.
func (g *Group) Finish() {
	for _, f := range g.filters {
		f.Finish()
	}
}

// timerHeap orders pending timed requests by deadline, then creation.
type timerHeap []*request

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].deadline != h[j].deadline {
		return h[i].deadline < h[j].deadline
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapIdx = i
	h[j].heapIdx = j
}
func (h *timerHeap) Push(x any) {
	r := x.(*request)
	r.heapIdx = len(*h)
	*h = append(*h, r)
}
func (h *timerHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	old[len(old)-1] = nil
	r.heapIdx = -1
	*h = old[:len(old)-1]
	return r
}
