package analysis

import (
	"fmt"
	"strings"

	"github.com/bagclock/bagclock/analysis/finding"
)

// collectFindings gathers the typed findings of the finished report: those
// of the per-message rows (drops, missing links, clock mismatches, skew,
// zero stamps), of the jumps, and those each check emits from its own
// results (tf tree, clock steps, stuck-zero topics, wall timers, ages,
// skew table). Each emitter reads its own part of the report only.
func collectFindings(r *Report) []finding.Finding {
	var fs []finding.Finding
	fs = append(fs, rowFindings(r)...)
	fs = append(fs, jumpFindings(r)...)
	fs = append(fs, zeroStampFindings(r, r.pairPtrs())...)
	fs = append(fs, skewTableFindings(r.Skew)...)
	fs = append(fs, aheadFindings(r.Ages)...)
	fs = append(fs, tfTreeFindings(r.TFFindings)...)
	fs = append(fs, clockStepFindings(r.ClockSteps)...)
	fs = append(fs, stuckZeroFindings(r.StuckZero)...)
	fs = append(fs, wallTimerFindings(r.TimerClocks)...)
	fs = append(fs, staleFindings(r.Ages)...)
	fs = append(fs, syncFindings(r.Sync)...)
	fs = append(fs, deviceClockFindings(r.DeviceClocks)...)
	for i := range fs {
		fs[i] = finding.Normalize(fs[i])
	}
	finding.Sort(fs)
	if fs == nil {
		fs = []finding.Finding{}
	}
	return fs
}

// pairSubjects names a pair's topic and its two frames.
func pairSubjects(p *PairSummary) finding.Subjects {
	s := finding.Subjects{Topics: []string{p.Topic}}
	for _, f := range []string{p.FrameID, strings.TrimPrefix(p.TargetFrame, "/")} {
		if f != "" && !contains(s.Frames, f) {
			s.Frames = append(s.Frames, f)
		}
	}
	return s
}

// rowFindings are the findings of the per-message rows, one per pair:
// drops (start-up drops and never-connected frames left out), frames
// never connected to their target, clock families apart (an epoch, or
// seconds in a tenth of a pair's rows) and a sensor off /clock on a path
// tf cannot judge.
func rowFindings(r *Report) []finding.Finding {
	var drops, links, mismatch, skew []finding.Finding
	noTF := len(r.TFTree) == 0
	_, unlinked := r.MissingLinkDrops()
	for _, p := range r.pairPtrs() {
		n := p.Rows()
		dropped := 0
		for k, c := range p.Filter {
			if strings.HasPrefix(k, "dropped_") {
				dropped += c
			}
		}
		dropped -= p.StartupDrops
		if noTF {
			// No transform in the whole bag: every message waits for tf that
			// was never recorded. The emulated drops describe the recording,
			// not the robot; only an empty frame_id is a drop whatever tf does.
			dropped = p.Filter["dropped_empty_frame"]
		}
		never := false
		for _, u := range unlinked {
			never = never || u == p
		}
		if never {
			for k, c := range p.Filter {
				if strings.HasPrefix(k, "dropped_") && k != "dropped_empty_frame" {
					dropped -= c
				}
			}
		}
		unit := strings.TrimSuffix(UnitOf(p.Type), "s")
		if dropped > 0 {
			f := finding.Finding{Kind: finding.Drop, Check: "rows", Severity: finding.Error,
				Confidence: finding.Confidence{Level: finding.High,
					Basis:       fmt.Sprintf("the %s MessageFilter (queue %d) emulated over the recorded tf drops %d of %d", p.Consumer, p.QueueSize, dropped, n),
					Contradicts: "the consumer's own log (/rosout) without these drops, or a consumer with another queue size or tolerance"},
				Subjects: pairSubjects(p),
				Numbers: []finding.Number{finding.N("drops", float64(dropped), "messages"), finding.N("rows", float64(n), "messages"),
					finding.N("startup_drops", float64(p.StartupDrops), "messages")},
				Sentence: fmt.Sprintf("%s → %s: %s dropped by the emulated %s filter (%s).", p.Topic, p.TargetFrame, Plural(dropped, unit), p.Consumer, CountsText(p.Filter)),
			}
			if p.Stalest != "" {
				f.Subjects.Links = []string{p.Stalest}
			}
			drops = append(drops, f)
		}
		if never {
			links = append(links, finding.Finding{Kind: finding.MissingLink, Check: "missinglink", Severity: finding.Error,
				Confidence: finding.Confidence{Level: finding.High,
					Basis:       fmt.Sprintf("no chain of recorded transforms joins '%s' to '%s' at any time in the bag", p.FrameID, strings.TrimPrefix(p.TargetFrame, "/")),
					Contradicts: "the link on the robot (ros2 run tf2_tools view_frames): then it was only missing from the recording (a latched /tf_static published before the recorder started)"},
				Subjects: pairSubjects(p),
				Numbers:  []finding.Number{finding.N("rows", float64(n), "messages")},
				Sentence: r.MissingLinkSentence(p),
			})
		}
		for _, c := range []Class{LaserOnSystemClock, TFOnSystemClock} {
			k := p.Classes[string(c)]
			if k == 0 {
				continue
			}
			f := finding.Finding{Kind: finding.ClockMismatch, Detail: string(c), Check: "rows", Severity: finding.Error,
				Confidence: finding.Confidence{Level: finding.High,
					Basis:       fmt.Sprintf("%d of %d messages are ~1.79e9 s from the latest transform on their path (median %s): one side on system time, the other on sim time", k, n, FmtS(p.MedianDiffS)),
					Contradicts: "stamps and transforms within seconds of each other"},
				Subjects: pairSubjects(p),
				Numbers: []finding.Number{finding.N("rows_of_class", float64(k), "messages"), finding.N("rows", float64(n), "messages"),
					finding.N("median_diff", p.MedianDiffS, "s")},
				Sentence: fmt.Sprintf("%s → %s: %d of %d %s are %s (median %s stamp − latest tf %s).", p.Topic, p.TargetFrame, k, n, UnitOf(p.Type), c, unit, FmtS(p.MedianDiffS)),
			}
			if p.Stalest != "" {
				f.Subjects.Links = []string{p.Stalest}
			}
			mismatch = append(mismatch, f)
		}
		// An epoch between stamps is a clock fault in any row; seconds are
		// skew only when they describe a tenth of a pair's rows, as for the
		// headline: a few rows a second or two ahead of a link that paused
		// (AMCL between updates) are lag, not two clocks.
		if k := p.Classes[string(ClockSkew)]; k > 0 && 10*k >= n {
			basis := fmt.Sprintf("%d of %d messages are seconds from the latest transform on one clock family (median %s)", k, n, FmtS(p.MedianDiffS))
			nums := []finding.Number{finding.N("rows_of_class", float64(k), "messages"), finding.N("rows", float64(n), "messages"),
				finding.N("median_diff", p.MedianDiffS, "s")}
			for _, kind := range []finding.Kind{finding.ClockMismatch, finding.Skew} {
				f := finding.Finding{Kind: kind, Detail: string(ClockSkew), Check: "rows", Severity: finding.Error,
					Confidence: finding.Confidence{Level: finding.Medium, Basis: basis,
						Contradicts: "a tf publisher that paused for that long (the offset would then vary, not stay)"},
					Subjects: pairSubjects(p), Numbers: nums,
					Sentence: fmt.Sprintf("%s → %s: %s apart from tf on the same clock family in %d of %d %s.", p.Topic, p.TargetFrame, FmtS(p.MedianDiffS), k, n, UnitOf(p.Type)),
				}
				if p.Stalest != "" {
					f.Subjects.Links = []string{p.Stalest}
				}
				if kind == finding.ClockMismatch {
					mismatch = append(mismatch, f)
				} else {
					skew = append(skew, f)
				}
			}
		}
	}
	if p, c := r.OffClockPair(); p != nil {
		lag := r.OffClockTopics()[p.Topic]
		mismatch = append(mismatch, finding.Finding{Kind: finding.ClockMismatch, Detail: VerdictSensorOnSystemClock, Check: "offclock", Severity: finding.Error,
			Confidence: finding.Confidence{Level: finding.High,
				Basis:       fmt.Sprintf("%s's stamps follow record time (system time, %s behind it) while /clock runs sim time; its path to '%s' is %s, so the rows cannot show it", p.Topic, FmtS(lag), strings.TrimPrefix(p.TargetFrame, "/"), c),
				Contradicts: "a /clock that follows system time"},
			Subjects: pairSubjects(p),
			Numbers:  []finding.Number{finding.N("record_time_minus_stamp", lag, "s"), finding.N("rows", float64(p.Rows()), "messages")},
			Sentence: fmt.Sprintf("%s is stamped with system time while /clock runs sim time.", p.Topic),
		})
	}
	out := append(drops, links...)
	out = append(out, mismatch...)
	return append(out, skew...)
}

// jumpFindings: /clock jumps and, in bags without /clock, stamp jumps.
func jumpFindings(r *Report) []finding.Finding {
	var out []finding.Finding
	if n := r.Counts.ClockJumps; n > 0 {
		back := r.Counts.BackwardJumps
		sev := finding.Warning
		if back > 0 {
			sev = finding.Error // every sim-time node clears its tf buffer
		}
		out = append(out, finding.Finding{Kind: finding.Jump, Detail: "clock_jump", Check: "clock", Severity: sev,
			Confidence: finding.Confidence{Level: finding.High, Basis: fmt.Sprintf("/clock itself jumps %s (%d back)", Plural(n, "time"), back)},
			Subjects:   finding.Subjects{Topics: []string{"/clock"}},
			Numbers:    []finding.Number{finding.N("jumps", float64(n), "count"), finding.N("backward", float64(back), "count")},
			Sentence:   fmt.Sprintf("/clock jumps %s, %d of them back.", Plural(n, "time"), back),
		})
	}
	if n := r.Counts.StampJumps; n > 0 {
		f := finding.Finding{Kind: finding.Jump, Detail: "stamp_jump", Check: "stampjumps", Severity: finding.Warning,
			Confidence: finding.Confidence{Level: finding.Medium,
				Basis:       fmt.Sprintf("header stamps jump %s on sensor topics or tf links (no /clock)", Plural(n, "time")),
				Contradicts: "the other topics of the same machine keeping their lag across the jump (a republisher's delay or a repeated stamp)"},
			Numbers:  []finding.Number{finding.N("jumps", float64(n), "count")},
			Sentence: StampJumpSentence(r),
		}
		for _, j := range r.StampJumps {
			if j.Link != "" {
				if !contains(f.Subjects.Links, j.Link) {
					f.Subjects.Links = append(f.Subjects.Links, j.Link)
				}
			} else if j.Topic != "" && !contains(f.Subjects.Topics, j.Topic) {
				f.Subjects.Topics = append(f.Subjects.Topics, j.Topic)
			}
		}
		out = append(out, f)
	}
	return out
}

// zeroStampFindings: one finding for the messages stamped 0, naming the
// topics that have them.
func zeroStampFindings(r *Report, pairs []*PairSummary) []finding.Finding {
	z := r.ZeroStamp
	if z.Count == 0 {
		return nil
	}
	f := finding.Finding{Kind: finding.ZeroStamp, Check: "zerostamp", Severity: finding.Error,
		Confidence: finding.Confidence{Level: finding.High, Basis: fmt.Sprintf("%s with header.stamp 0", Plural(z.Count, "message"))},
		Numbers: []finding.Number{finding.N("messages", float64(z.Count), "messages"), finding.N("before_first_clock", float64(z.BeforeFirstClock), "messages"),
			finding.N("max_displacement", z.MaxDisplacementM, "m"), finding.N("max_rotation", z.MaxRotationDeg, "deg")},
		Sentence: fmt.Sprintf("%s stamped 0: tf2 pairs them with the latest transform.", Plural(z.Count, "message")),
	}
	for _, p := range pairs {
		if p.Classes[string(ZeroStamp)] > 0 && !contains(f.Subjects.Topics, p.Topic) {
			f.Subjects.Topics = append(f.Subjects.Topics, p.Topic)
		}
	}
	return []finding.Finding{f}
}

// levelOf maps a 0..1 confidence to a level.
func levelOf(c float64) finding.Level {
	switch {
	case c >= 0.9:
		return finding.High
	case c >= 0.6:
		return finding.Medium
	}
	return finding.Low
}
