package analysis

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/bagclock/bagclock/analysis/msgfilter"
	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/analysis/topics"
	"github.com/bagclock/bagclock/analysis/wire"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// analyzer is the replay loop: it reads the bag once in record order and
// hands every message to the part of the analysis its topic's role calls
// for. It owns the three parts everything else builds on (the tf replay,
// the /clock state and the per-topic rows) and the registered checks; see
// check.go for how a check plugs in.
type analyzer struct {
	bag    *bagread.Bag
	cfg    Config
	sink   ScanSink
	preset msgfilter.Preset
	params msgfilter.Params
	cache  int64
	// wire decodes the raw-hook payloads (/rosout) on the analysis
	// goroutine, as CDR or ROS 1 by the bag's storage.
	wire wire.Decoder
	// tfMsg is what tfOf decodes a tf payload handed over undecoded into,
	// its frame names reused from one message to the next.
	tfMsg cdr.TFMessage

	// scanTopics are the analysed stamped topics, sorted; readTopics every
	// topic the replay reads.
	scanTopics []string
	readTopics []string
	topics     topicTable
	hasClock   bool
	startNS    int64
	spanS      float64

	// tf is the tf replay of the primary namespace (the root one, else the
	// one with most tf topics); tfSpaces every namespace's, tf first. The
	// link statistics the tf-tree checks read are shared by all.
	tf       *tfReplay
	tfSpaces []*tfReplay
	tfNS     []string // namespaces with tf topics, primary first
	clock    *clockState
	rows     *rowsState

	// pairs are the rows' (topic, target) summaries, in order of first
	// message: the verdict's input.
	pairs []*pairStats

	checks       []check
	clockHooks   []clockHook
	linkHooks    []linkHook
	tfHooks      []tfHook
	stampedHooks []stampedHook
	recordHooks  []recordHook
	headerHooks  []headerHook

	cur     stampedMsg // the message onStamped hands out
	rep     Report
	skipped map[string]*Skipped
	// notAnalysed lists stamped topics left out and topics whose type
	// bagclock cannot read, for Report.Topics.
	notAnalysed []topics.TopicInfo
	// scans counts decoded messages of the analysed topics; msgs every
	// message the replay saw.
	scans int
	msgs  int
}

func newAnalyzer(bag *bagread.Bag, cfg Config, sink ScanSink) (*analyzer, error) {
	pr, err := resolvePreset(cfg.Consumer)
	if err != nil {
		return nil, err
	}
	a := &analyzer{
		bag: bag, cfg: cfg, sink: sink, preset: pr, params: pr.Params,
		cache:   pr.CacheTimeNS,
		skipped: map[string]*Skipped{},
	}
	if cfg.SetQueueSize {
		if cfg.QueueSize < 0 {
			return nil, fmt.Errorf("queue size %d: must be >= 0", cfg.QueueSize)
		}
		a.params.QueueSize = cfg.QueueSize
	}
	if cfg.SetTolerance {
		if cfg.ToleranceS < 0 || math.IsNaN(cfg.ToleranceS) {
			return nil, fmt.Errorf("tolerance %g: must be >= 0", cfg.ToleranceS)
		}
		a.params.ToleranceNS = int64(math.Round(cfg.ToleranceS * 1e9))
	}
	if cfg.SetCacheTime {
		// Checked after rounding: a cache time under half a nanosecond
		// rounded to 0 and fell back to the preset's 10 s below.
		ns := math.Round(cfg.CacheTimeS * 1e9)
		if !(ns >= 1) {
			return nil, fmt.Errorf("cache time %g: must be at least 1 ns", cfg.CacheTimeS)
		}
		a.cache = int64(ns)
	}
	if a.cache <= 0 {
		a.cache = tf.DefaultCacheTimeNS
	}
	if cfg.JumpMinForwardNS < 0 {
		return nil, fmt.Errorf("jump min forward %d ns: must be >= 0", cfg.JumpMinForwardNS)
	}
	if cfg.JumpMinBackwardNS > 0 {
		return nil, fmt.Errorf("jump min backward %d ns: must be <= 0", cfg.JumpMinBackwardNS)
	}
	if err := ValidateSync(cfg.Sync); err != nil {
		return nil, err
	}
	if err := a.selectTopics(); err != nil {
		return nil, err
	}

	a.startNS = bag.StartNS
	if bag.EndNS > bag.StartNS {
		a.spanS = float64(bag.EndNS-bag.StartNS) / 1e9
	}
	a.buildTFSpaces()
	a.clock = newClockState(a.spanS)
	for _, ts := range a.topics.list {
		if ts.role == roleClock {
			a.clock.series.reserve(ts.messages)
		}
	}
	a.rows = newRowsState(a.spanS)
	a.registerChecks()
	a.readList()
	// A ROS 1 bag's messages are ROS 1 serialized throughout: the decode
	// boundary (analysis/wire) picks the decoder per topic from this.
	a.wire.ROS1 = bag.Storage == bagread.StorageROS1
	for _, ts := range a.topics.list {
		ts.ros1 = a.wire.ROS1
	}

	r := &a.rep
	r.Bag = BagSummary{
		Path: bag.Path, Storage: bag.Storage, Messages: bag.MessageCount,
		StartNS: bag.StartNS, EndNS: bag.EndNS, MetadataReconstructed: bag.MetadataReconstructed,
	}
	for _, f := range bag.Files {
		r.Bag.Files = append(r.Bag.Files, f.Path)
		r.Bag.SizeBytes += f.Size
		if f.Recovery != nil {
			r.Bag.Problems = append(r.Bag.Problems, fmt.Sprintf("%s: %s", f.Path, f.Recovery.Reason))
		}
	}
	if bag.MetadataReconstructed && bag.MetadataProblem != "" {
		r.Bag.Problems = append(r.Bag.Problems, "metadata reconstructed: "+bag.MetadataProblem)
	}
	r.Settings = Settings{
		Consumer:     pr.Name,
		QueueSize:    a.params.QueueSize,
		ToleranceS:   float64(a.params.ToleranceNS) / 1e9,
		CacheTimeS:   float64(a.cache) / 1e9,
		ScanTopics:   append([]string{}, a.scanTopics...),
		TargetFrames: append([]string{}, cfg.TargetFrames...),
		SimTimeClear: !cfg.RclpyBuffer || a.wire.ROS1, // ROS 1 listeners clear in rospy too (ros1listener.go)
	}
	return a, nil
}

// selectTopics finds the analysed topics and the role topics (tf, static
// tf, /clock, /rosout, ...) by type and usual name (analysis/topics), with
// or without a leading slash and under a namespace, and fills a.topics and
// a.scanTopics. a.readTopics is filled once the checks are registered.
func (a *analyzer) selectTopics() error {
	bag, cfg := a.bag, a.cfg
	infos := topics.Classify(bag)
	byName := map[string]topics.TopicInfo{}
	count := map[string]uint64{}
	for i, t := range bag.Topics {
		byName[t.Name] = infos[i]
		count[t.Name] = t.MessageCount
	}
	// Analysed topics: those named (ScanTopics must be LaserScan, Topics
	// any stamped type), else every topic of a sensor type.
	chosen := map[string]bool{}
	for _, name := range cfg.ScanTopics {
		ti, ok := byName[name]
		if !ok {
			return fmt.Errorf("scan topic %s is not in the bag", name)
		}
		if !isType(ti.Type, cdr.TypeLaserScan) {
			return fmt.Errorf("scan topic %s has type %s, not %s", name, ti.Type, cdr.TypeLaserScan)
		}
		chosen[name] = true
	}
	for _, name := range cfg.Topics {
		ti, ok := byName[name]
		if !ok {
			return fmt.Errorf("topic %s is not in the bag", name)
		}
		if ti.Role != topics.Stamped {
			return fmt.Errorf("topic %s (%s) has no header to analyse: %s", name, ti.Type, ti.Stamp.Reason)
		}
		chosen[name] = true
	}
	named := cfg.ScanTopics != nil || cfg.Topics != nil
	for _, ti := range infos {
		switch {
		case named && chosen[ti.Name]:
		case !named && ti.Role == topics.Stamped && isSensorType(ti.Type):
		default:
			continue
		}
		a.scanTopics = append(a.scanTopics, ti.Name)
	}
	sort.Strings(a.scanTopics)

	// Every namespace's tf topics, each namespace its own buffer
	// (tfspaces.go), the primary one first.
	a.tfNS = tfNamespaces(infos)
	for _, role := range []topics.Role{topics.TF, topics.TFStatic} {
		r := roleTF
		if role == topics.TFStatic {
			r = roleTFStatic
		}
		for _, ti := range topics.WithRole(infos, role) {
			a.topics.add(&topicState{name: ti.Name, typ: ti.Type, role: r, messages: count[ti.Name]})
		}
	}
	if cl := topics.WithRole(infos, topics.Clock); len(cl) > 0 {
		ti := cl[0]
		a.topics.add(&topicState{name: ti.Name, typ: ti.Type, role: roleClock, messages: count[ti.Name]})
		a.hasClock = count[ti.Name] > 0
	}
	for _, rr := range []struct {
		role topics.Role
		r    topicRole
	}{{topics.Rosout, roleRosout}, {topics.ParameterEvents, roleParamEvents}} {
		for _, ti := range topics.WithRole(infos, rr.role) {
			a.topics.add(&topicState{name: ti.Name, typ: ti.Type, role: rr.r, messages: count[ti.Name]})
		}
	}
	for i, name := range a.scanTopics {
		ti := byName[name]
		pr := presetFor(cfg.Consumer, a.preset, ti.Type)
		ts := &topicState{name: name, typ: ti.Type, role: roleStamped, id: i, messages: count[name],
			preset: pr.Name, params: a.overrideParams(pr.Params), laser: isType(ti.Type, cdr.TypeLaserScan),
			anyFrame: isSensorType(ti.Type),
			// A copy of the configured targets; nil without them (decided
			// at the topic's first message).
			targets: append([]string(nil), cfg.TargetFrames...)}
		a.topics.add(ts)
	}
	for _, ti := range infos {
		if ti.Role == topics.NotAnalysed || ti.Role == topics.Stamped && a.topics.find(ti.Name) == nil {
			a.notAnalysed = append(a.notAnalysed, ti)
		}
	}
	a.addTimeOnly(infos, count)
	return nil
}

// addTimeOnly adds every topic the analysis does not read otherwise as a
// record-time-only topic, by name, numbered after the analysed ones: a
// topic without a header (/cmd_vel) still shows which clock its timer
// follows, and no payload byte is needed for that.
func (a *analyzer) addTimeOnly(infos []topics.TopicInfo, count map[string]uint64) {
	var names []string
	typ := map[string]string{}
	for _, ti := range infos {
		if a.topics.find(ti.Name) == nil && typ[ti.Name] == "" {
			names = append(names, ti.Name)
			typ[ti.Name] = ti.Type
		}
	}
	sort.Strings(names)
	for i, name := range names {
		a.topics.add(&topicState{name: name, typ: typ[name], role: roleTimeOnly, id: len(a.scanTopics) + i, messages: count[name]})
	}
}

// readList fills a.readTopics: the tf, clock, analysed and record-time-only
// topics, and the raw-role topics some check listens to.
func (a *analyzer) readList() {
	for _, ts := range a.topics.list {
		switch ts.role {
		case roleTF, roleTFStatic, roleClock, roleStamped, roleTimeOnly:
		default:
			if len(ts.raw) == 0 {
				continue
			}
		}
		a.readTopics = append(a.readTopics, ts.name)
	}
}

// overrideParams applies the configured queue size and tolerance to a
// preset's parameters, and the bag's ROS: a ROS 1 bag was played to a ROS 1
// consumer, whose tf2_ros::MessageFilter is noetic's.
func (a *analyzer) overrideParams(p msgfilter.Params) msgfilter.Params {
	if a.bag != nil && a.bag.Storage == bagread.StorageROS1 {
		p.Semantics = msgfilter.ROS1
	}
	if a.cfg.SetQueueSize {
		p.QueueSize = a.cfg.QueueSize
	}
	if a.cfg.SetTolerance {
		p.ToleranceNS = int64(math.Round(a.cfg.ToleranceS * 1e9))
	}
	return p
}

// bufferOptions is the tf buffer of the emulated consumer: a ROS 1 bag's
// is tf2 0.7.6's BufferCore, which prunes after inserting (see
// tf.GenerationPruneAfter); a ROS 2 bag's is the current tf2.
func (a *analyzer) bufferOptions() tf.Options {
	o := tf.Options{CacheTimeNS: a.cache}
	if a.bag != nil && a.bag.Storage == bagread.StorageROS1 {
		o.Generation = tf.GenerationPruneAfter
	}
	return o
}

// x is record time in seconds since the bag start (the plots' x axis).
func (a *analyzer) x(logNS int64) float64 {
	if a.startNS == 0 && a.msgs == 1 {
		a.startNS = logNS
	}
	return float64(logNS-a.startNS) / 1e9
}

// skip counts a message that could not be read or decoded, keeping the
// first error of its topic (naming file, topic and index).
func (a *analyzer) skip(m *bagread.Message, err error) {
	s := a.skipped[m.Topic]
	if s == nil {
		s = &Skipped{Topic: m.Topic}
		a.skipped[m.Topic] = s
	}
	s.Count++
	if s.FirstError == "" {
		file := ""
		if m.FileIndex >= 0 && m.FileIndex < len(a.bag.Files) {
			file = a.bag.Files[m.FileIndex].Path
		}
		var me *bagread.MessageError
		if errors.As(err, &me) {
			s.FirstError = err.Error()
		} else {
			s.FirstError = fmt.Sprintf("%s: topic %s message %d: %v", file, m.Topic, m.Index, err)
		}
	}
}

// passIterator reads what the pass needs: the replayed topics in record
// order, analysed topics as header prefixes, time-only topics without
// payload.
func (a *analyzer) passIterator() *bagread.Iterator {
	return a.bag.Messages(bagread.ReadOptions{Topics: a.readTopics, Order: bagread.RecordOrder,
		PrefixTopics: a.headerOnlyTopics(), PrefixBytes: headerPrefixBytes, TimeOnlyTopics: a.timeOnlyTopics()})
}

// run is the pass. With lookAhead (and the read-ahead) the tf look-ahead
// runs first over the pass's own first batches (lookAheadShared).
func (a *analyzer) run(lookAhead bool) error {
	it := a.passIterator()
	defer it.Close()
	var sizes []int64
	for _, f := range a.bag.Files {
		sizes = append(sizes, f.Size)
	}
	if a.cfg.Sequential {
		var x decoded
		var dec wire.Decoder
		for it.Next() {
			m := it.Message()
			decodeOne(&x, &dec, m, a.topics.find(m.Topic), false, nil)
			if err := a.replay(&x, sizes); err != nil {
				return err
			}
		}
	} else if err := a.replayAhead(it, sizes, lookAhead); err != nil {
		return err
	}
	for _, p := range it.Problems() {
		a.rep.Bag.Problems = append(a.rep.Bag.Problems, p.String())
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("reading %s: %w", a.bag.Path, err)
	}
	return nil
}

// replayAhead replays it with reading and decoding on a second goroutine,
// after the tf look-ahead when lookAhead is set.
func (a *analyzer) replayAhead(it *bagread.Iterator, sizes []int64, lookAhead bool) error {
	ahead := startDecodeAhead(it, &a.topics)
	defer ahead.close()
	var held []*aheadBatch
	if lookAhead {
		held = a.lookAheadShared(ahead)
	}
	for i := 0; ; i++ {
		var b *aheadBatch
		if i < len(held) {
			b = held[i]
		} else if b = ahead.next(); b == nil {
			return nil
		}
		for j := range b.items[:b.n] {
			if err := a.replay(&b.items[j], sizes); err != nil {
				return err
			}
		}
		ahead.recycle(b)
	}
}

// replay hands one message, read and decoded (ahead, or just now), to the
// part of the analysis its topic's role calls for.
func (a *analyzer) replay(x *decoded, sizes []int64) error {
	m := &x.msg
	a.msgs++
	if a.cfg.Progress != nil && a.msgs%1024 == 0 {
		a.cfg.Progress(a.progress(m, sizes))
	}
	if m.Err != nil {
		a.skip(m, m.Err)
		return nil
	}
	ts := x.topic
	if ts == nil {
		return nil
	}
	switch ts.role {
	case roleClock:
		a.onClock(m, x.clock, x.err)
	case roleTF, roleTFStatic:
		msg, err := a.tfOf(x)
		a.onTF(m, ts.tf, msg, err, ts.role == roleTFStatic)
	case roleStamped:
		a.onStamped(m, ts, x)
	case roleTimeOnly:
		if ts.header {
			for _, h := range a.headerHooks {
				h.onHeader(a, m, ts, x.hdr.Stamp.Nanoseconds(), x.err)
			}
		}
		for _, h := range a.recordHooks {
			h.onRecord(a, m, ts)
		}
	default:
		for _, h := range ts.raw {
			h.onRaw(a, m)
		}
	}
	if a.rows.sinkErr != nil {
		return fmt.Errorf("writing row: %w", a.rows.sinkErr)
	}
	return nil
}

// tfOf returns the transforms of a tf message and their decode error:
// decoded by the reader, or decoded here from the payload it handed over.
func (a *analyzer) tfOf(x *decoded) (*cdr.TFMessage, error) {
	if !x.tfRaw {
		return &x.tf, x.err
	}
	err := a.wire.TF(&a.tfMsg, x.tfBytes)
	return &a.tfMsg, err
}

// onClock updates the /clock state, then tells the clock hooks.
func (a *analyzer) onClock(m *bagread.Message, v int64, err error) {
	if err != nil {
		a.skip(m, err)
		return
	}
	a.clock.update(a, m, v)
	for _, h := range a.clockHooks {
		h.onClock(a, m, v)
	}
}

// onTF stores the transforms of one tf message, decoded (with its decode
// error) by decodeOne, in the buffer; the link hooks see each transform
// before it is stored, the tf hooks the message after.
func (a *analyzer) onTF(m *bagread.Message, t *tfReplay, msg *cdr.TFMessage, err error, static bool) {
	if err != nil {
		a.skip(m, err)
		return
	}
	stored := false
	reset, now := a.ros1Listen(t)
	for i := range msg.Transforms {
		// t.st, not a local: its address goes to the hooks (interfaces),
		// so a local escaped, one allocation per transform.
		t.st = stampedOf(&msg.Transforms[i])
		st := &t.st
		l := t.noteLink(m, i, st, static)
		for _, h := range a.linkHooks {
			h.onLink(a, m, l, st)
		}
		if reset && st.Stamp > now {
			continue // the ROS 1 listener skips them after a reset
		}
		if err := t.buf.SetTransform(*st, m.Topic, static); err != nil {
			continue
		}
		stored = true
		t.group.TransformStored(m.LogTimeNS, st.Stamp, static)
	}
	for _, h := range a.tfHooks {
		h.onTF(a, m, stored)
	}
}

// onStamped takes one message of an analysed topic: its targets are
// decided at its first message, then the stamped hooks and the rows see it.
func (a *analyzer) onStamped(m *bagread.Message, ts *topicState, x *decoded) {
	for _, h := range a.headerHooks {
		h.onHeader(a, m, ts, x.hdr.Stamp.Nanoseconds(), x.err)
	}
	if x.err != nil {
		a.skip(m, x.err)
		return
	}
	a.scans++
	h := &x.hdr
	// One stampedMsg reused: handed to interfaces, a fresh one per
	// message would escape to the heap.
	s := &a.cur
	*s = stampedMsg{m: m, topic: ts, stamp: h.Stamp.Nanoseconds(), frame: h.FrameID}
	ts.count++
	if s.frame == "" && s.stamp == 0 {
		// A header never filled in (default-constructed): no time, no
		// frame, nothing to check.
		ts.noFrame++
		return
	}
	if !ts.ready {
		if ts.targets == nil {
			var d *TargetDecision
			ts.targets, d = ts.tf.decideTargets(s.frame)
			if d != nil {
				a.rep.Settings.addTarget(*d)
			}
		}
		ts.ready = true
	}
	for _, h := range a.stampedHooks {
		h.onStamped(a, s)
	}
	if s.frame == "" && !ts.anyFrame {
		// No frame: nothing a consumer could transform.
		ts.noFrame++
		return
	}
	a.rows.onStamped(a, s)
}

// progress estimates bytes read: exact for MCAP (Position is a byte offset),
// proportional to the rowid for sqlite.
func (a *analyzer) progress(m *bagread.Message, sizes []int64) int64 {
	var done int64
	for i := 0; i < m.FileIndex && i < len(sizes); i++ {
		done += sizes[i]
	}
	if m.FileIndex < 0 || m.FileIndex >= len(sizes) {
		return done
	}
	f := a.bag.Files[m.FileIndex]
	if f.Storage == bagread.StorageMCAP {
		return done + min(m.Position, f.Size)
	}
	if f.MessageCount > 0 {
		return done + int64(float64(f.Size)*math.Min(1, float64(m.Position)/float64(f.MessageCount)))
	}
	return done
}

// headerPrefixBytes is how much of a sensor message the analysis reads:
// the encapsulation, stamp and frame_id of its std_msgs/Header (a frame id
// of up to 463 bytes), and a LaserScan's fields up to its ranges count; an
// image, point cloud or scan array behind it is never read. It stays under
// 489 bytes, the least SQLite keeps of a row on its b-tree leaf page when
// the rest overflows (page size 4096, rosbag2's): a db3 prefix then costs
// no overflow page (with 4096 bytes, a 9 kB scan row cost one).
const headerPrefixBytes = 480

// headerOnlyTopics lists the analysed topics whose messages are read only
// up to headerPrefixBytes: every stamped sensor topic. A LaserScan's
// arrays behind its header are checked from their declared lengths
// against the message's full size (Message.Size), which the storage
// gives without the bytes.
func (a *analyzer) headerOnlyTopics() []string {
	var out []string
	for _, ts := range a.topics.list {
		if ts.role == roleStamped && len(ts.raw) == 0 || ts.role == roleTimeOnly && ts.header {
			out = append(out, ts.name)
		}
	}
	return out
}

// timeOnlyTopics lists the topics read for their record times alone.
func (a *analyzer) timeOnlyTopics() []string {
	var out []string
	for _, ts := range a.topics.list {
		if ts.role == roleTimeOnly && !ts.header {
			out = append(out, ts.name)
		}
	}
	return out
}
