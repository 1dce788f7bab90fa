package verdict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

const tf2EchoNote = "(tf2_echo prints the stamp as sec.nanosec without zero-padding the nanoseconds: 120 s + 5 ms shows as 120.5000000, not 120.005)"

// Decide is the verdict of the finished report r: the decision rules
// (decide), then the words only the report's tables can give: the nodes
// that announced use_sim_time, a ROS 1 bag's publishers and advice, and
// the damage that the rest rests on. The caller stores it in r.Verdict
// and r.Summary.Verdict.
func Decide(r *analysis.Report) analysis.Verdict {
	v := decide(r)
	nameNodes(&v, r)
	if r.Bag.Storage == analysis.StorageROS1 {
		ros1Wording(&v, r)
	}
	damageWording(&v, r)
	v.Sentence = v.head.String()
	v.Commands = renderCommands(v.cmds, r.Bag.Storage == analysis.StorageROS1)
	return v.Verdict
}

// Finish stores Decide(r) in r.Verdict and its sentence in
// r.Summary.Verdict (which the scan index shows).
func Finish(r *analysis.Report) {
	r.Verdict = Decide(r)
	r.Summary.Verdict = r.Verdict.Sentence
}

// decide applies the decision rules of the motivating experiment to the
// pair with the most problematic rows: ≈ +epoch = laser driver on system
// time; ≈ −epoch = tf publisher on system time; 0 = no /clock yet; seconds
// on one clock family = machines out of sync; a few ms = not a clock
// problem; static-only = a mismatch is invisible. The headline it
// returns is data (draft.head); Decide renders it.
func decide(r *analysis.Report) (v draft) {
	d := decider{r}
	v.Verdict = analysis.Verdict{Evidence: []string{}, Commands: []string{}}
	if d.rep.Summary.Scans == 0 || len(d.rep.Pairs) == 0 {
		v.head = whole("No sensor messages (LaserScan, PointCloud2, Image, Imu, Range, Odometry, ...) in this bag: there is nothing to check per message.")
		v.Class = analysis.VerdictNoSensorMessages
		if len(d.rep.Settings.ScanTopics) > 0 {
			v.head = whole(fmt.Sprintf("The topic %s has no messages with a frame id in this bag (often a QoS mismatch while recording): there is nothing to check per message.", strings.Join(d.rep.Settings.ScanTopics, ", ")))
			v.Class = analysis.VerdictEmptyTopic
		}
		if len(d.rep.Settings.ScanTopics) > 0 {
			d.tfTreeLead(&v, false, false, false)
		} else if d.tfTreeVerdict(&v) {
			v.Evidence = append(v.Evidence, "No sensor message to check against tf: the verdict comes from the tf tree alone.")
		}
		d.timeLead(&v, false, nil)
		d.jumpEvidence(&v)
		return v
	}
	// Pick the pair and class that matter most.
	order := []analysis.Class{analysis.LaserOnSystemClock, analysis.TFOnSystemClock, analysis.ZeroStamp, analysis.ClockSkew, analysis.NoTransform, analysis.StaticOnly}
	var best *analysis.PairSummary
	bestClass := analysis.SameClock
	bestN := 0
	for _, c := range order {
		for _, p := range d.pairs() {
			if p.Identity() || c == analysis.NoTransform && d.startupOnly(p) {
				continue
			}
			total := p.Rows()
			// A class must describe at least a tenth of a pair's scans to
			// lead the verdict: one scan before the tree exists is noise,
			// and so are all the scans before the tree, once it exists.
			n := p.Classes[string(c)]
			if c == analysis.NoTransform && p.PathSeen {
				n -= p.StartupRows
			}
			if n > bestN && 10*n >= total {
				best, bestClass, bestN = p, c, n
			}
		}
		if bestN > 0 {
			break
		}
	}
	if best == nil {
		// The pair closest to its tree: a path through map->odom, which
		// AMCL stamps ahead by its transform tolerance, should not set
		// the "apart" figure when /scan is a few ms from odom.
		for _, p := range d.pairs() {
			if !p.Identity() && p.Classes[string(analysis.SameClock)] > 0 && (best == nil || math.Abs(p.MedianDiffS) < math.Abs(best.MedianDiffS)) {
				best = p
			}
		}
		// A pair with drops outside start-up is what the headline must
		// say, though it is not the closest: "no message is dropped"
		// beside a drop finding would be false.
		if p := d.mostDropsOnOneClock(); p != nil {
			best = p
		}
		for _, p := range d.pairs() {
			if best == nil && !p.Identity() {
				best = p
			}
		}
		if best == nil {
			d.targetIsFrameVerdict(&v)
			// The target note is about the tool's settings; a jump in the
			// bag's own time is what its user must not miss.
			if n := d.rep.Counts.ClockJumps + d.rep.Counts.StampJumps; n > 0 {
				v.head.add(fmt.Sprintf(" But %s (see the evidence).", jumpClause(d.rep)))
			}
			d.timeLead(&v, false, nil)
			d.jumpEvidence(&v)
			return v
		}
		bestN = best.Classes[string(analysis.SameClock)]
	}
	// A sensor off /clock on a path tf cannot judge is the fault to name,
	// before skew, a missing link or a static-only path.
	offClock := false
	if bestClass != analysis.LaserOnSystemClock && bestClass != analysis.TFOnSystemClock && bestClass != analysis.ZeroStamp {
		if p, c := d.rep.OffClockPair(); p != nil {
			best, bestClass, bestN, offClock = p, c, p.Classes[string(c)], true
		}
	}
	ps := *best
	topic, frame, target := best.Topic, best.FrameID, best.TargetFrame
	clockName := "/clock"
	if !d.rep.Pass.HasClock {
		clockName = "sim time"
	}
	drops := best.Drops()
	total := best.Rows()
	unit := analysis.UnitOf(best.Type)
	if best.DiffRows > 0 && ps.Stalest != "" {
		v.Evidence = append(v.Evidence, fmt.Sprintf("%s → %s: %d of %d %s are %s; median diff (%s stamp − latest %s) %s, range %s .. %s.",
			topic, target, bestN, total, unit, bestClass, strings.TrimSuffix(unit, "s"), ps.Stalest, analysis.FmtS(ps.MedianDiffS), analysis.FmtS(ps.MinDiffS), analysis.FmtS(ps.MaxDiffS)))
	} else if bestClass != analysis.NoTransform {
		v.Evidence = append(v.Evidence, fmt.Sprintf("%s → %s: %d of %d %s are %s (no dynamic transform on the path to compare stamps with).",
			topic, target, bestN, total, unit, bestClass))
	}
	if len(best.Filter) > 0 && (d.hasTF() || best.Filter["dropped_empty_frame"] > 0) {
		v.Evidence = append(v.Evidence, fmt.Sprintf("%s filter (queue %d, cache %.0f s): %s.", ps.Consumer,
			best.QueueSize, r.Settings.CacheTimeS, analysis.CountsText(best.Filter)))
	}
	v.Class = string(bestClass)
	device := d.deviceClock(best.Topic)
	zoneHeadline := false // the headline is a time-zone step (timeZoneEvidence)
	switch {
	case offClock:
		d.offClockVerdict(&v, best, bestClass)
	case bestClass == analysis.LaserOnSystemClock:
		if all := d.topicsWithClass(analysis.LaserOnSystemClock, best); len(all) > 1 {
			v.head = whole(fmt.Sprintf("The drivers of %s publish with system time while tf follows %s: %s.", analysis.JoinNames(all), clockName, d.simTimeFix(all...)), all...)
		} else {
			v.head = whole(fmt.Sprintf("%s publishes %s with system time while tf follows %s: %s.", d.publisherOf(best, true), topic, clockName, d.simTimeFix(topic)), topic)
		}
		v.head.ask = askSimTimeTrue
		drop := `the filter drops it when the queue is full ("discarding message because the queue is full")`
		if d.ros1() {
			drop = `ROS 1's filter drops it when the queue is full, with reason Unknown and no log line; RViz's display status then shows the tf error ("For frame […]: No transform to fixed frame […]")`
		}
		v.Evidence = append(v.Evidence, "A "+strings.TrimSuffix(unit, "s")+" stamped ~1.79e9 s ahead of tf waits for a transform that never comes; "+drop+".")
		v.cmds = append(v.cmds, listSimTime())
	case bestClass == analysis.TFOnSystemClock && device != nil:
		// The small stamps are the sensor's own clock, not sim time: tf
		// and the recorder agree on system time.
		v.head = whole(analysis.DeviceClockSentence(*device), best.Topic)
		v.Class = analysis.VerdictTime
		v.cmds = append(v.cmds, echo(best.Topic, "header.stamp"), ros2Only("ros2 param list <the driver node> | grep -i -e time -e stamp"))
	case bestClass == analysis.TFOnSystemClock:
		link := ps.StalestLink()
		v.head = whole(fmt.Sprintf("A tf publisher stamps %s with system time while %s follows %s: %s (robot_state_publisher or the odometry node).", link, topic, clockName, d.simTimeFix(link)), topic)
		v.head.ask = askSimTimeTrue
		dropped := `dropped at once as "earlier than all the data in the transform cache"`
		if d.ros1() {
			dropped = `dropped at once as OutTheBack; RViz's display status shows "Message removed because it is too old (frame=[…], stamp=[…])"`
		}
		v.Evidence = append(v.Evidence, fmt.Sprintf("A %s ~1.79e9 s behind tf is more than the cache time (%.0f s) older than the latest transform: %s.", strings.TrimSuffix(unit, "s"), r.Settings.CacheTimeS, dropped))
		v.cmds = append(v.cmds, listSimTime())
	case bestClass == analysis.ZeroStamp:
		d.zeroStampVerdict(&v, best, bestN)
	case bestClass == analysis.ClockSkew:
		v.head = whole(fmt.Sprintf("%s and tf (%s) are %s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).", topic, ps.StalestLink(), analysis.FmtS(ps.MedianDiffS)), topic)
		if zoneOffset(ps.MedianDiffS) {
			zoneHeadline = true
			v.head = whole(zoneSkewSentence(topic, ps.StalestLink(), ps.MedianDiffS), topic)
			v.cmds = append(v.cmds, shell("timedatectl"))
		}
		// Drops with any scan ahead of tf are the queue overflowing, whatever
		// side of tf the median is on.
		if ps.MedianDiffS < 0 && -ps.MedianDiffS*1e9 > d.cacheNS() || ps.MaxDiffS > 0 && drops > 0 {
			v.Evidence = append(v.Evidence, fmt.Sprintf("The offset matters to tf2: the cache is %.0f s; scans behind by more than that are dropped at once, scans ahead wait and overflow the queue.", r.Settings.CacheTimeS))
		} else {
			v.Evidence = append(v.Evidence, fmt.Sprintf("Within the cache time (%.0f s) tf2 still finds a transform for scans that lag tf; scans ahead of tf wait.", r.Settings.CacheTimeS))
		}
		v.cmds = append(v.cmds, shell("chronyc tracking"), shell("chronyc sources -v"))
	case bestClass == analysis.NoTransform:
		if !d.noTransformVerdict(&v, best) {
			v.head = whole(fmt.Sprintf("No transform connects %s (frame '%s') to '%s' in this bag: this is not a clock problem; check the tf tree and the frame names.", topic, frame, target), topic)
			v.Class = string(analysis.NoTransform)
			if d.rep.NeverConnected(best) {
				v.head = whole(d.rep.MissingLinkSentence(best), topic)
				v.Class = analysis.VerdictMissingLink
			}
			v.cmds = append(v.cmds, viewFrames())
		}
	case bestClass == analysis.StaticOnly:
		v.head = whole(fmt.Sprintf("Only static transforms link '%s' to '%s': a clock mismatch is invisible on this path; choose a target across a dynamic link (e.g. --target-frame odom).", frame, target))
		v.Class = string(analysis.StaticOnly)
	default:
		if back := r.Counts.BackwardJumps; back > 0 {
			jumps := fmt.Sprintf("/clock jumps back %s (a looping bag or a simulator reset): every sim-time node clears its tf buffer each time; %s and tf are otherwise on the same clock (median %s apart)", analysis.Plural(back, "time"), topic, analysis.FmtS(ps.MedianDiffS))
			v.head = built(text(jumps))
			if drops > 0 {
				// Start-up drops are already out: these came later than a
				// refill takes.
				v.head = built(text(jumps), text(fmt.Sprintf(", yet %s %s dropped outside start-up: not a clock problem; check that every tf publisher restarts with the simulator, the frame names and the queue size", analysis.Plural(drops, strings.TrimSuffix(unit, "s")), wasWere(drops))))
			}
			v.head.topics = []string{topic}
			v.Class = analysis.VerdictClockJumpBack
		} else if drops > 0 && d.aheadDropsVerdict(&v, best, unit, ps.MedianDiffS) {
			// The sensor's machine runs ahead: its clock, not tf, drops them.
		} else if drops > 0 {
			stem := fmt.Sprintf("%s and tf are on the same clock (median %s apart%s), yet %s %s dropped", topic, analysis.FmtS(ps.MedianDiffS), aheadByDesignNote(ps), analysis.Plural(drops, strings.TrimSuffix(unit, "s")), wasWere(drops))
			advice := "look at the tf tree, the frame names and the queue size"
			if ps.StalestLink() != "" {
				advice = fmt.Sprintf("the stalest link on their path is mostly %s: check its publisher's rate and gaps, then the queue size", ps.Stalest)
			}
			v.head = built(text(stem), part{partNotClockProblem, ": not a clock problem; " + advice})
			v.head.topics = []string{topic}
			v.Class = analysis.VerdictSameClockDrops
		} else {
			names := d.sameClockTopics(topic)
			noun := strings.TrimSuffix(unit, "s")
			if len(names) > 1 && !d.allOfType(best.Type) {
				noun = "message" // the topics are of several types
			}
			stem := text(fmt.Sprintf("%s and tf are on the same clock (median %s apart%s) and no %s is dropped by the %s", sameClockList(names), analysis.FmtS(ps.MedianDiffS), aheadByDesignNote(ps), noun, d.filterNames(ps.Consumer)))
			ok := part{partNoClockProblem, noClockProblem}
			v.head = built(stem, ok)
			if n := r.Counts.ClockJumps + r.Counts.StampJumps; n > 0 {
				// A jump that is not proven a clock step (a pause of every
				// publisher looks the same) is no fault, but a "no problem"
				// beside a jump finding that --fail-on jump gates on would
				// read as a contradiction.
				v.head = built(stem, text(fmt.Sprintf("; but %s (see the evidence)", jumpClause(r))))
			} else if t := lookAlikeTimers(r); len(t) > 0 {
				// "No clock problem" must not claim the timers it could
				// not judge.
				v.head = built(stem, ok, text(fmt.Sprintf(", though the bag cannot tell whether %s follows a wall or a sim timer (see the evidence)", analysis.JoinNames(t))))
			}
			v.head.topics = names
			if len(names) > 4 {
				v.head.topics = names[:3]
			}
			v.Class = analysis.VerdictNoProblem
		}
	}
	d.jumpEvidence(&v)
	d.topicEvidence(&v)
	d.missingLinkEvidence(&v, best)
	everyStampLags := d.recorderClockEvidence(&v)
	d.otherClockEvidence(&v)
	d.clockUnusedEvidence(&v)
	d.offClockEvidence(&v)
	d.timeZoneEvidence(&v, zoneHeadline)
	healthy := bestClass == analysis.SameClock && drops == 0 && r.Counts.BackwardJumps == 0
	// A clock fault outranks drops on a shared clock: those drops are
	// then evidence, not the cause.
	// Drops on a shared clock are "not a clock problem": a time finding
	// (a clock step, a stamp ahead of its receipt, stale data, a wall
	// timer) outranks them, and they become its evidence.
	if d.timeLead(&v, healthy || v.Class == analysis.VerdictSameClockDrops, best) {
		// A finding about time (stale data, a wall timer, a clock step)
		// leads; the tf tree and empty topics become evidence.
		v.Class = analysis.VerdictTime
		healthy = false
	}
	d.tfTreeLead(&v, healthy, v.Class == analysis.VerdictSameClockDrops, everyStampLags)
	d.emptyTopicsLead(&v, healthy)
	d.syncLead(&v, healthy && v.Class == analysis.VerdictNoProblem)
	if n := r.Counts.RosoutLines; n > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("/rosout recorded %s; %s match a predicted drop.", analysis.Plural(n, "filter-drop / jump-back line"), analysis.Plural(r.Counts.MatchedDrops, "drop line")))
	}
	if v.Class == analysis.VerdictTime {
		return v // timeLead gave the commands that confirm its finding
	}
	v.cmds = append(v.cmds, echo(topic, "header.stamp"))
	if d.hasTF() && frame != "" && d.rep.TreeHas(frame) && d.rep.TreeHas(target) {
		v.cmds = append(v.cmds, tfEcho(target, frame, true))
	}
	return v
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// startupOnly reports whether a pair's only problem is messages that came
// before the tf tree: every row found no transform, yet the frame is
// connected to the target once the bag is read (a topic with one message
// at the very start).
func (d decider) startupOnly(p *analysis.PairSummary) bool {
	if p.PathSeen || p.FrameID == "" {
		return false
	}
	if p.Classes[string(analysis.NoTransform)] != p.Rows() {
		return false
	}
	return p.ConnectedAtEnd && !p.Identity()
}

// hasTF reports whether the bag holds any transform (/tf or /tf_static).
func (d decider) hasTF() bool { return len(d.rep.TFTree) > 0 }

// treeFrames lists up to max frames of the tf tree, parents first.
func (d decider) treeFrames(max int) (names []string, total int) {
	seen := map[string]bool{}
	for _, l := range d.rep.TFTree {
		for _, f := range []string{l.Parent, l.Child} {
			if !seen[f] {
				seen[f] = true
				if len(names) < max {
					names = append(names, f)
				}
			}
		}
	}
	return names, len(seen)
}

// analysedWithMessages lists the analysed topics that hold messages.
func (d decider) analysedWithMessages() []string {
	var out []string
	for _, ts := range d.analysed() {
		if ts.Messages > 0 {
			out = append(out, ts.Topic)
		}
	}
	return out
}

// emptyFrameDrops counts, per topic, the messages the filter drops for an
// empty frame_id.
func (d decider) emptyFrameTopics() (topics []string, n int) {
	for _, p := range d.pairs() {
		if k := p.Filter["dropped_empty_frame"]; k > 0 {
			if !slices.Contains(topics, p.Topic) {
				topics = append(topics, p.Topic)
			}
			n += k
		}
	}
	return topics, n
}

// noTransformVerdict words a pair whose messages never reach the target:
// an empty frame_id, a bag without tf, or a frame no transform names. It
// reports false for the remaining case (the frame is in the tree but not
// connected to the target), which the caller words.
func (d decider) noTransformVerdict(v *draft, best *analysis.PairSummary) bool {
	topic, frame := best.Topic, best.FrameID
	if ets, n := d.emptyFrameTopics(); n > 0 {
		d.emptyFrameSentence(v, ets, n)
		if !d.hasTF() {
			v.Evidence = append(v.Evidence, "The bag has no /tf or /tf_static either: even with a frame_id, these messages cannot be checked against transforms.")
		}
		return true
	}
	if !d.hasTF() {
		with := d.analysedWithMessages()
		v.head = whole(fmt.Sprintf("This bag has no /tf or /tf_static: the clocks of %s cannot be checked against transforms; record tf with the sensors (ros2 bag record /tf /tf_static ...).", analysis.JoinNames(with)), with...)
		v.Class = analysis.VerdictNoTF
		v.Evidence = append(v.Evidence, "Without transforms no consumer can place these messages in a fixed frame, and no clock mismatch between sensors and tf can show; the message stamps can only be compared with record time (skew table).")
		v.cmds = append(v.cmds, topicVerb("info", "/tf", true), topicVerb("info", "/tf_static", true))
		return true
	}
	if frame != "" && d.rep.TreeHas(frame) && !d.rep.TreeHas(best.TargetFrame) {
		names, total := d.treeFrames(6)
		list := strings.Join(names, ", ")
		if total > len(names) {
			list += fmt.Sprintf(" and %d more", total-len(names))
		}
		v.head = whole(fmt.Sprintf("The target frame '%s' is not in this bag's tf tree (it has %s): %s cannot be checked against tf there; choose a frame of the tree with --target-frame.", best.TargetFrame, list, topic), topic)
		v.Class = analysis.VerdictTargetNotInTree
		v.cmds = append(v.cmds, viewFrames())
		return true
	}
	if frame != "" && !d.rep.TreeHas(frame) {
		names, total := d.treeFrames(6)
		list := strings.Join(names, ", ")
		if total > len(names) {
			list += fmt.Sprintf(" and %d more", total-len(names))
		}
		v.head = whole(fmt.Sprintf("No transform in this bag names %s's frame '%s' (the tf tree has %s): its clock cannot be checked against tf; record the transform that places '%s' (usually a static one from robot_state_publisher), or fix the frame_id.", topic, frame, list, frame), topic)
		v.Class = analysis.VerdictFrameNotInTree
		if ts := d.topicOfRole("tf_static"); ts != nil && ts.Messages == 0 {
			v.Evidence = append(v.Evidence, fmt.Sprintf("%s was recorded without any message: the static transforms were not recorded (they are published once, latched, often before the recording starts).", ts.Topic))
		}
		v.cmds = append(v.cmds, echo(topic, "header.frame_id"), viewFrames())
		return true
	}
	return false
}

// emptyFrameSentence heads the verdict with messages whose frame_id is
// empty: tf2_ros::MessageFilter drops each with its own reason, whatever
// the clocks.
func (d decider) emptyFrameSentence(v *draft, topics []string, n int) {
	v.Class = analysis.VerdictEmptyFrameID
	drops := `tf2_ros::MessageFilter drops every one ("Message Filter dropping message: frame '' at time … for reason 'the frame id of the message is empty'")`
	if d.ros1() {
		drops = "ROS 1's tf2_ros::MessageFilter drops every one with reason EmptyFrameID and logs nothing"
	}
	v.head = whole(fmt.Sprintf("%s %s %s with an empty frame_id: %s; set the frame_id in the publisher (often its frame_id parameter).",
		analysis.JoinNames(topics), hasHave(len(topics)), analysis.Plural(n, "message"), drops), topics...)
	for _, t := range topics {
		if len(v.cmds) < 3 {
			v.cmds = append(v.cmds, echo(t, "header.frame_id"))
		}
	}
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

// zeroStampVerdict words messages stamped 0: with /clock, a sim-time
// driver that published before its first /clock (or, when every such
// topic stays at 0 its whole life, never received it); without /clock,
// the bag cannot show which of a clock never set or a stamp never filled
// in.
func (d decider) zeroStampVerdict(v *draft, best *analysis.PairSummary, n int) {
	z := d.rep.ZeroStamp
	topic, unit := best.Topic, analysis.UnitOf(best.Type)
	all := d.topicsWithClass(analysis.ZeroStamp, best)
	v.Class = string(analysis.ZeroStamp)
	if d.rep.Pass.HasClock {
		before, they := "published before it received /clock", "published before they received /clock"
		if d.neverHadClock() {
			before, they = "never received /clock", "never received /clock"
		}
		v.head = whole(fmt.Sprintf("%s has %s stamped 0: %s uses sim time but %s; tf2 pairs those %s with the latest pose.", topic, analysis.Plural(n, strings.TrimSuffix(unit, "s")), d.publisherOf(best, false), before, unit), topic)
		if len(all) > 1 {
			v.head = whole(fmt.Sprintf("%s are stamped 0 (%s): their drivers use sim time but %s; tf2 pairs those messages with the latest pose.", analysis.JoinNames(all), analysis.Plural(z.Count, "message"), they), all...)
		}
		if z.BeforeFirstClock == 0 {
			differs := "QoS or ROS_DOMAIN_ID"
			if d.ros1() {
				differs = "or ROS_MASTER_URI"
			}
			v.Evidence = append(v.Evidence, "None of them arrived before the first recorded /clock: /clock was published, yet the driver never received it (its /clock subscription, "+differs+" differs, or it ignores sim time for stamps).")
		} else {
			v.Evidence = append(v.Evidence, fmt.Sprintf("%d of them arrived before the first /clock.", z.BeforeFirstClock))
		}
	} else {
		v.head = whole(fmt.Sprintf("%s has %s stamped 0 and the bag has no /clock: the %s's clock read 0 (a node with use_sim_time:=true and no /clock publisher has ROS time 0) or it never fills in header.stamp; tf2 pairs such %s with the latest transform.", topic, analysis.Plural(n, strings.TrimSuffix(unit, "s")), analysis.PublisherNoun(best.Type), unit), topic)
		if len(all) > 1 {
			v.head = whole(fmt.Sprintf("%s have messages stamped 0 (%s) and the bag has no /clock: their publishers' clocks read 0 (use_sim_time:=true with no /clock publisher) or they never fill in header.stamp; tf2 pairs such messages with the latest transform.", analysis.JoinNames(all), analysis.Plural(z.Count, "message")), all...)
		}
		v.head.ask = suspectSimTimeWithoutClock
	}
	if z.Costed > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("Cost (pose at the real time vs latest pose) over %s: median %.3f m / %.2f°, max %.3f m / %.2f°.",
			analysis.Plural(z.Costed, "message"), z.MedianDisplacementM, z.MedianRotationDeg, z.MaxDisplacementM, z.MaxRotationDeg))
	}
	if !d.hasTF() {
		v.Evidence = append(v.Evidence, "The bag has no /tf or /tf_static: what a zero stamp costs in pose cannot be measured here.")
	}
	v.cmds = append(v.cmds, listSimTime())
}

func (d decider) jumpEvidence(v *draft) {
	r := d.rep
	if n := r.Counts.BackwardJumps; n > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("/clock jumps back %s (bag loop or simulator reset): every sim-time node logs \"Detected jump back in time. Clearing TF buffer.\" and loses its tf.", analysis.Plural(n, "time")))
	}
	if f := r.Counts.ClockJumps - r.Counts.BackwardJumps; f > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("/clock jumps forward %s.", analysis.Plural(f, "time")))
	}
	if r.Counts.StampJumps > 0 {
		v.Evidence = append(v.Evidence, analysis.StampJumpSentence(r))
	}
	if r.Counts.Stalls > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("/clock stalls %s while record time runs.", analysis.Plural(r.Counts.Stalls, "time")))
	}
	if cr := r.ClockRate; cr != nil && cr.RealTimeFactor > 0 && (cr.RealTimeFactor < 0.9 || cr.RealTimeFactor > 1.1) {
		v.Evidence = append(v.Evidence, fmt.Sprintf("/clock runs at %.2fx record time.", cr.RealTimeFactor))
	}
}

// sameClockTopics lists the topic the verdict is about and, when other
// analysed topics are all on tf's clock too, them (/scan, /imu).
func (d decider) sameClockTopics(topic string) []string {
	names := []string{topic}
	for _, p := range d.pairs() {
		if p.Identity() || p.Topic == topic {
			continue
		}
		n, same := 0, p.Classes[string(analysis.SameClock)]
		for _, c := range p.Classes {
			n += c
		}
		if 10*same < 9*n { // not (almost) all on the same clock
			return []string{topic}
		}
		if !slices.Contains(names, p.Topic) {
			names = append(names, p.Topic)
		}
	}
	return names
}

// sameClockList words sameClockTopics for the healthy headline ("/scan,
// /imu"; from five on, three and a count); "… and tf" follows.
func sameClockList(names []string) string {
	if len(names) > 4 {
		return fmt.Sprintf("%s and %d other topics", strings.Join(names[:3], ", "), len(names)-3)
	}
	return strings.Join(names, ", ")
}

// allOfType reports whether every pair with a transform to check is of
// message type typ.
func (d decider) allOfType(typ string) bool {
	for _, p := range d.pairs() {
		if !p.Identity() && p.Type != typ {
			return false
		}
	}
	return true
}

// topicsWithClass lists best's topic first, then every other analysed
// topic whose rows are (almost) all of class c.
func (d decider) topicsWithClass(c analysis.Class, best *analysis.PairSummary) []string {
	names := []string{best.Topic}
	for _, p := range d.pairs() {
		if p.Identity() || slices.Contains(names, p.Topic) {
			continue
		}
		n := 0
		for _, k := range p.Classes {
			n += k
		}
		if n > 0 && 10*p.Classes[string(c)] >= 9*n {
			names = append(names, p.Topic)
		}
	}
	return names
}

// filterNames is "rviz-laserscan filter", or "emulated filters (a, b)"
// when the analysed topics use several presets.
func (d decider) filterNames(first string) string {
	names := []string{first}
	for _, p := range d.pairs() {
		if !p.Identity() && !slices.Contains(names, p.Consumer) {
			names = append(names, p.Consumer)
		}
	}
	if len(names) == 1 {
		return first + " filter"
	}
	return "emulated filters (" + strings.Join(names, ", ") + ")"
}

// topicEvidence says why a default target is not odom, and adds one line
// for start-up drops (emptyTopicsLead words
// analysed topics without messages).
func (d decider) topicEvidence(v *draft) {
	// Which target the default chose, when it is not odom.
	v.Evidence = append(v.Evidence, analysis.TargetEvidence(d.rep.Settings.TargetDecisions)...)
	n, reset := 0, 0
	for _, p := range d.rep.Pairs {
		n += p.StartupDrops - p.ResetDrops
		reset += p.ResetDrops
	}
	if n > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("%s stamped before the first transform on %s path %s dropped at start-up (the sensors started before the tf tree): harmless, not counted as drops.", analysis.Plural(n, "message"), map[bool]string{true: "its", false: "their"}[n == 1], wasWere(n)))
	}
	if reset > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("%s %s dropped within the first %g s of sim time after a /clock jump back, while tf2's cleared buffer refilled (a start-up again, as after a simulator reset or a bag loop): harmless, not counted as drops.", analysis.Plural(reset, "message"), wasWere(reset), d.rep.Settings.CacheTimeS))
	}
}

// otherClockEvidence points at publishers whose stamps live on another
// clock family than the rest: static links (harmless to tf2, which ignores
// their time, but a node without use_sim_time) and, in bags without
// /clock, topics and links whose stamps are on another family than the
// others. Each kind is one line, with a count and three examples.
func (d decider) otherClockEvidence(v *draft) {
	r := d.rep
	var dyn analysis.Sample
	for _, l := range r.TFTree {
		if !l.Static {
			dyn.Add(float64(l.NewestNS))
		}
	}
	if dyn.Len() > 0 {
		ref := dyn.Median()
		var names []string
		var stamp float64
		for _, l := range r.TFTree {
			if l.Static && math.Abs(float64(l.NewestNS)-ref) >= float64(analysis.EpochThresholdNS) {
				names = append(names, l.Parent+"->"+l.Child+" on "+l.Topic)
				stamp = float64(l.NewestNS)
			}
		}
		switch len(names) {
		case 0:
		case 1:
			v.Evidence = append(v.Evidence, fmt.Sprintf("Static link %s is stamped %s while dynamic tf is near %s: its publisher runs on another clock (use_sim_time not set); tf2 ignores static stamps, so it does no harm here.",
				names[0], analysis.FmtS(stamp/1e9), analysis.FmtS(ref/1e9)))
		default:
			v.Evidence = append(v.Evidence, fmt.Sprintf("%d static links are stamped on another clock than dynamic tf (near %s), e.g. %s: their publishers run without use_sim_time; tf2 ignores static stamps, so it does no harm here.",
				len(names), analysis.FmtS(ref/1e9), examples(names)))
		}
	}
	if d.rep.Pass.HasClock {
		return
	}
	var mixed []string
	var median float64
	for _, s := range r.Skew {
		if s.Kind == analysis.SkewDifferentClock {
			mixed = append(mixed, analysis.SkewName(s))
			median = s.MedianS
		}
	}
	switch len(mixed) {
	case 0:
	case 1:
		v.Evidence = append(v.Evidence, fmt.Sprintf("%s: header stamps are %s behind record time, on another clock than the other topics and links, and the bag has no /clock: its publisher runs on another clock (use_sim_time set without /clock, or a machine whose clock was never set).", mixed[0], analysis.FmtS(median)))
	default:
		v.Evidence = append(v.Evidence, fmt.Sprintf("%d topics and links are stamped on another clock than the rest of the bag (no /clock), e.g. %s: their publishers run on another clock.", len(mixed), examples(mixed)))
	}
}

// examples names the first three items and counts the rest.
func examples(names []string) string {
	if len(names) <= 3 {
		return joinList(names)
	}
	return fmt.Sprintf("%s, … (%d more)", strings.Join(names[:3], ", "), len(names)-3)
}

// joinList is "a", "a and b", "a, b and c".
func joinList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// recorderClockEvidence says once how the stamps relate to record time:
// sim-time stamps recorded on wall time (normal for simulation, noted once
// instead of per topic), sim-time stamps without /clock (what that means
// for replay), and a constant offset on every topic (machines out of sync,
// or a bag re-recorded from a replay without --clock). everyStampLags
// says it added the line on a days-to-a-year lag of every stamp, tf's
// included (tfTreeLead then leaves out tf's own offset finding).
func (d decider) recorderClockEvidence(v *draft) (everyStampLags bool) {
	r := d.rep
	var sim, recSim, offset []string
	var lags []analysis.LagSample
	var simAge analysis.Sample
	allOffset, offsets := true, analysis.Sample{}
	for _, s := range r.Skew {
		switch s.Kind {
		case analysis.SkewSimTime:
			sim = append(sim, analysis.SkewName(s))
			simAge.Add(s.MedianS)
		case analysis.SkewRecorderSimTime:
			recSim = append(recSim, analysis.SkewName(s))
		case analysis.SkewConstantOffset:
			offset = append(offset, fmt.Sprintf("%s (%s)", analysis.SkewName(s), analysis.FmtDur(s.MedianS)))
			offsets.Add(s.MedianS)
			lags = append(lags, analysis.LagSample{Age: s.MedianS, Pub: s.PublishMedianS, HasPub: s.PublishMedianS != 0})
		}
		if s.Kind != analysis.SkewConstantOffset && s.Count >= analysis.MinSkewSamples {
			allOffset = false
		}
	}
	if len(sim) > 0 {
		what := "every stamped topic and tf link"
		if n := d.stampedSeries(); len(sim) < n {
			what = fmt.Sprintf("%d of %d stamped topics and tf links (%s)", len(sim), n, examples(sim))
		}
		if d.rep.Pass.HasClock {
			v.Evidence = append(v.Evidence, fmt.Sprintf("Stamps of %s are on sim time (/clock) and the recorder ran on wall time, normal for simulation: record time − stamp (%s) is not an age; the skew table marks them sim_time.", what, analysis.FmtS(simAge.Median())))
		} else {
			v.Evidence = append(v.Evidence, fmt.Sprintf("Stamps of %s are %s behind record time and the bag has no /clock: it was recorded without /clock (sim time, or a publishing machine whose clock was never set). A replay cannot restore that clock: `ros2 bag play --clock` publishes record time (wall time here), so nodes on sim time see every stamp that far in the past; record /clock with the bag.", what, analysis.FmtS(simAge.Median())))
		}
	}
	if len(recSim) > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("Record times are on sim time while the stamps of %s are on system time (a recorder with use_sim_time, or a converted bag): record time − stamp is not an age here.", examples(recSim)))
	}
	if len(offset) == 0 {
		return false
	}
	med := offsets.Median()
	if allOffset && analysis.IsYearLag(med) {
		v.Evidence = append(v.Evidence, analysis.LagSentence(d.rep.Pass.StartNS, "Every stamp", med, analysis.LagCauseOf(d.sawReplayer(), lags)))
		return true
	}
	// A days-long offset on every topic says why instead of "check
	// chrony".
	why := " (check chrony)."
	if allOffset && med >= 86400 {
		why = fmt.Sprintf(": an offset of %s on every topic is two machines out of sync (chrony/NTP), or a bag re-recorded while `ros2 bag play` ran without --clock (the offset is then the age of the replayed recording).", analysis.FmtDur(med))
	}
	line := fmt.Sprintf("Record time − stamp is a constant offset on %d topics or links (%s): the recorder's clock and the publishers' differ%s", len(offset), examples(offset), why)
	if len(offset) == 1 {
		line = fmt.Sprintf("Record time − stamp is a constant offset on %s: the recorder's clock and the publisher's differ%s", offset[0], why)
	}
	v.Evidence = append(v.Evidence, line)
	return false
}

// stampedSeries counts the skew table's rows with samples.
func (d decider) stampedSeries() int {
	n := 0
	for _, s := range d.rep.Skew {
		if s.Count > 0 {
			n++
		}
	}
	return n
}

// sawReplayer reports whether /rosout or /parameter_events name
// rosbag2_player: the recording was made while a bag was replayed.
func (d decider) sawReplayer() bool {
	for _, n := range d.rep.Nodes {
		if analysis.IsReplayer(n.Node) {
			return true
		}
	}
	return false
}

// emptyTopicsLead puts analysed topics that were recorded without a
// message in front of a healthy headline (the bag cannot show their clock,
// and "no clock problem" would hide it), after a headline of drops on one
// clock, and in the evidence of a clock fault.
func (d decider) emptyTopicsLead(v *draft, healthy bool) {
	var empty []string
	for _, ts := range d.analysed() {
		if ts.Messages == 0 {
			empty = append(empty, ts.Topic)
		}
	}
	if len(empty) == 0 {
		return
	}
	said := fmt.Sprintf("%s %s recorded without a single message (often a QoS mismatch while recording), so %s cannot be checked.",
		analysis.JoinNames(empty), wasWere(len(empty)), map[bool]string{true: "its clock", false: "their clocks"}[len(empty) == 1])
	switch {
	case healthy:
		v.Class = analysis.VerdictEmptyTopic
		v.head = v.head.demoted()
		v.head.prepend(said + " ")
	case v.Class == analysis.VerdictSameClockDrops:
		// Drops on one clock are not a clock fault: the topic the bag
		// could not check at all is as much the news.
		v.head.add(" And " + said)
	default:
		v.Evidence = append(v.Evidence, fmt.Sprintf("No messages on %s (often a QoS mismatch while recording).", strings.Join(empty, ", ")))
	}
}

// deviceClock is topic's entry in DeviceClocks, nil without one.
func (d decider) deviceClock(topic string) *analysis.DeviceClock {
	for i := range d.rep.DeviceClocks {
		if d.rep.DeviceClocks[i].Topic == topic {
			return &d.rep.DeviceClocks[i]
		}
	}
	return nil
}

// aheadByDesignNote explains a same-clock median well below 0 when the
// path's stalest link is the localiser's map->odom, dated ahead on
// purpose: without it "same clock, -916 ms apart" reads as a contradiction.
func aheadByDesignNote(ps analysis.PairSummary) string {
	link := ps.StalestLink()
	if ps.MedianDiffS > -0.1 || !analysis.DatedAheadByDesign(link) {
		return ""
	}
	return ": " + link + " is dated ahead on purpose, by the localiser's transform_tolerance"
}

// mostDropsOnOneClock is the pair on tf's clock with the most drops
// outside start-up (the closer to tf on a tie), nil when none drops.
func (d decider) mostDropsOnOneClock() *analysis.PairSummary {
	var best *analysis.PairSummary
	for _, p := range d.pairs() {
		if p.Identity() || p.Classes[string(analysis.SameClock)] == 0 || p.Drops() <= 0 {
			continue
		}
		if best == nil || p.Drops() > best.Drops() || p.Drops() == best.Drops() && math.Abs(p.MedianDiffS) < math.Abs(best.MedianDiffS) {
			best = p
		}
	}
	return best
}
