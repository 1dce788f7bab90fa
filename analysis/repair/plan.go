package repair

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/finding"
)

// PlanVersion is the version of the plan's JSON form; Load refuses others.
const PlanVersion = 1

// Actions of a plan entry.
const (
	// ActionMap: stamps are rewritten (Map for stamps on the wrong clock,
	// Zero for stamps of 0).
	ActionMap = "map"
	// ActionLeave: the stamps are right, or nothing is known to be wrong.
	ActionLeave = "leave"
	// ActionRefuse: the stamps look wrong but the bag cannot support a
	// mapping; Reason says why.
	ActionRefuse = "refuse"
)

// Reference clocks.
const (
	ClockSim    = "sim"    // /clock
	ClockSystem = "system" // the recorder's clock (record time)
)

// Mapping kinds.
const (
	// MapSystemToSim: system time to sim time through Plan.Clock.
	MapSystemToSim = "system_to_sim"
	// MapSimToSystem: sim time back to system time through Plan.Clock
	// (the reference is the recorder's clock and the subject followed
	// /clock).
	MapSimToSystem = "sim_to_system"
	// MapOffset: another machine's clock to the recorder's, plus Offset.
	MapOffset = "offset"
)

// Plan is what fix will do to one bag: the reference clock, the /clock
// fit, and one entry per stamped topic and tf link.
type Plan struct {
	PlanVersion int    `json:"plan_version"`
	Bagclock    string `json:"bagclock_version"`
	Bag         BagRef `json:"bag"`
	// Reference is the clock every repaired stamp is put on: "sim" or
	// "system"; ReferenceReason says why.
	Reference       string `json:"reference_clock"`
	ReferenceReason string `json:"reference_reason"`
	// ClockTopic and Clock: the recorded /clock and its fit against
	// record time (absent without /clock).
	ClockTopic string    `json:"clock_topic,omitempty"`
	Clock      *ClockMap `json:"clock,omitempty"`
	Entries    []Entry   `json:"entries"`
	// VerdictBefore is analyze's headline of the input.
	VerdictBefore string `json:"verdict_before"`
	// Damage is the input's damage headline when it is not intact: the
	// repair covers what could be read.
	Damage string `json:"damage,omitempty"`
	// SkippedMessages could not be read; they are not written.
	SkippedMessages int      `json:"skipped_messages"`
	Notes           []string `json:"notes,omitempty"`
}

// BagRef identifies the input bag: a plan for another or a changed bag
// is refused.
type BagRef struct {
	Path    string    `json:"path"`
	Storage string    `json:"storage"`
	SHA256  string    `json:"sha256"`
	Files   []FileRef `json:"files"`
}

// FileRef is one storage file of the input.
type FileRef struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Entry is the plan for one stamped topic or one tf link.
type Entry struct {
	Topic  string `json:"topic"`
	Link   string `json:"link,omitempty"`
	Type   string `json:"type"`
	Static bool   `json:"static,omitempty"`
	// Stamps counts the subject's stamps per clock family (sim, system,
	// zero, sim_without_clock).
	Stamps map[string]int `json:"stamps"`
	// On is the family most stamps are on; Want the reference clock.
	On   string `json:"on"`
	Want string `json:"want"`
	// Action is map, leave or refuse; Reason explains it.
	Action string `json:"action"`
	Reason string `json:"reason"`
	// Map rewrites the stamps on family Map.From; Zero gives stamps of 0
	// a synthesized one.
	Map  *Mapping   `json:"map,omitempty"`
	Zero *ZeroDonor `json:"zero,omitempty"`
	// Diagnosis is what analyze said of the subject, when it said
	// anything.
	Diagnosis string `json:"diagnosis,omitempty"`
}

// Subject is the entry's topic and link.
func (e *Entry) Subject() Subject { return Subject{Topic: e.Topic, Link: e.Link} }

// Mapping rewrites nonzero stamps of one family.
type Mapping struct {
	Kind string `json:"kind"`
	// From is the family of stamps it applies to; others are left.
	From string `json:"from"`
	// Offset (MapOffset, or a skewed machine under MapSystemToSim) is
	// added to the stamp before anything else.
	Offset *OffsetFit `json:"offset,omitempty"`
	// ClockResidualMaxNS is the worst /clock residual of the segments the
	// subject's messages fall in (MapSystemToSim).
	ClockResidualMaxNS int64 `json:"clock_residual_max_ns,omitempty"`
}

// ZeroDonor says how stamps of 0 get a stamp: the reference clock at
// record time − LatencyNS. Such stamps are synthesized, not recovered.
type ZeroDonor struct {
	// LatencyNS is the topic's typical record time − stamp; LatencyFrom
	// says where it was measured: "stamps" (the topic's nonzero stamps),
	// "publish_time" (MCAP publish time) or "none" (0: no measure; the
	// stamp is the record time itself).
	LatencyNS   int64  `json:"latency_ns"`
	LatencyFrom string `json:"latency_from"`
	Count       int    `json:"count"`
	// PairedTopic, when set, donates first: a stamp of 0 takes the stamp
	// (on the reference clock) of PairedTopic's message recorded nearest
	// to it, within PairMaxGapNS (half that topic's period) and each
	// donor message once: camera_info beside its image, or the image
	// beside its camera_info, which one driver stamps alike. Without such
	// a message the latency donor above applies.
	PairedTopic  string `json:"paired_topic,omitempty"`
	PairMaxGapNS int64  `json:"pair_max_gap_ns,omitempty"`
	// BeforeClock counts stamps of 0 recorded before the first /clock:
	// sim time did not exist yet, so they stay 0.
	BeforeClock int `json:"before_clock,omitempty"`
}

// Repairs reports whether the plan changes any stamp.
func (p *Plan) Repairs() bool {
	for i := range p.Entries {
		if p.Entries[i].Action == ActionMap {
			return true
		}
	}
	return false
}

// Build decides the plan from the analysis report of the bag and the
// sampling pass over it, choosing the reference clock itself. ref
// identifies the bag (Hash).
func Build(rep *analysis.Report, s *Samples, ref BagRef, version string) *Plan {
	return BuildFor(rep, s, ref, version, "")
}

// BuildFor is Build with the reference clock chosen by the caller: ClockSim,
// ClockSystem, or "" to choose (sim when the bag has /clock and something
// follows it). A sim reference without /clock falls back to the choice,
// with the reason.
func BuildFor(rep *analysis.Report, s *Samples, ref BagRef, version, want string) *Plan {
	p := &Plan{PlanVersion: PlanVersion, Bagclock: version, Bag: ref, Entries: []Entry{}}
	if rep != nil {
		p.VerdictBefore = rep.Verdict.Sentence
		if rep.Damage != nil && rep.Damage.Status != analysis.DamageOK {
			p.Damage = rep.Damage.Headline
		}
	}
	p.SkippedMessages = s.Skipped
	if s.Skipped > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d messages could not be read and are not written (first: %s)", s.Skipped, s.FirstError))
	}
	hasClock := len(s.Clock.Segments) > 0
	if hasClock {
		p.ClockTopic = s.ClockTopic
		cm := s.Clock
		p.Clock = &cm
	}
	p.Reference, p.ReferenceReason = reference(s, hasClock)
	switch {
	case want == ClockSystem && p.Reference != ClockSystem:
		p.Reference, p.ReferenceReason = ClockSystem, "asked for (--reference system): stamps on sim time are mapped back through "+s.ClockTopic
	case want == ClockSim && p.Reference != ClockSim && hasClock:
		p.Reference, p.ReferenceReason = ClockSim, "asked for (--reference sim): the bag has "+s.ClockTopic
	}
	diag := diagnoses(rep)
	onRecorder := 0 // dynamic subjects on the recorder's clock
	for _, st := range s.subjects {
		if !st.Static && st.n > st.counts[FamilyZero] && majority(st) == FamilySystem && !diag[st.Subject].isOffset() {
			onRecorder++
		}
	}
	for _, st := range s.subjects {
		e := Entry{Topic: st.Topic, Link: st.Link, Type: st.Type, Static: st.Static, Stamps: st.counts,
			On: majority(st), Want: p.Reference, Diagnosis: diag[st.Subject].String()}
		d := diag[st.Subject]
		decide(&e, st, s, p, onRecorder, d.isOffset())
		p.Entries = append(p.Entries, e)
	}
	return p
}

// reference picks the clock the repaired bag is on: sim time when the bag
// has /clock and some dynamic topic or link follows it (the nodes were
// meant to run on it), else the recorder's clock.
func reference(s *Samples, hasClock bool) (string, string) {
	if !hasClock {
		return ClockSystem, "the bag has no /clock: the recorder's clock (record time) is the reference"
	}
	for _, st := range s.subjects {
		if !st.Static && majority(st) == FamilySim {
			return ClockSim, fmt.Sprintf("the bag has %s and %s follows it", s.ClockTopic, st.Subject)
		}
	}
	return ClockSystem, fmt.Sprintf("the bag has %s but no topic or tf link follows it: the recorder's clock is the reference", s.ClockTopic)
}

// majority is the family of most nonzero stamps (zero if all are 0).
func majority(st *subjectStats) string {
	best, n := FamilyZero, 0
	for _, f := range []string{FamilySim, FamilySystem, FamilyFar} {
		if st.counts[f] > n {
			best, n = f, st.counts[f]
		}
	}
	return best
}

func decide(e *Entry, st *subjectStats, s *Samples, p *Plan, onRecorder int, offset bool) {
	leave := func(why string) { e.Action, e.Reason = ActionLeave, why }
	refuse := func(why string) { e.Action, e.Reason = ActionRefuse, why }
	switch {
	case st.Static:
		leave("static transform: tf2 uses it whatever its stamp")
		return
	case st.Link == "(more links)":
		leave(fmt.Sprintf("more than %d topics and links: the rest are not planned", maxSubjects))
		return
	}
	var why []string
	zero := st.counts[FamilyZero]
	nonzero := st.n - zero
	if f := st.counts[FamilyFar]; f > 0 {
		refuse(fmt.Sprintf("%d stamps are an epoch from record time (sim time) but the bag has no /clock to map them with", f))
		return
	}
	if nonzero > 0 {
		switch on := e.On; {
		case p.Reference == ClockSim && on == FamilySystem:
			m := &Mapping{Kind: MapSystemToSim, From: FamilySystem, ClockResidualMaxNS: worstResidual(&s.Clock)}
			if offset {
				if fit := st.env.fit(); fit.Messages >= minOffsetMessages && fit.Windows >= minOffsetWindows && abs64(fit.OffsetNS) >= minOffsetNS {
					m.Offset = &fit
				}
			}
			e.Map = m
			why = append(why, fmt.Sprintf("%d stamps on system time mapped to sim time through %s", st.counts[FamilySystem], s.ClockTopic))
		case on == FamilySim && p.Reference == ClockSim,
			on == FamilySystem && p.Reference == ClockSystem && !offset:
			why = append(why, "stamps already on the "+clockName(p.Reference))
		case on == FamilySystem && p.Reference == ClockSystem:
			fit := st.env.fit()
			switch {
			case onRecorder == 0:
				leave(fmt.Sprintf("offset from the recorder's clock (%s), but so is every other topic and link: they agree with each other, and the bag cannot tell whether the recorder or the robot was wrong (a replayed or re-recorded bag looks the same)", e.Diagnosis))
				return
			case abs64(fit.OffsetNS) < minOffsetNS && fit.Messages >= minOffsetMessages:
				leave(fmt.Sprintf("on the recorder's clock: the lower envelope of record time − stamp is %s, under %s", fmtNS(fit.OffsetNS), fmtNS(minOffsetNS)))
				return
			case fit.Messages < minOffsetMessages || fit.Windows < minOffsetWindows:
				refuse(fmt.Sprintf("offset from the recorder's clock, but only %d stamps in %d windows: too few to tell offset from latency", fit.Messages, fit.Windows))
				return
			}
			e.Map = &Mapping{Kind: MapOffset, From: FamilySystem, Offset: &fit}
			why = append(why, fmt.Sprintf("its machine's clock is %s the recorder's (lower envelope of record time − stamp, drift %.1f ppm): the offset is added to each stamp", aheadBehind(fit.OffsetNS), fit.DriftPPM))
		case on == FamilySim && p.Reference == ClockSystem && p.Clock == nil:
			refuse("stamps on sim time in a bag whose reference is the recorder's clock, and no /clock to map them with")
			return
		case on == FamilySim && p.Reference == ClockSystem:
			e.Map = &Mapping{Kind: MapSimToSystem, From: FamilySim, ClockResidualMaxNS: worstResidual(&s.Clock)}
			why = append(why, fmt.Sprintf("%d stamps on sim time mapped back to system time through %s", st.counts[FamilySim], s.ClockTopic))
		}
	}
	if zero > 0 {
		z := &ZeroDonor{Count: zero}
		if p.Reference == ClockSim {
			z.BeforeClock = st.zeroBeforeClock
		}
		switch lat, ok := latency(st, e.On, p.Reference); {
		case ok:
			z.LatencyNS, z.LatencyFrom = lat, "stamps"
		default:
			if pl, ok := st.pubLat.median(); ok && pl > 0 {
				z.LatencyNS, z.LatencyFrom = pl, "publish_time"
			} else {
				z.LatencyFrom = "none"
			}
		}
		if d := pairDonor(st, s); d != nil {
			z.PairedTopic = d.Topic
			z.PairMaxGapNS = (d.lastRec - d.firstRec) / int64(d.n-1) / 2
		}
		if z.BeforeClock == zero && z.PairedTopic == "" {
			refuse(fmt.Sprintf("%d stamps of 0, all recorded before the first /clock: no sim time to give them", zero))
			return
		}
		e.Zero = z
		if z.PairedTopic != "" {
			why = append(why, fmt.Sprintf("%d stamps of 0 take the stamp of the %s message recorded nearest (within %s), which the same driver stamps alike", zero, z.PairedTopic, fmtNS(z.PairMaxGapNS)))
			why = append(why, "without one: the reference clock at record time minus "+fmtNS(z.LatencyNS)+" latency ("+latencyFrom(z.LatencyFrom)+")")
		} else {
			why = append(why, fmt.Sprintf("%d stamps of 0 synthesized from the record time on the %s minus %s latency (%s)", zero-z.BeforeClock, clockName(p.Reference), fmtNS(z.LatencyNS), latencyFrom(z.LatencyFrom)))
		}
		if z.BeforeClock > 0 && z.PairedTopic == "" {
			why = append(why, fmt.Sprintf("%d stamps of 0 before the first /clock stay 0", z.BeforeClock))
		}
	}
	if e.Map != nil || e.Zero != nil {
		e.Action, e.Reason = ActionMap, strings.Join(why, "; ")
		return
	}
	if len(why) == 0 {
		why = append(why, "no stamps")
	}
	leave(strings.Join(why, "; "))
}

// pairDonor finds the topic whose stamps can stand in for st's stamps
// of 0: the camera_info of st's image, or the image of st's camera_info
// (same namespace, "image_raw" preferred when several images sit beside
// it), with nonzero stamps on most messages and at least two messages.
func pairDonor(st *subjectStats, s *Samples) *subjectStats {
	if st.Link != "" {
		return nil
	}
	dir, base := path.Split(st.Topic)
	isImage := func(t string) bool {
		return t == "sensor_msgs/msg/Image" || t == "sensor_msgs/msg/CompressedImage"
	}
	var cands []*subjectStats
	for _, o := range s.subjects {
		if o == st || o.Link != "" || o.n < 2 || o.counts[FamilyZero]*2 >= o.n {
			continue
		}
		odir, obase := path.Split(o.Topic)
		if odir != dir {
			continue
		}
		switch {
		case base == "camera_info" && isImage(o.Type):
			cands = append(cands, o)
		case isImage(st.Type) && obase == "camera_info":
			cands = append(cands, o)
		}
	}
	if len(cands) == 1 {
		return cands[0]
	}
	for _, c := range cands {
		if strings.HasSuffix(c.Topic, "/image_raw") {
			return c
		}
	}
	return nil
}

// latency is the subject's median age on its own clock, when enough
// nonzero stamps show it.
func latency(st *subjectStats, on, ref string) (int64, bool) {
	var smp *sampler
	switch on {
	case FamilySim:
		smp = &st.simLat
	case FamilySystem:
		smp = &st.recLat
	default:
		return 0, false
	}
	if len(smp.v) < minOffsetMessages {
		return 0, false
	}
	m, _ := smp.median()
	if m < 0 || m > 1_000_000_000 {
		return 0, false // not a latency: an offset, which its own mapping handles
	}
	return m, true
}

func latencyFrom(s string) string {
	switch s {
	case "stamps":
		return "the median age of its other stamps"
	case "publish_time":
		return "the median of record time − publish time"
	}
	return "no stamps or publish times to measure it: the stamp is the record time"
}

func clockName(c string) string {
	if c == ClockSim {
		return "sim time (/clock)"
	}
	return "recorder's clock"
}

func worstResidual(m *ClockMap) int64 {
	var w int64
	for _, s := range m.Segments {
		w = max(w, s.ResidualMaxNS)
	}
	return w
}

// diagnosis is what the report's typed findings say of one subject.
type diagnosis struct {
	// text lists "kind detail" of each finding, for the plan.
	text []string
	// offset: a finding calls the subject's stamps an offset between two
	// machines' clocks (skew constant_offset, an age ahead of the
	// recorder, rows of class clock_skew).
	offset bool
}

func (d *diagnosis) String() string {
	if d == nil {
		return ""
	}
	return strings.Join(d.text, "; ")
}

// isOffset reports whether d calls the stamps a clock offset.
func (d *diagnosis) isOffset() bool { return d != nil && d.offset }

// diagnoses maps each subject to the typed findings (analysis/finding)
// that name it. Findings name topics, not the tf link whose stamps are
// off, so a link's offset comes from the skew table's own entry for it.
func diagnoses(rep *analysis.Report) map[Subject]*diagnosis {
	out := map[Subject]*diagnosis{}
	if rep == nil {
		return out
	}
	note := func(k Subject, text string, offset bool) {
		d := out[k]
		if d == nil {
			d = &diagnosis{}
			out[k] = d
		}
		if !slices.Contains(d.text, text) {
			d.text = append(d.text, text)
		}
		d.offset = d.offset || offset
	}
	for _, f := range rep.Findings {
		offset := (f.Kind == finding.Skew && (f.Detail == analysis.SkewConstantOffset || f.Detail == analysis.AgeAhead)) ||
			f.Detail == string(analysis.ClockSkew)
		text := string(f.Kind)
		if f.Detail != "" {
			text += " " + f.Detail
		}
		for _, t := range f.Subjects.Topics {
			note(Subject{Topic: t}, text, offset)
		}
	}
	for _, sk := range rep.Skew {
		if sk.Link != "" && sk.Kind != analysis.SkewOK && sk.Kind != analysis.SkewJitter {
			note(Subject{sk.Topic, sk.Link}, fmt.Sprintf("skew %s (median age %.3g s)", sk.Kind, sk.MedianS), sk.Kind == analysis.SkewConstantOffset)
		}
	}
	return out
}

// fmtNS prints a duration in the unit that reads best.
func fmtNS(ns int64) string {
	a := abs64(ns)
	switch {
	case a >= 1_000_000_000:
		return fmt.Sprintf("%.3f s", float64(ns)/1e9)
	case a >= 1_000_000:
		return fmt.Sprintf("%.2f ms", float64(ns)/1e6)
	case a >= 1_000:
		return fmt.Sprintf("%.1f µs", float64(ns)/1e3)
	}
	return fmt.Sprintf("%d ns", ns)
}

// aheadBehind words a lower envelope of record time − stamp: negative
// means the stamping clock runs ahead.
func aheadBehind(envNS int64) string {
	if envNS < 0 {
		return fmtNS(-envNS) + " ahead of"
	}
	return fmtNS(envNS) + " behind"
}
