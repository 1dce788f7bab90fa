package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bagclock/bagclock/bagread"
)

// Verdict classes beyond the row classes (Verdict.Class): what the
// headline is about.
const (
	VerdictNoProblem        = "no_problem"
	VerdictNoSensorMessages = "no_sensor_messages"
	VerdictEmptyTopic       = "empty_topic"
	VerdictTargetIsFrame    = "target_is_frame"
	VerdictClockJumpBack    = "clock_jump_back"
	VerdictSameClockDrops   = "same_clock_drops"
	VerdictNoTF             = "no_tf"
	VerdictTargetNotInTree  = "target_not_in_tree"
	VerdictFrameNotInTree   = "frame_not_in_tree"
	VerdictEmptyFrameID     = "empty_frame_id"
	// VerdictTime: a finding of time hygiene (analysis/verdict/time.go) leads.
	VerdictTime = "time"
	// VerdictTFTree is "tf_tree:" + the leading TFFinding's kind.
	VerdictTFTree = "tf_tree:"
)

// TreeHas reports whether frame is a parent or child of a link in the bag.
func (r *Report) TreeHas(frame string) bool {
	frame = strings.TrimPrefix(frame, "/")
	for _, l := range r.TFTree {
		if l.Parent == frame || l.Child == frame {
			return true
		}
	}
	return false
}

// UnitOf names messages of type typ in the verdict: "scans" for
// LaserScan (as before), "messages" otherwise.
func UnitOf(typ string) string {
	if isType(typ, "sensor_msgs/msg/LaserScan") {
		return "scans"
	}
	return "messages"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// JoinNames is "a, b and c" of topics: at most four names, then "and N
// other topics" (JoinSeries for a list that holds tf links).
func JoinNames(names []string) string { return JoinSeries(names, nil) }

// JoinSeries is JoinNames of topics and tf links, links naming those of
// names that are tf links: of the rest past three, "and 2 other topics
// and 1 tf link". Which is which is data; the names are not read.
func JoinSeries(names, links []string) string {
	if len(names) > 4 {
		nLinks := 0
		for _, n := range names[3:] {
			if slices.Contains(links, n) {
				nLinks++
			}
		}
		var rest []string
		if topics := len(names) - 3 - nLinks; topics > 0 {
			rest = append(rest, Plural(topics, "other topic"))
		}
		if nLinks > 0 {
			rest = append(rest, Plural(nLinks, "tf link"))
		}
		return strings.Join(names[:3], ", ") + " and " + strings.Join(rest, " and ")
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func CountsText(m map[string]int) string {
	keys := []string{"passed", "passed_after_wait", "dropped_queue_full", "dropped_out_the_back", "dropped_empty_frame", "dropped_unknown", "pending_at_end", "rejected_negative_stamp"}
	var parts []string
	for _, k := range keys {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
		}
	}
	return strings.Join(parts, ", ")
}

func SkewName(s Skew) string {
	if s.Link != "" {
		return s.Link + " on " + s.Topic
	}
	return s.Topic
}

// StalestLink is the stalest link's name, "parent->child" ("" for none).
func (p *PairSummary) StalestLink() string {
	if p.StalestParent == "" && p.StalestChild == "" {
		return ""
	}
	return p.StalestParent + "->" + p.StalestChild
}

// Identity: the topic's frame is the target frame (odometry in odom):
// there is no transform to check.
func (p *PairSummary) Identity() bool { return p.FrameID == strings.TrimPrefix(p.TargetFrame, "/") }

// Rows counts the pair's Rows, every class.
func (p *PairSummary) Rows() int {
	n := 0
	for _, c := range p.Classes {
		n += c
	}
	return n
}

// Drops counts the pair's dropped messages, start-up Drops left out (they
// are 0 when no path to the target appeared).
func (p *PairSummary) Drops() int {
	n := 0
	for k, c := range p.Filter {
		if strings.HasPrefix(k, "dropped_") {
			n += c
		}
	}
	return n - p.StartupDrops
}

// VerdictSensorOnSystemClock: an analysed topic is stamped with system
// time while the bag's /clock runs sim time, on a path where tf cannot
// show it (static links only, or no transform).
const VerdictSensorOnSystemClock = "sensor_on_system_clock"

// SimClock reports whether the bag's /clock runs sim time from its first
// value to its last (not system time, as a re-recorded bag's /clock does).
func (r *Report) SimClock() bool {
	c := r.Pass
	return c.HasClock && c.ClockSeen && family(c.ClockFirstNS) == 0 && family(c.ClockLastNS) == 0
}

// StampFamily is skewFamily against this bag's recorder.
func (r *Report) StampFamily(s Skew) int { return skewFamily(s, family(r.Pass.StartNS)) }

// OffClockTopics returns the analysed topics whose header stamps are on
// system time while /clock runs sim time, each with its median record
// time − stamp in seconds (from the skew table). Nil without /clock, or
// when /clock itself carries system time (a re-recorded bag, whose /clock
// is the first recording's record time). A topic whose rows tf judges
// same_clock for the most part is left out: the dynamic links on its path
// are on system time too, so it is on tf's clock, and its rows without a
// transform are the start-up before tf arrived (nothing then follows
// /clock, which the verdict says apart).
func (r *Report) OffClockTopics() map[string]float64 {
	if !r.SimClock() {
		return nil
	}
	onTF := map[string]bool{}
	for _, p := range r.Pairs {
		if 2*p.Classes[string(SameClock)] > p.Rows() {
			onTF[p.Topic] = true
		}
	}
	var out map[string]float64
	for _, s := range r.Skew {
		if s.Link != "" || s.Count == 0 || onTF[s.Topic] {
			continue
		}
		if r.StampFamily(s) == 1 {
			if out == nil {
				out = map[string]float64{}
			}
			out[s.Topic] = s.MedianS
		}
	}
	return out
}

// OffClockPair returns the pair to lead the verdict with when a topic is
// off /clock and tf cannot show it: at least a tenth of its rows (the
// verdict's own share) static_only or no_transform, most rows of that
// class first. Nil when there is none.
func (r *Report) OffClockPair() (*PairSummary, Class) {
	off := r.OffClockTopics()
	if len(off) == 0 {
		return nil, ""
	}
	var best *PairSummary
	var bestClass Class
	bestN := 0
	for _, c := range []Class{StaticOnly, NoTransform} {
		for _, p := range r.pairPtrs() {
			if _, ok := off[p.Topic]; !ok || p.Identity() {
				continue
			}
			if n := p.Classes[string(c)]; n > bestN && 10*n >= p.Rows() {
				best, bestClass, bestN = p, c, n
			}
		}
	}
	return best, bestClass
}

// VerdictSync: a synchronizer over the bag's topics never fires, and
// nothing else is wrong.
const VerdictSync = "sync"

// pairPtrs are the report's pairs, in order of first message.
func (r *Report) pairPtrs() []*PairSummary {
	out := make([]*PairSummary, len(r.Pairs))
	for i := range r.Pairs {
		out[i] = &r.Pairs[i]
	}
	return out
}

// StorageROS1 is BagSummary.Storage of a ROS 1 bag (bagread's name for
// it): the verdict words such a bag in ROS 1's terms.
const StorageROS1 = bagread.StorageROS1
