package render

import (
	"bytes"
	"encoding/json"
	"html"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

func TestHTMLEscapesBagStrings(t *testing.T) {
	out := string(renderHTML(t, hostileReport()))
	for _, raw := range []string{hostileFrame, hostileTopic, hostileKey, hostilePath, "<img"} {
		if strings.Contains(out, raw) {
			i := strings.Index(out, raw)
			t.Errorf("raw %q in output: …%s…", raw, out[max(0, i-80):min(len(out), i+80)])
		}
	}
	// Exactly our three script elements: the JSON ticket, the JSON plot
	// data and the page script.
	if n := len(regexp.MustCompile(`(?i)<script`).FindAllString(out, -1)); n != 3 {
		t.Errorf("%d <script elements, want 3", n)
	}
	if strings.Contains(strings.ToLower(out), "onerror=") && !strings.Contains(out, "onerror=&#34;") {
		t.Error("an onerror attribute made it into markup")
	}
	// The names are still shown, as text: in HTML text, SVG <text>, and
	// <title> inside the SVG legend.
	for _, ctx := range []struct{ name, want string }{
		{"html text", html.EscapeString(hostileFrame)},
		{"legend", `<span class="mono">` + html.EscapeString(hostileKey) + `</span>`},
	} {
		if !strings.Contains(out, ctx.want) {
			t.Errorf("%s: %q not found", ctx.name, ctx.want)
		}
	}
	// The JSON ticket inside <script> still decodes to the original strings.
	m := regexp.MustCompile(`(?s)<script type="application/json" id="ticket">(.*?)</script>`).FindStringSubmatch(out)
	if m == nil {
		t.Fatal("ticket JSON not found")
	}
	var tk ticket
	if err := json.Unmarshal([]byte(m[1]), &tk); err != nil {
		t.Fatalf("ticket JSON: %v\n%s", err, m[1])
	}
	if tk.Bag != hostilePath || !strings.Contains(tk.Verdict, hostileFrame) {
		t.Errorf("ticket = %+v, want the hostile strings back", tk)
	}
	if strings.Contains(m[1], "</") {
		t.Error("ticket JSON contains </, which could end the script element")
	}
	// The plot data decodes to the hostile series name, which the page
	// script only ever writes through its esc() into markup.
	m = regexp.MustCompile(`(?s)<script type="application/json" id="plotdata">(.*?)</script>`).FindStringSubmatch(out)
	if m == nil {
		t.Fatal("plot data JSON not found")
	}
	var pd []plotData
	if err := json.Unmarshal([]byte(m[1]), &pd); err != nil {
		t.Fatalf("plot data JSON: %v", err)
	}
	found := false
	for _, p := range pd {
		for _, s := range p.Series {
			found = found || s.Name == hostileKey
		}
	}
	if !found || strings.Contains(m[1], "</") {
		t.Errorf("plot data: hostile series name found %v; contains </ %v", found, strings.Contains(m[1], "</"))
	}
}

func TestHTMLNoFilteredValues(t *testing.T) {
	// html/template writes ZgotmplZ where it refused a value (say a colour in
	// a style attribute): the page would silently lose it.
	nan := sampleReport()
	nan.Skew[0].MedianS, nan.ZeroStamp.MaxRotationDeg, nan.ClockRate.RealTimeFactor = math.NaN(), math.Inf(1), math.NaN()
	nan.Series.Diff["/scan → odom"][3].Y = math.NaN()
	nan.Series.Clock[5].X = math.Inf(-1)
	nan.Series.Outcomes[0].X = math.NaN()
	for name, r := range map[string]*analysis.Report{"sample": sampleReport(), "hostile": hostileReport(), "empty": {}, "nan": nan} {
		if out := renderHTML(t, r); bytes.Contains(out, []byte("ZgotmplZ")) {
			i := bytes.Index(out, []byte("ZgotmplZ"))
			t.Errorf("%s: filtered value at …%s…", name, out[max(0, i-100):i+10])
		}
	}
}

func TestHTMLSelfContained(t *testing.T) {
	out := string(renderHTML(t, sampleReport()))
	// Nothing may be fetched: no URLs, no src attributes, no @import, and
	// the only href is the empty data: favicon that stops a favicon request.
	for _, bad := range []string{"http:", "https:", "//cdn", " src=", "@import", "url("} {
		if strings.Contains(out, bad) {
			t.Errorf("output contains %q", bad)
		}
	}
	if hrefs := regexp.MustCompile(`href="[^"]*"`).FindAllString(out, -1); len(hrefs) != 1 || hrefs[0] != `href="data:,"` {
		t.Errorf("hrefs = %v, want only the data: favicon", hrefs)
	}
}

func TestHTMLSizeOneHour(t *testing.T) {
	rep := hourReport()
	out := renderHTML(t, rep)
	const limit = 2_000_000 // 2 MB
	t.Logf("one-hour report: %d bytes", len(out))
	if len(out) >= limit {
		t.Fatalf("one-hour report is %d bytes, want < %d", len(out), limit)
	}
	s := string(out)
	for _, want := range []string{
		"8 more topic/target series not drawn",
		"points thinned out for size",
		"more rows not shown",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing note %q", want)
		}
	}
	// No series carries more than the cap, and the diff plot stays within
	// its budget over all series.
	m := regexp.MustCompile(`(?s)<script type="application/json" id="plotdata">(.*?)</script>`).FindStringSubmatch(s)
	if m == nil {
		t.Fatal("plot data JSON not found")
	}
	var pd []plotData
	if err := json.Unmarshal([]byte(m[1]), &pd); err != nil {
		t.Fatalf("plot data JSON: %v", err)
	}
	for _, p := range pd {
		total := 0
		for _, sr := range p.Series {
			if len(sr.X) > maxPointsPerSeries {
				t.Errorf("%s: series %s has %d points, cap is %d", p.ID, sr.Name, len(sr.X), maxPointsPerSeries)
			}
			total += len(sr.X)
		}
		if p.ID == "plot-diff" && total > diffPointBudget {
			t.Errorf("diff plot has %d points, budget %d", total, diffPointBudget)
		}
	}
}

func TestHTMLEmptyReport(t *testing.T) {
	out := string(renderHTML(t, &analysis.Report{}))
	for _, want := range []string{"No verdict", "no /clock", "No filter decisions", "dynamic transform to compare"} {
		if !strings.Contains(strings.ToLower(out), strings.ToLower(want)) {
			t.Errorf("empty report lacks %q", want)
		}
	}
	if err := HTML(&bytes.Buffer{}, nil); err == nil {
		t.Error("HTML(nil) succeeded")
	}
}

func TestDecimate(t *testing.T) {
	var pts []analysis.Point
	for i := 0; i < 10_000; i++ {
		pts = append(pts, analysis.Point{X: float64(i), Y: 0})
	}
	pts[4321].Y = 1.79e9 // one spike must survive
	pts[17].Y = -5
	got := decimate(pts, 200)
	if len(got) > 200 {
		t.Fatalf("%d points, want ≤ 200", len(got))
	}
	var sawSpike, sawDip bool
	for i, p := range got {
		sawSpike = sawSpike || p.Y == 1.79e9
		sawDip = sawDip || p.Y == -5
		if i > 0 && p.X < got[i-1].X {
			t.Fatalf("x order broken at %d", i)
		}
	}
	if !sawSpike || !sawDip {
		t.Errorf("extremes lost: spike %v dip %v", sawSpike, sawDip)
	}
}

func TestAxisLabels(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{1e-3, "1 ms"}, {1e-2, "10 ms"}, {1, "1 s"}, {1000, "1000 s"}, {1e6, "1e6 s"}, {1e9, "1e9 s"}, {-1e9, "−1e9 s"}, {0, "0"},
	}
	for _, tc := range tests {
		if got := decadeLabel(tc.v); got != tc.want {
			t.Errorf("decadeLabel(%g) = %q, want %q", tc.v, got, tc.want)
		}
	}
	// The diff plot of the sample spans 1 ms to 1e9 s on one axis, and
	// the axis is symmetric: every positive label has its negative twin
	// at the mirrored value, down to −1e9 s.
	p := diffPlot(sampleReport(), 60)
	labels := map[string]float64{}
	for _, tk := range p.Data.YTicks {
		labels[tk.Label] = tk.V
	}
	for _, want := range []string{"1 ms", "1 s", "1e9 s", "−1 ms", "−1 s", "−1e9 s", "0"} {
		if _, ok := labels[want]; !ok {
			t.Errorf("diff axis labels %v lack %s", labels, want)
		}
	}
	for l, v := range labels {
		if v > 0 {
			if w, ok := labels["−"+l]; !ok || w != -v {
				t.Errorf("label %s at %g has no mirror (%g, %v)", l, v, w, ok)
			}
		}
	}
	if p.Data.Y0 != -p.Data.Y1 {
		t.Errorf("diff axis %g … %g is not symmetric", p.Data.Y0, p.Data.Y1)
	}
	// Ticks are ordered bottom to top by value: a larger value sits higher.
	if a, b := symlog(1e-3), symlog(1e9); !(a < b) {
		t.Error("symlog not monotonic")
	}
}

func TestHumanSeconds(t *testing.T) {
	tests := []struct {
		s    float64
		want string
	}{
		{0, "0 s"}, {5e-9, "5 ns"}, {2.5e-4, "250.0 µs"}, {0.0032, "3.20 ms"}, {12.5, "12.500 s"},
		{-1.79e9, "−1.790e9 s"}, {3600, "3600.0 s"},
	}
	for _, tc := range tests {
		if got := humanSeconds(tc.s); got != tc.want {
			t.Errorf("humanSeconds(%g) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// TestDropsCardLeavesStartupOut: the "filter drops" card counts the drops
// the drop finding counts; start-up drops are named beside it as harmless,
// and a bag with only those is not shown in the "bad" tone.
func TestDropsCardLeavesStartupOut(t *testing.T) {
	tests := []struct {
		name          string
		dropped, boot int
		value, note   string
		tone          string
	}{
		{"start-up only", 28, 28, "0", "0.0% of rows; 28 more at start-up (harmless)", ""},
		{"both", 100, 28, "72", "7.2% of rows; 28 more at start-up (harmless)", "bad"},
		{"none at start-up", 5, 0, "5", "0.5% of rows", "bad"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &analysis.Report{
				Summary: analysis.Summary{Rows: 1000, Filter: map[string]int{"passed": 1000 - tc.dropped, "dropped_queue_full": tc.dropped}},
				Pairs:   []analysis.PairSummary{{Topic: "/odom", StartupDrops: tc.boot}},
			}
			var c *card
			pg := newPage(r)
			for i := range pg.Cards {
				if pg.Cards[i].Label == "filter drops" {
					c = &pg.Cards[i]
				}
			}
			if c == nil {
				t.Fatal("no filter drops card")
			}
			if c.Value != tc.value || c.Note != tc.note || c.Tone != tc.tone {
				t.Errorf("card %q %q tone %q, want %q %q tone %q", c.Value, c.Note, c.Tone, tc.value, tc.note, tc.tone)
			}
		})
	}
}
