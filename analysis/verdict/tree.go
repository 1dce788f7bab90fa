package verdict

import "github.com/bagclock/bagclock/analysis"

// tfTreeVerdict leads the verdict with the most important tf-tree finding
// when the bag has no analysed message to judge by; it reports whether it
// did.
func (d decider) tfTreeVerdict(v *draft) bool {
	fs := d.rep.TFFindings
	if len(fs) == 0 {
		return false
	}
	v.head = d.treeHeadline(fs[0])
	v.Class = analysis.VerdictTFTree + fs[0].Kind
	v.Evidence = append(v.Evidence, fs[0].Evidence...)
	for _, f := range fs[1:] {
		v.Evidence = append(v.Evidence, f.Sentence)
	}
	v.cmds = append(v.cmds, viewFrames())
	return true
}

// tfTreeLead puts a serious tf-tree finding (another clock family, a
// stale link, conflicting static values) in the headline when the sensor
// rows found nothing wrong, keeping the rows' sentence as evidence; other
// findings become evidence lines, but tf's offset from the recorder when
// the evidence says every stamp lags record time (everyStampLags).
//
// Rows whose only fault is drops on tf's own clock (rowsDrop) yield to any
// finding about tf's timing, up to its offset from the recorder: a tree on
// two clocks, a stale link or stamps running back are why messages wait
// and drop, and the drops become evidence.
func (d decider) tfTreeLead(v *draft, rowsHealthy, rowsDrop, everyStampLags bool) {
	fs := d.rep.TFFindings
	if len(fs) == 0 {
		return
	}
	switch {
	case rowsHealthy && fs[0].Rank <= analysis.RankTFStatic, rowsDrop && fs[0].Rank <= analysis.RankTFOffset:
		v.Evidence = append(v.Evidence, "Sensor topics: "+v.head.demoted().String())
		v.head = d.treeHeadline(fs[0])
		v.Class = analysis.VerdictTFTree + fs[0].Kind
		v.Evidence = append(v.Evidence, fs[0].Evidence...)
		fs = fs[1:]
	case rowsHealthy:
		// A warning of the tree (repeated or backward stamps, an offset
		// from the recorder) still outranks "no clock problem": it is a
		// finding, and --fail-on counts it.
		h := d.treeHeadline(fs[0])
		h.parts = append(v.head.healthyStem().parts, append([]part{text("; but the tf tree has a warning: ")}, h.parts...)...)
		h.topics = v.head.topics
		v.head = h
		v.Class = analysis.VerdictTFTree + fs[0].Kind
		v.Evidence = append(v.Evidence, fs[0].Evidence...)
		fs = fs[1:]
	}
	for _, f := range fs {
		if f.Kind == analysis.TFOffsetFromRecorder && everyStampLags {
			continue // the line about every stamp, tf's included, said it
		}
		v.Evidence = append(v.Evidence, "tf tree: "+f.Sentence)
	}
}

// treeHeadline is a tf-tree finding as the headline: a tree on two clocks
// asks for use_sim_time:=true on the system-time side (twoClocksSentence
// in analysis/tftree_clock.go); no other tree finding asks about it.
func (d decider) treeHeadline(f analysis.TFFinding) headline {
	h := whole(f.Sentence)
	if f.Kind == analysis.TFOtherClockFamily {
		h.ask = askSimTimeTrue
	}
	return h
}
