package render

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// Tests of the plot helpers at the values where their comparisons and
// arithmetic turn: each states the exact ticks, domains and points.

func TestSymlog(t *testing.T) {
	tests := []struct{ v, want float64 }{
		{0, 0},
		{symlogC, math.Log10(2)},   // the turn from linear to log
		{-1, -math.Log10(1 + 1e4)}, // sign kept, 1 s = 1e4 symlogC
		{1e9, math.Log10(1 + 1e13)},
	}
	for _, tc := range tests {
		if got := symlog(tc.v); got != tc.want {
			t.Errorf("symlog(%g) = %g, want %g", tc.v, got, tc.want)
		}
	}
}

func pts(ys ...float64) []analysis.Point {
	out := make([]analysis.Point, len(ys))
	for i, y := range ys {
		out[i] = analysis.Point{X: float64(i), Y: y}
	}
	return out
}

func TestDecimateExact(t *testing.T) {
	tests := []struct {
		name string
		in   []analysis.Point
		max  int
		want []analysis.Point
	}{
		// Exactly max finite points: all kept, even equal ones.
		{"at max", pts(1, 1, 1, 1), 4, pts(1, 1, 1, 1)},
		{"odd max", pts(3, 1, 2), 3, pts(3, 1, 2)},
		// 10 points into max 4: two buckets of 5 (0-4, 5-9), each giving
		// its minimum and maximum in x order.
		{"two buckets", pts(5, 1, 9, 2, 3, 4, 8, 0, 6, 7), 4,
			[]analysis.Point{{X: 1, Y: 1}, {X: 2, Y: 9}, {X: 6, Y: 8}, {X: 7, Y: 0}}},
		// Maximum before minimum in a bucket: still x order.
		{"max first", pts(9, 5, 5, 0, 5, 5, 5, 5, 5, 5), 4,
			[]analysis.Point{{X: 0, Y: 9}, {X: 3, Y: 0}, {X: 5, Y: 5}}},
		// A flat bucket gives one point, its first (ties keep the earliest).
		{"flat", pts(2, 2, 2, 2, 2, 2, 2, 2, 2, 2), 4,
			[]analysis.Point{{X: 0, Y: 2}, {X: 5, Y: 2}}},
		{"non-finite dropped", []analysis.Point{{X: 0, Y: 1}, {X: math.NaN(), Y: 2}, {X: 2, Y: math.Inf(1)}, {X: 3, Y: 4}}, 2,
			[]analysis.Point{{X: 0, Y: 1}, {X: 3, Y: 4}}},
	}
	for _, tc := range tests {
		if got := decimate(tc.in, tc.max); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: decimate = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestNiceStep(t *testing.T) {
	tests := []struct {
		span float64
		n    int
		want float64
	}{
		{0, 5, 1}, {-3, 5, 1}, {math.NaN(), 5, 1}, {math.Inf(1), 5, 1},
		{10, 5, 2},     // raw exactly 2: 2, not 5
		{10.5, 5, 5},   // raw just above 2
		{1, 5, 0.2},    // raw 0.2 in the 0.1 decade
		{3, 10, 0.5},   // raw 0.3
		{7, 10, 1},     // raw 0.7: the next decade
		{700, 10, 100}, // raw 70
		{1, 1, 1},
	}
	for _, tc := range tests {
		if got := niceStep(tc.span, tc.n); got != tc.want {
			t.Errorf("niceStep(%g, %d) = %g, want %g", tc.span, tc.n, got, tc.want)
		}
	}
}

func TestTrimFloat(t *testing.T) {
	tests := []struct {
		v, step float64
		want    string
	}{
		{2, 1, "2"}, {2.4, 1, "2"}, {20, 10, "20"},
		{0.25, 0.05, "0.25"}, {0.4, 0.2, "0.4"}, {1.5, 0.5, "1.5"},
		{0.125, 0.001, "0.125"},
		// Zero reached by stepping carries float error of either sign.
		{-1e-17, 0.1, "0.0"}, {1e-17, 0.1, "0.0"}, {-1e-9, 1, "0"}, {-0.04, 0.1, "0.0"},
		{-0.2, 0.1, "-0.2"}, {-3, 1, "-3"},
	}
	for _, tc := range tests {
		if got := trimFloat(tc.v, tc.step); got != tc.want {
			t.Errorf("trimFloat(%g, %g) = %q, want %q", tc.v, tc.step, got, tc.want)
		}
	}
}

func TestDecadeAbove(t *testing.T) {
	tests := []struct{ v, want float64 }{
		{1, 1}, {100, 100}, {1e-3, 1e-3}, {1e9, 1e9}, // exact decades stay
		{1.5, 10}, {101, 1000}, {0.011, 0.1}, {1.79e9, 1e10},
	}
	for _, tc := range tests {
		if got := decadeAbove(tc.v); got != tc.want {
			t.Errorf("decadeAbove(%g) = %g, want %g", tc.v, got, tc.want)
		}
	}
}

func TestDecadeLabelBoundaries(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{1e-8, "1e-8 s"}, {1e-7, "1e-7 s"}, {1e-6, "1 µs"}, {1e-5, "10 µs"}, {1e-4, "100 µs"},
		{-1e-4, "−100 µs"}, {0.1, "100 ms"}, {-0.1, "−100 ms"}, {10, "10 s"}, {1e4, "1e4 s"},
	}
	for _, tc := range tests {
		if got := decadeLabel(tc.v); got != tc.want {
			t.Errorf("decadeLabel(%g) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestXDomain(t *testing.T) {
	tests := []struct {
		name   string
		dur    float64
		xs     []float64
		x0, x1 float64
	}{
		{"no duration", 0, []float64{5, 7}, 5, 7},
		{"duration widens", 10, []float64{5, 7}, 0, 10},
		{"points past duration", 10, []float64{-2, 12}, -2, 12},
		{"one point", 0, []float64{5}, 5, 6},
		{"span exactly 1e-9 kept", 0, []float64{0, 1e-9}, 0, 1e-9},
		{"span below 1e-9", 0, []float64{3, 3 + 1e-12}, 3, 4},
		{"nothing", 0, []float64{math.NaN()}, 0, 1},
		{"duration only", 4, nil, 0, 4},
		{"infinite duration", math.Inf(1), []float64{2, 3}, 2, 3},
	}
	for _, tc := range tests {
		x0, x1 := xDomain(tc.dur, tc.xs...)
		if x0 != tc.x0 || x1 != tc.x1 {
			t.Errorf("%s: xDomain = %g, %g, want %g, %g", tc.name, x0, x1, tc.x0, tc.x1)
		}
	}
}

func tickLabels(ts []tick) []string {
	out := make([]string, len(ts))
	for i, tk := range ts {
		out[i] = tk.Label
	}
	return out
}

func diffReport(maxAbs, cache float64) *analysis.Report {
	r := &analysis.Report{}
	r.Settings.CacheTimeS = cache
	r.Series.Diff = map[string][]analysis.Point{"/scan → odom": {{X: 1, Y: 0.001}, {X: 2, Y: -maxAbs}}}
	return r
}

func TestDiffPlotTicks(t *testing.T) {
	tests := []struct {
		maxAbs float64
		want   []string
	}{
		{0.005, []string{"0", "10 ms", "−10 ms", "1 ms", "−1 ms"}},
		// top 100 s: six decades, all drawn.
		{100, []string{"0", "100 s", "−100 s", "10 s", "−10 s", "1 s", "−1 s",
			"100 ms", "−100 ms", "10 ms", "−10 ms", "1 ms", "−1 ms"}},
		// top 1e4 s: eight decades, every third.
		{5000, []string{"0", "1000 s", "−1000 s", "1 s", "−1 s", "1 ms", "−1 ms"}},
		{1.79e9, []string{"0", "1e9 s", "−1e9 s", "1e6 s", "−1e6 s", "1000 s", "−1000 s", "1 s", "−1 s", "1 ms", "−1 ms"}},
	}
	for _, tc := range tests {
		p := diffPlot(diffReport(tc.maxAbs, 0), 10)
		if got := tickLabels(p.Data.YTicks); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("max |diff| %g: ticks %q, want %q", tc.maxAbs, got, tc.want)
		}
	}
}

func TestDiffPlotZonesAndCacheLines(t *testing.T) {
	tests := []struct {
		name          string
		maxAbs, cache float64
		zones         int
		hlines        []float64
	}{
		{"top 1e8: no zone", 5e7, 0, 0, nil},
		{"top 1e9: zones", 2e8, 0, 2, nil},
		{"cache 0: no line", 1, 0, 0, nil},
		{"cache at top", 5, 10, 0, []float64{10, -10}},
		{"cache above top", 5, 10.5, 0, nil},
		{"cache inside", 5, 2, 0, []float64{2, -2}},
	}
	for _, tc := range tests {
		p := diffPlot(diffReport(tc.maxAbs, tc.cache), 10)
		if len(p.Data.Zones) != tc.zones {
			t.Errorf("%s: %d zones, want %d", tc.name, len(p.Data.Zones), tc.zones)
		}
		var ys []float64
		for _, h := range p.Data.HLines {
			ys = append(ys, h.Y)
		}
		if !reflect.DeepEqual(ys, tc.hlines) {
			t.Errorf("%s: cache lines at %v, want %v", tc.name, ys, tc.hlines)
		}
		var swatches []int
		for _, l := range p.Legend {
			if l.Swatch {
				swatches = append(swatches, l.Series)
			}
		}
		if len(swatches) != tc.zones {
			t.Errorf("%s: %d swatches, want %d", tc.name, len(swatches), tc.zones)
		}
		for _, s := range swatches {
			if s != -1 {
				t.Errorf("%s: zone swatch toggles series %d, want -1", tc.name, s)
			}
		}
	}
	p := diffPlot(diffReport(2e8, 0), 10)
	if z := p.Data.Zones; z[0].Lo != 1e8 || z[0].Hi != 1e9 || z[1].Lo != -1e9 || z[1].Hi != -1e8 {
		t.Errorf("zones %+v, want 1e8…1e9 and −1e9…−1e8", z)
	}
}

func TestDiffPlotSeriesChoice(t *testing.T) {
	r := &analysis.Report{}
	r.Series.Diff = map[string][]analysis.Point{"empty": nil}
	for i := 0; i < maxDiffSeries; i++ {
		r.Series.Diff[string(rune('a'+i))] = []analysis.Point{{X: 1, Y: 1}}
	}
	p := diffPlot(r, 10)
	if len(p.Data.Series) != maxDiffSeries || p.Omitted != "" {
		t.Errorf("%d series of %d, omitted %q; want all %d and no note", len(p.Data.Series), len(r.Series.Diff), p.Omitted, maxDiffSeries)
	}
	r.Series.Diff["z"] = []analysis.Point{{X: 1, Y: 1}}
	p = diffPlot(r, 10)
	if len(p.Data.Series) != maxDiffSeries || p.Omitted != "1 more topic/target series not drawn (see JSON)." {
		t.Errorf("%d series, omitted %q", len(p.Data.Series), p.Omitted)
	}
}

func TestDiffPlotReadout(t *testing.T) {
	line := strings.Repeat("x", logLineBudget/2)
	r := &analysis.Report{}
	r.Series.Diff = map[string][]analysis.Point{"/scan → odom": {
		{X: 1.0000004, Y: 0.5, Index: 7, StampNS: 1_500_000_000, LogLine: line},
		{X: 2, Y: 0.5, Index: 8, Outcome: "passed", LogLine: line}, // exactly at the budget: kept
		{X: 3, Y: 0.5, Index: 9, Outcome: "dropped_queue_full", LogLine: "y"},
		{X: 4, Y: 0.5, Index: 10, Outcome: "passed"},
	}}
	p := diffPlot(r, 10)
	s := p.Data.Series[0]
	if want := []float64{1, 2, 3, 4}; !reflect.DeepEqual(s.X, want) {
		t.Errorf("X %v, want %v", s.X, want)
	}
	if want := []int{-1, 0, 1, 0}; !reflect.DeepEqual(s.O, want) {
		t.Errorf("O %v, want %v", s.O, want)
	}
	if want := []string{"passed", "dropped_queue_full"}; !reflect.DeepEqual(p.Data.Outcomes, want) {
		t.Errorf("outcomes %v, want %v", p.Data.Outcomes, want)
	}
	if want := []string{line, line, "", ""}; !reflect.DeepEqual(s.L, want) {
		t.Errorf("log lines of %v bytes, want the first two", []int{len(s.L[0]), len(s.L[1]), len(s.L[2]), len(s.L[3])})
	}
	if want := "1 log lines left out of the readout for size (see the CSV)."; p.Omitted != want {
		t.Errorf("omitted %q, want %q", p.Omitted, want)
	}
	// Without scan data the readout columns stay empty.
	r.Series.Diff = map[string][]analysis.Point{"a": {{X: 1, Y: 1}}}
	if s := diffPlot(r, 10).Data.Series[0]; s.I != nil || s.O != nil || s.L != nil {
		t.Errorf("readout columns %v %v %v for points without scans", s.I, s.O, s.L)
	}
}

func clockReport(ys ...float64) *analysis.Report {
	r := &analysis.Report{}
	for i, y := range ys {
		r.Series.Clock = append(r.Series.Clock, analysis.Point{X: float64(i), Y: y})
	}
	return r
}

func TestClockPlotAxis(t *testing.T) {
	tests := []struct {
		name   string
		ys     []float64
		base   float64
		label  string
		y0, y1 float64
		ticks  []string
	}{
		// lo 0: pad 0.5, step 2, −2 raised to 0.
		{"from zero", []float64{0, 10}, 0, "/clock (s)", 0, 12, []string{"0", "2", "4", "6", "8", "10", "12"}},
		// lo 20, hi 30: pad 0.5, step niceStep(11, 6) = 2: 18 … 32.
		{"offset", []float64{20, 30}, 0, "/clock (s)", 18, 32, []string{"18", "20", "22", "24", "26", "28", "30", "32"}},
		// Flat: hi = lo + 1, pad 0.05, step 0.2: 4.8 … 6.2.
		{"flat", []float64{5, 5}, 0, "/clock (s)", 4.800000000000001, 6.2,
			[]string{"4.8", "5.0", "5.2", "5.4", "5.6", "5.8", "6.0", "6.2"}},
		// 1e5 exactly is not big.
		{"at 1e5", []float64{1e5, 1e5 + 1}, 0, "/clock (s)", 99999.8, 100001.2, nil},
		// Big and narrow: offset from the thousand below.
		{"big", []float64{123456.5, 123466.5}, 123000, "/clock − 123000 s", 456, 468, nil},
		// Spread exactly 1% of the start: not narrow.
		{"1% spread", []float64{2e5, 2e5 + 2000}, 0, "/clock (s)", 199500, 202500, nil},
		{"wide", []float64{2e5, 2e5 + 5000}, 0, "/clock (s)", 199000, 206000, nil},
	}
	for _, tc := range tests {
		p := clockPlot(clockReport(tc.ys...), 0)
		d := p.Data
		if d.YBase != tc.base || d.YLabel != tc.label {
			t.Errorf("%s: base %g %q, want %g %q", tc.name, d.YBase, d.YLabel, tc.base, tc.label)
		}
		if math.Abs(d.Y0-tc.y0) > 1e-9 || math.Abs(d.Y1-tc.y1) > 1e-9 {
			t.Errorf("%s: y %v … %v, want %v … %v", tc.name, d.Y0, d.Y1, tc.y0, tc.y1)
		}
		if tc.ticks != nil {
			if got := tickLabels(d.YTicks); !reflect.DeepEqual(got, tc.ticks) {
				t.Errorf("%s: ticks %q, want %q", tc.name, got, tc.ticks)
			}
		}
		want := make([]float64, len(tc.ys))
		for i, y := range tc.ys {
			want[i] = y - tc.base
		}
		if !reflect.DeepEqual(d.Series[0].Y, want) {
			t.Errorf("%s: drawn y %v, want %v", tc.name, d.Series[0].Y, want)
		}
	}
	// Near −1e17 the 5 s step is below float64's resolution (16 s):
	// the ticks are counted (16/5 → 3 steps), not stepped until Y1,
	// and the last one is Y1.
	if d := clockPlot(clockReport(-1e17, -1e17+16), 0).Data; len(d.YTicks) != 4 || d.YTicks[3].V != d.Y1 {
		t.Errorf("step below resolution: ticks %v up to %g, want 4 ending there", d.YTicks, d.Y1)
	}
	// A span of exactly 1e-9 s is drawn as it is, not widened to 1 s.
	if d := clockPlot(clockReport(0, 1e-9), 0).Data; d.Y1 > 1e-8 {
		t.Errorf("span 1e-9: y up to %g, want about 1.1e-9", d.Y1)
	}
}

func TestClockPlotMarkers(t *testing.T) {
	const start = 1_000_000_000
	r := clockReport(0, 1)
	r.Bag.StartNS = start
	r.ClockJumps = []analysis.ClockJump{
		{Index: 3, LogTimeNS: start + 500_000_000, FromNS: 2e9, ToNS: 1e9, Kind: "backward", Topic: "/clock"},
		{Index: 4, LogTimeNS: start + 2e9, FromNS: 1e9, ToNS: 5e9, Kind: "forward"},
		{Index: 5, LogTimeNS: start + 3e9, FromNS: 1e9, ToNS: 5e9, Kind: "forward", Topic: "/scan"},
	}
	p := clockPlot(r, 0)
	var got []string
	for _, s := range p.Data.Series[1:] {
		got = append(got, s.Name)
		for i, x := range s.X {
			got = append(got, f1(x)+" "+s.Labels[i])
		}
	}
	if want := []string{"jump backward", "0.5 ◀", "jump forward", "2.0 ▶"}; !reflect.DeepEqual(got, want) {
		t.Errorf("markers %q, want %q", got, want)
	}

	// At most maxMarkers jump markers and stall bands; the legend counts
	// every stall but only the drawn jumps.
	r.ClockJumps, r.Stalls = nil, nil
	for i := 0; i <= maxMarkers; i++ {
		r.ClockJumps = append(r.ClockJumps, analysis.ClockJump{LogTimeNS: start + int64(i)*1e6, Kind: "forward"})
		r.Stalls = append(r.Stalls, analysis.Stall{StartLogNS: start + int64(i)*1e6, EndLogNS: start + int64(i)*1e6 + 5e5, Messages: 2})
	}
	p = clockPlot(r, 0)
	notes := map[string]string{}
	for _, l := range p.Legend {
		notes[l.Name] = l.Note
	}
	if want := map[string]string{"/clock": "", "jump forward": "300", "stall": "301"}; !reflect.DeepEqual(notes, want) {
		t.Errorf("legend notes %v, want %v", notes, want)
	}
	if n := len(p.Data.Series[2].X); n != maxMarkers {
		t.Errorf("%d stall bands, want %d", n, maxMarkers)
	}
	if p.Data.Series[2].X2[1] != 0.0015 {
		t.Errorf("second stall ends at %g, want 0.0015", p.Data.Series[2].X2[1])
	}
	if p.Omitted != "More jump markers not drawn." {
		t.Errorf("omitted %q", p.Omitted)
	}
}

func outcomeReport(xs ...float64) *analysis.Report {
	r := &analysis.Report{}
	for _, x := range xs {
		r.Series.Outcomes = append(r.Series.Outcomes, analysis.OutcomePoint{X: x, Outcome: "passed", Count: 1})
	}
	return r
}

func TestOutcomePlotBuckets(t *testing.T) {
	tests := []struct {
		name   string
		r      *analysis.Report
		dur    float64
		bucket float64
		x1     float64
		barsX  []float64
	}{
		// Bars at multiples of the 0.1 s spacing; 0.7/0.1 is 6.999999999999999
		// and still falls in bucket 7. The domain ends with the last bar.
		{"spacing", outcomeReport(0, 0.1, 0.7), 0, 0.1, 0.8, []float64{0, 0.1, 0.7}},
		{"spacing 0.3", outcomeReport(0, 0.3, 0.6), 0, 0.3, 0.8999999999999999, []float64{0, 0.3, 0.6}},
		// A spacing of exactly 1e-9 s is float noise: a hundredth of the
		// domain instead, rounded up to 1-2-5.
		{"noise spacing", outcomeReport(0, 1e-9), 10, 0.1, 10, []float64{0}},
		// One point at 20 s, no duration: domain 20 … 21, bucket 0.01.
		{"one point", outcomeReport(20), 0, 0.01, 21, []float64{20}},
		{"one point, 47 s", outcomeReport(0), 47, 0.5, 47, []float64{0}},
	}
	for _, tc := range tests {
		d := outcomePlot(tc.r, tc.dur).Data
		if d.Bucket != tc.bucket || d.X1 != tc.x1 {
			t.Errorf("%s: bucket %v, x1 %v; want %v, %v", tc.name, d.Bucket, d.X1, tc.bucket, tc.x1)
		}
		if !reflect.DeepEqual(d.Series[0].X, tc.barsX) {
			t.Errorf("%s: bars at %v, want %v", tc.name, d.Series[0].X, tc.barsX)
		}
	}

	// More than 2000 buckets of the spacing: widened to a whole multiple.
	var xs []float64
	for i := 0; i < 4000; i++ {
		xs = append(xs, float64(i))
	}
	if d := outcomePlot(outcomeReport(xs...), 0).Data; d.Bucket != 2 {
		t.Errorf("4000 s at 1 s: bucket %g, want 2", d.Bucket)
	}
	// 2000 points from 10000 s: 1999 s of domain, 1 s buckets stay.
	xs = xs[:0]
	for i := 0; i < 2000; i++ {
		xs = append(xs, 10000+float64(i))
	}
	if d := outcomePlot(outcomeReport(xs...), 0).Data; d.Bucket != 1 || d.X0 != 10000 {
		t.Errorf("1999 s at 1 s: bucket %g from %g, want 1 from 10000", d.Bucket, d.X0)
	}
}

func TestOutcomePlotCounts(t *testing.T) {
	r := &analysis.Report{}
	r.Series.Outcomes = []analysis.OutcomePoint{
		{X: 0, Outcome: "passed", Count: 3},
		{X: 1, Outcome: "passed", Count: 1},
		{X: 1, Outcome: "dropped_queue_full", Count: 2},
		{X: 50, Outcome: "weird", Count: 0}, // zero counts are not decisions
	}
	d := outcomePlot(r, 2).Data
	if d.X0 != 0 || d.X1 != 2 {
		t.Errorf("domain %g … %g, want 0 … 2", d.X0, d.X1)
	}
	if want := []string{"0", "1", "2", "3"}; !reflect.DeepEqual(tickLabels(d.YTicks), want) || d.Y1 != 3 {
		t.Errorf("y up to %g, ticks %q, want 3 and %q", d.Y1, tickLabels(d.YTicks), want)
	}
	var got []string
	for _, s := range d.Series {
		got = append(got, s.Name)
		for i := range s.X {
			got = append(got, f1(s.X[i])+":"+f1(s.Y[i]))
		}
	}
	if want := []string{"passed", "0.0:3.0", "1.0:1.0", "dropped_queue_full", "1.0:2.0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("bars %q, want %q", got, want)
	}
	r.Series.Outcomes = r.Series.Outcomes[3:]
	if p := outcomePlot(r, 2); p.Empty == "" {
		t.Error("only zero counts: plot not empty")
	}
}

func TestRoundUp125(t *testing.T) {
	tests := []struct{ v, want float64 }{
		{0, 1}, {-1, 1}, {math.NaN(), 1}, {math.Inf(1), 1},
		{1, 1}, {1 + 1e-9, 1}, {2.000000001, 2}, {1.01, 2},
		{0.047, 0.05}, {0.7, 1}, {0.07, 0.1}, {300, 500},
	}
	for _, tc := range tests {
		if got := roundUp125(tc.v); got != tc.want {
			t.Errorf("roundUp125(%g) = %g, want %g", tc.v, got, tc.want)
		}
	}
}
