package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// staleLinkNS: a dynamic link whose stamps lag the freshest other link of
// its clock family by this much (median) is stale. Two seconds leave room
// for a publisher that dates its transform ahead (AMCL adds its
// transform_tolerance, 1 s by default in Nav2) without hiding a link that
// stopped moving its stamps.
const staleLinkNS = 2_000_000_000

// tfClockCheck diagnoses the tree's clocks: dynamic links stamped on
// another clock family than the rest, a tree whose stamps are offset from
// the recorder's clock, and links much staler than the rest.
type tfClockCheck struct {
	lag []reservoir // by link id: freshest other link's stamp − this stamp, s
	// top2 per tf namespace and family (0 sim, 1 system): the two links
	// with the newest stamps, so "the freshest other link" costs O(1) per
	// transform.
	top [][2][2]topLink
}

type topLink struct {
	id    int
	stamp int64
	set   bool
}

func init() {
	registerCheck(rankTFTree+10, "tf-clock", func(*analyzer) check { return &tfClockCheck{} })
}

func family(stampNS int64) int {
	if stampNS >= EpochThresholdNS || stampNS <= -EpochThresholdNS {
		return 1
	}
	return 0
}

var familyName = [2]string{"sim time", "system time"}

func (c *tfClockCheck) onLink(a *analyzer, m *bagread.Message, l *linkStats, st *tf.Stamped) {
	if l.static {
		return
	}
	f := family(st.Stamp)
	for len(c.top) <= l.space {
		c.top = append(c.top, [2][2]topLink{})
	}
	top := &c.top[l.space][f]
	// The freshest stamp of another link of this family.
	other, ok := int64(0), false
	for _, t := range top {
		if t.set && t.id != l.id {
			other, ok = t.stamp, true
			break
		}
	}
	for len(c.lag) <= l.id {
		c.lag = append(c.lag, reservoir{})
	}
	if ok {
		c.lag[l.id].add(float64(max(0, other-st.Stamp)) / 1e9)
	}
	// Update the top two (by newest stamp, one entry per link).
	switch {
	case top[0].set && top[0].id == l.id:
		top[0].stamp = max(top[0].stamp, st.Stamp)
	case top[1].set && top[1].id == l.id:
		top[1].stamp = max(top[1].stamp, st.Stamp)
	case !top[1].set || st.Stamp > top[1].stamp:
		top[1].id, top[1].stamp, top[1].set = l.id, st.Stamp, true
	}
	if top[1].set && (!top[0].set || top[1].stamp > top[0].stamp) {
		top[0], top[1] = top[1], top[0]
	}
}

func (c *tfClockCheck) finish(a *analyzer) {
	var dyn []*linkStats
	for _, l := range a.tf.sortedLinks() {
		if !l.static && l.count > 0 {
			dyn = append(dyn, l)
		}
	}
	for _, dyn := range a.byTFSpace(dyn) {
		if len(dyn) == 0 {
			continue
		}
		ref := c.familyMixture(a, dyn)
		c.staleLinks(a, dyn, ref)
		// The offset from the recorder is the tree's own: a /clock that no
		// link follows (every link on system time) leaves a robot clock
		// days behind the recorder's to be said all the same.
		c.recorderOffset(a, dyn, majorityFamily(a, dyn))
	}
}

// majorityFamily is the clock family most of dyn is stamped on (ties: the
// recorder's).
func majorityFamily(a *analyzer, dyn []*linkStats) int {
	var n [2]int
	for _, l := range dyn {
		n[family(l.newest)]++
	}
	switch {
	case n[0] > n[1]:
		return 0
	case n[1] > n[0]:
		return 1
	}
	return family(a.startNS)
}

// familyMixture reports dynamic links on another clock family than the
// tree's, and returns the tree's family: /clock's when the bag has it,
// else the family most links are on (ties: the recorder's).
func (c *tfClockCheck) familyMixture(a *analyzer, dyn []*linkStats) int {
	var by [2][]*linkStats
	for _, l := range dyn {
		by[family(l.newest)] = append(by[family(l.newest)], l)
	}
	ref := majorityFamily(a, dyn)
	if a.hasClock && a.clock.seen {
		ref = family(a.clock.ns)
	}
	odd := by[1-ref]
	if len(odd) == 0 || len(by[ref]) == 0 {
		return ref
	}
	f := TFFinding{
		Kind: TFOtherClockFamily, Rank: RankTFFamily, Count: len(odd), FailOn: "clock-mismatch",
		Sentence: twoClocksSentence(a.hasClock, a.bag != nil && a.bag.Storage == bagread.StorageROS1, by[0], by[1], ref),
	}
	for i, l := range odd {
		if i == maxTFFindingExamples {
			break
		}
		f.Links = append(f.Links, linkName(l))
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s: %d transforms stamped %s .. %s.", linkName(l), l.count, FmtS(float64(l.oldest)/1e9), FmtS(float64(l.newest)/1e9)))
	}
	a.addTFFinding(f)
	return ref
}

// twoClocksSentence words a tf tree stamped on two clock families: both
// sides by name, and which is likelier wrong. Sim-time stamps mean a
// simulator ran (something published /clock while the nodes stamped them),
// so the system-time side is likelier the one without use_sim_time:=true;
// only when the rest of the system is on system time and the bag has no
// /clock may the sim-time node be the odd one, following a stray /clock.
// A ROS 1 bag (ros1) gets ROS 1's advice: the global /use_sim_time, read
// once when a node starts (analysis/verdict/ros1.go says why).
func twoClocksSentence(hasClock, ros1 bool, sim, system []*linkStats, ref int) string {
	names := func(ls []*linkStats) string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = linkName(l)
		}
		return linkList(out)
	}
	side := func(ls []*linkStats) string {
		return fmt.Sprintf("%s (%s, near %s)", names(ls), Plural(len(ls), "dynamic link"), FmtS(float64(ls[0].newest)/1e9))
	}
	s := fmt.Sprintf("The tf tree is on two clocks, which tf2 cannot look up across: %s on sim time, %s on system time.", side(sim), side(system))
	fix := "set use_sim_time:=true on the node publishing " + names(system)
	if ros1 {
		fix = "in ROS 1, set the global parameter /use_sim_time to true and restart the node publishing " + names(system)
	}
	switch {
	case hasClock:
		return s + " /clock runs sim time, so the system-time side is wrong: " + fix + "."
	case ref == 0:
		return s + " Sim-time stamps mean a simulator ran (something published /clock, not recorded here), so the system-time side is likelier wrong: " + fix + ", and record /clock."
	}
	return s + " Sim-time stamps mean a simulator ran (something published /clock, not recorded here), so the system-time side is likelier wrong (" + fix + ") — unless no simulator should have run: then the sim-time node follows a stray /clock (find it: ros2 topic info /clock --verbose) and needs use_sim_time:=false."
}

// staleLinks reports dynamic links of the tree's family whose stamps lag
// the freshest other link by more than staleLinkNS (median).
func (c *tfClockCheck) staleLinks(a *analyzer, dyn []*linkStats, ref int) {
	type stale struct {
		l   *linkStats
		lag float64
	}
	var st []stale
	for _, l := range dyn {
		if family(l.newest) != ref || l.id >= len(c.lag) || c.lag[l.id].n == 0 {
			continue
		}
		if lag := c.lag[l.id].median(); lag*1e9 >= staleLinkNS {
			st = append(st, stale{l, lag})
		}
	}
	if len(st) == 0 {
		return
	}
	sort.SliceStable(st, func(i, j int) bool { return st[i].lag > st[j].lag })
	names := make([]string, len(st))
	for i, s := range st {
		names[i] = linkName(s.l)
	}
	cache := float64(a.cache) / 1e9
	effect := fmt.Sprintf("lookups through it must wait for a newer transform, and past the %.0f s cache they fail", cache)
	if st[0].lag > cache {
		effect = fmt.Sprintf("more than the %.0f s tf2 cache: lookups through it at the sensors' time fail", cache)
	}
	f := TFFinding{
		Kind: TFStaleLink, Rank: RankTFStale, Count: len(st), FailOn: failOnTFTree,
		Sentence: fmt.Sprintf("%s lags the rest of the tree by %s (median): %s; its publisher stamps old data or runs on a clock behind the others.",
			linkList(names), FmtDur(st[0].lag), effect),
	}
	for i, s := range st {
		if i == maxTFFindingExamples {
			break
		}
		f.Links = append(f.Links, linkName(s.l))
		f.Evidence = append(f.Evidence, fmt.Sprintf("%s: stamps %s behind the freshest other link (median of %d), newest stamp %s.",
			linkName(s.l), FmtDur(s.lag), c.lag[s.l.id].n, FmtS(float64(s.l.newest)/1e9)))
	}
	a.addTFFinding(f)
}

// recorderOffset reports a tree whose every dynamic link lags (or leads)
// record time by the same seconds-to-days offset: the publishing machine's
// clock and the recorder's are out of sync.
func (c *tfClockCheck) recorderOffset(a *analyzer, dyn []*linkStats, ref int) {
	if ref != family(a.startNS) {
		return // the recorder is on another family (sim bag recorded on wall time): no offset to speak of
	}
	best := math.Inf(1)
	sign := 0
	n := 0
	var lags []LagSample
	for _, l := range dyn {
		if family(l.newest) != ref || l.age.n < MinSkewSamples {
			continue
		}
		q := l.age.quantiles(0.5, 0.95)
		if skewKind(q[0], q[1], l.age.min) != SkewConstantOffset {
			return // one link on the recorder's clock, or jitter: not one offset for the tree
		}
		s := 1
		if q[0] < 0 {
			s = -1
		}
		if sign != 0 && s != sign {
			return
		}
		sign = s
		n++
		ls := LagSample{Age: q[0], HasPub: l.pubAge.n > 0}
		if ls.HasPub {
			ls.Pub = l.pubAge.median()
		}
		lags = append(lags, ls)
		best = math.Min(best, math.Abs(q[0]))
	}
	if n == 0 {
		return
	}
	dir := "behind"
	if sign < 0 {
		dir = "ahead of"
	}
	sentence := fmt.Sprintf("Every tf stamp is %s %s the recorder's clock (constant): the clocks of the machine publishing tf and the recording machine are out of sync; synchronise them (chrony/NTP).", FmtDur(best), dir)
	if best >= 86400 && sign > 0 {
		sentence = fmt.Sprintf("Every tf stamp is %s behind the recorder's clock (constant): two machines' clocks out of sync (chrony/NTP), or a bag re-recorded while `ros2 bag play` ran without --clock (then the offset is the age of the replayed recording).", FmtDur(best))
		if IsYearLag(best) {
			sentence = LagSentence(a.startNS, "Every tf stamp", best, LagCauseOf(a.sawReplayer(), lags))
		}
	}
	a.addTFFinding(TFFinding{
		Kind: TFOffsetFromRecorder, Rank: RankTFOffset, Count: n, FailOn: "skew", Sentence: sentence,
		Evidence: []string{fmt.Sprintf("record time − stamp on %s: at least %s, the same on every link.", Plural(n, "dynamic link"), FmtDur(best))},
	})
}

func joinTopics(ts []string) string {
	if len(ts) == 1 {
		return ts[0]
	}
	return fmt.Sprintf("%v", ts)
}

// FmtDur prints a duration in seconds the way a person reads it: ms, s,
// min, h or days.
func FmtDur(s float64) string {
	a := math.Abs(s)
	switch {
	case a >= 2*86400:
		return fmt.Sprintf("%.1f days", s/86400)
	case a >= 2*3600:
		return fmt.Sprintf("%.1f h", s/3600)
	case a >= 120:
		return fmt.Sprintf("%.1f min", s/60)
	default:
		return FmtS(s)
	}
}
