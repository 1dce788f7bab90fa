package render

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// Limits that keep a report small whatever analysis hands over: a one-hour
// bag must stay under 2 MB of HTML.
const (
	maxPointsPerSeries = 2000
	maxDiffSeries      = 12
	maxMarkers         = 300
	maxTableRows       = 500
)

// Plot geometry in SVG user units; the SVG scales to the page width.
const (
	plotW      = 1000.0
	plotH      = 300.0
	plotLeft   = 78.0
	plotRight  = 16.0
	plotTop    = 14.0
	plotBottom = 34.0
)

// symlogC is where the signed-log axis turns linear: 0.1 ms. Below it
// differences are indistinguishable from zero anyway.
const symlogC = 1e-4

// plot is one chart of the page. Go decides what is drawn (domains,
// value ticks, series, markers, thinning); the page script draws it as
// SVG at the figure's real pixel width, so text keeps its size on a phone,
// and redraws it on hover, zoom and legend clicks. Data is the JSON the
// script reads; html/template escapes it inside <script>.
type plot struct {
	ID             string
	Title, Caption string
	Empty          string // set when there is nothing to draw
	Legend         []legendItem
	Omitted        string // note about dropped series or points
	Data           plotData
}

// plotData is what the page script draws. X values are seconds since the
// bag start; Y values are in data units (seconds, or counts for bars).
type plotData struct {
	ID     string  `json:"id"`
	Mode   string  `json:"mode"` // "symlog", "linear" or "count"
	XLabel string  `json:"xlabel"`
	YLabel string  `json:"ylabel"`
	X0     float64 `json:"x0"`
	X1     float64 `json:"x1"`
	Y0     float64 `json:"y0"`
	Y1     float64 `json:"y1"`
	// YBase is subtracted from every y before drawing (a /clock on
	// system time reads better as an offset); readouts add it back.
	YBase  float64  `json:"ybase"`
	YTicks []tick   `json:"yticks"`
	Bucket float64  `json:"bucket,omitempty"` // bar width in seconds
	Series []series `json:"series"`
	Zones  []zone   `json:"zones,omitempty"`
	HLines []hline  `json:"hlines,omitempty"`
	// Outcomes names the filter outcomes that Series[].O indexes.
	Outcomes []string `json:"outcomes,omitempty"`
}

// tick is a labelled value on an axis.
type tick struct {
	V     float64 `json:"v"`
	Label string  `json:"label"`
}

// series is one legend entry: dots, a line, stacked bars, vertical
// markers or shaded bands. Optional columns are parallel to X.
type series struct {
	Name  string    `json:"name"`
	Color string    `json:"color"`
	Kind  string    `json:"kind"` // "dots", "line", "bars", "markers", "bands"
	X     []float64 `json:"x"`
	Y     []float64 `json:"y,omitempty"`
	// X2 ends a band; Labels and Titles go with markers and bands.
	X2     []float64 `json:"x2,omitempty"`
	Labels []string  `json:"labels,omitempty"`
	Titles []string  `json:"titles,omitempty"`
	// I, S, O, L: scan index, header stamp (sec.nanosec, exact), outcome
	// (index into plotData.Outcomes, -1 unknown), simulated log line.
	I []uint64 `json:"i,omitempty"`
	S []string `json:"s,omitempty"`
	O []int    `json:"o,omitempty"`
	L []string `json:"l,omitempty"`
}

// zone is a horizontal stripe across the plot between two y values.
type zone struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Color string  `json:"color"`
	Label string  `json:"label"`
}

type hline struct {
	Y     float64 `json:"y"`
	Label string  `json:"label"`
	Color string  `json:"color"`
}

type legendItem struct {
	Name   string
	Color  string
	Note   string
	Series int  // index into Data.Series; -1 for a legend entry that toggles nothing
	Swatch bool // a plain swatch (zones) rather than a toggle
}

// seriesColors avoid pure red and green, which the page uses for bad and good.
var seriesColors = []string{"#2563eb", "#0d9488", "#9333ea", "#ea580c", "#db2777", "#0891b2",
	"#65a30d", "#b45309", "#4f46e5", "#be123c", "#475569", "#a16207"}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// symlog is the signed log used for the diff axis: linear near zero,
// log10 beyond symlogC, so 1 ms and 1.79e9 s share one axis.
func symlog(v float64) float64 {
	return math.Copysign(math.Log10(1+math.Abs(v)/symlogC), v)
}

// decimate keeps at most max points of pts (finite ones only), preserving
// each bucket's minimum and maximum so spikes survive.
func decimate(pts []analysis.Point, max int) []analysis.Point {
	clean := make([]analysis.Point, 0, min(len(pts), max))
	fin := 0
	for _, p := range pts {
		if finite(p.X) && finite(p.Y) {
			fin++
		}
	}
	if fin <= max {
		for _, p := range pts {
			if finite(p.X) && finite(p.Y) {
				clean = append(clean, p)
			}
		}
		return clean
	}
	buckets := max / 2
	per := float64(fin) / float64(buckets)
	i, b := 0, 0
	var lo, hi analysis.Point
	var loI, hiI int
	empty := true // the current bucket has no point yet
	flush := func() {
		if empty {
			return
		}
		if loI <= hiI {
			clean = append(clean, lo)
			if hiI != loI {
				clean = append(clean, hi)
			}
		} else {
			clean = append(clean, hi, lo)
		}
		empty = true
	}
	for _, p := range pts {
		if !finite(p.X) || !finite(p.Y) {
			continue
		}
		if nb := int(float64(i) / per); nb != b {
			flush()
			b = nb
		}
		if empty || p.Y < lo.Y {
			lo, loI = p, i
		}
		if empty || p.Y > hi.Y {
			hi, hiI = p, i
		}
		empty = false
		i++
	}
	flush()
	return clean
}

// niceStep returns a 1-2-5 step giving about n ticks over span.
func niceStep(span float64, n int) float64 {
	if span <= 0 || !finite(span) {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

// trimFloat prints v with as many decimals as step needs; a value that
// prints as zero reads "0", never "-0" (ticks stepped to zero carry float
// error of either sign).
func trimFloat(v, step float64) string {
	dec := max(0, int(math.Ceil(-math.Log10(step))))
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	return s
}

// decadeAbove is the smallest power of ten ≥ v (v > 0).
func decadeAbove(v float64) float64 {
	return math.Pow(10, math.Ceil(math.Log10(v)-1e-12))
}

// decadeLabel names a signed power of ten in seconds: 1 ms, 10 s, 1e9 s.
func decadeLabel(v float64) string {
	if v == 0 {
		return "0"
	}
	sign := ""
	if math.Signbit(v) {
		sign = "−"
	}
	a := math.Abs(v)
	e := int(math.Round(math.Log10(a)))
	var s string
	switch {
	case e <= -7:
		s = "1e" + strconv.Itoa(e) + " s"
	case e <= -4:
		s = strconv.FormatFloat(a*1e6, 'f', 0, 64) + " µs"
	case e <= -1:
		s = strconv.FormatFloat(a*1e3, 'f', 0, 64) + " ms"
	case e <= 3:
		s = strconv.FormatFloat(a, 'f', 0, 64) + " s"
	default:
		s = "1e" + strconv.Itoa(e) + " s"
	}
	return sign + s
}

func newPlot(id, title, mode string) *plot {
	p := &plot{ID: id, Title: title}
	p.Data = plotData{ID: id, Mode: mode, XLabel: "record time since bag start"}
	return p
}

// xDomain returns the record-time range covered by all given series.
func xDomain(dur float64, xs ...float64) (float64, float64) {
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if finite(x) {
			x0, x1 = math.Min(x0, x), math.Max(x1, x)
		}
	}
	if dur > 0 && finite(dur) {
		x0, x1 = math.Min(x0, 0), math.Max(x1, dur)
	}
	if !finite(x0) || !finite(x1) {
		return 0, 1
	}
	if x1-x0 < 1e-9 {
		x1 = x0 + 1
	}
	return x0, x1
}

// roundX keeps record times to the microsecond: the readout shows
// milliseconds and the page stays small.
func roundX(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// logLineBudget bounds the bytes of simulated log lines carried for the
// diff readout; past it the readout shows the outcome without the line.
const logLineBudget = 200_000

// diffPointBudget bounds the diff plot's points over all its series, so
// twelve topics do not push a one-hour page over 2 MB.
const diffPointBudget = 8000

// diffPlot draws diff_s per (topic → target) over record time on a signed
// log axis that is symmetric about zero, so −1.79e9 s (tf on system time)
// is labelled like +1.79e9 s.
func diffPlot(r *analysis.Report, dur float64) *plot {
	p := newPlot("plot-diff", "Message stamp − latest tf stamp, over record time", "symlog")
	p.Data.YLabel = "diff (signed log)"
	names := make([]string, 0, len(r.Series.Diff))
	for k, pts := range r.Series.Diff {
		if len(pts) > 0 {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		p.Empty = "No scan had a dynamic transform to compare with, so there is no difference to plot."
		return p
	}
	if len(names) > maxDiffSeries {
		p.Omitted = strconv.Itoa(len(names)-maxDiffSeries) + " more topic/target series not drawn (see JSON)."
		names = names[:maxDiffSeries]
	}
	perSeries := min(maxPointsPerSeries, diffPointBudget/len(names))
	pts := make([][]analysis.Point, len(names))
	var xs []float64
	maxAbs := 1e-2
	dropped := 0
	for i, n := range names {
		pts[i] = decimate(r.Series.Diff[n], perSeries)
		dropped += len(r.Series.Diff[n]) - len(pts[i])
		for _, pt := range pts[i] {
			xs = append(xs, pt.X)
			maxAbs = math.Max(maxAbs, math.Abs(pt.Y))
		}
	}
	if dropped > 0 {
		p.Omitted = strings.TrimSpace(p.Omitted + " " + strconv.Itoa(dropped) + " points thinned out for size.")
	}
	top := decadeAbove(maxAbs)
	p.Data.X0, p.Data.X1 = xDomain(dur, xs...)
	p.Data.Y0, p.Data.Y1 = -top, top

	// Decade ticks from 1 ms up to top, the same on both sides of zero;
	// past six decades (top above 100 s) only every third one (1 ms, 1 s,
	// 1000 s, 1e6 s, 1e9 s). The page thins them further when narrow. top
	// and d are both math.Pow(10, integer), so d <= top compares exactly.
	var decades []float64
	wide := top > 100
	for e := 12; e >= -3; e-- {
		if d := math.Pow(10, float64(e)); d <= top && (!wide || e%3 == 0) {
			decades = append(decades, d)
		}
	}
	p.Data.YTicks = append(p.Data.YTicks, tick{V: 0, Label: "0"})
	for _, d := range decades {
		p.Data.YTicks = append(p.Data.YTicks, tick{V: d, Label: decadeLabel(d)}, tick{V: -d, Label: decadeLabel(-d)})
	}
	// ±1e8 s (3 years) is never a latency: the two clock families meet.
	if top > 1e8 {
		p.Data.Zones = append(p.Data.Zones,
			zone{Lo: 1e8, Hi: top, Color: "#fee2e2", Label: "message ahead by years (sensor on system time, tf on sim time)"},
			zone{Lo: -top, Hi: -1e8, Color: "#ede9fe", Label: "message behind by years (tf on system time, sensor on sim time)"})
	}
	if c := r.Settings.CacheTimeS; c > 0 && finite(c) && c <= top {
		p.Data.HLines = append(p.Data.HLines,
			hline{Y: c, Label: "+cache " + humanSeconds(c), Color: "#b45309"},
			hline{Y: -c, Label: "−cache " + humanSeconds(c), Color: "#b45309"})
	}
	outcomeIdx := map[string]int{}
	logBytes, logsDropped := 0, 0
	for i, n := range names {
		c := seriesColors[i%len(seriesColors)]
		s := series{Name: n, Color: c, Kind: "dots"}
		hasScan := false
		for _, pt := range pts[i] {
			hasScan = hasScan || pt.StampNS != 0 || pt.Index != 0 || pt.Outcome != ""
		}
		for _, pt := range pts[i] {
			s.X = append(s.X, roundX(pt.X))
			s.Y = append(s.Y, pt.Y)
			if !hasScan {
				continue
			}
			s.I = append(s.I, pt.Index)
			s.S = append(s.S, formatNSAsSeconds(pt.StampNS))
			o := -1
			if pt.Outcome != "" {
				k, ok := outcomeIdx[pt.Outcome]
				if !ok {
					k = len(p.Data.Outcomes)
					outcomeIdx[pt.Outcome] = k
					p.Data.Outcomes = append(p.Data.Outcomes, pt.Outcome)
				}
				o = k
			}
			s.O = append(s.O, o)
			l := pt.LogLine
			if logBytes+len(l) > logLineBudget {
				l = ""
				logsDropped++
			}
			logBytes += len(l)
			s.L = append(s.L, l)
		}
		p.Legend = append(p.Legend, legendItem{Name: n, Color: c, Series: len(p.Data.Series)})
		p.Data.Series = append(p.Data.Series, s)
	}
	if logsDropped > 0 {
		p.Omitted = strings.TrimSpace(p.Omitted + " " + strconv.Itoa(logsDropped) + " log lines left out of the readout for size (see the CSV).")
	}
	for _, z := range p.Data.Zones {
		p.Legend = append(p.Legend, legendItem{Name: "shaded: " + z.Label, Color: z.Color, Series: -1, Swatch: true})
	}
	return p
}

// clockPlot draws /clock against record time, with jumps and stalls.
func clockPlot(r *analysis.Report, dur float64) *plot {
	p := newPlot("plot-clock", "/clock against record time", "linear")
	pts := decimate(r.Series.Clock, maxPointsPerSeries)
	if len(pts) == 0 {
		p.Empty = "The bag has no /clock: nothing published simulated time while it was recorded."
		return p
	}
	if d := len(r.Series.Clock) - len(pts); d > 0 {
		p.Omitted = strconv.Itoa(d) + " points thinned out for size."
	}
	xs := make([]float64, 0, len(pts))
	y0, y1 := math.Inf(1), math.Inf(-1)
	for _, pt := range pts {
		xs = append(xs, pt.X)
		y0, y1 = math.Min(y0, pt.Y), math.Max(y1, pt.Y)
	}
	d := &p.Data
	d.X0, d.X1 = xDomain(dur, xs...)
	// Big absolute values (a /clock on system time) read better as an
	// offset from a round base.
	if y0 > 1e5 && y1-y0 < y0*1e-2 {
		d.YBase = math.Floor(y0/1000) * 1000
		d.YLabel = "/clock − " + strconv.FormatFloat(d.YBase, 'f', 0, 64) + " s"
	} else {
		d.YLabel = "/clock (s)"
	}
	lo, hi := y0-d.YBase, y1-d.YBase
	if hi-lo < 1e-9 {
		hi = lo + 1
	}
	pad := (hi - lo) * 0.05
	step := niceStep(hi-lo+2*pad, 6)
	d.Y0, d.Y1 = math.Floor((lo-pad)/step)*step, math.Ceil((hi+pad)/step)*step
	if lo >= 0 {
		d.Y0 = math.Max(d.Y0, 0)
	}
	// Counted, not stepped: a step below float64's resolution at this
	// offset would never reach d.Y1. About 6-9 ticks; never more than 20.
	for i := range min(int(math.Round((d.Y1-d.Y0)/step)), 19) + 1 {
		v := d.Y0 + float64(i)*step
		d.YTicks = append(d.YTicks, tick{V: v, Label: trimFloat(v, step)})
	}
	s := series{Name: "/clock", Color: "#2563eb", Kind: "line"}
	for _, pt := range pts {
		s.X = append(s.X, roundX(pt.X))
		s.Y = append(s.Y, pt.Y-d.YBase)
	}
	p.Legend = append(p.Legend, legendItem{Name: "/clock", Color: "#2563eb", Series: len(d.Series)})
	d.Series = append(d.Series, s)

	start := r.Bag.StartNS
	back := series{Name: "jump backward", Color: "#dc2626", Kind: "markers"}
	fwd := series{Name: "jump forward", Color: "#ea580c", Kind: "markers"}
	for _, j := range r.ClockJumps {
		if j.Topic != "" && j.Topic != "/clock" {
			continue
		}
		if len(back.X)+len(fwd.X) >= maxMarkers {
			p.Omitted = strings.TrimSpace(p.Omitted + " More jump markers not drawn.")
			break
		}
		x := roundX(diffS(j.LogTimeNS, start))
		title := "jump " + j.Kind + " at /clock message " + strconv.FormatUint(j.Index, 10) +
			": " + padNS(j.FromNS) + " → " + padNS(j.ToNS) + " (" + humanSeconds(diffS(j.ToNS, j.FromNS)) + ")"
		m := &fwd
		label := "▶"
		if j.Kind == "backward" {
			m, label = &back, "◀"
		}
		m.X = append(m.X, x)
		m.Labels = append(m.Labels, label)
		m.Titles = append(m.Titles, title)
	}
	stalls := series{Name: "stall", Color: "#fbbf24", Kind: "bands"}
	for i, st := range r.Stalls {
		if i >= maxMarkers {
			break
		}
		stalls.X = append(stalls.X, roundX(diffS(st.StartLogNS, start)))
		stalls.X2 = append(stalls.X2, roundX(diffS(st.EndLogNS, start)))
		stalls.Titles = append(stalls.Titles, "stall: /clock stayed at "+padNS(st.ClockNS)+" for "+
			strconv.Itoa(st.Messages)+" messages ("+humanSeconds(diffS(st.EndLogNS, st.StartLogNS))+")")
	}
	for _, m := range []series{back, fwd, stalls} {
		if len(m.X) == 0 {
			continue
		}
		n := len(m.X)
		if m.Kind == "bands" {
			n = len(r.Stalls)
		}
		p.Legend = append(p.Legend, legendItem{Name: m.Name, Color: m.Color, Note: strconv.Itoa(n), Series: len(d.Series)})
		d.Series = append(d.Series, m)
	}
	return p
}

// outcomeOrder fixes the stacking order and colours of filter outcomes.
var outcomeOrder = []string{"passed", "passed_after_wait", "pending_at_end",
	"dropped_queue_full", "dropped_out_the_back", "dropped_empty_frame"}

var outcomeColors = map[string]string{
	"passed":               "#16a34a",
	"passed_after_wait":    "#86efac",
	"pending_at_end":       "#94a3b8",
	"dropped_queue_full":   "#dc2626",
	"dropped_out_the_back": "#9333ea",
	"dropped_empty_frame":  "#92400e",
}

func outcomeColor(o string) string {
	if c, ok := outcomeColors[o]; ok {
		return c
	}
	return "#475569"
}

// outcomePlot draws filter outcomes over record time as stacked bars of
// a stated bucket width.
func outcomePlot(r *analysis.Report, dur float64) *plot {
	p := newPlot("plot-outcomes", "Message filter outcomes over record time", "count")
	var pts []analysis.OutcomePoint
	for _, o := range r.Series.Outcomes {
		if finite(o.X) && o.Count > 0 {
			pts = append(pts, o)
		}
	}
	if len(pts) == 0 {
		p.Empty = "No filter decisions to plot."
		return p
	}
	kinds := map[string]int{}
	xs := make([]float64, 0, len(pts))
	for _, o := range pts {
		kinds[o.Outcome] += o.Count
		xs = append(xs, o.X)
	}
	d := &p.Data
	d.X0, d.X1 = xDomain(dur, xs...)
	// The bucket is the spacing analysis used, widened to a whole multiple
	// of it (so no bar gets two buckets and its neighbour one) when that
	// would give more than maxPointsPerSeries bars in total.
	nb := maxPointsPerSeries / max(1, len(kinds))
	xsSorted := append([]float64(nil), xs...)
	sort.Float64s(xsSorted)
	width := math.Inf(1)
	for i := 1; i < len(xsSorted); i++ {
		if dx := xsSorted[i] - xsSorted[i-1]; dx > 1e-9 {
			width = math.Min(width, dx)
		}
	}
	if !finite(width) {
		width = roundUp125((d.X1 - d.X0) / 100)
	}
	width *= math.Max(1, math.Ceil((d.X1-d.X0)/width/float64(nb)))
	type key struct {
		bin int64
		o   string
	}
	counts := map[key]int{}
	bins := map[int64]bool{}
	for _, o := range pts {
		// 1e-6 s of slack: bucket starts are multiples of the width
		// up to float error.
		b := int64(math.Floor(o.X/width + 1e-6))
		counts[key{b, o.Outcome}] += o.Count
		bins[b] = true
	}
	order := append([]string(nil), outcomeOrder...)
	var extra []string
	for k := range kinds {
		if _, ok := outcomeColors[k]; !ok {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	order = append(order, extra...)
	maxStack := 1
	binList := make([]int64, 0, len(bins))
	for b := range bins {
		binList = append(binList, b)
		n := 0
		for _, o := range order {
			n += counts[key{b, o}]
		}
		maxStack = max(maxStack, n)
	}
	slices.Sort(binList)
	step := math.Max(1, niceStep(float64(maxStack), 4))
	d.Y0, d.Y1 = 0, math.Ceil(float64(maxStack)/step)*step
	// step is 1, 2 or 5 times a power of ten ≥ 1: whole numbers, exact.
	for v := 0.0; v <= d.Y1; v += step {
		d.YTicks = append(d.YTicks, tick{V: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	d.Bucket = width
	d.YLabel = "messages per " + humanSeconds(width)
	d.X1 = math.Max(d.X1, float64(binList[len(binList)-1]+1)*width)
	for _, o := range order {
		if kinds[o] == 0 {
			continue
		}
		s := series{Name: o, Color: outcomeColor(o), Kind: "bars"}
		for _, b := range binList {
			if c := counts[key{b, o}]; c > 0 {
				s.X = append(s.X, roundX(float64(b)*width))
				s.Y = append(s.Y, float64(c))
			}
		}
		p.Legend = append(p.Legend, legendItem{Name: o, Color: outcomeColor(o), Note: strconv.Itoa(kinds[o]), Series: len(d.Series)})
		d.Series = append(d.Series, s)
	}
	return p
}

// roundUp125 rounds a positive width up to 1, 2 or 5 times a power of
// ten, so the bucket width reads as 50 ms rather than 47.3 ms.
func roundUp125(v float64) float64 {
	if !(v > 0) || !finite(v) {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5} {
		if v <= m*mag*(1+1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// f1 formats an SVG coordinate with one decimal.
func f1(v float64) string {
	if !finite(v) {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
