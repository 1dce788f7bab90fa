package render

import (
	"math"
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

// plot is a server-side SVG chart. Every string field that may come from a
// bag (series names, labels) is rendered by html/template as SVG text.
type plot struct {
	ID                 string
	Title, Caption     string
	XLabel, YLabel     string
	Empty              string // set when there is nothing to draw
	XTicks, YTicks     []tick
	Series             []svgSeries
	Markers            []marker
	Bands              []band
	Zones              []zone
	HLines             []hline
	Bars               []bar
	Legend             []legendItem
	Omitted            string // note about dropped series or points
	X0, X1, Y0, Y1     float64
	PX0, PX1, PY0, PY1 float64
	YMode              string // "symlog", "linear" or "count" (JS readout)
	YBase              float64
}

type tick struct {
	Pos   float64
	Label string
}

type svgSeries struct {
	Name  string
	Color string
	D     string
	Dots  bool
}

type marker struct {
	X     float64
	Color string
	Label string
	Title string
}

type band struct {
	X, W  float64
	Color string
	Title string
}

// zone is a horizontal stripe across the plot (a range of y values).
type zone struct {
	Y, H  float64
	Color string
	Label string
}

type hline struct {
	Y     float64
	Label string
	Color string
}

type bar struct {
	X, Y, W, H float64
	Color      string
}

type legendItem struct {
	Name  string
	Color string
	Note  string
}

// seriesColors avoid pure red and green, which the page uses for bad and good.
var seriesColors = []string{"#2563eb", "#0d9488", "#9333ea", "#ea580c", "#db2777", "#0891b2",
	"#65a30d", "#b45309", "#4f46e5", "#be123c", "#475569", "#a16207"}

// linScale maps [d0,d1] to [p0,p1].
type linScale struct{ d0, d1, p0, p1 float64 }

func (s linScale) at(v float64) float64 {
	if s.d1 == s.d0 {
		return (s.p0 + s.p1) / 2
	}
	return s.p0 + (v-s.d0)/(s.d1-s.d0)*(s.p1-s.p0)
}

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
	var loI, hiI, n int
	flush := func() {
		if n == 0 {
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
		n = 0
	}
	for _, p := range pts {
		if !finite(p.X) || !finite(p.Y) {
			continue
		}
		if nb := int(float64(i) / per); nb != b {
			flush()
			b = nb
		}
		if n == 0 || p.Y < lo.Y {
			lo, loI = p, i
		}
		if n == 0 || p.Y > hi.Y {
			hi, hiI = p, i
		}
		n++
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
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

// timeTicks labels record time since bag start.
func timeTicks(x0, x1 float64, sc linScale) []tick {
	span := x1 - x0
	step := niceStep(span, 8)
	if span >= 600 { // minutes read better than 1200 s
		for _, m := range []float64{60, 120, 300, 600, 900, 1800, 3600} {
			if span/m <= 9 {
				step = m
				break
			}
		}
	}
	var ts []tick
	for v := math.Ceil(x0/step) * step; v <= x1+step*1e-9 && len(ts) < 40; v += step {
		ts = append(ts, tick{Pos: sc.at(v), Label: relTimeLabel(v, step)})
	}
	return ts
}

func relTimeLabel(v, step float64) string {
	if step >= 60 && math.Mod(step, 60) == 0 {
		return strconv.FormatFloat(v/60, 'f', -1, 64) + " min"
	}
	return trimFloat(v, step) + " s"
}

// trimFloat prints v with as many decimals as step needs.
func trimFloat(v, step float64) string {
	dec := 0
	if step < 1 {
		dec = int(math.Ceil(-math.Log10(step)))
	}
	if math.Abs(v) < step*1e-9 {
		v = 0
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
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
	if v < 0 {
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

func newPlot(id, title string) *plot {
	return &plot{ID: id, Title: title,
		PX0: plotLeft, PX1: plotW - plotRight, PY0: plotH - plotBottom, PY1: plotTop}
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

// diffPlot draws diff_s per (topic → target) over record time on a signed
// log axis.
func diffPlot(r *analysis.Report, dur float64) *plot {
	p := newPlot("plot-diff", "Scan stamp − latest tf stamp, over record time")
	p.XLabel = "record time since bag start"
	p.YLabel = "diff (signed log)"
	p.YMode = "symlog"
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
	series := make([][]analysis.Point, len(names))
	var xs []float64
	maxPos, maxNeg := 1e-2, 1e-3
	dropped := 0
	for i, n := range names {
		series[i] = decimate(r.Series.Diff[n], maxPointsPerSeries)
		dropped += len(r.Series.Diff[n]) - len(series[i])
		for _, pt := range series[i] {
			xs = append(xs, pt.X)
			if pt.Y > 0 {
				maxPos = math.Max(maxPos, pt.Y)
			} else {
				maxNeg = math.Max(maxNeg, -pt.Y)
			}
		}
	}
	if dropped > 0 {
		p.Omitted = strings.TrimSpace(p.Omitted + " " + strconv.Itoa(dropped) + " points thinned out for size.")
	}
	top, bot := decadeAbove(maxPos), -decadeAbove(maxNeg)
	p.X0, p.X1 = xDomain(dur, xs...)
	p.Y0, p.Y1 = symlog(bot), symlog(top)
	xs0 := linScale{p.X0, p.X1, p.PX0, p.PX1}
	ys := linScale{p.Y0, p.Y1, p.PY0, p.PY1}
	p.XTicks = timeTicks(p.X0, p.X1, xs0)

	// Decade ticks; thin them to every third decade when the range is wide.
	var decades []float64
	for e := -3; e <= 12; e++ {
		d := math.Pow(10, float64(e))
		if d <= top*1.0001 {
			decades = append(decades, d)
		}
	}
	stride := 1
	if len(decades) > 6 {
		stride = 3
	}
	p.YTicks = append(p.YTicks, tick{Pos: ys.at(0), Label: "0"})
	for i, d := range decades {
		if i%stride != 0 {
			continue
		}
		p.YTicks = append(p.YTicks, tick{Pos: ys.at(symlog(d)), Label: decadeLabel(d)})
		if -d >= bot*1.0001 {
			p.YTicks = append(p.YTicks, tick{Pos: ys.at(symlog(-d)), Label: decadeLabel(-d)})
		}
	}
	// Where the clocks of two families meet: ±1e8 s (3 years) is never a
	// latency, so shade it.
	if top > 1e8 {
		y := ys.at(symlog(top))
		p.Zones = append(p.Zones, zone{Y: y, H: ys.at(symlog(1e8)) - y, Color: "#fee2e2",
			Label: "shaded: scan ahead by years (scan on system time, tf on sim time)"})
	}
	if bot < -1e8 {
		y := ys.at(symlog(-1e8))
		p.Zones = append(p.Zones, zone{Y: y, H: ys.at(symlog(bot)) - y, Color: "#ede9fe",
			Label: "shaded: scan behind by years (tf on system time, scan on sim time)"})
	}
	if c := r.Settings.CacheTimeS; c > 0 && finite(c) {
		if c <= top {
			p.HLines = append(p.HLines, hline{Y: ys.at(symlog(c)), Label: "+cache " + humanSeconds(c), Color: "#b45309"})
		}
		if -c >= bot {
			p.HLines = append(p.HLines, hline{Y: ys.at(symlog(-c)), Label: "−cache " + humanSeconds(c), Color: "#b45309"})
		}
	}
	for i, n := range names {
		var b strings.Builder
		for _, pt := range series[i] {
			b.WriteString("M")
			b.WriteString(f1(xs0.at(pt.X)))
			b.WriteString(" ")
			b.WriteString(f1(ys.at(symlog(pt.Y))))
			b.WriteString("h0")
		}
		c := seriesColors[i%len(seriesColors)]
		p.Series = append(p.Series, svgSeries{Name: n, Color: c, D: b.String(), Dots: true})
		p.Legend = append(p.Legend, legendItem{Name: n, Color: c})
	}
	return p
}

// clockPlot draws /clock against record time, with jumps and stalls.
func clockPlot(r *analysis.Report, dur float64) *plot {
	p := newPlot("plot-clock", "/clock against record time")
	p.XLabel = "record time since bag start"
	p.YMode = "linear"
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
	p.X0, p.X1 = xDomain(dur, xs...)
	// Big absolute values (a /clock on system time) read better as an
	// offset from a round base.
	if y0 > 1e5 && y1-y0 < y0*1e-2 {
		p.YBase = math.Floor(y0/1000) * 1000
		p.YLabel = "/clock − " + strconv.FormatFloat(p.YBase, 'f', 0, 64) + " s"
	} else {
		p.YLabel = "/clock (s)"
	}
	lo, hi := y0-p.YBase, y1-p.YBase
	if hi-lo < 1e-9 {
		hi = lo + 1
	}
	pad := (hi - lo) * 0.05
	step := niceStep(hi-lo+2*pad, 6)
	p.Y0, p.Y1 = math.Floor((lo-pad)/step)*step, math.Ceil((hi+pad)/step)*step
	if lo >= 0 && p.Y0 < 0 {
		p.Y0 = 0
	}
	xsc := linScale{p.X0, p.X1, p.PX0, p.PX1}
	ysc := linScale{p.Y0, p.Y1, p.PY0, p.PY1}
	p.XTicks = timeTicks(p.X0, p.X1, xsc)
	for v := p.Y0; v <= p.Y1+step*1e-9 && len(p.YTicks) < 20; v += step {
		p.YTicks = append(p.YTicks, tick{Pos: ysc.at(v), Label: trimFloat(v, step)})
	}
	var b strings.Builder
	for i, pt := range pts {
		// A backward jump is drawn as a break, not a line back in time.
		if i == 0 || pt.Y < pts[i-1].Y {
			b.WriteString("M")
		} else {
			b.WriteString("L")
		}
		b.WriteString(f1(xsc.at(pt.X)))
		b.WriteString(" ")
		b.WriteString(f1(ysc.at(pt.Y - p.YBase)))
	}
	p.Series = append(p.Series, svgSeries{Name: "/clock", Color: "#2563eb", D: b.String()})
	p.Legend = append(p.Legend, legendItem{Name: "/clock", Color: "#2563eb"})

	start := r.Bag.StartNS
	clamp := func(x float64) float64 { return math.Max(p.PX0, math.Min(p.PX1, x)) }
	nb, nf := 0, 0
	for _, j := range r.ClockJumps {
		if j.Topic != "" && j.Topic != "/clock" {
			continue
		}
		if len(p.Markers) >= maxMarkers {
			p.Omitted = strings.TrimSpace(p.Omitted + " More jump markers not drawn.")
			break
		}
		x := clamp(xsc.at(nsToS(j.LogTimeNS - start)))
		m := marker{X: x, Title: "jump " + j.Kind + " at message " + strconv.FormatUint(j.Index, 10) +
			": " + padNS(j.FromNS) + " → " + padNS(j.ToNS)}
		if j.Kind == "backward" {
			m.Color, m.Label = "#dc2626", "◀"
			nb++
		} else {
			m.Color, m.Label = "#ea580c", "▶"
			nf++
		}
		p.Markers = append(p.Markers, m)
	}
	if nb > 0 {
		p.Legend = append(p.Legend, legendItem{Name: "jump backward", Color: "#dc2626", Note: strconv.Itoa(nb)})
	}
	if nf > 0 {
		p.Legend = append(p.Legend, legendItem{Name: "jump forward", Color: "#ea580c", Note: strconv.Itoa(nf)})
	}
	for i, s := range r.Stalls {
		if i >= maxMarkers {
			break
		}
		x0 := clamp(xsc.at(nsToS(s.StartLogNS - start)))
		x1 := clamp(xsc.at(nsToS(s.EndLogNS - start)))
		p.Bands = append(p.Bands, band{X: x0, W: math.Max(x1-x0, 1.5), Color: "#fde68a",
			Title: "stall: /clock stayed at " + padNS(s.ClockNS) + " for " + strconv.Itoa(s.Messages) + " messages"})
	}
	if len(r.Stalls) > 0 {
		p.Legend = append(p.Legend, legendItem{Name: "stall", Color: "#fbbf24", Note: strconv.Itoa(len(r.Stalls))})
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

// outcomePlot draws filter outcomes over record time as stacked bars.
func outcomePlot(r *analysis.Report, dur float64) *plot {
	p := newPlot("plot-outcomes", "Message filter outcomes over record time")
	p.XLabel = "record time since bag start"
	p.YLabel = "scans per bucket"
	p.YMode = "count"
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
	p.X0, p.X1 = xDomain(dur, xs...)
	// Bucket into at most maxPointsPerSeries bars in total.
	nb := maxPointsPerSeries / max(1, len(kinds))
	xsSorted := append([]float64(nil), xs...)
	sort.Float64s(xsSorted)
	width := math.Inf(1)
	for i := 1; i < len(xsSorted); i++ {
		if d := xsSorted[i] - xsSorted[i-1]; d > 1e-12 {
			width = math.Min(width, d)
		}
	}
	if !finite(width) || (p.X1-p.X0)/width > float64(nb) {
		width = (p.X1 - p.X0) / float64(nb)
	}
	type key struct {
		bin int
		o   string
	}
	counts := map[key]int{}
	bins := map[int]bool{}
	for _, o := range pts {
		b := int(math.Round((o.X - p.X0) / width))
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
	binList := make([]int, 0, len(bins))
	for b := range bins {
		binList = append(binList, b)
		s := 0
		for _, o := range order {
			s += counts[key{b, o}]
		}
		maxStack = max(maxStack, s)
	}
	sort.Ints(binList)
	step := niceStep(float64(maxStack), 4)
	if step < 1 {
		step = 1
	}
	p.Y0, p.Y1 = 0, math.Ceil(float64(maxStack)/step)*step
	xsc := linScale{p.X0, p.X1, p.PX0, p.PX1}
	ysc := linScale{p.Y0, p.Y1, p.PY0, p.PY1}
	p.XTicks = timeTicks(p.X0, p.X1, xsc)
	for v := 0.0; v <= p.Y1+1e-9; v += step {
		p.YTicks = append(p.YTicks, tick{Pos: ysc.at(v), Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	bw := math.Max(1, (xsc.at(p.X0+width)-xsc.at(p.X0))*0.85)
	for _, b := range binList {
		xc := xsc.at(p.X0 + float64(b)*width)
		acc := 0
		for _, o := range order {
			c := counts[key{b, o}]
			if c == 0 {
				continue
			}
			yTop := ysc.at(float64(acc + c))
			yBot := ysc.at(float64(acc))
			p.Bars = append(p.Bars, bar{X: xc - bw/2, Y: yTop, W: bw, H: yBot - yTop, Color: outcomeColor(o)})
			acc += c
		}
	}
	for _, o := range order {
		if kinds[o] > 0 {
			p.Legend = append(p.Legend, legendItem{Name: o, Color: outcomeColor(o), Note: strconv.Itoa(kinds[o])})
		}
	}
	return p
}

// f1 formats an SVG coordinate with one decimal.
func f1(v float64) string {
	if !finite(v) {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
