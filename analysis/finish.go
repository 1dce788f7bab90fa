package analysis

import (
	"fmt"
	"math"
	"sort"
)

// finish lets the filters decide what they still hold, then the clock,
// the rows and every check (in rank order) write their parts of the
// report; findings and the verdict come last, from the whole report.
func (a *analyzer) finish() *Report {
	a.rows.finishFilters(a)
	a.clock.finish(a)
	a.rows.finish(a)
	for _, c := range a.checks {
		c.finish(a)
	}
	r := &a.rep
	s := &r.Summary
	if r.StampJumps == nil {
		r.StampJumps = []ClockJump{}
	}
	if r.Skew == nil {
		r.Skew = []Skew{}
	}
	if r.TFTree == nil {
		r.TFTree = []TFLink{}
	}
	if r.Rosout == nil {
		r.Rosout = []RosoutLine{}
	}
	r.Skipped = []Skipped{}
	for _, sk := range a.skipped {
		r.Skipped = append(r.Skipped, *sk)
		s.Skipped += sk.Count
	}
	sort.Slice(r.Skipped, func(i, j int) bool { return r.Skipped[i].Topic < r.Skipped[j].Topic })
	s.Findings = a.findings()
	r.Verdict = a.verdict()
	s.Verdict = r.Verdict.Sentence
	return r
}

func absI(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// findings lists the --fail-on categories present.
func (a *analyzer) findings() []string {
	r := &a.rep
	c := r.Summary.Classes
	f := []string{}
	drops := 0
	for k, v := range r.Summary.Filter {
		if len(k) > 8 && k[:8] == "dropped_" {
			drops += v
		}
	}
	if drops > 0 {
		f = append(f, "drop")
	}
	if c[string(LaserOnSystemClock)]+c[string(TFOnSystemClock)]+c[string(ClockSkew)] > 0 {
		f = append(f, "clock-mismatch")
	}
	if r.Counts.ClockJumps > 0 || r.Counts.StampJumps > 0 {
		f = append(f, "jump")
	}
	if r.ZeroStamp.Count > 0 {
		f = append(f, "zero-stamp")
	}
	skew := c[string(ClockSkew)] > 0
	for _, s := range r.Skew {
		if s.Kind == SkewConstantOffset {
			skew = true
		}
	}
	if skew {
		f = append(f, "skew")
	}
	return f
}

func fmtS(s float64) string {
	switch a := math.Abs(s); {
	case a >= 1e6:
		return fmt.Sprintf("%.4g s", s)
	case a >= 1:
		return fmt.Sprintf("%.3f s", s)
	default:
		return fmt.Sprintf("%.1f ms", s*1000)
	}
}
