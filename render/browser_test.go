package render

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/internal/testenv"
)

// findChromium returns Debian's chromium (or another Chrome), honouring
// BAGCLOCK_CHROMIUM, or "" when none is installed.
func findChromium() string {
	if p := os.Getenv("BAGCLOCK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is one headless Chromium showing one page at one width.
type browser struct {
	t    *testing.T
	ctx  context.Context
	file string
	mu   sync.Mutex
	errs []string // console errors and uncaught exceptions
}

// openPage writes page to a temporary file and opens it over file:// in a
// fresh headless Chromium whose window is width CSS pixels wide.
func openPage(t *testing.T, bin string, page []byte, width int) *browser {
	t.Helper()
	return openPageAt(t, bin, page, width, "verdict")
}

// openPageAt is openPage waiting for the element with id ready.
func openPageAt(t *testing.T, bin string, page []byte, width int, ready string) *browser {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.WindowSize(width, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	// Start the browser on the long-lived context (a timeout on the first
	// call would bound the browser's life, not the step).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium %s: %v", bin, err)
	}
	b := &browser{t: t, ctx: ctx, file: file}
	lctx, stopListen := context.WithCancel(ctx)
	messages := chromedp.Console(lctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.mu.Lock()
				b.errs = append(b.errs, fmt.Sprintf("%s (%s:%d:%d)", m, m.URL, m.Line, m.Column))
				b.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { stopListen(); <-done })
	b.do(chromedp.EmulateViewport(int64(width), 900), chromedp.Navigate("file://"+file), chromedp.WaitVisible(chromedp.ID(ready)))
	return b
}

// do runs steps with a deadline, failing the test on error.
func (b *browser) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("chromium on %s: %v", b.file, err)
	}
}

// eval evaluates js and decodes its JSON-able result into T.
func eval[T any](b *browser, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("evaluate %.60q: %v", js, err)
	}
	return v
}

// errors returns the console errors seen so far, after letting late
// events arrive.
func (b *browser) errors() []string {
	time.Sleep(300 * time.Millisecond)
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

// shot saves a full-page screenshot as name.png in BAGCLOCK_SHOT_DIR
// (kept for a look) or the test's temporary directory, and returns it.
func (b *browser) shot(name string) []byte {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	// Render every section (below the fold they wait for a scroll).
	if err := chromedp.Do(ctx, evalVoid(`document.documentElement.classList.add("full")`)); err != nil {
		b.t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		b.t.Fatalf("screenshot is not a PNG (%d bytes)", len(png))
	}
	dir := os.Getenv("BAGCLOCK_SHOT_DIR")
	if dir == "" {
		dir = b.t.TempDir()
	}
	out := filepath.Join(dir, name+".png")
	if err := os.WriteFile(out, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s (%d bytes)", out, len(png))
	return png
}

// shotOf saves a screenshot of the element with this id like shot.
func (b *browser) shotOf(id, name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	// Scroll there first: sections below the fold are only rendered
	// when they come into view (content-visibility).
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.ID(id)), chromedp.Sleep(300*time.Millisecond)); err != nil {
		b.t.Fatalf("scroll to #%s: %v", id, err)
	}
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(id)))
	if err != nil {
		b.t.Fatalf("screenshot of #%s: %v", id, err)
	}
	dir := os.Getenv("BAGCLOCK_SHOT_DIR")
	if dir == "" {
		dir = b.t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// rect is an element's box in viewport CSS pixels.
type rect struct{ Left, Top, Width, Height float64 }

// frameRect scrolls a plot into view and returns its plotting area.
func (b *browser) frameRect(plotID string) rect {
	b.t.Helper()
	return eval[rect](b, `(function(){var f=document.querySelector("#`+plotID+` rect.frame");f.scrollIntoView({block:"center"});
		var r=f.getBoundingClientRect();return {Left:r.left,Top:r.top,Width:r.width,Height:r.height};})()`)
}

// mouse sends real mouse input at viewport coordinates.
func (b *browser) mouse(typ input.DispatchMouseEventType, x, y float64, opts ...chromedp.MouseOption) {
	b.t.Helper()
	b.do(chromedp.MouseEvent(typ, x, y, opts...))
}

// overflowJS lists visible elements that stick out of the viewport
// sideways without a horizontally scrolling (or clipping) ancestor.
const overflowJS = `(function(){var vw=document.documentElement.clientWidth,bad=[];
document.querySelectorAll("body *").forEach(function(el){var r=el.getBoundingClientRect();if(r.width===0||r.height===0)return;
if(r.right<=vw+1&&r.left>=-1)return;
for(var p=el.parentElement;p&&p!==document.body;p=p.parentElement){var ox=getComputedStyle(p).overflowX;if(ox==="auto"||ox==="scroll"||ox==="hidden")return;}
bad.push(el.tagName.toLowerCase()+(el.id?"#"+el.id:"")+" ["+(el.getAttribute("class")||"")+"] "+Math.round(r.left)+".."+Math.round(r.right)+": "+(el.textContent||"").slice(0,40));});
if(document.documentElement.scrollWidth>vw+1)bad.push("page scrollWidth "+document.documentElement.scrollWidth+" > viewport "+vw);
return bad.slice(0,20);})()`

// xTickValues reads the numeric time labels of every drawn plot.
const xTickValuesJS = `(function(){var out={};document.querySelectorAll("svg.chart").forEach(function(s){
out[s.dataset.plot]=Array.prototype.map.call(s.querySelectorAll("text.xt"),function(t){return parseFloat(t.textContent);});});return out;})()`

func symlogTest(v float64) float64 { return math.Copysign(math.Log10(1+math.Abs(v)/1e-4), v) }

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	bin := findChromium()
	if bin == "" {
		testenv.PeerMissing(t, "no chromium found (looked for /usr/bin/chromium, chromium-browser, google-chrome; set BAGCLOCK_CHROMIUM): apt-get install -y chromium")
	}
	for _, width := range []int{1400, 390} {
		for _, tc := range []struct {
			name   string
			report *analysis.Report
		}{{"sample", sampleReport()}, {"hostile", hostileReport()}} {
			t.Run(fmt.Sprintf("%s-%d", tc.name, width), func(t *testing.T) {
				b := openPage(t, bin, renderHTML(t, tc.report), width)
				if got := eval[string](b, `document.getElementById("verdict").textContent`); strings.TrimSpace(got) != tc.report.Verdict.Sentence {
					t.Errorf("verdict text = %q, want %q", got, tc.report.Verdict.Sentence)
				}
				// Every point of every drawn series is on the page (none
				// lost between the report and the SVG).
				wantPts := 0
				names := 0
				for _, pts := range tc.report.Series.Diff {
					if len(pts) > 0 {
						names++
					}
				}
				for _, pts := range tc.report.Series.Diff {
					wantPts += min(len(pts), maxPointsPerSeries, diffPointBudget/max(names, 1))
				}
				got := eval[int](b, `(function(){var n=0;document.querySelectorAll("#plot-diff svg path.dots").forEach(function(p){
					n+=((p.getAttribute("d")||"").match(/M/g)||[]).length;});return n;})()`)
				if got != wantPts || wantPts == 0 {
					t.Errorf("diff plot shows %d points, want %d (the series' points)", got, wantPts)
				}
				// The nodes table: one row per node, names shown as text.
				rows := eval[[]string](b, `Array.from(document.querySelectorAll("#nodes tbody tr td:first-child")).map(function(td){return td.textContent})`)
				if len(rows) != len(tc.report.Nodes) {
					t.Errorf("nodes table has %d rows, want %d", len(rows), len(tc.report.Nodes))
				}
				for i, n := range tc.report.Nodes {
					if i < len(rows) && rows[i] != n.Node {
						t.Errorf("nodes row %d = %q, want %q", i, rows[i], n.Node)
					}
				}
				if bad := eval[[]string](b, overflowJS); len(bad) > 0 {
					t.Errorf("elements overflow the %d px viewport outside a scroll container:\n%s", width, strings.Join(bad, "\n"))
				}
				if tc.name == "sample" {
					// Both sides of zero are labelled, out to the clock
					// mismatch (±1.79e9 s), at either width.
					yl := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll("#plot-diff text.yt"),function(t){return t.textContent;})`)
					for _, want := range []string{"1e9 s", "−1e9 s", "1 s", "−1 s", "0"} {
						if !contains(yl, want) {
							t.Errorf("diff axis labels %q lack %q", yl, want)
						}
					}
					b.shot(fmt.Sprintf("report-%d", width))
					for _, id := range []string{"verdict-box", "plot-diff", "plot-clock", "plot-outcomes", "tftree"} {
						b.shotOf(id, fmt.Sprintf("%s-%d", id, width))
					}
					checkPlots(t, b, tc.report)
					checkTFTree(t, b)
					checkCopyButtons(t, b, tc.report)
				} else {
					// Move over every plot, click every legend entry: the
					// hostile names must stay text.
					b.do(evalVoid(`document.querySelectorAll("svg.chart").forEach(function(s){var r=s.getBoundingClientRect();
						s.dispatchEvent(new PointerEvent("pointermove",{clientX:r.left+r.width/2,clientY:r.top+r.height/3,bubbles:true}));});
						document.querySelectorAll(".legend .lg").forEach(function(b){b.click();b.click();});
						var th=document.querySelector("table.sortable th.s");if(th){th.click();th.click();}`))
				}
				if x := eval[string](b, `typeof window.__xss`); x != "undefined" {
					t.Errorf("a bag string ran as script: typeof window.__xss = %q", x)
				}
				if errs := b.errors(); len(errs) > 0 {
					t.Errorf("console errors or exceptions:\n%s", strings.Join(errs, "\n"))
				}
			})
		}
	}
}

// TestBrowserOneHour opens the largest page render writes (a one-hour bag
// at every bound), checks it stays under 2 MB and draws without errors,
// and logs how long Chromium takes from navigation start to the first
// contentful paint and to the end of the load event (the median of three
// loads). The times are logged for a look, not asserted: timings belong
// in benchmarks, and this machine runs other work at the same time.
func TestBrowserOneHour(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	bin := findChromium()
	if bin == "" {
		testenv.PeerMissing(t, "no chromium found (set BAGCLOCK_CHROMIUM): apt-get install -y chromium")
	}
	page := renderHTML(t, hourReport())
	if len(page) >= 2_000_000 {
		t.Errorf("one-hour page is %d bytes, want < 2 MB", len(page))
	}
	b := openPage(t, bin, page, 1400)
	// Wall times from navigation start (first contentful paint, end of
	// the load event), and the main thread's CPU time for the whole load
	// (Performance.getMetrics in thread ticks, from about:blank to the
	// load event: what the page costs, whatever else the machine runs).
	type timing struct{ Paint, DOM, Load, CPU float64 }
	const timingJS = `(function(){var n=performance.getEntriesByType("navigation")[0],p=performance.getEntriesByName("first-contentful-paint")[0];
		return {Paint:p?p.startTime:-1,DOM:n.domContentLoadedEventEnd,Load:n.loadEventEnd};})()`
	taskSeconds := func() float64 {
		ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
		defer cancel()
		v, err := chromedp.Run(ctx, chromedp.Action[float64](func(ctx context.Context, tg *chromedp.Target) (float64, error) {
			res, err := cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
			if err != nil {
				return 0, err
			}
			for _, m := range res.Metrics {
				if m.Name == "TaskDuration" {
					return m.Value, nil
				}
			}
			return 0, fmt.Errorf("no TaskDuration metric")
		}))
		if err != nil {
			t.Fatalf("performance metrics: %v", err)
		}
		return v
	}
	b.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{TimeDomain: performance.EnableTimeDomainThreadTicks})
		return err
	}))
	var runs []timing
	for i := 0; i < 3; i++ {
		b.do(chromedp.Navigate("about:blank"))
		before := taskSeconds()
		b.do(chromedp.Navigate("file://"+b.file), chromedp.WaitVisible(chromedp.ID("verdict")),
			chromedp.Poll[chromedp.Void](`performance.getEntriesByType("navigation")[0].loadEventEnd > 0`, chromedp.WithPollingTimeout(60*time.Second)))
		r := eval[timing](b, timingJS)
		r.CPU = (taskSeconds() - before) * 1000
		runs = append(runs, r)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].Load < runs[j].Load })
	m := runs[1]
	sort.Slice(runs, func(i, j int) bool { return runs[i].CPU < runs[j].CPU })
	t.Logf("%d bytes (%.2f MB): from navigation start, first contentful paint %.0f ms, DOMContentLoaded %.0f ms, load event end %.0f ms; main-thread CPU for the load %.0f ms (medians of 3 loads on this machine, under whatever else runs: %+v)",
		len(page), float64(len(page))/1e6, m.Paint, m.DOM, m.Load, runs[1].CPU, runs)
	if n := eval[int](b, `document.querySelectorAll("svg.chart path, svg.chart rect").length`); n < 10 {
		t.Errorf("only %d shapes drawn", n)
	}
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("console errors or exceptions:\n%s", strings.Join(errs, "\n"))
	}
	b.shotOf("plot-diff", "plot-diff-hour-1400")
}

// checkPlots zooms, hovers and toggles the plots of the sample report
// with real mouse input and checks what the page shows.
func checkPlots(t *testing.T, b *browser, r *analysis.Report) {
	pd := eval[[]plotData](b, `JSON.parse(document.getElementById("plotdata").textContent)`)
	if len(pd) != 3 {
		t.Fatalf("%d plots drawn, want 3", len(pd))
	}
	diff := pd[0]

	// Drag across the diff plot from 10.05 s to 13.05 s: every plot zooms.
	f := b.frameRect("plot-diff")
	xAt := func(x float64) float64 { return f.Left + (x-diff.X0)/(diff.X1-diff.X0)*f.Width }
	y := f.Top + f.Height/2
	b.mouse(input.DispatchMouseEventTypeMouseMoved, xAt(10.05), y)
	b.mouse(input.DispatchMouseEventTypeMousePressed, xAt(10.05), y, chromedp.ButtonLeft, chromedp.ClickCount(1))
	held := func(p *input.DispatchMouseEventParams) { p.Buttons = 1 }
	b.mouse(input.DispatchMouseEventTypeMouseMoved, xAt(11.55), y, held)
	b.mouse(input.DispatchMouseEventTypeMouseMoved, xAt(13.05), y, held)
	b.mouse(input.DispatchMouseEventTypeMouseReleased, xAt(13.05), y, chromedp.ButtonLeft, chromedp.ClickCount(1))
	ticks := eval[map[string][]float64](b, xTickValuesJS)
	if len(ticks) != 3 {
		t.Errorf("tick labels of %d plots, want 3: %v", len(ticks), ticks)
	}
	for id, vs := range ticks {
		if len(vs) < 2 {
			t.Errorf("%s: %d time ticks after zoom: %v", id, len(vs), vs)
		}
		for _, v := range vs {
			if v < 10 || v > 13.1 {
				t.Errorf("%s: tick %g outside the zoomed span 10.05…13.05 s (%v)", id, v, vs)
				break
			}
		}
	}

	if t.Failed() {
		return
	}
	// Hover next to a known /scan point: the readout snaps to it and shows
	// its data exactly.
	var s *series
	for i := range diff.Series {
		if diff.Series[i].Name == "/scan → odom" {
			s = &diff.Series[i]
		}
	}
	if s == nil {
		t.Fatal("no /scan → odom series in the plot data")
	}
	k := -1
	for i, x := range s.X {
		if x == 10.5 {
			k = i
		}
	}
	if k < 0 {
		t.Fatal("the /scan series has no point at 10.5 s")
	}
	var src analysis.Point
	for _, p := range r.Series.Diff["/scan → odom"] {
		if p.X == 10.5 {
			src = p
		}
	}
	f = b.frameRect("plot-diff")
	zx := func(x float64) float64 { return f.Left + (x-10.05)/(13.05-10.05)*f.Width }
	zy := func(v float64) float64 {
		lo, hi := symlogTest(diff.Y0), symlogTest(diff.Y1)
		return f.Top + f.Height - (symlogTest(v)-lo)/(hi-lo)*f.Height
	}
	b.mouse(input.DispatchMouseEventTypeMouseMoved, zx(10.5)+4, zy(src.Y)+5) // a few pixels off: it must snap
	tip := eval[string](b, `(function(){var t=document.querySelector("#plot-diff .tip");return t.hidden?"":t.innerText;})()`)
	for _, want := range []string{"/scan → odom", "#" + strconv.FormatUint(src.Index, 10), formatNSAsSeconds(src.StampNS),
		"+10.500 s", humanSeconds(src.Y), strconv.FormatFloat(src.Y, 'f', -1, 64) + " s", src.Outcome, src.LogLine} {
		if !strings.Contains(tip, want) {
			t.Errorf("readout lacks %q:\n%s", want, tip)
		}
	}

	if t.Failed() {
		return
	}
	// Hover the outcome bars: the readout names the bucket width.
	fo := b.frameRect("plot-outcomes")
	b.mouse(input.DispatchMouseEventTypeMouseMoved, fo.Left+fo.Width/2, fo.Top+fo.Height-5)
	tip = eval[string](b, `(function(){var t=document.querySelector("#plot-outcomes .tip");return t.hidden?"":t.innerText;})()`)
	if !strings.Contains(tip, "bucket") || !strings.Contains(tip, " messages") {
		t.Errorf("outcome readout = %q, want the bucket and its counts", tip)
	}

	// A legend click hides a series; a second one shows it again.
	count := `document.querySelectorAll("#plot-diff path.dots").length`
	before := eval[int](b, count)
	b.do(chromedp.Click(chromedp.CSS(`#plot-diff .legend button[data-series="1"]`)))
	after := eval[int](b, count)
	pressed := eval[string](b, `document.querySelector('#plot-diff .legend button[data-series="1"]').getAttribute("aria-pressed")`)
	if after != before-1 || pressed != "false" {
		t.Errorf("legend click: %d dot series → %d, aria-pressed %s; want one fewer, false", before, after, pressed)
	}
	b.do(chromedp.Click(chromedp.CSS(`#plot-diff .legend button[data-series="1"]`)))
	if n := eval[int](b, count); n != before {
		t.Errorf("second legend click: %d dot series, want %d", n, before)
	}

	// A double-click resets every plot to the whole bag.
	f = b.frameRect("plot-clock")
	b.mouse(input.DispatchMouseEventTypeMousePressed, f.Left+20, f.Top+20, chromedp.ButtonLeft, chromedp.ClickCount(1))
	b.mouse(input.DispatchMouseEventTypeMouseReleased, f.Left+20, f.Top+20, chromedp.ButtonLeft, chromedp.ClickCount(1))
	b.mouse(input.DispatchMouseEventTypeMousePressed, f.Left+20, f.Top+20, chromedp.ButtonLeft, chromedp.ClickCount(2))
	b.mouse(input.DispatchMouseEventTypeMouseReleased, f.Left+20, f.Top+20, chromedp.ButtonLeft, chromedp.ClickCount(2))
	for id, vs := range eval[map[string][]float64](b, xTickValuesJS) {
		if len(vs) == 0 || vs[0] != 0 || vs[len(vs)-1] < 50 {
			t.Errorf("%s: ticks after double-click %v, want 0 s … 60 s", id, vs)
		}
	}
}

// checkTFTree hovers the /scan path button: the two links from laser to
// odom light up, the others dim.
func checkTFTree(t *testing.T, b *browser) {
	r := eval[rect](b, `(function(){var e=document.querySelector('.tfp[data-path="0"]');e.scrollIntoView({block:"center"});
		var r=e.getBoundingClientRect();return {Left:r.left,Top:r.top,Width:r.width,Height:r.height};})()`)
	b.mouse(input.DispatchMouseEventTypeMouseMoved, r.Left+r.Width/2, r.Top+r.Height/2)
	on := eval[[]string](b, `Array.prototype.map.call(document.querySelectorAll("svg.tftree .e.on title"),function(t){return t.textContent.split(" on ")[0];})`)
	sort.Strings(on)
	if strings.Join(on, ";") != "base_link → laser;odom → base_link" {
		t.Errorf("links lit for /scan: %q, want odom → base_link and base_link → laser", on)
	}
	if !eval[bool](b, `document.querySelector("svg.tftree").classList.contains("hl")`) {
		t.Error("the tree is not in highlight mode while a path is hovered")
	}
}

// checkCopyButtons clicks every confirm command's copy button with a spy
// in place of the clipboard: each copies exactly its shell line.
func checkCopyButtons(t *testing.T, b *browser, r *analysis.Report) {
	b.do(evalVoid(`window.__copied=[];Object.defineProperty(navigator,"clipboard",{configurable:true,
		value:{writeText:function(s){window.__copied.push(s);return Promise.resolve();}}});
		document.querySelectorAll("#cmds .cp").forEach(function(b){b.scrollIntoView({block:"center"});b.click();});`))
	time.Sleep(100 * time.Millisecond)
	got := eval[[]string](b, `window.__copied`)
	var want []string
	for _, c := range r.Verdict.Commands {
		if cmd, _ := splitCommand(c); cmd != "" {
			want = append(want, cmd)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("copy buttons copied %q, want %q", got, want)
	}
	if n := eval[int](b, `Array.prototype.filter.call(document.querySelectorAll("#cmds .cp"),function(b){return b.textContent==="copied";}).length`); n != len(want) {
		t.Errorf("%d of %d copy buttons say copied", n, len(want))
	}
}

// evalVoid runs a script for its effects.
func evalVoid(js string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[*runtime.RemoteObject](js)(ctx, t)
		return chromedp.Void{}, err
	}
}
