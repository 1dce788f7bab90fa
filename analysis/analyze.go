package analysis

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/analysis/msgfilter"
	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// Thresholds of the per-scan classes. They are exported so that render and
// README can quote them.
const (
	// EpochThresholdNS: |diff| at or above this (≈ 3.2 years) means the scan
	// and the tf link are on different clock families: one on system time
	// (≈ 1.79e9 s in 2026), the other on /clock (sim time, minutes to days).
	// No simulation runs for years and no two synchronised machines drift
	// that far, so nothing else reaches it.
	EpochThresholdNS = int64(100_000_000) * 1_000_000_000
	// ClockSkewThresholdNS: |diff| at or above this (1 s) on the same clock
	// family is clock_skew. Below it lie transport latency and the period of
	// the stalest tf publisher (20 ms for 50 Hz odometry, 200 ms for a 5 Hz
	// one). 1 s is also where tf2_ros::MessageFilter starts to drop: a scan
	// stamped 1 s ahead of tf waits 1 s, longer than the RViz queue of 10
	// scans lasts at 10-20 Hz. The cache length (10 s by default) is the
	// second boundary, quoted in the verdict: a scan more than cache_time
	// behind tf is dropped at once (OutTheBack), one less far behind still
	// transforms.
	ClockSkewThresholdNS = int64(1_000_000_000)
	// StallMinNS is the shortest record-time stretch without /clock
	// progress reported as a stall.
	StallMinNS = int64(1_000_000_000)
)

// Bounds on what a report keeps whatever the bag length; counts stay exact.
const (
	maxJumpsKept     = 1000
	maxStallsKept    = 200
	maxRosoutKept    = 500
	maxPredictedKept = 20000
	maxZeroPending   = 64
)

const (
	topicTF       = "/tf"
	topicTFStatic = "/tf_static"
	topicClock    = "/clock"
	topicRosout   = "/rosout"
)

// consumerPresets maps Config.Consumer to a msgfilter preset name.
var consumerPresets = map[string]string{
	"":             "rviz-laserscan",
	"rviz":         "rviz-laserscan",
	"slam_toolbox": "slam_toolbox",
	// AMCL is the Nav2 node that subscribes every scan through a
	// MessageFilter whatever the costmap setup; "nav2-obstacle-layer"
	// (queue 50, tolerance 50 ms) can be asked for by its preset name.
	"nav2": "nav2-amcl",
}

func resolvePreset(name string) (msgfilter.Preset, error) {
	key, ok := consumerPresets[name]
	if !ok {
		key = name
	}
	p, ok := msgfilter.Presets[key]
	if !ok {
		return p, fmt.Errorf("unknown consumer %q: want rviz, slam_toolbox or nav2", name)
	}
	return p, nil
}

func isType(typ, want string) bool {
	if typ == want {
		return true
	}
	// Pre-Dashing bags spell types without "/msg/".
	return strings.Replace(want, "/msg/", "/", 1) == typ
}

// Analyze replays bag and streams rows to sink (which may be nil).
//
// One pass over the bag in record order (after a short look-ahead over the
// first seconds of /tf and /tf_static that picks default target frames);
// memory is bounded by the tf cache window, the filters' queues and fixed
// size summaries, never by the bag length. A message that cannot be read or
// decoded is counted in Report.Skipped and the pass goes on; only a fatal
// read error or a sink error ends it, and the partial report is returned
// with the error.
func Analyze(bag *bagread.Bag, cfg Config, sink ScanSink) (*Report, error) {
	if bag == nil {
		return nil, errors.New("analysis: nil bag")
	}
	a, err := newAnalyzer(bag, cfg, sink)
	if err != nil {
		return nil, err
	}
	if len(cfg.TargetFrames) == 0 && len(a.scanTopics) > 0 {
		a.lookAhead()
	}
	err = a.run()
	rep := a.finish()
	if err != nil {
		return rep, err
	}
	return rep, nil
}

type linkKey struct{ parent, child, topic string }

type linkStats struct {
	key        linkKey
	static     bool
	count      int
	oldest     int64
	newest     int64
	firstLog   int64
	lastLog    int64
	age        reservoir
	pubAge     reservoir
	lastStamp  int64
	stepTicks  reservoir
	seenStamp  bool
	jumpsFound int
}

type topicStats struct {
	topic     string
	count     int
	age       reservoir
	pubAge    reservoir
	lastStamp int64
	seen      bool
	steps     reservoir
	// targets and filters of the topic once its first scan decided them
	// (copies of analyzer.targets and analyzer.filters, which never change
	// after that).
	ready   bool
	targets []string
	fss     []*filterState
}

// pairStats summarises one (scan topic, target) pair for the verdict.
type pairStats struct {
	topic, target, frame string
	classes              map[Class]int
	outcomes             map[string]int
	diff                 reservoir
	stalest              map[string]int // "parent->child on topic" → count
	series               *downsampler
	// The key of the last stalest link, so that a run of scans with the
	// same stalest link builds it once.
	lastStalest [3]string
	lastKey     string
}

// stalestKey is "parent->child on topic", built only when the link differs
// from the previous scan's.
func (p *pairStats) stalestKey(parent, child, topic string) string {
	if p.lastKey == "" || p.lastStalest != [3]string{parent, child, topic} {
		p.lastStalest = [3]string{parent, child, topic}
		p.lastKey = parent + "->" + child + " on " + topic
	}
	return p.lastKey
}

type filterState struct {
	pair    *pairStats
	f       *msgfilter.Filter
	rows    []*ScanRow // undecided or not yet emitted rows, oldest first
	decided []bool
	base    uint64 // key of rows[0]
	next    uint64
}

type zeroPending struct {
	target, frame string
	tReal         int64
	known         bool // tReal known (false: wait for the first /clock)
	latest        tf.Transform
	logNS         int64
}

type analyzer struct {
	bag    *bagread.Bag
	cfg    Config
	sink   ScanSink
	preset msgfilter.Preset
	params msgfilter.Params
	cache  int64

	scanTopics []string
	readTopics []string
	hasClock   bool
	startNS    int64
	spanS      float64

	buf   *tf.Buffer
	group *msgfilter.Group

	// targets per scan topic, decided at its first scan (or fixed by cfg).
	targets map[string][]string
	parents map[string]string // child → parent, from look-ahead and replay
	filters map[string][]*filterState
	pairs   []*pairStats
	pool    []*ScanRow
	path    []tf.Link
	sinkErr error

	tfMsg cdr.TFMessage // reused: steady /tf decodes without allocating

	rep Report

	// /clock state
	clockSeen     bool
	clockNS       int64
	clockLogNS    int64
	clockIndex    uint64
	firstClockLog int64
	clockTicks    reservoir // positive /clock deltas
	clockLogTicks reservoir // record-time deltas between /clock messages
	rtfClock      float64
	rtfLog        float64
	stallStart    int64
	stallMsgs     int
	stallValue    int64
	nStalls       int
	nClockJumps   int
	firstClockNS  int64
	lastClockNS   int64
	nClock        int

	lastTS *topicStats // of the previous scan
	// Summary.Classes and Summary.Filter, copied into the report by finish.
	rowClasses, rowFilter tally
	links                 map[linkKey]*linkStats
	recentLinks           [2][]*linkStats // by static (1) or not (0): link last seen at each position
	topics                map[string]*topicStats
	// linkTopic: child → topic its dynamic transform came on.
	linkTopic map[string]string

	skipped map[string]*Skipped

	scans      int
	zeroCost   struct{ disp, rot reservoir }
	zeroWait   []zeroPending
	zeroLost   int
	predicted  map[string]bool // "frame|time" of predicted drop lines
	nPredicted int
	rosout     []RosoutLine
	nRosout    int
	nStampJump int

	clockSeries *downsampler
	outcomes    *outcomeSeries
	msgs        int
}

func newAnalyzer(bag *bagread.Bag, cfg Config, sink ScanSink) (*analyzer, error) {
	pr, err := resolvePreset(cfg.Consumer)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	a := &analyzer{
		bag: bag, cfg: cfg, sink: sink, preset: pr, params: pr.Params,
		cache:     pr.CacheTimeNS,
		targets:   map[string][]string{},
		parents:   map[string]string{},
		filters:   map[string][]*filterState{},
		links:     map[linkKey]*linkStats{},
		topics:    map[string]*topicStats{},
		linkTopic: map[string]string{},
		skipped:   map[string]*Skipped{},
		predicted: map[string]bool{},
	}
	if cfg.SetQueueSize {
		if cfg.QueueSize < 0 {
			return nil, fmt.Errorf("analysis: queue size %d: must be >= 0", cfg.QueueSize)
		}
		a.params.QueueSize = cfg.QueueSize
	}
	if cfg.SetTolerance {
		if cfg.ToleranceS < 0 || math.IsNaN(cfg.ToleranceS) {
			return nil, fmt.Errorf("analysis: tolerance %g: must be >= 0", cfg.ToleranceS)
		}
		a.params.ToleranceNS = int64(math.Round(cfg.ToleranceS * 1e9))
	}
	if cfg.SetCacheTime {
		if !(cfg.CacheTimeS > 0) {
			return nil, fmt.Errorf("analysis: cache time %g: must be > 0", cfg.CacheTimeS)
		}
		a.cache = int64(math.Round(cfg.CacheTimeS * 1e9))
	}
	if a.cache <= 0 {
		a.cache = 10_000_000_000
	}
	if cfg.JumpMinForwardNS < 0 {
		return nil, fmt.Errorf("analysis: jump min forward %d ns: must be >= 0", cfg.JumpMinForwardNS)
	}
	if cfg.JumpMinBackwardNS > 0 {
		return nil, fmt.Errorf("analysis: jump min backward %d ns: must be <= 0", cfg.JumpMinBackwardNS)
	}
	a.buf = tf.NewBuffer(tf.Options{CacheTimeNS: a.cache})
	a.group = msgfilter.NewGroup(a.buf)

	present := map[string]bagread.Topic{}
	for _, t := range bag.Topics {
		present[t.Name] = t
	}
	if cfg.ScanTopics != nil {
		for _, name := range cfg.ScanTopics {
			t, ok := present[name]
			if !ok {
				return nil, fmt.Errorf("analysis: scan topic %s is not in the bag", name)
			}
			if !isType(t.Type, cdr.TypeLaserScan) {
				return nil, fmt.Errorf("analysis: scan topic %s has type %s, not %s", name, t.Type, cdr.TypeLaserScan)
			}
			a.scanTopics = append(a.scanTopics, name)
		}
	} else {
		for _, t := range bag.Topics {
			if isType(t.Type, cdr.TypeLaserScan) {
				a.scanTopics = append(a.scanTopics, t.Name)
			}
		}
	}
	sort.Strings(a.scanTopics)
	for _, special := range []struct{ name, typ string }{
		{topicTF, cdr.TypeTFMessage}, {topicTFStatic, cdr.TypeTFMessage},
		{topicClock, cdr.TypeClock}, {topicRosout, cdr.TypeLog},
	} {
		if t, ok := present[special.name]; ok && isType(t.Type, special.typ) {
			a.readTopics = append(a.readTopics, special.name)
			if special.name == topicClock && t.MessageCount > 0 {
				a.hasClock = true
			}
		}
	}
	a.readTopics = append(a.readTopics, a.scanTopics...)
	for _, name := range a.scanTopics {
		a.topics[name] = &topicStats{topic: name}
	}
	if len(cfg.TargetFrames) > 0 {
		for _, name := range a.scanTopics {
			a.targets[name] = append([]string(nil), cfg.TargetFrames...)
		}
	}

	a.startNS = bag.StartNS
	if bag.EndNS > bag.StartNS {
		a.spanS = float64(bag.EndNS-bag.StartNS) / 1e9
	}
	a.clockSeries = newDownsampler(a.spanS)
	a.outcomes = newOutcomeSeries(a.spanS)

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
		SimTimeClear: !cfg.RclpyBuffer,
	}
	return a, nil
}

// lookAhead reads /tf and /tf_static (and the scan topics, to know when to
// stop) from the start of the bag until a second after the first scan of
// every scan topic, at most lookAheadMaxNS of record time, and remembers
// each child's parent. Default targets are decided from this tree merged
// with what the replay has seen by the first scan, so a tree published a
// little after the laser starts still counts. It is a bounded, cheap pass:
// a few seconds of tf.
func (a *analyzer) lookAhead() {
	const lookAheadMaxNS = 5_000_000_000
	const afterScanNS = 1_000_000_000
	var topics []string
	for _, t := range a.readTopics {
		if t == topicTF || t == topicTFStatic {
			topics = append(topics, t)
		}
	}
	if len(topics) == 0 {
		return
	}
	waiting := map[string]bool{}
	for _, t := range a.bag.Topics {
		if t.MessageCount > 0 && a.topics[t.Name] != nil {
			waiting[t.Name] = true
		}
	}
	topics = append(topics, a.scanTopics...)
	it := a.bag.Messages(bagread.ReadOptions{Topics: topics, Order: bagread.RecordOrder})
	defer it.Close()
	var first int64
	started := false
	stopAt := int64(math.MaxInt64)
	var msg cdr.TFMessage
	for it.Next() {
		m := it.Message()
		if !started {
			first, started = m.LogTimeNS, true
		}
		if m.LogTimeNS-first > lookAheadMaxNS || m.LogTimeNS > stopAt {
			break
		}
		if m.Err != nil {
			continue
		}
		if waiting[m.Topic] {
			delete(waiting, m.Topic)
			if len(waiting) == 0 {
				stopAt = m.LogTimeNS + afterScanNS
			}
			continue
		}
		if m.Topic != topicTF && m.Topic != topicTFStatic {
			continue
		}
		if _, err := cdr.DecodeTFMessageInto(&msg, m.Data); err != nil {
			continue
		}
		for i := range msg.Transforms {
			t := &msg.Transforms[i]
			a.noteParent(t.Header.FrameID, t.ChildFrameID)
		}
	}
}

func (a *analyzer) noteParent(parent, child string) {
	parent, child = strings.TrimPrefix(parent, "/"), strings.TrimPrefix(child, "/")
	if parent == "" || child == "" || parent == child {
		return
	}
	if a.parents[child] != parent {
		a.parents[child] = parent
	}
}

// root follows parents from frame; ok is false when frame is unknown.
func (a *analyzer) root(frame string) (string, bool) {
	_, known := a.parents[frame]
	if !known {
		for _, p := range a.parents {
			if p == frame {
				known = true
				break
			}
		}
		if !known {
			return "", false
		}
	}
	for i := 0; i < 1000; i++ {
		p, ok := a.parents[frame]
		if !ok {
			return frame, true
		}
		frame = p
	}
	return frame, true // a loop: any frame on it will do
}

// decideTargets picks the default target for a scan frame: odom when odom
// is in the same tree, else the root of the frame's tree, else odom (the
// frame is nowhere in the tree: every row is no_transform, which is what a
// consumer with fixed frame odom would see).
func (a *analyzer) decideTargets(frame string) []string {
	frame = strings.TrimPrefix(frame, "/")
	fr, fok := a.root(frame)
	or, ook := a.root("odom")
	switch {
	case ook && fok && fr == or:
		return []string{"odom"}
	case fok:
		return []string{fr}
	default:
		return []string{"odom"}
	}
}

func (a *analyzer) x(logNS int64) float64 {
	if a.startNS == 0 && a.msgs == 1 {
		a.startNS = logNS
	}
	return float64(logNS-a.startNS) / 1e9
}

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

func (a *analyzer) run() error {
	it := a.bag.Messages(bagread.ReadOptions{Topics: a.readTopics, Order: bagread.RecordOrder})
	defer it.Close()
	var sizes []int64
	for _, f := range a.bag.Files {
		sizes = append(sizes, f.Size)
	}
	if a.cfg.Sequential {
		var x decoded
		for it.Next() {
			decodeOne(&x, it.Message(), false)
			if err := a.replay(&x, sizes); err != nil {
				return err
			}
		}
	} else if err := a.replayAhead(it, sizes); err != nil {
		return err
	}
	for _, p := range it.Problems() {
		a.rep.Bag.Problems = append(a.rep.Bag.Problems, p.String())
	}
	if err := it.Err(); err != nil {
		return fmt.Errorf("analysis: reading %s: %w", a.bag.Path, err)
	}
	return nil
}

// replayAhead replays it with reading and decoding on a second goroutine.
func (a *analyzer) replayAhead(it *bagread.Iterator, sizes []int64) error {
	ahead := startDecodeAhead(it)
	defer ahead.close()
	for b := ahead.next(); b != nil; b = ahead.next() {
		for i := range b.items[:b.n] {
			if err := a.replay(&b.items[i], sizes); err != nil {
				return err
			}
		}
		ahead.recycle(b)
	}
	return nil
}

// replay hands one message, read and decoded (ahead, or just now), to its
// analysis.
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
	switch m.Topic {
	case topicClock:
		a.onClock(m, x.clock, x.err)
	case topicTF:
		a.onTF(m, false)
	case topicTFStatic:
		a.onTF(m, true)
	case topicRosout:
		a.onRosout(m)
	default:
		a.onScan(m, &x.scan, x.err)
	}
	if a.sinkErr != nil {
		return fmt.Errorf("analysis: writing row: %w", a.sinkErr)
	}
	return nil
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

// forwardThreshold is the rcl min_forward in force: the configured one, or
// 10× the median tick seen so far, at least 1 s.
func forwardThreshold(cfgNS int64, ticks *reservoir) int64 {
	if cfgNS > 0 {
		return cfgNS
	}
	th := int64(1_000_000_000)
	if ticks.n >= 8 {
		th = max(th, int64(10*ticks.approxMedian()))
	}
	return th
}

// isBackward applies rcl's min_backward: 0 means any backward step.
func isBackward(delta, minBackward int64) bool {
	if minBackward == 0 {
		return delta < 0
	}
	return delta <= minBackward
}

func (a *analyzer) onClock(m *bagread.Message, v int64, err error) {
	if err != nil {
		a.skip(m, err)
		return
	}
	a.clockSeries.add(a.x(m.LogTimeNS), float64(v)/1e9)
	a.nClock++
	if !a.clockSeen {
		a.clockSeen = true
		a.clockNS, a.clockLogNS, a.clockIndex = v, m.LogTimeNS, m.Index
		a.firstClockLog, a.firstClockNS, a.lastClockNS = m.LogTimeNS, v, v
		a.stallStart, a.stallValue, a.stallMsgs = m.LogTimeNS, v, 1
		a.resolveZeroClock(v)
		return
	}
	delta := v - a.clockNS
	dlog := m.LogTimeNS - a.clockLogNS
	if dlog > 0 {
		a.clockLogTicks.add(float64(dlog))
	}
	fwd := forwardThreshold(a.cfg.JumpMinForwardNS, &a.clockTicks)
	jump := ""
	switch {
	case isBackward(delta, a.cfg.JumpMinBackwardNS):
		jump = "backward"
	case delta > 0 && delta >= fwd:
		jump = "forward"
	}
	if jump != "" {
		a.nClockJumps++
		if len(a.rep.ClockJumps) < maxJumpsKept {
			a.rep.ClockJumps = append(a.rep.ClockJumps, ClockJump{
				Index: m.Index, LogTimeNS: m.LogTimeNS, FromNS: a.clockNS, ToNS: v, Kind: jump, Topic: topicClock,
			})
		}
	} else {
		if delta > 0 {
			a.clockTicks.add(float64(delta))
		}
		if dlog > 0 {
			a.rtfClock += float64(delta)
			a.rtfLog += float64(dlog)
		}
	}
	// tf2_ros::Buffer's jump callback: any backward step clears dynamic
	// data (min_backward = -1 ns, whatever the reporting threshold).
	if delta < 0 && !a.cfg.RclpyBuffer {
		a.buf.ClearOnJump(delta)
	}
	// Stalls: /clock repeating one value, or silent, while record time runs.
	if delta == 0 {
		a.stallMsgs++
	} else {
		a.endStall(m.LogTimeNS)
		a.stallStart, a.stallValue, a.stallMsgs = m.LogTimeNS, v, 1
	}
	if delta != 0 && dlog >= StallMinNS && a.clockLogTicks.n >= 8 && float64(dlog) >= 10*a.clockLogTicks.approxMedian() {
		a.addStall(Stall{StartLogNS: a.clockLogNS, EndLogNS: m.LogTimeNS, ClockNS: a.clockNS, Messages: 0})
	}
	a.clockNS, a.clockLogNS, a.clockIndex = v, m.LogTimeNS, m.Index
	a.lastClockNS = v
}

// decodeClockNS is cdr.DecodeClock(data).Clock.Nanoseconds() with a fast
// path for the plain little-endian layout every ROS 2 bag writes (4-byte
// encapsulation, int32 sec, uint32 nanosec); anything else, including every
// error, goes through cdr.DecodeClock.
func decodeClockNS(data []byte) (int64, error) {
	if len(data) >= 12 && data[0] == 0 && data[1] == byte(cdr.CDRLE) {
		sec := int32(binary.LittleEndian.Uint32(data[4:8]))
		ns := binary.LittleEndian.Uint32(data[8:12])
		return cdr.Time{Sec: sec, Nanosec: ns}.Nanoseconds(), nil
	}
	c, err := cdr.DecodeClock(data)
	if err != nil {
		return 0, err
	}
	return c.Clock.Nanoseconds(), nil
}

func (a *analyzer) endStall(nowLog int64) {
	if a.stallMsgs >= 2 && a.clockLogNS-a.stallStart >= StallMinNS {
		a.addStall(Stall{StartLogNS: a.stallStart, EndLogNS: a.clockLogNS, ClockNS: a.stallValue, Messages: a.stallMsgs})
	}
}

func (a *analyzer) addStall(s Stall) {
	a.nStalls++
	if len(a.rep.Stalls) < maxStallsKept {
		a.rep.Stalls = append(a.rep.Stalls, s)
	}
}

func (a *analyzer) onTF(m *bagread.Message, static bool) {
	if _, err := cdr.DecodeTFMessageInto(&a.tfMsg, m.Data); err != nil {
		a.skip(m, err)
		return
	}
	stored := false
	for i := range a.tfMsg.Transforms {
		t := &a.tfMsg.Transforms[i]
		st := tf.Stamped{
			Parent: t.Header.FrameID, Child: t.ChildFrameID, Stamp: t.Header.Stamp.Nanoseconds(),
			Transform: tf.Transform{
				Translation: tf.Vec3{X: t.Transform.Translation.X, Y: t.Transform.Translation.Y, Z: t.Transform.Translation.Z},
				Rotation:    tf.Quat{X: t.Transform.Rotation.X, Y: t.Transform.Rotation.Y, Z: t.Transform.Rotation.Z, W: t.Transform.Rotation.W},
			},
		}
		a.noteLink(m, i, &st, static)
		if err := a.buf.SetTransform(st, m.Topic, static); err != nil {
			continue
		}
		stored = true
		a.group.TransformStored(m.LogTimeNS, st.Stamp, static)
	}
	if stored && len(a.zeroWait) > 0 {
		a.resolveZero(m.LogTimeNS)
	}
}

func (a *analyzer) noteLink(m *bagread.Message, pos int, st *tf.Stamped, static bool) {
	// A steady /tf stream repeats its transforms in the same positions:
	// try the link seen last at this position before hashing three strings.
	parent, child := strings.TrimPrefix(st.Parent, "/"), strings.TrimPrefix(st.Child, "/")
	si := 0
	if static {
		si = 1
	}
	cache := a.recentLinks[si]
	var l *linkStats
	if pos < len(cache) && cache[pos] != nil {
		if c := cache[pos]; c.key.parent == parent && c.key.child == child && c.key.topic == m.Topic {
			l = c
		}
	}
	if l == nil {
		k := linkKey{parent, child, m.Topic}
		l = a.links[k]
		if l == nil {
			l = &linkStats{key: k, oldest: st.Stamp, newest: st.Stamp, firstLog: m.LogTimeNS}
			a.links[k] = l
		}
		a.noteParent(parent, child)
		if !static {
			a.linkTopic[child] = m.Topic
		}
		for len(cache) <= pos {
			cache = append(cache, nil)
		}
		cache[pos] = l
		a.recentLinks[si] = cache
	}
	k := l.key
	l.static = static
	l.count++
	l.oldest = min(l.oldest, st.Stamp)
	l.newest = max(l.newest, st.Stamp)
	l.lastLog = m.LogTimeNS
	l.age.add(float64(m.LogTimeNS-st.Stamp) / 1e9)
	if m.HasPublishTime {
		l.pubAge.add(float64(m.PublishTimeNS-st.Stamp) / 1e9)
	}
	if !a.hasClock && !static {
		if l.seenStamp {
			a.stampJump(&l.lastStamp, &l.stepTicks, st.Stamp, m, k.parent+"->"+k.child)
		}
		l.lastStamp, l.seenStamp = st.Stamp, true
	}
}

// stampJump records a jump of a stamp series (bags without /clock).
func (a *analyzer) stampJump(last *int64, ticks *reservoir, stamp int64, m *bagread.Message, link string) {
	delta := stamp - *last
	kind := ""
	switch {
	case isBackward(delta, a.cfg.JumpMinBackwardNS):
		kind = "backward"
	case delta > 0 && delta >= forwardThreshold(a.cfg.JumpMinForwardNS, ticks):
		kind = "forward"
	case delta > 0:
		ticks.add(float64(delta))
	}
	if kind == "" {
		return
	}
	a.nStampJump++
	if len(a.rep.StampJumps) < maxJumpsKept {
		a.rep.StampJumps = append(a.rep.StampJumps, ClockJump{
			Index: m.Index, LogTimeNS: m.LogTimeNS, FromNS: *last, ToNS: stamp, Kind: kind, Topic: m.Topic, Link: link,
		})
	}
}

func (a *analyzer) onRosout(m *bagread.Message) {
	l, err := cdr.DecodeLog(m.Data)
	if err != nil {
		a.skip(m, err)
		return
	}
	kind := ""
	switch {
	case strings.Contains(l.Msg, "Message Filter dropping message"):
		kind = "filter_drop"
	case strings.Contains(l.Msg, "Detected jump back in time"):
		kind = "jump_back"
	default:
		return
	}
	a.nRosout++
	if len(a.rosout) < maxRosoutKept {
		a.rosout = append(a.rosout, RosoutLine{
			Index: m.Index, LogTimeNS: m.LogTimeNS, StampNS: l.Stamp.Nanoseconds(), Node: l.Name,
			Level: l.Level, Kind: kind, Text: l.Msg,
		})
	}
}

// dropKey extracts "frame 'X' at time T" from a drop line, the part that
// identifies the scan.
func dropKey(line string) string {
	i := strings.Index(line, "frame '")
	if i < 0 {
		return ""
	}
	j := strings.Index(line[i:], " for reason")
	if j < 0 {
		return line[i:]
	}
	return line[i : i+j]
}

func (a *analyzer) onScan(m *bagread.Message, hdr *cdr.ScanHeader, err error) {
	ts := a.lastTS
	if ts == nil || m.Topic != ts.topic {
		ts = a.topics[m.Topic]
		if ts == nil {
			return
		}
		a.lastTS = ts
	}
	if err != nil {
		a.skip(m, err)
		return
	}
	a.scans++
	h := &hdr.Header
	stamp := h.Stamp.Nanoseconds()
	frame := h.FrameID
	x := a.x(m.LogTimeNS)

	ts.count++
	ts.age.add(float64(m.LogTimeNS-stamp) / 1e9)
	if m.HasPublishTime {
		ts.pubAge.add(float64(m.PublishTimeNS-stamp) / 1e9)
	}
	if !a.hasClock {
		if ts.seen {
			a.stampJump(&ts.lastStamp, &ts.steps, stamp, m, "")
		}
		ts.lastStamp, ts.seen = stamp, true
	}

	targets, fss := ts.targets, ts.fss
	if !ts.ready {
		targets, fss = a.topicFilters(m.Topic, frame)
		ts.targets, ts.fss, ts.ready = targets, fss, true
	}
	if stamp == 0 {
		a.noteZeroStamp(m, frame, targets[0])
	}

	for _, fs := range fss {
		row := a.newRow()
		row.Topic = m.Topic
		row.ScanIndex = m.Index
		row.LogTimeNS = m.LogTimeNS
		row.StampNS = stamp
		row.FrameID = frame
		row.TargetFrame = fs.pair.target
		row.PublishTimeNS, row.HasPublishTime = m.PublishTimeNS, m.HasPublishTime
		row.ClockNS, row.HasClock = a.clockNS, a.clockSeen
		a.classify(row, stamp)
		p := fs.pair
		p.classes[row.Class]++
		if row.HasTF {
			p.diff.add(row.DiffS)
			p.series.add(x, row.DiffS)
			p.stalest[p.stalestKey(row.StalestParent, row.StalestChild, row.StalestTopic)]++
		}
		fs.rows = append(fs.rows, row)
		fs.decided = append(fs.decided, false)
		key := fs.next
		fs.next++
		fs.f.Add(msgfilter.Msg{Key: key, FrameID: frame, StampNS: stamp, ArrivalNS: m.LogTimeNS})
		a.flush(fs)
	}
}

// topicFilters decides the targets of a scan topic at its first scan (or
// takes those fixed by the config) and makes one filter per target.
func (a *analyzer) topicFilters(topic, frame string) ([]string, []*filterState) {
	targets, ok := a.targets[topic]
	if !ok {
		targets = a.decideTargets(frame)
		a.targets[topic] = targets
	}
	fss := a.filters[topic]
	if fss == nil {
		for _, tg := range targets {
			p := &pairStats{topic: topic, target: tg, frame: strings.TrimPrefix(frame, "/"),
				classes: map[Class]int{}, outcomes: map[string]int{}, stalest: map[string]int{},
				series: newDownsampler(a.spanS)}
			a.pairs = append(a.pairs, p)
			fs := &filterState{pair: p}
			fs.f = a.group.NewFilter([]string{tg}, a.params, fs.onResult(a))
			fss = append(fss, fs)
		}
		a.filters[topic] = fss
	}
	return targets, fss
}

func (a *analyzer) newRow() *ScanRow {
	if n := len(a.pool); n > 0 {
		r := a.pool[n-1]
		a.pool = a.pool[:n-1]
		*r = ScanRow{}
		return r
	}
	return &ScanRow{}
}

// classify fills the tf columns and the class of a row from the buffer as
// it stands when the scan arrives.
func (a *analyzer) classify(row *ScanRow, stamp int64) {
	frame := strings.TrimPrefix(row.FrameID, "/")
	target := strings.TrimPrefix(row.TargetFrame, "/")
	var err error
	if frame == "" || !a.buf.HasFrame(frame) && frame != target || !a.buf.HasFrame(target) && frame != target {
		err = errors.New("unknown frame")
	} else {
		a.path, err = a.buf.AppendPath(a.path[:0], target, frame)
	}
	if err != nil {
		if stamp == 0 {
			row.Class = ZeroStamp
		} else {
			row.Class = NoTransform
		}
		return
	}
	stalest := -1
	for i, l := range a.path {
		if l.Static {
			continue
		}
		if stalest < 0 || l.NewestNS < a.path[stalest].NewestNS {
			stalest = i
		}
	}
	if stalest >= 0 {
		l := a.path[stalest]
		row.HasTF = true
		row.TFLatestNS = l.NewestNS
		row.DiffS = float64(stamp-l.NewestNS) / 1e9
		row.StalestParent, row.StalestChild = l.Parent, l.Child
		row.StalestTopic = a.linkTopic[l.Child]
	}
	switch {
	case stamp == 0:
		row.Class = ZeroStamp
	case stalest < 0:
		row.Class = StaticOnly
	default:
		row.Class = diffClass(stamp - row.TFLatestNS)
	}
}

// diffClass classifies scan stamp − latest dynamic tf stamp.
func diffClass(d int64) Class {
	switch {
	case d >= EpochThresholdNS:
		return LaserOnSystemClock
	case d <= -EpochThresholdNS:
		return TFOnSystemClock
	case d >= ClockSkewThresholdNS || d <= -ClockSkewThresholdNS:
		return ClockSkew
	default:
		return SameClock
	}
}

func (fs *filterState) onResult(a *analyzer) func(msgfilter.Result) {
	return func(r msgfilter.Result) {
		if r.Key < fs.base || r.Key >= fs.next {
			return
		}
		i := int(r.Key - fs.base)
		row := fs.rows[i]
		row.FilterOutcome = string(r.Outcome)
		row.FilterReason = r.Reason
		row.FilterLogLine = r.LogLine
		row.FilterWaitNS = r.WaitNS
		row.FilterWaitTF = r.WaitTFMessages
		fs.decided[i] = true
		if r.LogLine != "" && len(a.predicted) < maxPredictedKept {
			a.predicted[dropKey(r.LogLine)] = true
		}
		if r.LogLine != "" {
			a.nPredicted++
		}
		fs.pair.outcomes[row.FilterOutcome]++
		a.outcomes.add(float64(row.LogTimeNS-a.startNS)/1e9, row.FilterOutcome)
	}
}

// flush emits the decided rows at the head of a filter's queue, in scan
// order. An undecided row holds back at most the rows behind it until the
// filter decides it, which happens within queue-size scans (QueueFull) or
// at the end of the bag.
func (a *analyzer) flush(fs *filterState) {
	n := 0
	for n < len(fs.rows) && fs.decided[n] {
		a.emit(fs.rows[n])
		n++
	}
	if n == 0 {
		return
	}
	copy(fs.rows, fs.rows[n:])
	copy(fs.decided, fs.decided[n:])
	for i := len(fs.rows) - n; i < len(fs.rows); i++ {
		fs.rows[i] = nil
	}
	fs.rows = fs.rows[:len(fs.rows)-n]
	fs.decided = fs.decided[:len(fs.decided)-n]
	fs.base += uint64(n)
}

func (a *analyzer) emit(row *ScanRow) {
	a.rep.Summary.Rows++
	a.rowClasses.inc(string(row.Class))
	a.rowFilter.inc(row.FilterOutcome)
	if a.sink != nil && a.sinkErr == nil {
		a.sinkErr = a.sink(row)
	}
	a.pool = append(a.pool, row)
}

// noteZeroStamp counts a stamp-0 scan and queues the computation of its
// cost: the pose tf2 pairs it with (time 0 = latest common time, now) and
// the pose at the time the scan was really taken — the /clock in force at
// its record time, or the record time itself when the bag has no /clock
// (tf then on system time). The second pose may need tf that arrives after
// the scan, so the pair waits (bounded) until the buffer can answer.
func (a *analyzer) noteZeroStamp(m *bagread.Message, frame, target string) {
	z := &a.rep.ZeroStamp
	if z.Count == 0 {
		z.FirstLogTimeNS = m.LogTimeNS
	}
	z.Count++
	z.LastLogTimeNS = m.LogTimeNS
	if a.hasClock && !a.clockSeen {
		z.BeforeFirstClock++
	}
	frame = strings.TrimPrefix(frame, "/")
	latest, err := a.buf.LookupTransform(target, frame, 0)
	if err != nil {
		a.zeroLost++
		return
	}
	zp := zeroPending{target: target, frame: frame, latest: latest.Transform, logNS: m.LogTimeNS}
	switch {
	case !a.hasClock:
		zp.tReal, zp.known = m.LogTimeNS, true
	case a.clockSeen:
		zp.tReal, zp.known = a.clockNS, true
	}
	if len(a.zeroWait) >= maxZeroPending {
		a.zeroLost++
		a.zeroWait = a.zeroWait[1:]
	}
	a.zeroWait = append(a.zeroWait, zp)
	a.resolveZero(m.LogTimeNS)
}

// resolveZeroClock gives the scans that arrived before the first /clock
// that clock value as their real time.
func (a *analyzer) resolveZeroClock(v int64) {
	for i := range a.zeroWait {
		if !a.zeroWait[i].known {
			a.zeroWait[i].tReal, a.zeroWait[i].known = v, true
		}
	}
}

func (a *analyzer) resolveZero(nowLog int64) {
	out := a.zeroWait[:0]
	for _, zp := range a.zeroWait {
		if !zp.known {
			out = append(out, zp)
			continue
		}
		real, err := a.buf.LookupTransform(zp.target, zp.frame, zp.tReal)
		if err != nil {
			// Give up once the answer can no longer come: the real time is
			// older than the cache, or we waited a cache length.
			var te *tf.Error
			if errors.As(err, &te) && te.Kind == tf.BackwardExtrapolationError || nowLog-zp.logNS > a.cache {
				a.zeroLost++
				continue
			}
			out = append(out, zp)
			continue
		}
		d, r := poseDistance(real.Transform, zp.latest)
		a.zeroCost.disp.add(d)
		a.zeroCost.rot.add(r)
		z := &a.rep.ZeroStamp
		z.MaxDisplacementM = math.Max(z.MaxDisplacementM, d)
		z.MaxRotationDeg = math.Max(z.MaxRotationDeg, r)
		z.Costed++
	}
	a.zeroWait = out
}

// poseDistance is the translation distance (m) and rotation angle (deg)
// between two transforms of the same frame pair.
func poseDistance(p, q tf.Transform) (float64, float64) {
	dx := p.Translation.X - q.Translation.X
	dy := p.Translation.Y - q.Translation.Y
	dz := p.Translation.Z - q.Translation.Z
	dot := p.Rotation.X*q.Rotation.X + p.Rotation.Y*q.Rotation.Y + p.Rotation.Z*q.Rotation.Z + p.Rotation.W*q.Rotation.W
	np := math.Sqrt(p.Rotation.X*p.Rotation.X + p.Rotation.Y*p.Rotation.Y + p.Rotation.Z*p.Rotation.Z + p.Rotation.W*p.Rotation.W)
	nq := math.Sqrt(q.Rotation.X*q.Rotation.X + q.Rotation.Y*q.Rotation.Y + q.Rotation.Z*q.Rotation.Z + q.Rotation.W*q.Rotation.W)
	c := 1.0
	if np > 0 && nq > 0 {
		c = math.Min(1, math.Abs(dot)/(np*nq))
	}
	return math.Sqrt(dx*dx + dy*dy + dz*dz), 2 * math.Acos(c) * 180 / math.Pi
}
