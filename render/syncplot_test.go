package render

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/internal/testenv"
)

// syncPage is the sample report with syncReport's synchronizers, one of
// whose topics is named to break out of HTML and of the script block.
func syncPage() *analysis.Report {
	r := sampleReport()
	r.Sync = syncReport().Sync
	s := &r.Sync[1]
	s.Topics[2], s.Offsets[1].To = hostileTopic, hostileTopic
	s.Source = hostileKey
	s.Sentence = "never pair: " + hostileFrame + " has no message that decodes."
	return r
}

// TestSyncPlot: millisecond offsets get a linear axis in ms, an offset of
// clock epochs the signed log axis; every pair with a series is drawn,
// point for point; without one the plot says why it is empty.
func TestSyncPlot(t *testing.T) {
	r := syncReport()
	p := syncPlot(r, 10)
	if p.Empty != "" || p.Data.Mode != "symlog" || len(p.Data.Series) != 2 {
		t.Fatalf("plot %q mode %s, %d series; want symlog with 2", p.Empty, p.Data.Mode, len(p.Data.Series))
	}
	if got := p.Data.Series[1].Y; len(got) != 1 || got[0] != -1.79e9 || p.Data.Y0 > -1.79e9 {
		t.Errorf("epoch pair: y %v in [%g, %g]", got, p.Data.Y0, p.Data.Y1)
	}
	r.Sync = r.Sync[:1]
	p = syncPlot(r, 10)
	s := p.Data.Series[0]
	if p.Data.Mode != "linear" || p.Data.YLabel != "offset (ms)" || len(s.Y) != 3 || s.Y[1] != 30 || s.Kind != "line" ||
		s.Name != "/camera/color/image_raw − /camera/depth/image_raw" || p.Data.Y1 < 30 || p.Data.Y0 > -30 {
		t.Errorf("ms pair: %+v in [%g, %g] %s", s, p.Data.Y0, p.Data.Y1, p.Data.Mode)
	}
	r.Sync[0].Offsets[0].Series = nil
	if p := syncPlot(r, 10); p.Empty == "" {
		t.Error("no series, but the plot is not empty")
	}
}

// TestSyncHTML: the Synchronizers section lists each synchronizer, its
// sentence and each pair's pose cost; its plot reaches the page's plot
// data; names from the bag are escaped everywhere; a report without
// synchronizers has no section.
func TestSyncHTML(t *testing.T) {
	page := string(renderHTML(t, syncPage()))
	for _, raw := range []string{hostileTopic, hostileKey, hostileFrame} {
		if strings.Contains(page, raw) {
			t.Errorf("raw %q in the page", raw)
		}
	}
	i := strings.Index(page, `<section id="sync">`)
	if i < 0 {
		t.Fatal("no sync section")
	}
	sec := page[i : i+strings.Index(page[i:], "</section>")]
	for _, want := range []string{
		"/camera/depth/image_raw, /camera/color/image_raw", "depth_image_proc", "approximate, queue 5", "298",
		html.EscapeString(syncReport().Sync[0].Offsets[0].Cost.Sentence), "one clock", "30.00 ms",
		html.EscapeString(hostileTopic), "never fires:", `<figure id="plot-sync">`,
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("sync section lacks %q", want)
		}
	}
	j := strings.Index(page, `id="plotdata">`) + len(`id="plotdata">`)
	var pd []plotData
	if err := json.Unmarshal([]byte(page[j:j+strings.Index(page[j:], "</script>")]), &pd); err != nil {
		t.Fatal(err)
	}
	if last := pd[len(pd)-1]; last.ID != "plot-sync" || len(last.Series) != 2 || last.Series[1].Name != hostileTopic+" − /points" {
		t.Errorf("plot data: last is %s with series %+v", last.ID, last.Series)
	}
	if plain := renderHTML(t, sampleReport()); bytes.Contains(plain, []byte(`id="sync"`)) || bytes.Contains(plain, []byte("plot-sync")) {
		t.Error("a report without synchronizers has a sync section")
	}
}

// TestBrowserSync opens the page with synchronizers in Chromium: the
// offsets are drawn, hovering and the legend work without errors, and the
// hostile names stay text.
func TestBrowserSync(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	bin := findChromium()
	if bin == "" {
		testenv.PeerMissing(t, "no chromium found (set BAGCLOCK_CHROMIUM): apt-get install -y chromium")
	}
	b := openPage(t, bin, renderHTML(t, syncPage()), 1200)
	if n := eval[int](b, `document.querySelectorAll("#plot-sync svg path").length`); n == 0 {
		t.Error("the sync plot draws nothing")
	}
	b.do(evalVoid(`document.querySelectorAll("#plot-sync svg.chart").forEach(function(s){var r=s.getBoundingClientRect();
		s.dispatchEvent(new PointerEvent("pointermove",{clientX:r.left+r.width/2,clientY:r.top+r.height/3,bubbles:true}));});
		document.querySelectorAll("#plot-sync .legend .lg").forEach(function(b){b.click();b.click();});`))
	text := eval[string](b, `document.getElementById("sync").textContent`)
	if !strings.Contains(text, hostileTopic) || !strings.Contains(text, "3.6 cm, 1.4°") {
		t.Errorf("sync section text lacks the topic or the pose cost: %.300q", text)
	}
	if x := eval[string](b, `typeof window.__xss`); x != "undefined" {
		t.Errorf("a bag string ran as script: typeof window.__xss = %q", x)
	}
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("console errors or exceptions:\n%s", strings.Join(errs, "\n"))
	}
}
