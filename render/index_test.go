package render

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/archive"
)

// indexFixture has an intact bag, a damaged one, an error row and a bag
// whose path and verdict carry markup that must be escaped.
func indexFixture() []archive.Row {
	return []archive.Row{
		{Path: "/data/arch/2026/run1", Rel: "2026/run1", Status: archive.StatusOK, SizeBytes: 3638450, DurationS: 26.37,
			Storage: "sqlite3", Format: archive.FormatROS2, Messages: 8542, Verdict: "Not a clock problem: stamps agree within milliseconds.", Scans: 127, Rows: 127,
			Classes: map[string]int{"same_clock": 127}, Filter: map[string]int{"passed": 127},
			ReportHTML: "reports/2026__run1-0a1b2c3d.html", ReportJSON: "reports/2026__run1-0a1b2c3d.json"},
		{Path: "/data/arch/cut.mcap", Rel: "cut.mcap", Status: archive.StatusDamaged, SizeBytes: 2048, DurationS: 1.5,
			Storage: "mcap", Format: archive.FormatROS2, Messages: 30, Verdict: "The laser driver publishes /scan with system time", Scans: 12, Rows: 12,
			Classes: map[string]int{"laser_on_system_clock": 12}, Filter: map[string]int{"dropped_queue_full": 12},
			Drops: 12, ClockJumps: 2, ZeroStampScans: 1, Skipped: 3, Findings: []string{"clock-mismatch", "clock-step", "drop", "jump", "stuck-zero"},
			ClockSteps: 1, StuckZeroTopics: 2,
			Problems: []string{"MCAP truncated at byte 1234"}, ReportHTML: "reports/cut.mcap-11223344.html", ReportJSON: "reports/cut.mcap-11223344.json"},
		{Path: "/data/arch/locked", Rel: "locked", Status: archive.StatusError, SizeBytes: 10, Storage: "sqlite3", Format: archive.FormatROS2,
			Error: "bagread: open /data/arch/locked/x_0.db3: permission denied"},
		{Path: `/data/arch/<script>alert(1)</script>`, Rel: `<script>alert(1)</script>`, Status: archive.StatusOK,
			Verdict: `frame "<img src=x onerror=alert(2)>"`, Classes: map[string]int{}, ReportHTML: "reports/script-99.html"},
	}
}

func TestIndexGolden(t *testing.T) {
	rows := indexFixture()
	cases := []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"index.csv", func(b *bytes.Buffer) error { return IndexCSV(b, rows) }},
		{"index.jsonl", func(b *bytes.Buffer) error { return IndexJSONL(b, rows) }},
		{"index.html", func(b *bytes.Buffer) error {
			return IndexHTML(b, IndexPage{Title: "bagclock scan of /data/arch"}, rows)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %s", golden)
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from the golden file (run with -update after checking):\n%s", tc.file, b.String())
			}
		})
	}
}

func TestIndexCSVColumns(t *testing.T) {
	var b bytes.Buffer
	if err := IndexCSV(&b, indexFixture()); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(recs[0], ",")
	want := "path,rel,status,size_bytes,duration_s,storage,messages,verdict,scans,rows," +
		"same_clock,laser_on_system_clock,tf_on_system_clock,zero_stamp,clock_skew,static_only,no_transform," +
		"drops,clock_jumps,stamp_jumps,zero_stamp_scans,skipped_messages,findings,problems,error,report_html,report_json," +
		"clock_steps,stuck_zero_topics,wall_timer_topics,stale_topics,format"
	if head != want {
		t.Fatalf("header\n got %s\nwant %s", head, want)
	}
	if len(recs) != 5 {
		t.Fatalf("%d records, want header + 4", len(recs))
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	damaged := recs[2]
	for name, v := range map[string]string{"status": "damaged", "laser_on_system_clock": "12", "drops": "12", "clock_jumps": "2",
		"zero_stamp_scans": "1", "skipped_messages": "3", "findings": "clock-mismatch;clock-step;drop;jump;stuck-zero", "duration_s": "1.500",
		"clock_steps": "1", "stuck_zero_topics": "2", "wall_timer_topics": "0", "stale_topics": "0"} {
		if damaged[col[name]] != v {
			t.Errorf("damaged row %s = %q, want %q", name, damaged[col[name]], v)
		}
	}
	if recs[3][col["error"]] == "" || recs[3][col["report_html"]] != "" {
		t.Errorf("error row: %q", recs[3])
	}
}

func TestIndexJSONLRoundTrip(t *testing.T) {
	var b bytes.Buffer
	rows := indexFixture()
	if err := IndexJSONL(&b, rows); err != nil {
		t.Fatal(err)
	}
	back, bad, err := archive.ParseIndex(&b)
	if err != nil || bad != 0 || len(back) != len(rows) {
		t.Fatalf("parsed %d rows, %d bad, %v", len(back), bad, err)
	}
	for i := range rows {
		a, _ := IndexJSONLine(rows[i])
		c, _ := IndexJSONLine(back[i])
		if !bytes.Equal(a, c) {
			t.Errorf("row %d changed in the round trip:\n%s%s", i, a, c)
		}
	}
}

func TestIndexHTMLEscapesAndIsSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := IndexHTML(&b, IndexPage{Title: "scan <b>x</b>"}, indexFixture()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script>alert(1)", "<img src=x", "<b>x</b>", "http://", "https://", "<link", "<img"} {
		if strings.Contains(page, bad) {
			t.Errorf("index.html contains %q", bad)
		}
	}
	for _, good := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", `href="reports/2026__run1-0a1b2c3d.html"`,
		"4 bags: 2 ok, 1 damaged, 1 errors", "permission denied", `class="error"`} {
		if !strings.Contains(page, good) {
			t.Errorf("index.html lacks %q", good)
		}
	}
	if n := strings.Count(page, "<script>"); n != 1 {
		t.Errorf("%d script elements, want the one inline script", n)
	}
}
