package analysis

import (
	"fmt"
	"math"
	"strings"
)

const tf2EchoNote = "(tf2_echo prints the stamp as sec.nanosec without zero-padding the nanoseconds: 120 s + 5 ms shows as 120.5000000, not 120.005)"

// verdict applies the decision rules of the motivating experiment to the
// pair with the most problematic rows: ≈ +epoch = laser driver on system
// time; ≈ −epoch = tf publisher on system time; 0 = no /clock yet; seconds
// on one clock family = machines out of sync; a few ms = not a clock
// problem; static-only = a mismatch is invisible.
func (a *analyzer) verdict() Verdict {
	r := &a.rep
	v := Verdict{Evidence: []string{}, Commands: []string{}}
	if a.scans == 0 || len(a.pairs) == 0 {
		v.Sentence = "No sensor messages (LaserScan, PointCloud2, Image, Imu, Range, Odometry, ...) in this bag: there is nothing to check per message."
		if len(a.scanTopics) > 0 {
			v.Sentence = fmt.Sprintf("The topic %s has no messages with a frame id in this bag (often a QoS mismatch while recording): there is nothing to check per message.", strings.Join(a.scanTopics, ", "))
		}
		if len(a.scanTopics) > 0 {
			a.tfTreeLead(&v, false)
		} else if a.tfTreeVerdict(&v) {
			v.Evidence = append(v.Evidence, "No sensor message to check against tf: the verdict comes from the tf tree alone.")
		}
		a.timeLead(&v, false)
		a.jumpEvidence(&v)
		return v
	}
	// Pick the pair and class that matter most.
	order := []Class{LaserOnSystemClock, TFOnSystemClock, ZeroStamp, ClockSkew, NoTransform, StaticOnly}
	var best *pairStats
	bestClass := SameClock
	bestN := 0
	for _, c := range order {
		for _, p := range a.pairs {
			if p.identity() {
				continue
			}
			total := 0
			for _, n := range p.classes {
				total += n
			}
			// A class must describe at least a tenth of a pair's scans to
			// lead the verdict: one scan before the tree exists is noise.
			if n := p.classes[c]; n > bestN && 10*n >= total {
				best, bestClass, bestN = p, c, n
			}
		}
		if bestN > 0 {
			break
		}
	}
	if best == nil {
		for _, p := range a.pairs {
			if !p.identity() {
				best = p
				break
			}
		}
		if best == nil {
			p := a.pairs[0]
			v.Sentence = fmt.Sprintf("%s is in the target frame '%s' already (frame_id '%s'): no transform to check; choose another target (--target-frame).", p.topic, p.target, p.frame)
			a.timeLead(&v, false)
			a.jumpEvidence(&v)
			return v
		}
		bestN = best.classes[SameClock]
	}
	ps := a.pairSummary(best)
	topic, frame, target := best.topic, best.frame, best.target
	clockName := "/clock"
	if !a.hasClock {
		clockName = "sim time"
	}
	drops := 0
	for k, n := range best.outcomes {
		if strings.HasPrefix(k, "dropped_") {
			drops += n
		}
	}
	if best.pathSeen {
		drops -= best.startupDrops
	}
	total := 0
	for _, n := range best.classes {
		total += n
	}
	unit := unitOf(best.typ)
	v.Evidence = append(v.Evidence, fmt.Sprintf("%s → %s: %d of %d %s are %s; median diff (%s stamp − latest %s) %s, range %s .. %s.",
		topic, target, bestN, total, unit, bestClass, strings.TrimSuffix(unit, "s"), ps.Stalest, fmtS(ps.MedianDiffS), fmtS(ps.MinDiffS), fmtS(ps.MaxDiffS)))
	if len(best.outcomes) > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("%s filter (queue %d, cache %.0f s): %s.", ps.Consumer,
			best.queue, r.Settings.CacheTimeS, countsText(best.outcomes)))
	}
	switch bestClass {
	case LaserOnSystemClock:
		v.Sentence = fmt.Sprintf("The %s publishes %s with system time while tf follows %s: set use_sim_time:=true on the node publishing %s.", publisherNoun(best.typ), topic, clockName, topic)
		if all := a.topicsWithClass(LaserOnSystemClock, best); len(all) > 1 {
			v.Sentence = fmt.Sprintf("The drivers of %s publish with system time while tf follows %s: set use_sim_time:=true on the nodes publishing them.", joinNames(all), clockName)
		}
		v.Evidence = append(v.Evidence, "A scan stamped ~1.79e9 s ahead of tf waits for a transform that never comes; the filter drops it when the queue is full (\"discarding message because the queue is full\").")
		v.Commands = append(v.Commands, "ros2 param get /<laser_driver_node> use_sim_time")
	case TFOnSystemClock:
		link := strings.SplitN(ps.Stalest, " on ", 2)[0]
		v.Sentence = fmt.Sprintf("A tf publisher stamps %s with system time while %s follows %s: set use_sim_time:=true on the node publishing %s (robot_state_publisher or the odometry node).", link, topic, clockName, link)
		v.Evidence = append(v.Evidence, fmt.Sprintf("A scan ~1.79e9 s behind tf is more than the cache time (%.0f s) older than the latest transform: dropped at once as \"earlier than all the data in the transform cache\".", r.Settings.CacheTimeS))
		v.Commands = append(v.Commands, "ros2 param get /robot_state_publisher use_sim_time")
	case ZeroStamp:
		z := r.ZeroStamp
		v.Sentence = fmt.Sprintf("%s has %d %s stamped 0: the %s uses sim time but published before it received /clock; tf2 pairs those %s with the latest pose.", topic, bestN, unitOf(best.typ), publisherNoun(best.typ), unitOf(best.typ))
		if all := a.topicsWithClass(ZeroStamp, best); len(all) > 1 {
			v.Sentence = fmt.Sprintf("%s are stamped 0 (%d messages): their drivers use sim time but published before they received /clock; tf2 pairs those messages with the latest pose.", joinNames(all), z.Count)
		}
		a.stuckZeroWording(&v)
		v.Evidence = append(v.Evidence, fmt.Sprintf("%d of them arrived before the first /clock; cost (pose at the real time vs latest pose) over %d scans: median %.3f m / %.2f°, max %.3f m / %.2f°.",
			z.BeforeFirstClock, z.Costed, z.MedianDisplacementM, z.MedianRotationDeg, z.MaxDisplacementM, z.MaxRotationDeg))
		v.Commands = append(v.Commands, "ros2 param get /<laser_driver_node> use_sim_time")
	case ClockSkew:
		v.Sentence = fmt.Sprintf("%s and tf (%s) are %s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).", topic, strings.SplitN(ps.Stalest, " on ", 2)[0], fmtS(ps.MedianDiffS))
		if ps.MedianDiffS < 0 && -ps.MedianDiffS*1e9 > float64(a.cache) || ps.MedianDiffS > 0 && drops > 0 {
			v.Evidence = append(v.Evidence, fmt.Sprintf("The offset matters to tf2: the cache is %.0f s; scans behind by more than that are dropped at once, scans ahead wait and overflow the queue.", r.Settings.CacheTimeS))
		} else {
			v.Evidence = append(v.Evidence, fmt.Sprintf("Within the cache time (%.0f s) tf2 still finds a transform for scans that lag tf; scans ahead of tf wait.", r.Settings.CacheTimeS))
		}
		v.Commands = append(v.Commands, "chronyc tracking", "chronyc sources -v")
	case NoTransform:
		v.Sentence = fmt.Sprintf("No transform connects %s (frame '%s') to '%s' in this bag: this is not a clock problem; check the tf tree and the frame names.", topic, frame, target)
		if len(r.TFTree) == 0 {
			v.Evidence = append(v.Evidence, "The bag has no /tf or /tf_static data at all.")
		}
		v.Commands = append(v.Commands, "ros2 run tf2_tools view_frames")
	case StaticOnly:
		v.Sentence = fmt.Sprintf("Only static transforms link '%s' to '%s': a clock mismatch is invisible on this path; choose a target across a dynamic link (e.g. --target-frame odom).", frame, target)
	default:
		if back := r.Counts.BackwardJumps; back > 0 {
			v.Sentence = fmt.Sprintf("/clock jumps back %d times (a looping bag or a simulator reset): every sim-time node clears its tf buffer each time; %s and tf are otherwise on the same clock (median %s apart).", back, topic, fmtS(ps.MedianDiffS))
		} else if drops > 0 {
			v.Sentence = fmt.Sprintf("%s and tf are on the same clock (%s apart), yet %d %s were dropped: not a clock problem; look at the tf tree, the frame names and the queue size.", topic, fmtS(ps.MedianDiffS), drops, unit)
		} else {
			v.Sentence = fmt.Sprintf("%s and tf are on the same clock (median %s apart) and no %s is dropped by the %s: no clock problem in this bag.", a.sameClockTopics(topic), fmtS(ps.MedianDiffS), strings.TrimSuffix(unit, "s"), a.filterNames(ps.Consumer))
		}
	}
	a.jumpEvidence(&v)
	a.topicEvidence(&v)
	for _, s := range r.Skew {
		if s.Kind == SkewConstantOffset {
			name := s.Topic
			if s.Link != "" {
				name += " " + s.Link
			}
			v.Evidence = append(v.Evidence, fmt.Sprintf("%s: record time − stamp is a constant %s (p95 %s): the recorder's clock and the publisher's differ (check chrony).", name, fmtS(s.MedianS), fmtS(s.P95S)))
		}
	}
	a.otherClockEvidence(&v)
	led := a.timeLead(&v, bestClass == SameClock && drops == 0 && r.Counts.BackwardJumps == 0)
	a.tfTreeLead(&v, bestClass == SameClock && !led)
	if n := r.Counts.RosoutLines; n > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("/rosout recorded %d filter-drop / jump-back lines; %d drop lines match a predicted drop.", n, r.Counts.MatchedDrops))
	}
	v.Commands = append(v.Commands,
		fmt.Sprintf("ros2 topic echo %s --field header.stamp --once", topic),
		fmt.Sprintf("ros2 run tf2_ros tf2_echo %s %s  %s", target, frame, tf2EchoNote))
	return v
}

func (a *analyzer) jumpEvidence(v *Verdict) {
	r := &a.rep
	if n := r.Counts.BackwardJumps; n > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("/clock jumps back %d time(s) (bag loop or simulator reset): every sim-time node logs \"Detected jump back in time. Clearing TF buffer.\" and loses its tf.", n))
	}
	if f := r.Counts.ClockJumps - r.Counts.BackwardJumps; f > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("/clock jumps forward %d time(s).", f))
	}
	if r.Counts.StampJumps > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("No /clock; header stamps jump %d times on scan topics or tf links.", r.Counts.StampJumps))
	}
	if r.Counts.Stalls > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("/clock stalls %d times while record time runs.", r.Counts.Stalls))
	}
	if cr := r.ClockRate; cr != nil && cr.RealTimeFactor > 0 && (cr.RealTimeFactor < 0.9 || cr.RealTimeFactor > 1.1) {
		v.Evidence = append(v.Evidence, fmt.Sprintf("/clock runs at %.2fx record time.", cr.RealTimeFactor))
	}
}

func (a *analyzer) pairSummary(p *pairStats) PairSummary {
	for _, ps := range a.rep.Pairs {
		if ps.Topic == p.topic && ps.TargetFrame == p.target {
			return ps
		}
	}
	return PairSummary{}
}

// unitOf names messages of type typ in the verdict: "scans" for
// LaserScan (as before), "messages" otherwise.
func unitOf(typ string) string {
	if isType(typ, "sensor_msgs/msg/LaserScan") {
		return "scans"
	}
	return "messages"
}

// sameClockTopics names the topic the verdict is about and, when other
// analysed topics are all on tf's clock too, them ("/scan, /imu").
func (a *analyzer) sameClockTopics(topic string) string {
	names := []string{topic}
	for _, p := range a.pairs {
		if p.identity() || p.topic == topic {
			continue
		}
		n, same := 0, p.classes[SameClock]
		for _, c := range p.classes {
			n += c
		}
		if 10*same < 9*n { // not (almost) all on the same clock
			return topic
		}
		if !contains(names, p.topic) {
			names = append(names, p.topic)
		}
	}
	if len(names) > 4 {
		return fmt.Sprintf("%s and %d other topics", strings.Join(names[:3], ", "), len(names)-3)
	}
	return strings.Join(names, ", ") // "… and tf" follows
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// topicsWithClass lists best's topic first, then every other analysed
// topic whose rows are (almost) all of class c.
func (a *analyzer) topicsWithClass(c Class, best *pairStats) []string {
	names := []string{best.topic}
	for _, p := range a.pairs {
		if p.identity() || contains(names, p.topic) {
			continue
		}
		n := 0
		for _, k := range p.classes {
			n += k
		}
		if n > 0 && 10*p.classes[c] >= 9*n {
			names = append(names, p.topic)
		}
	}
	return names
}

// joinNames is "a, b and c" (at most four names, then "and N others").
func joinNames(names []string) string {
	if len(names) > 4 {
		return fmt.Sprintf("%s and %d other topics", strings.Join(names[:3], ", "), len(names)-3)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// filterNames is "rviz-laserscan filter", or "emulated filters (a, b)"
// when the analysed topics use several presets.
func (a *analyzer) filterNames(first string) string {
	names := []string{first}
	for _, p := range a.pairs {
		if !p.identity() && !contains(names, p.preset) {
			names = append(names, p.preset)
		}
	}
	if len(names) == 1 {
		return first + " filter"
	}
	return "emulated filters (" + strings.Join(names, ", ") + ")"
}

// identity: the topic's frame is the target frame (odometry in odom):
// there is no transform to check.
func (p *pairStats) identity() bool { return p.frame == strings.TrimPrefix(p.target, "/") }

// topicEvidence adds one line for start-up drops and one for analysed
// topics without messages.
func (a *analyzer) topicEvidence(v *Verdict) {
	n := 0
	for _, p := range a.rep.Pairs {
		n += p.StartupDrops
	}
	if n > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("%d message(s) stamped before the first transform on their path were dropped at start-up (the sensors started before the tf tree): harmless, not counted as drops.", n))
	}
	var empty []string
	for _, ts := range a.topics.analysed() {
		if ts.count == 0 {
			empty = append(empty, ts.name)
		}
	}
	if len(empty) > 0 {
		v.Evidence = append(v.Evidence, fmt.Sprintf("No messages on %s (often a QoS mismatch while recording).", strings.Join(empty, ", ")))
	}
}

func countsText(m map[string]int) string {
	keys := []string{"passed", "passed_after_wait", "dropped_queue_full", "dropped_out_the_back", "dropped_empty_frame", "dropped_unknown", "pending_at_end", "rejected_negative_stamp"}
	var parts []string
	for _, k := range keys {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
		}
	}
	return strings.Join(parts, ", ")
}

// otherClockEvidence points at publishers whose stamps live on another
// clock family than the rest: static links (harmless to tf2, which ignores
// their time, but a node without use_sim_time) and scan topics of bags
// without /clock whose stamps are an epoch away from record time.
func (a *analyzer) otherClockEvidence(v *Verdict) {
	r := &a.rep
	var dyn reservoir
	for _, l := range r.TFTree {
		if !l.Static {
			dyn.add(float64(l.NewestNS))
		}
	}
	if dyn.n > 0 {
		ref := dyn.median()
		for _, l := range r.TFTree {
			if l.Static && math.Abs(float64(l.NewestNS)-ref) >= float64(EpochThresholdNS) {
				v.Evidence = append(v.Evidence, fmt.Sprintf("Static link %s->%s on %s is stamped %s while dynamic tf is near %s: its publisher runs on another clock (use_sim_time not set); tf2 ignores static stamps, so it does no harm here.",
					l.Parent, l.Child, l.Topic, fmtS(float64(l.NewestNS)/1e9), fmtS(ref/1e9)))
			}
		}
	}
	if a.hasClock {
		return
	}
	for _, s := range r.Skew {
		if s.Link == "" && s.Kind == SkewDifferentClock {
			v.Evidence = append(v.Evidence, fmt.Sprintf("%s: header stamps are %s behind record time and the bag has no /clock: the publisher's clock is not the recorder's (sim time, or a clock never set).", s.Topic, fmtS(s.MedianS)))
		}
	}
}
