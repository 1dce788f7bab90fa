package render

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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

// browserPage is what a headless Chromium saw of one report.
type browserPage struct {
	Verdict string
	XSS     string   // typeof window.__xss
	Errors  []string // console errors and uncaught exceptions
	Shot    []byte   // full-page PNG
	// DiffPoints counts the points drawn in the diff plot (one "M" per
	// point in its dot paths); Overflow lists elements wider than the
	// 1200 px window (a page that scrolls sideways).
	DiffPoints int
	Overflow   string
}

// loadInChromium renders r to a temporary file, opens it over file:// in a
// fresh headless Chromium and reports what the page did.
func loadInChromium(t *testing.T, bin string, r *analysis.Report) browserPage {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, renderHTML(t, r), 0o644); err != nil {
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
		chromedp.WindowSize(1200, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	// Start the browser on the long-lived context (a timeout on the first
	// call would bound the browser's life, not the step).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium %s: %v", bin, err)
	}
	// Collect console errors and uncaught exceptions while the page runs.
	var mu sync.Mutex
	var page browserPage
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
				mu.Lock()
				page.Errors = append(page.Errors, fmt.Sprintf("%s (%s:%d:%d)", m, m.URL, m.Line, m.Column))
				mu.Unlock()
			}
		}
	}()

	sctx, cancelS := context.WithTimeout(ctx, 90*time.Second)
	defer cancelS()
	err := chromedp.Do(sctx,
		chromedp.Navigate("file://"+file),
		chromedp.WaitVisible(chromedp.ID("verdict")),
		// Move over the diff plot and sort a table so the page's script runs.
		chromedp.ScrollIntoView(chromedp.CSS("#plot-diff svg")),
		evalVoid(`(function(){var s=document.querySelector("#plot-diff svg");if(!s)return;var b=s.getBoundingClientRect();
			s.dispatchEvent(new MouseEvent("mousemove",{clientX:b.left+b.width/2,clientY:b.top+b.height/3,bubbles:true}));
			s.dispatchEvent(new MouseEvent("mouseleave",{bubbles:false}));
			var th=document.querySelector("table.sortable th.s");if(th){th.click();th.click();}
			window.scrollTo(0,0);})()`),
	)
	if err == nil {
		page.Verdict, err = chromedp.Run(sctx, chromedp.Text(chromedp.ID("verdict")))
	}
	if err == nil {
		page.XSS, err = chromedp.Run(sctx, chromedp.Evaluate[string](`typeof window.__xss`))
	}
	if err == nil {
		page.DiffPoints, err = chromedp.Run(sctx, chromedp.Evaluate[int](`(function(){var n=0;
			document.querySelectorAll("#plot-diff svg path.dots").forEach(function(p){n+=((p.getAttribute("d")||"").match(/M/g)||[]).length;});
			return n;})()`))
	}
	if err == nil {
		page.Overflow, err = chromedp.Run(sctx, chromedp.Evaluate[string](`(function(){var w=document.documentElement.clientWidth,out=[];
			if(document.documentElement.scrollWidth>w)out.push("page "+document.documentElement.scrollWidth+"px");
			document.querySelectorAll("body *").forEach(function(e){var r=e.getBoundingClientRect();
				if(r.right>w+1&&!e.closest(".scroll,pre,table"))out.push(e.tagName.toLowerCase()+(e.id?"#"+e.id:"")+" right "+Math.round(r.right));});
			return out.slice(0,5).join(", ");})()`))
	}
	if err == nil {
		page.Shot, err = chromedp.Run(sctx, chromedp.FullScreenshot(100))
	}
	if err != nil {
		t.Fatalf("chromium on %s: %v", file, err)
	}
	// Let late events arrive, then stop listening.
	time.Sleep(300 * time.Millisecond)
	stopListen()
	<-done
	mu.Lock()
	defer mu.Unlock()
	return page
}

// evalVoid runs a script for its effects.
func evalVoid(js string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Evaluate[*runtime.RemoteObject](js)(ctx, t)
		return chromedp.Void{}, err
	}
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	bin := findChromium()
	if bin == "" {
		testenv.PeerMissing(t, "no chromium found (looked for /usr/bin/chromium, chromium-browser, google-chrome; set BAGCLOCK_CHROMIUM): apt-get install -y chromium")
	}
	tests := []struct {
		name   string
		report *analysis.Report
		shot   string // committed screenshot, refreshed with -update
	}{
		{"sample", sampleReport(), filepath.Join("..", "testdata", "report.png")},
		{"hostile", hostileReport(), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := loadInChromium(t, bin, tc.report)
			want := tc.report.Verdict.Sentence
			if strings.TrimSpace(p.Verdict) != want {
				t.Errorf("verdict text = %q, want %q", p.Verdict, want)
			}
			if len(p.Errors) > 0 {
				t.Errorf("console errors or exceptions:\n%s", strings.Join(p.Errors, "\n"))
			}
			wantPts := 0
			for _, pts := range tc.report.Series.Diff {
				wantPts += min(len(pts), maxPointsPerSeries)
			}
			if p.DiffPoints != wantPts || wantPts == 0 && tc.name == "sample" {
				t.Errorf("diff plot shows %d points, want %d (the series' points)", p.DiffPoints, wantPts)
			}
			if p.Overflow != "" {
				t.Errorf("page wider than the window: %s", p.Overflow)
			}
			if p.XSS != "undefined" {
				t.Errorf("a bag string ran as script: typeof window.__xss = %q", p.XSS)
			}
			if len(p.Shot) < 8 || string(p.Shot[1:4]) != "PNG" {
				t.Fatalf("screenshot is not a PNG (%d bytes)", len(p.Shot))
			}
			// BAGCLOCK_SHOT_DIR keeps every screenshot for a look.
			dir := os.Getenv("BAGCLOCK_SHOT_DIR")
			if dir == "" {
				dir = t.TempDir()
			}
			out := filepath.Join(dir, tc.name+".png")
			if tc.shot != "" && *update {
				out = tc.shot
			}
			if err := os.WriteFile(out, p.Shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("screenshot %s (%d bytes)", out, len(p.Shot))
		})
	}
}
