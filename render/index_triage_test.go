package render

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/internal/testenv"
)

// triageFixture has one bag of each triage group, shuffled by path.
func triageFixture() []archive.Row {
	return []archive.Row{
		{Path: "/a/ok", Rel: "ok", Status: archive.StatusOK, Verdict: "Not a clock problem: no scan is dropped.", Scans: 10, Classes: map[string]int{}},
		{Path: "/b/err", Rel: "err", Status: archive.StatusError, SizeBytes: 0, Storage: "sqlite3",
			Error: "/b/err/x_0.db3: the file is empty (0 bytes): re-copy it from the robot"},
		{Path: "/c/cut", Rel: "cut", Status: archive.StatusDamaged, Verdict: "Damaged: 3 of 10 files present.", Scans: 4, Classes: map[string]int{}},
		{Path: "/d/few", Rel: "few", Status: archive.StatusOK, Verdict: "Jumps.", Drops: 1, Findings: []string{"jump", "drop"}, Classes: map[string]int{}},
		{Path: "/e/many", Rel: "many", Status: archive.StatusDamaged, Verdict: "Dropped.", Drops: 50, Findings: []string{"drop"}, Classes: map[string]int{}},
	}
}

func TestIndexOrder(t *testing.T) {
	var got []string
	for _, r := range IndexOrder(triageFixture()) {
		g := ""
		_, g = triage(r)
		got = append(got, r.Rel+":"+g)
	}
	want := "many:findings few:findings cut:damaged err:error ok:ok"
	if strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
	// The HTML rows come in the same order.
	var b bytes.Buffer
	if err := IndexHTML(&b, IndexPage{Title: "t"}, triageFixture()); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, m := range regexp.MustCompile(`<tr class="(\w+)" data-group`).FindAllStringSubmatch(b.String(), -1) {
		rows = append(rows, m[1])
	}
	if strings.Join(rows, " ") != "findings findings damaged error ok" {
		t.Errorf("html row groups %v", rows)
	}
}

func TestIndexHeaderAndErrorRows(t *testing.T) {
	page := IndexPage{Title: "bagclock scan of /data", Version: "1.2.3", Generated: "2026-12-02 05:40 UTC",
		Settings: []string{"consumer rviz", "queue size 10"}, Problems: []string{"/data/locked: permission denied"},
		Notes: []string{"The scan was interrupted: 3 of 5 bags done."}}
	var b bytes.Buffer
	if err := IndexHTML(&b, page, triageFixture()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"bagclock 1.2.3", "written 2026-12-02 05:40 UTC", "consumer rviz, queue size 10",
		"<b>5</b> bags", "<b>2</b> with findings", "<b>2</b> damaged", "<b>1</b> errors", "<b>1</b> ok, no findings",
		"1 discovery problem</b>", "/data/locked: permission denied", "interrupted: 3 of 5",
		`<option value="drop">drop</option>`, `<option value="jump">jump</option>`, `<option value="findings">with findings</option>`} {
		if !strings.Contains(out, want) {
			t.Errorf("index lacks %q", want)
		}
	}
	// The error row shows its error where the verdict goes, and no counts.
	m := regexp.MustCompile(`(?s)<tr class="error".*?</tr>`).FindString(out)
	if !strings.Contains(m, `<td class="verdict err">/b/err/x_0.db3: the file is empty`) {
		t.Errorf("error row lacks its error in the verdict column:\n%s", m)
	}
	if strings.Contains(m, `<td class="n">0</td>`) || strings.Contains(m, "sqlite3") {
		t.Errorf("error row shows zero counts or a storage type:\n%s", m)
	}
	// Columns in the order a triager reads them.
	head := regexp.MustCompile(`(?s)<thead>.*?</thead>`).FindString(out)
	last := -1
	for _, col := range []string{">status<", ">findings<", ">verdict<", ">drops<", ">path<"} {
		i := strings.Index(head, col)
		if i < last {
			t.Errorf("column %s out of order in %s", col, head)
		}
		last = i
	}
}

// TestBrowserIndex filters the index in Chromium at desktop and phone
// widths.
func TestBrowserIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	bin := findChromium()
	if bin == "" {
		testenv.PeerMissing(t, "no chromium found (set BAGCLOCK_CHROMIUM): apt-get install -y chromium")
	}
	var b bytes.Buffer
	if err := IndexHTML(&b, IndexPage{Title: "bagclock scan of /data", Version: "1.2.3"}, append(triageFixture(), indexFixture()...)); err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{1400, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			br := openPageAt(t, bin, b.Bytes(), width, "bags")
			visible := func(status, kind, text string) []string {
				return eval[[]string](br, `(function(){var s=document.getElementById("status"),k=document.getElementById("kind"),f=document.getElementById("filter");
					s.value=`+jsString(status)+`;k.value=`+jsString(kind)+`;f.value=`+jsString(text)+`;
					s.dispatchEvent(new Event("change"));k.dispatchEvent(new Event("change"));f.dispatchEvent(new Event("input"));
					return Array.prototype.filter.call(document.querySelectorAll("#bags tbody tr"),function(r){return r.style.display!=="none";})
					.map(function(r){return r.cells[4].querySelector("small").textContent;});})()`)
			}
			for _, tc := range []struct{ status, kind, text, want string }{
				{"findings", "", "", "/e/many /data/arch/cut.mcap /d/few"},
				{"", "jump", "", "/data/arch/cut.mcap /d/few"},
				{"findings", "drop", "", "/e/many /data/arch/cut.mcap /d/few"},
				{"error", "", "", "/b/err /data/arch/locked"},
				{"ok", "", "", "/a/ok /data/arch/2026/run1 /data/arch/<script>alert(1)</script>"},
				{"damaged", "", "", "/e/many /data/arch/cut.mcap /c/cut"},
				{"", "", "empty", "/b/err"},
			} {
				if got := strings.Join(visible(tc.status, tc.kind, tc.text), " "); got != tc.want {
					t.Errorf("status %q kind %q text %q: shown %s, want %s", tc.status, tc.kind, tc.text, got, tc.want)
				}
			}
			if bad := eval[[]string](br, overflowJS); len(bad) > 0 {
				t.Errorf("overflow at %d px:\n%s", width, strings.Join(bad, "\n"))
			}
			if errs := br.errors(); len(errs) > 0 {
				t.Errorf("console errors: %v", errs)
			}
			visible("", "", "")
			br.shot(fmt.Sprintf("index-%d", width))
		})
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string { return fmt.Sprintf("%q", s) }
