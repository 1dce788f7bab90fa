package analysis

import (
	"errors"
	"strings"

	"github.com/bagclock/bagclock/analysis/msgfilter"
	"github.com/bagclock/bagclock/analysis/tf"
)

// rowsState makes the per-message rows of the analysed topics: for each
// message and target frame, stamp − latest stamp of the dynamic links on
// the path, the class, and the emulated MessageFilter's outcome, streamed
// to the sink in message order per target once decided.
type rowsState struct {
	// fss[topic id]: one filter per target, made at the topic's first
	// message.
	fss     [][]*filterState
	pool    []*ScanRow
	path    []tf.Link
	sinkErr error
	// pathOldest is the newest of the oldest cached stamps of the dynamic
	// links on the last classified path: a stamp before it cannot be
	// looked up yet.
	pathOldest int64

	// Summary.Classes and Summary.Filter, copied into the report by finish.
	classes, filter tally
	predicted       map[string]bool // "frame|time" of predicted drop lines
	nPredicted      int
	outcomes        *outcomeSeries
	spanS           float64
}

func newRowsState(spanS float64) *rowsState {
	return &rowsState{predicted: map[string]bool{}, outcomes: newOutcomeSeries(spanS), spanS: spanS}
}

// pairStats summarises one (topic, target) pair for the verdict.
type pairStats struct {
	topic, target, frame string
	typ, preset          string // message type, consumer preset emulated
	queue                int    // its queue size
	// pathSeen: a row of this pair found a path to the target. Drops of
	// rows without a path before that are start-up drops (the sensor
	// started before the tree was published), excluded from findings
	// when the path did appear.
	pathSeen     bool
	startupDrops int
	// resetDrops: of startupDrops, those within one cache time after a
	// /clock jump back, while the cleared buffer refills.
	resetDrops int
	// inTree: a row of this pair was stamped at or after the oldest
	// transform on its path. Until then, a message stamped before the
	// first transform (the sensor started before the tree) is start-up
	// too, even when the path exists when it arrives.
	inTree bool
	// startupRows counts rows without a path before the pair's first path,
	// or within one cache time after a /clock jump back (whatever the
	// filter did with them): not a missing link.
	startupRows int
	classes     map[Class]int
	outcomes    map[string]int
	diff        reservoir
	stalest     map[string]int // "parent->child on topic" → count
	// stalestLinks are the stalest keys' links as data.
	stalestLinks map[string][3]string
	series       *downsampler
	// The key of the last stalest link, so that a run of messages with the
	// same stalest link builds it once.
	lastStalest [3]string
	lastKey     string
}

// stalestKey is "parent->child on topic", built only when the link differs
// from the previous message's.
func (p *pairStats) stalestKey(parent, child, topic string) string {
	if p.lastKey == "" || p.lastStalest != [3]string{parent, child, topic} {
		p.lastStalest = [3]string{parent, child, topic}
		p.lastKey = parent + "->" + child + " on " + topic
		if p.stalestLinks == nil {
			p.stalestLinks = map[string][3]string{}
		}
		p.stalestLinks[p.lastKey] = p.lastStalest
	}
	return p.lastKey
}

type filterState struct {
	pair    *pairStats
	f       *msgfilter.Filter
	rows    []*ScanRow // undecided or not yet emitted rows, oldest first
	decided []bool
	startup []startKind // why a row, if dropped, is a start-up drop
	base    uint64      // key of rows[0]
	next    uint64
}

// startKind says whether a row belongs to a start-up: the bag's (before
// the tree on its path) or a refill of the tf buffer after /clock jumped
// back (a simulator reset, a looping bag).
type startKind uint8

const (
	notStartup startKind = iota
	startupAtBag
	startupAfterReset
)

// dropKey extracts "frame 'X' at time T" from a drop line recorded on
// /rosout (ROS's own text), the part that identifies the message: the
// predicted drops are keyed by msgfilter.LogKey of the same fields.
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

// onStamped makes the rows of one message, one per target frame.
func (rs *rowsState) onStamped(a *analyzer, s *stampedMsg) {
	m, stamp, frame := s.m, s.stamp, s.frame
	x := a.x(m.LogTimeNS)
	fss := rs.topicFilters(a, s.topic, frame)
	for _, fs := range fss {
		row := rs.newRow()
		row.Topic = m.Topic
		row.Type = s.topic.typ
		row.ScanIndex = m.Index
		row.LogTimeNS = m.LogTimeNS
		row.StampNS = stamp
		row.FrameID = frame
		row.TargetFrame = fs.pair.target
		row.PublishTimeNS, row.HasPublishTime = m.PublishTimeNS, m.HasPublishTime
		row.ClockNS, row.HasClock = a.clock.ns, a.clock.seen
		row.AgeNS, row.HasAge = messageAge(stamp, m.LogTimeNS, a.clock.ns, a.clock.seen)
		rs.classify(s.topic.tf, row, stamp)
		p := fs.pair
		p.classes[row.Class]++
		if row.HasTF {
			p.diff.add(row.DiffS)
			p.series.addScan(x, row.DiffS, m.Index, stamp)
			p.stalest[p.stalestKey(row.StalestParent, row.StalestChild, row.StalestTopic)]++
		}
		if row.Class != NoTransform {
			p.pathSeen = true
		}
		beforeTree := false
		if row.HasTF && !p.inTree {
			// Only on the tree's clock: a stamp an epoch before the tree
			// is a clock fault, however early it comes.
			if row.Class == SameClock && stamp < rs.pathOldest {
				beforeTree = true
			} else {
				p.inTree = true
			}
		}
		kind := notStartup
		switch {
		case row.Class == NoTransform && !p.pathSeen || beforeTree:
			kind = startupAtBag
		case a.clock.inResetWindow(a.cache) && refilling(row, a.clock.ns, rs.pathOldest):
			kind = startupAfterReset
		}
		fs.rows = append(fs.rows, row)
		fs.decided = append(fs.decided, false)
		if row.Class == NoTransform && kind != notStartup {
			p.startupRows++
		}
		fs.startup = append(fs.startup, kind)
		key := fs.next
		fs.next++
		fs.f.Add(msgfilter.Msg{Key: key, FrameID: frame, StampNS: stamp, ArrivalNS: m.LogTimeNS})
		rs.flush(a, fs)
	}
}

// refilling reports whether a row, seen within one cache time after a
// /clock jump back, shows the buffer refilling, as at the bag's start: no
// path yet, a stamp before the oldest transform refilled on its path, or
// a stamp from before the jump (ahead of /clock now). A row the refilled
// tree covers, and stamps an epoch away, keep counting.
func refilling(row *ScanRow, clockNS, pathOldest int64) bool {
	switch row.Class {
	case NoTransform:
		return true
	case SameClock:
		return row.StampNS < pathOldest
	case ClockSkew:
		return row.StampNS > clockNS
	}
	return false
}

// topicFilters returns a topic's filters, one per target, made at its
// first message.
func (rs *rowsState) topicFilters(a *analyzer, ts *topicState, frame string) []*filterState {
	for len(rs.fss) <= ts.id {
		rs.fss = append(rs.fss, nil)
	}
	if fss := rs.fss[ts.id]; fss != nil {
		return fss
	}
	var fss []*filterState
	for _, tg := range ts.targets {
		p := &pairStats{topic: ts.name, typ: ts.typ, preset: ts.preset, queue: ts.params.QueueSize, target: tg, frame: strings.TrimPrefix(frame, "/"),
			classes: map[Class]int{}, outcomes: map[string]int{}, stalest: map[string]int{},
			series: newDownsampler(rs.spanS)}
		p.series.reserve(ts.messages)
		a.pairs = append(a.pairs, p)
		fs := &filterState{pair: p}
		fs.f = ts.tf.group.NewFilter([]string{tg}, ts.params, fs.onResult(a))
		fss = append(fss, fs)
	}
	if fss == nil {
		fss = []*filterState{}
	}
	rs.fss[ts.id] = fss
	return fss
}

func (rs *rowsState) newRow() *ScanRow {
	if n := len(rs.pool); n > 0 {
		r := rs.pool[n-1]
		rs.pool = rs.pool[:n-1]
		*r = ScanRow{}
		return r
	}
	return &ScanRow{}
}

// classify fills the tf columns and the class of a row from the buffer as
// it stands when the message arrives.
func (rs *rowsState) classify(t *tfReplay, row *ScanRow, stamp int64) {
	buf := t.buf
	frame := strings.TrimPrefix(row.FrameID, "/")
	target := strings.TrimPrefix(row.TargetFrame, "/")
	var err error
	if frame == "" || !buf.HasFrame(frame) && frame != target || !buf.HasFrame(target) && frame != target {
		err = errors.New("unknown frame")
	} else {
		rs.path, err = buf.AppendPath(rs.path[:0], target, frame)
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
	rs.pathOldest = 0
	for i, l := range rs.path {
		if l.Static {
			continue
		}
		if stalest < 0 || l.NewestNS < rs.path[stalest].NewestNS {
			stalest = i
		}
		if l.OldestNS > rs.pathOldest {
			rs.pathOldest = l.OldestNS
		}
	}
	if stalest >= 0 {
		l := rs.path[stalest]
		row.HasTF = true
		row.TFLatestNS = l.NewestNS
		row.DiffS = float64(stamp-l.NewestNS) / 1e9
		row.StalestParent, row.StalestChild = l.Parent, l.Child
		row.StalestTopic = t.linkTopic[l.Child]
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

// diffClass classifies message stamp − latest dynamic tf stamp.
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
	rs := a.rows
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
		if fs.startup[i] != notStartup && strings.HasPrefix(row.FilterOutcome, "dropped_") {
			fs.pair.startupDrops++
			if fs.startup[i] == startupAfterReset {
				fs.pair.resetDrops++
			}
		}
		if r.LogLine != "" && len(rs.predicted) < maxPredictedKept {
			rs.predicted[msgfilter.LogKey(row.FrameID, row.StampNS)] = true
		}
		if r.LogLine != "" {
			rs.nPredicted++
		}
		fs.pair.outcomes[row.FilterOutcome]++
		rs.outcomes.add(float64(row.LogTimeNS-a.startNS)/1e9, row.FilterOutcome)
		if row.HasTF {
			fs.pair.series.decide(float64(row.LogTimeNS-a.startNS)/1e9, row.ScanIndex, row.FilterOutcome, row.FilterLogLine)
		}
	}
}

// flush emits the decided rows at the head of a filter's queue, in message
// order. An undecided row holds back at most the rows behind it until the
// filter decides it, which happens within queue-size messages (QueueFull)
// or at the end of the bag.
func (rs *rowsState) flush(a *analyzer, fs *filterState) {
	n := 0
	for n < len(fs.rows) && fs.decided[n] {
		rs.emit(a, fs.rows[n])
		n++
	}
	if n == 0 {
		return
	}
	copy(fs.rows, fs.rows[n:])
	copy(fs.decided, fs.decided[n:])
	copy(fs.startup, fs.startup[n:])
	for i := len(fs.rows) - n; i < len(fs.rows); i++ {
		fs.rows[i] = nil
	}
	fs.rows = fs.rows[:len(fs.rows)-n]
	fs.decided = fs.decided[:len(fs.decided)-n]
	fs.startup = fs.startup[:len(fs.startup)-n]
	fs.base += uint64(n)
}

func (rs *rowsState) emit(a *analyzer, row *ScanRow) {
	a.rep.Summary.Rows++
	rs.classes.inc(string(row.Class))
	rs.filter.inc(row.FilterOutcome)
	if a.sink != nil && rs.sinkErr == nil {
		rs.sinkErr = a.sink(row)
	}
	rs.pool = append(rs.pool, row)
}

// finishFilters lets the filters decide what they still hold and emits
// every remaining row.
func (rs *rowsState) finishFilters(a *analyzer) {
	for _, t := range a.tfSpaces {
		t.group.Finish()
	}
	for _, fss := range rs.fss {
		for _, fs := range fss {
			rs.flush(a, fs)
			// Rows the filter never decided (not even at Finish) cannot
			// exist; flush whatever is left defensively.
			for i := range fs.rows {
				if !fs.decided[i] {
					fs.rows[i].FilterOutcome = "pending_at_end"
					fs.decided[i] = true
				}
			}
			rs.flush(a, fs)
		}
	}
}

// finish writes the rows' part of the report: classes and outcomes, the
// per-pair summaries and series, the default targets chosen.
func (rs *rowsState) finish(a *analyzer) {
	r := &a.rep
	s := &r.Summary
	if s.Classes == nil {
		s.Classes, s.Filter = map[string]int{}, map[string]int{}
	}
	rs.classes.addTo(s.Classes)
	rs.filter.addTo(s.Filter)
	s.Scans = a.scans
	r.Series.Diff = map[string][]Point{}
	r.Series.Outcomes = rs.outcomes.points()
	r.Pairs = []PairSummary{}
	for _, p := range a.pairs {
		if !p.pathSeen {
			p.startupDrops, p.resetDrops = 0, 0 // never connected: not a start-up effect
		}
		ps := a.pairSummary(p)
		r.Pairs = append(r.Pairs, ps)
		r.Series.Diff[p.topic+" → "+p.target] = p.series.points()
	}
	if len(r.Settings.TargetFrames) == 0 {
		seen := map[string]bool{}
		r.Settings.TargetFrames = []string{}
		for _, p := range a.pairs {
			if !seen[p.target] {
				seen[p.target] = true
				r.Settings.TargetFrames = append(r.Settings.TargetFrames, p.target)
			}
		}
	}
	r.Counts.PredictedDrops = rs.nPredicted
}

// pairSummary is p as the report and the verdict see it.
func (a *analyzer) pairSummary(p *pairStats) PairSummary {
	ps := PairSummary{Topic: p.topic, Type: p.typ, Consumer: p.preset, TargetFrame: p.target, FrameID: p.frame,
		Classes: map[string]int{}, Filter: map[string]int{}}
	for k, v := range p.classes {
		ps.Classes[string(k)] = v
	}
	for k, v := range p.outcomes {
		ps.Filter[k] = v
	}
	if p.pathSeen { // never connected: no start-up effect
		ps.StartupDrops, ps.ResetDrops = p.startupDrops, p.resetDrops
	}
	ps.QueueSize, ps.PathSeen, ps.DiffRows = p.queue, p.pathSeen, p.diff.n
	if p.pathSeen {
		ps.StartupRows = p.startupRows
	}
	ps.ConnectedAtEnd, ps.FrameConnectedAtEnd, ps.FrameRoot = a.pathAtEnd(p)
	if p.diff.n > 0 {
		ps.MedianDiffS, ps.MinDiffS, ps.MaxDiffS = p.diff.median(), p.diff.min, p.diff.max
	}
	best := 0
	for k, v := range p.stalest {
		if v > best || v == best && k < ps.Stalest {
			best, ps.Stalest = v, k
		}
	}
	if ps.Stalest != "" {
		l := p.stalestLinks[ps.Stalest]
		ps.StalestParent, ps.StalestChild, ps.StalestTopic = l[0], l[1], l[2]
	}
	return ps
}

// pathAtEnd says whether the tf of p's topic joins p's frame to its target
// once the bag is read: the frame as the rows looked it up, and the frame
// without a leading '/' (the one the missing-link sentence names); and it
// names the root of the latter's tree there. Without a tf replay to ask,
// both count as joined: nothing shows a missing link.
func (a *analyzer) pathAtEnd(p *pairStats) (rowsFrame, named bool, root string) {
	if p.frame == "" {
		return false, false, ""
	}
	tf := a.tf
	if ts := a.topics.find(p.topic); ts != nil {
		tf = ts.tf
	}
	if tf == nil {
		return true, true, ""
	}
	target, frame := strings.TrimPrefix(p.target, "/"), strings.TrimPrefix(p.frame, "/")
	_, err := tf.buf.AppendPath(nil, target, p.frame)
	_, errNamed := tf.buf.AppendPath(nil, target, frame)
	if r, ok := tf.root(frame); ok {
		root = r
	}
	return err == nil, errNamed == nil, root
}
