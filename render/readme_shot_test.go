package render

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/internal/testenv"
	"github.com/chromedp/chromedp"
)

// readmeShot is the screenshot README.md shows: the HTML report of the
// README's first command (the demo bag), the top 3000 px at 1200 px wide.
var readmeShot = filepath.Join("..", "testdata", "demo-report.png")

// TestBrowserREADMEScreenshot renders the demo bag's report (the analysis
// golden analysis/testdata/demo.report.json, which is what the README
// command computes) in Chromium and compares it with the committed
// screenshot: more than 3% of the pixels differing means the picture in
// the README no longer shows what the command writes.
//
//	go test ./render -run TestBrowserREADMEScreenshot -update
//
// rewrites it.
func TestBrowserREADMEScreenshot(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	bin := findChromium()
	if bin == "" {
		testenv.PeerMissing(t, "no chromium found (set BAGCLOCK_CHROMIUM): apt-get install -y chromium")
	}
	data, err := os.ReadFile(filepath.Join("..", "analysis", "testdata", "demo.report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r analysis.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("demo.report.json: %v", err)
	}
	r.Bag.Path = "testdata/samples/demo"
	b := openPage(t, bin, renderHTML(t, &r), 1200)
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1200, 3000), evalVoid(`document.documentElement.classList.add("full")`),
		chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if errs := b.errors(); len(errs) > 0 {
		t.Errorf("console errors or exceptions:\n%s", strings.Join(errs, "\n"))
	}
	if *update {
		if err := os.WriteFile(readmeShot, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", readmeShot, len(got))
		return
	}
	if dir := os.Getenv("BAGCLOCK_SHOT_DIR"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, "demo-report.png"), got, 0o644)
	}
	want, err := os.ReadFile(readmeShot)
	if err != nil {
		t.Fatalf("%v (run go test ./render -run TestBrowserREADMEScreenshot -update)", err)
	}
	if frac, err := pixelsDiffering(got, want); err != nil || frac > 0.03 {
		t.Errorf("%s is stale: %.1f%% of its pixels differ from the report the README command writes now (%v); run go test ./render -run TestBrowserREADMEScreenshot -update",
			readmeShot, 100*frac, err)
	}
}

// pixelsDiffering decodes two PNGs and returns the fraction of pixels
// that differ by more than a little in any channel (all of them when the
// sizes differ).
func pixelsDiffering(a, b []byte) (float64, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 1, err
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 1, err
	}
	if ia.Bounds() != ib.Bounds() {
		return 1, nil
	}
	r := ia.Bounds()
	diff := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !near(ia, ib, x, y) {
				diff++
			}
		}
	}
	return float64(diff) / float64(r.Dx()*r.Dy()), nil
}

func near(a, b image.Image, x, y int) bool {
	r1, g1, b1, _ := a.At(x, y).RGBA()
	r2, g2, b2, _ := b.At(x, y).RGBA()
	d := func(p, q uint32) bool { return p > q+0x1000 || q > p+0x1000 }
	return !d(r1, r2) && !d(g1, g2) && !d(b1, b2)
}
