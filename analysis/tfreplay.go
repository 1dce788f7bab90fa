package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/bagclock/bagclock/analysis/msgfilter"
	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/analysis/wire"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// tfReplay is the tf side of the replay for one tf namespace: the buffer
// every lookup and emulated MessageFilter of that namespace's topics uses,
// the tree's parents (for default targets) and which topic each child's
// dynamic transform came on. Per-link statistics (tfLinks) are shared by
// every namespace of the bag: links are keyed by topic, so /robot1/tf and
// /robot2/tf keep apart even with the same frame names.
type tfReplay struct {
	*tfLinks
	// ns is the namespace whose tf topics feed buf ("" for /tf and tf,
	// "robot1" for /robot1/tf), see tfspaces.go.
	ns    string
	id    int // index in analyzer.tfSpaces
	buf   *tf.Buffer
	group *msgfilter.Group

	parents map[string]string // child → parent, from look-ahead and replay
	dynamic map[string]bool   // child of a link seen on a dynamic tf topic
	// linkTopic: child → topic its dynamic transform came on.
	linkTopic map[string]string

	st tf.Stamped // the transform being replayed (hooks must not keep it)

	// lastUpdate is a ROS 1 TransformListener's last_update_: ROS time
	// (the /clock in force) at its previous tf message (ros1listener.go).
	lastUpdate int64
}

// tfLinks is the per-link statistics of every tf topic read.
type tfLinks struct {
	links       map[linkKey]*linkStats
	linkList    []*linkStats    // by id
	recentLinks [2][]*linkStats // by static (1) or not (0): link last seen at each position
}

type linkKey struct{ parent, child, topic string }

// linkStats is one tf edge as published on one topic. Checks keep their
// per-link state in slices indexed by id (0, 1, ... in order of first
// appearance).
type linkStats struct {
	id       int
	space    int // tf namespace: index in analyzer.tfSpaces
	key      linkKey
	static   bool
	count    int
	oldest   int64
	newest   int64
	firstLog int64
	lastLog  int64
	age      reservoir // record time − stamp, s
	pubAge   reservoir // publish time − stamp, s
}

func newTFReplay(cacheNS int64) *tfReplay {
	return (&tfLinks{links: map[linkKey]*linkStats{}}).newSpace("", tf.Options{CacheTimeNS: cacheNS})
}

// newSpace returns the replay of namespace ns, sharing the link statistics,
// over a buffer with the given options.
func (l *tfLinks) newSpace(ns string, opts tf.Options) *tfReplay {
	t := &tfReplay{
		tfLinks:   l,
		ns:        ns,
		parents:   map[string]string{},
		dynamic:   map[string]bool{},
		linkTopic: map[string]string{},
	}
	t.buf = tf.NewBuffer(opts)
	t.group = msgfilter.NewGroup(t.buf)
	return t
}

// stampedOf converts a decoded transform to the buffer's type.
func stampedOf(t *cdr.TransformStamped) tf.Stamped {
	return tf.Stamped{
		Parent: t.Header.FrameID, Child: t.ChildFrameID, Stamp: t.Header.Stamp.Nanoseconds(),
		Transform: tf.Transform{
			Translation: tf.Vec3{X: t.Transform.Translation.X, Y: t.Transform.Translation.Y, Z: t.Transform.Translation.Z},
			Rotation:    tf.Quat{X: t.Transform.Rotation.X, Y: t.Transform.Rotation.Y, Z: t.Transform.Rotation.Z, W: t.Transform.Rotation.W},
		},
	}
}

// noteLink updates the statistics of the link of one transform and
// returns them.
func (t *tfReplay) noteLink(m *bagread.Message, pos int, st *tf.Stamped, static bool) *linkStats {
	// A steady tf stream repeats its transforms in the same positions:
	// try the link seen last at this position before hashing three strings.
	parent, child := strings.TrimPrefix(st.Parent, "/"), strings.TrimPrefix(st.Child, "/")
	si := 0
	if static {
		si = 1
	}
	cache := t.recentLinks[si]
	var l *linkStats
	if pos < len(cache) && cache[pos] != nil {
		if c := cache[pos]; c.key.parent == parent && c.key.child == child && c.key.topic == m.Topic {
			l = c
		}
	}
	if l == nil {
		k := linkKey{parent, child, m.Topic}
		l = t.links[k]
		if l == nil {
			l = &linkStats{id: len(t.linkList), space: t.id, key: k, oldest: st.Stamp, newest: st.Stamp, firstLog: m.LogTimeNS}
			t.links[k] = l
			t.linkList = append(t.linkList, l)
		}
		t.noteParent(parent, child, static)
		if !static {
			t.linkTopic[child] = m.Topic
		}
		for len(cache) <= pos {
			cache = append(cache, nil)
		}
		cache[pos] = l
		t.recentLinks[si] = cache
	}
	l.static = static
	l.count++
	l.oldest = min(l.oldest, st.Stamp)
	l.newest = max(l.newest, st.Stamp)
	l.lastLog = m.LogTimeNS
	l.age.add(float64(m.LogTimeNS-st.Stamp) / 1e9)
	if m.HasPublishTime {
		l.pubAge.add(float64(m.PublishTimeNS-st.Stamp) / 1e9)
	}
	return l
}

// sortedLinks returns the links by parent, child and topic.
func (t *tfReplay) sortedLinks() []*linkStats {
	links := slices.Clone(t.linkList)
	slices.SortFunc(links, func(x, y *linkStats) int {
		return cmp.Or(strings.Compare(x.key.parent, y.key.parent), strings.Compare(x.key.child, y.key.child),
			strings.Compare(x.key.topic, y.key.topic))
	})
	return links
}

// lookAheadPrefix is how much of an analysed topic's message the
// look-ahead reads (it needs none of it).
const lookAheadPrefix = 16

// Bounds of the tf look-ahead, in record time after the bag's first
// message: lookAheadMaxNS in general, lookAheadTFMaxNS while a tf topic
// that has messages has shown none yet.
const (
	lookAheadMaxNS   = 5_000_000_000
	lookAheadTFMaxNS = 30_000_000_000
)

// lookAheadTF reads the tf topics (and the analysed topics, to know when to
// stop) from the start of the bag until a second after the first message
// of every analysed topic and every tf topic that has messages, at most
// lookAheadMaxNS of record time (lookAheadTFMaxNS while a tf topic has
// shown nothing or no transform has named odom: odometry that starts after
// the sensors and the static tree would otherwise leave a tree without
// odom, and a sensor checked against a static-only path, where no clock
// fault shows). It remembers
// each child's parent in its topic's tf namespace. Default targets are
// decided from this tree merged with what the replay has seen by a topic's
// first message, so a tree published a little after the sensors start
// still counts. It is a bounded, cheap pass: a few seconds of tf, on an
// iterator of its own. The pass with a read-ahead does the same from the
// batches it has read (lookAheadShared), and comes here only when those
// do not reach the look-ahead's end.
func (a *analyzer) lookAheadTF() {
	l := a.newTFLookAhead()
	if l == nil {
		return
	}
	// The analysed topics are read only for their record times: a prefix
	// of lookAheadPrefix bytes keeps a second of camera images (about
	// 180 MB at 1080p, 30 Hz) from being read and held for nothing.
	it := a.bag.Messages(bagread.ReadOptions{Topics: l.topics, Order: bagread.RecordOrder,
		PrefixTopics: a.scanTopics, PrefixBytes: lookAheadPrefix})
	defer it.Close()
	var msg cdr.TFMessage
	dec := wire.Decoder{ROS1: a.wire.ROS1}
	for it.Next() {
		m := it.Message()
		ts, more := l.next(m)
		if !more {
			break
		}
		if ts == nil {
			continue
		}
		if err := dec.TF(&msg, m.Data); err != nil {
			continue
		}
		l.note(ts, &msg)
	}
}

// lookAheadShared is lookAheadTF over the pass's own first batches, read
// and decoded ahead (the look-ahead's topics are among the pass's, and its
// transforms are decoded there with the same decoder), so the first
// chunks are not read twice and the look-ahead runs while the reader goes
// on. It returns the batches it took, for the replay to start with: at
// most aheadBatches, what the reader holds before it waits. When those do
// not reach the look-ahead's end, lookAheadTF reads it again from the
// start on its own iterator; noting a parent twice changes nothing.
func (a *analyzer) lookAheadShared(ahead *decodeAhead) []*aheadBatch {
	l := a.newTFLookAhead()
	if l == nil {
		return nil
	}
	var held []*aheadBatch
	for len(held) < aheadBatches {
		b := ahead.next()
		if b == nil {
			return held // the bag ends inside the look-ahead
		}
		held = append(held, b)
		for i := range b.items[:b.n] {
			x := &b.items[i]
			ts, more := l.next(&x.msg)
			if !more {
				return held
			}
			if ts != nil && x.tfRaw {
				// Decoded in place: the replay then takes it as read.
				x.err, x.tfRaw = a.wire.TF(&x.tf, x.tfBytes), false
			}
			if ts != nil && x.err == nil {
				l.note(ts, &x.tf)
			}
		}
	}
	a.lookAheadTF()
	return held
}

// tfLookAhead is the state of a look-ahead: the topics it reads, which of
// them it still waits for, and where it stops.
type tfLookAhead struct {
	a         *analyzer
	topics    []string // tf topics, then the analysed ones
	waiting   map[string]bool
	tfWaiting int
	first     int64
	started   bool
	stopAt    int64
	// targetSeen: a transform named the default target. Until one does the
	// look-ahead goes on to lookAheadTFMaxNS, since /tf carries several
	// publishers and one that starts late (odometry behind its start-up
	// backlog) would otherwise leave a tree without odom.
	targetSeen bool
}

// newTFLookAhead starts a look-ahead; nil when the bag has no tf topic.
func (a *analyzer) newTFLookAhead() *tfLookAhead {
	l := &tfLookAhead{a: a, waiting: map[string]bool{}, stopAt: math.MaxInt64}
	for _, ts := range a.topics.list {
		if ts.role == roleTF || ts.role == roleTFStatic {
			l.topics = append(l.topics, ts.name)
		}
	}
	if len(l.topics) == 0 {
		return nil
	}
	for _, bt := range a.bag.Topics {
		ts := a.topics.find(bt.Name)
		if bt.MessageCount == 0 || ts == nil {
			continue
		}
		switch ts.role {
		case roleStamped:
			l.waiting[bt.Name] = true
		case roleTF, roleTFStatic:
			if !l.waiting[bt.Name] {
				l.waiting[bt.Name] = true
				l.tfWaiting++
			}
		}
	}
	l.topics = append(l.topics, a.scanTopics...)
	return l
}

// next takes the next message in record order. Messages of topics the
// look-ahead does not read are passed over (nil, true). more is false once
// m is past the look-ahead's end; ts is the topic of a tf message whose
// transforms note should see.
func (l *tfLookAhead) next(m *bagread.Message) (ts *topicState, more bool) {
	const afterScanNS = 1_000_000_000
	ts = l.a.topics.find(m.Topic)
	if ts == nil {
		return nil, true
	}
	isTF := ts.role == roleTF || ts.role == roleTFStatic
	if !isTF && ts.role != roleStamped {
		return nil, true
	}
	if !l.started {
		l.first, l.started = m.LogTimeNS, true
	}
	limit := int64(lookAheadMaxNS)
	if l.tfWaiting > 0 || !l.targetSeen {
		limit = lookAheadTFMaxNS
	}
	if m.LogTimeNS-l.first > limit || (m.LogTimeNS > l.stopAt && l.targetSeen) {
		return nil, false
	}
	if m.Err != nil {
		return nil, true
	}
	if l.waiting[m.Topic] {
		delete(l.waiting, m.Topic)
		if isTF {
			l.tfWaiting--
		}
		if len(l.waiting) == 0 {
			l.stopAt = m.LogTimeNS + afterScanNS
		}
	}
	if !isTF {
		return nil, true
	}
	return ts, true
}

// note remembers the parent of each transform of one tf message of ts.
func (l *tfLookAhead) note(ts *topicState, msg *cdr.TFMessage) {
	for i := range msg.Transforms {
		tr := &msg.Transforms[i]
		ts.tf.noteParent(tr.Header.FrameID, tr.ChildFrameID, ts.role == roleTFStatic)
		l.targetSeen = l.targetSeen || isDefaultTarget(tr.Header.FrameID) || isDefaultTarget(tr.ChildFrameID)
	}
}

// isDefaultTarget reports whether a tf frame name is the default target.
func isDefaultTarget(frame string) bool { return strings.TrimPrefix(frame, "/") == defaultTarget }

func (t *tfReplay) noteParent(parent, child string, static bool) {
	parent, child = strings.TrimPrefix(parent, "/"), strings.TrimPrefix(child, "/")
	if parent == "" || child == "" || parent == child {
		return
	}
	if !static && !t.dynamic[child] {
		t.dynamic[child] = true
	}
	if t.parents[child] != parent {
		t.parents[child] = parent
	}
}

// dynamicAbove reports whether a dynamic link lies between frame and the
// root of its tree.
func (t *tfReplay) dynamicAbove(frame string) bool {
	for range 1000 { // bounded: parents may form a loop
		p, ok := t.parents[frame]
		if !ok {
			return false
		}
		if t.dynamic[frame] {
			return true
		}
		frame = p
	}
	return false
}

// root follows parents from frame; ok is false when frame is unknown.
func (t *tfReplay) root(frame string) (string, bool) {
	_, known := t.parents[frame]
	if !known {
		for _, p := range t.parents {
			if p == frame {
				known = true
				break
			}
		}
		if !known {
			return "", false
		}
	}
	for range 1000 {
		p, ok := t.parents[frame]
		if !ok {
			return frame, true
		}
		frame = p
	}
	return frame, true // a loop: any frame on it will do
}

// defaultTarget is the target frame a sensor is checked against unless
// --target-frame says otherwise (the fixed frame of most consumers).
const defaultTarget = "odom"

// decideTargets picks the default target for a sensor frame: odom when
// odom is in the same tree and is not the frame itself; the root of the
// frame's tree when odom is the frame (map above it) or the bag has no
// odom; else odom (odom in another tree, or the frame nowhere in the tree:
// every row is no_transform, which is what a consumer with fixed frame
// odom would see). d says why, when the target is not odom (nil when it
// is).
func (t *tfReplay) decideTargets(frame string) (targets []string, d *TargetDecision) {
	frame = strings.TrimPrefix(frame, "/")
	fr, fok := t.root(frame)
	or, ook := t.root(defaultTarget)
	switch {
	case ook && fok && fr == or && frame != defaultTarget:
		return []string{defaultTarget}, nil
	case fok && fr == frame:
		// The frame is a root: nothing above it to check against.
		return []string{fr}, nil
	case fok && frame == defaultTarget && !t.dynamicAbove(frame):
		// Only static links above odom (a fixed map->odom): a clock
		// cannot show on them; odom itself stays the target.
		return []string{frame}, nil
	case fok && frame == defaultTarget:
		return []string{fr}, &TargetDecision{Frame: frame, Default: defaultTarget, Root: fr, Reason: TargetFrameIsDefault}
	case fok && ook:
		// odom is in the bag but not above the frame: a consumer with
		// fixed frame odom drops every message; say that (missing link)
		// rather than check against a root no consumer uses.
		return []string{defaultTarget}, nil
	case fok:
		return []string{fr}, &TargetDecision{Frame: frame, Default: defaultTarget, Root: fr, Reason: TargetNoDefault}
	default:
		return []string{defaultTarget}, nil
	}
}
