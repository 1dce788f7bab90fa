package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// syncPlot draws, for every emulated synchronizer, the median stamp
// offset of each of its topics against the first over record time: a
// steady line is a stamping point, a slope two clocks drifting, a line at
// ±1.79e9 s two clock epochs. Offsets under a second use a linear axis in
// milliseconds; larger ones the diff plot's signed log axis.
func syncPlot(r *analysis.Report, dur float64) *plot {
	p := newPlot("plot-sync", "Synchronizer inputs: stamp offset against the first topic, over record time", "linear")
	type line struct {
		name string
		pts  []analysis.SyncOffsetPoint
	}
	var lines []line
	for _, s := range r.Sync {
		for _, o := range s.Offsets {
			if len(o.Series) > 0 {
				lines = append(lines, line{o.To + " − " + o.From, o.Series})
			}
		}
	}
	if len(lines) == 0 {
		p.Empty = "No synchronizer input had a pair of non-zero stamps to compare, so there is no offset to plot."
		return p
	}
	if len(lines) > maxDiffSeries {
		p.Omitted = strconv.Itoa(len(lines)-maxDiffSeries) + " more pairs not drawn (see JSON or --sync-csv)."
		lines = lines[:maxDiffSeries]
	}
	var xs []float64
	maxAbs := 0.0
	for _, l := range lines {
		for _, pt := range l.pts {
			if finite(pt.MedianS) {
				xs = append(xs, pt.XS)
				maxAbs = math.Max(maxAbs, math.Abs(pt.MedianS))
			}
		}
	}
	d := &p.Data
	d.X0, d.X1 = xDomain(dur, xs...)
	scale := 1.0
	if maxAbs >= 1 {
		d.Mode, d.YLabel = "symlog", "offset (signed log)"
		top := decadeAbove(maxAbs)
		d.Y0, d.Y1 = -top, top
		d.YTicks = append(d.YTicks, tick{V: 0, Label: "0"})
		for e := 12; e >= -3; e -= 3 {
			if v := math.Pow(10, float64(e)); v <= top {
				d.YTicks = append(d.YTicks, tick{V: v, Label: decadeLabel(v)}, tick{V: -v, Label: decadeLabel(-v)})
			}
		}
	} else {
		// Milliseconds: the readout and ticks then read "30", not "0.03".
		scale, d.YLabel = 1000, "offset (ms)"
		top := math.Max(maxAbs*scale*1.1, 1)
		step := niceStep(2*top, 6)
		d.Y0, d.Y1 = -math.Ceil(top/step)*step, math.Ceil(top/step)*step
		for i := range min(int(math.Round((d.Y1-d.Y0)/step)), 19) + 1 {
			v := d.Y0 + float64(i)*step
			d.YTicks = append(d.YTicks, tick{V: v, Label: trimFloat(v, step)})
		}
	}
	for i, l := range lines {
		c := seriesColors[i%len(seriesColors)]
		s := series{Name: l.name, Color: c, Kind: "line"}
		if len(l.pts) == 1 {
			s.Kind = "dots"
		}
		for _, pt := range l.pts {
			if finite(pt.MedianS) {
				s.X = append(s.X, roundX(pt.XS))
				s.Y = append(s.Y, pt.MedianS*scale)
			}
		}
		p.Legend = append(p.Legend, legendItem{Name: l.name, Color: c, Series: len(d.Series)})
		d.Series = append(d.Series, s)
	}
	p.Caption = "Each line is one pair of a synchronizer's topics: the median of (its stamp − the nearest stamp of the first topic) over a stretch of the bag. " +
		"Flat: one clock, stamped at different points (the pose cost below says what that costs). Sloped: two clocks drifting apart. Far from zero: an ApproximateTime max interval or ExactTime never pairs them."
	return p
}

// syncRow is one synchronizer in the "Synchronizers" table.
type syncRow struct {
	Topics, Policy, Source string
	Sets                   int64
	FirstSet, Spread       string
	Unused                 string
	Fires                  bool
	Sentence               string
	// Pairs: per topic after the first, its offset, clock relation and,
	// when a steady offset costs pose, that sentence.
	Pairs []syncPairRow
}

type syncPairRow struct {
	From, To, Offset, Drift, Clock, Basis, Cost string
}

// syncRows turns the report's synchronizers into table rows.
func syncRows(r *analysis.Report) []syncRow {
	var out []syncRow
	for _, s := range r.Sync {
		row := syncRow{Topics: strings.Join(s.Topics, ", "), Policy: s.Policy + ", queue " + strconv.Itoa(s.QueueSize), Source: s.Source,
			Sets: s.Sets, FirstSet: "–", Spread: "–", Fires: s.Fires, Sentence: s.Sentence}
		if s.MaxIntervalS != nil {
			row.Policy += ", max interval " + humanSeconds(*s.MaxIntervalS)
		}
		if s.FirstSetS != nil {
			row.FirstSet = "+" + humanSeconds(*s.FirstSetS)
		}
		if s.SpreadMedianS != nil && s.SpreadMaxS != nil {
			row.Spread = humanSeconds(*s.SpreadMedianS) + " / " + humanSeconds(*s.SpreadMaxS)
		}
		parts := make([]string, len(s.Topics))
		for i := range s.Topics {
			parts[i] = "–"
			if i < len(s.Unused) && i < len(s.Received) {
				parts[i] = strconv.FormatInt(s.Unused[i], 10) + " of " + strconv.FormatInt(s.Received[i], 10)
			}
		}
		row.Unused = strings.Join(parts, ", ")
		for _, o := range s.Offsets {
			pr := syncPairRow{From: o.From, To: o.To, Offset: "–", Drift: "–", Clock: strings.ReplaceAll(o.Clock, "_", " "), Basis: o.ClockBasis}
			if o.Samples > 0 {
				pr.Offset = humanSeconds(o.MedianS) + " (p95 |offset| " + humanSeconds(o.P95AbsS) + ")"
				pr.Drift = humanSeconds(o.DriftS)
			}
			if o.Cost != nil {
				pr.Cost = o.Cost.Sentence
			}
			row.Pairs = append(row.Pairs, pr)
		}
		out = append(out, row)
	}
	return out
}
