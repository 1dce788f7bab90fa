package render

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ and the committed screenshot")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", p)
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d:\n got: %.300s\nwant: %.300s\n(run go test ./render -update if intended)", p, i+1, g, w)
			}
		}
	}
}

func renderCSV(t *testing.T, rows []analysis.ScanRow) []byte {
	t.Helper()
	var b bytes.Buffer
	cw := NewCSV(&b)
	var sink analysis.ScanSink = cw.Row // the writer plugs straight into Analyze
	for i := range rows {
		if err := sink(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := cw.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func renderJSON(t *testing.T, rows []analysis.ScanRow, r *analysis.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	jw := NewJSON(&b)
	row := new(analysis.ScanRow) // reused, as Analyze does
	for i := range rows {
		*row = rows[i]
		if err := jw.Row(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := jw.Finish(r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func renderHTML(t testing.TB, r *analysis.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	rows, rep := sampleRows(), sampleReport()
	golden(t, "report.csv", renderCSV(t, rows))
	golden(t, "report.json", renderJSON(t, rows, rep))
	golden(t, "report.html", renderHTML(t, rep))
}

func TestCSV(t *testing.T) {
	recs, err := csv.NewReader(bytes.NewReader(renderCSV(t, sampleRows()))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wantHead := "topic,scan_index,log_time_ns,stamp_ns,frame_id,target_frame,tf_latest_ns,diff_s,class,filter_outcome,filter_reason"
	if got := strings.Join(recs[0][:11], ","); got != wantHead {
		t.Fatalf("header = %q, want %q", got, wantHead)
	}
	if len(recs) != 1+len(sampleRows()) {
		t.Fatalf("%d records, want %d", len(recs), 1+len(sampleRows()))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	tests := []struct {
		row       int
		col, want string
	}{
		{1, "tf_latest_ns", ""}, // zero stamp, no tf: empty, not 0
		{1, "diff_s", ""},
		{1, "stamp_ns", "0"},
		{1, "clock_ns", ""},                   // before the first /clock
		{2, "diff_s", "1790000000.050000123"}, // exact, from integers
		{2, "log_time_ns", "1790000000623000000"},
		{2, "publish_time_ns", "1790000000622000000"},
		{2, "stalest_child", "base_link"},
		{2, "filter_wait_tf_messages", "21"},
		{2, "filter_outcome", "dropped_queue_full"},
		{3, "diff_s", "0.002000000"},
		{4, "target_frame", `map, "quoted"`}, // survives CSV quoting
		{4, "publish_time_ns", ""},
		{5, "diff_s", "-0.003000001"},
		{5, "filter_outcome", "pending_at_end"},
	}
	for _, tc := range tests {
		if got := recs[tc.row][col[tc.col]]; got != tc.want {
			t.Errorf("row %d %s = %q, want %q", tc.row, tc.col, got, tc.want)
		}
	}
}

func TestCSVNoRows(t *testing.T) {
	got := string(renderCSV(t, nil))
	if got != strings.Join(CSVHeader, ",")+"\n" {
		t.Fatalf("empty CSV = %q, want the header only", got)
	}
}

func TestFormatNSAsSeconds(t *testing.T) {
	tests := []struct {
		ns   int64
		want string
	}{
		{0, "0.000000000"},
		{5, "0.000000005"},
		{-5, "-0.000000005"},
		{1_500_000_000, "1.500000000"},
		{-1_789_999_999_450_000_123, "-1789999999.450000123"},
		{math.MaxInt64, "9223372036.854775807"},
		{math.MinInt64, "-9223372036.854775808"},
	}
	for _, tc := range tests {
		if got := formatNSAsSeconds(tc.ns); got != tc.want {
			t.Errorf("formatNSAsSeconds(%d) = %q, want %q", tc.ns, got, tc.want)
		}
	}
	// Overflowing subtraction falls back to the float DiffS.
	r := &analysis.ScanRow{StampNS: math.MaxInt64, TFLatestNS: -10, DiffS: 9.5e9, HasTF: true}
	if got := diffSeconds(r); got != "9500000000.000000000" {
		t.Errorf("overflow fallback = %q", got)
	}
	r.DiffS = math.NaN()
	if got := diffSeconds(r); got != "" {
		t.Errorf("NaN fallback = %q, want empty", got)
	}
}

func TestJSON(t *testing.T) {
	out := renderJSON(t, sampleRows(), sampleReport())
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("output does not parse: %v", err)
	}
	for _, k := range []string{"scans", "bag", "settings", "summary", "verdict", "clock_jumps", "stamp_jumps",
		"stalls", "clock_rate", "zero_stamp", "skew", "tf_tree", "tf_findings", "rosout", "skipped", "series"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("missing key %q", k)
		}
	}
	if !bytes.HasPrefix(out, []byte(fmt.Sprintf(`{"schema_version":%d,"scans":[`, JSONSchemaVersion))) {
		t.Errorf("schema_version, then scans must come first (they stream): %.40s", out)
	}
	sum := doc["summary"].(map[string]any)
	for _, k := range []string{"verdict", "scans", "classes", "filter", "zero_stamp_scans", "clock_jumps"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("summary lacks %q", k)
		}
	}
	if got := sum["classes"].(map[string]any)["laser_on_system_clock"]; got != json.Number("600") {
		t.Errorf("classes.laser_on_system_clock = %v", got)
	}
	j := sum["clock_jumps"].([]any)[0].(map[string]any)
	for k, want := range map[string]string{"index": "2960", "log_time_ns": "1790000030123000000", "from_ns": "29990000000", "to_ns": "0", "kind": "backward"} {
		if got := j[k]; got != json.Number(want) && got != want {
			t.Errorf("clock_jumps[0].%s = %v, want %s", k, got, want)
		}
	}
	scans := doc["scans"].([]any)
	if len(scans) != len(sampleRows()) {
		t.Fatalf("%d scans, want %d", len(scans), len(sampleRows()))
	}
	tests := []struct {
		i    int
		key  string
		want any // json.Number, string or nil
	}{
		{0, "tf_latest_ns", nil},
		{0, "diff_s", nil},
		{0, "clock_ns", nil},
		{1, "log_time_ns", json.Number("1790000000623000000")},
		{1, "diff_s", json.Number("1790000000.050000123")},
		{1, "tf_latest_ns", json.Number("450000000")},
		{1, "class", "laser_on_system_clock"},
		{4, "diff_s", json.Number("-0.003000001")},
	}
	for _, tc := range tests {
		if got := scans[tc.i].(map[string]any)[tc.key]; got != tc.want {
			t.Errorf("scans[%d].%s = %#v, want %#v", tc.i, tc.key, got, tc.want)
		}
	}
	link := scans[1].(map[string]any)["stalest_link"].(map[string]any)
	if link["parent"] != "odom" || link["child"] != "base_link" || link["topic"] != "/tf" {
		t.Errorf("stalest_link = %v", link)
	}
	// Nanoseconds are integers in the text, never floats.
	if m := regexp.MustCompile(`"[a-z_]*_ns": ?-?[0-9]+[.eE]`).Find(out); m != nil {
		t.Errorf("a nanosecond field is written as a float: %s", m)
	}
}

func TestJSONEdges(t *testing.T) {
	tests := []struct {
		name string
		rows []analysis.ScanRow
		rep  *analysis.Report
		keys int
	}{
		{"no rows", nil, &analysis.Report{}, 25},
		{"no report", sampleRows(), nil, 2},
		{"nothing", nil, nil, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := renderJSON(t, tc.rows, tc.rep)
			var doc map[string]json.RawMessage
			if err := json.Unmarshal(out, &doc); err != nil {
				t.Fatalf("does not parse: %v\n%s", err, out)
			}
			if len(doc) != tc.keys {
				t.Errorf("%d keys, want %d", len(doc), tc.keys)
			}
			if tc.rep != nil && (string(doc["clock_jumps"]) != "[]" || string(doc["findings"]) != "[]" || string(doc["sync"]) != "[]") {
				t.Errorf("nil slices must be [], got %s", doc["clock_jumps"])
			}
		})
	}
	var b bytes.Buffer
	jw := NewJSON(&b)
	if err := jw.Finish(nil); err != nil {
		t.Fatal(err)
	}
	if err := jw.Row(&sampleRows()[0]); err == nil {
		t.Error("Row after Finish succeeded")
	}
	bad := sampleReport()
	bad.Skew[0].MedianS = math.NaN()
	if err := NewJSON(&b).Finish(bad); err == nil {
		t.Error("NaN in the report was written as JSON")
	}
}

func BenchmarkCSVRow(b *testing.B) {
	rows := sampleRows()
	cw := NewCSV(io.Discard)
	b.ReportAllocs()
	for b.Loop() {
		for i := range rows {
			if err := cw.Row(&rows[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkJSONRow(b *testing.B) {
	rows := sampleRows()
	jw := NewJSON(io.Discard)
	b.ReportAllocs()
	for b.Loop() {
		for i := range rows {
			if err := jw.Row(&rows[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
}

// TestJSONLeavesReportAlone: writing JSON turns nil slices into [] in a
// copy; the caller's report (also rendered as HTML afterwards) keeps them.
func TestJSONLeavesReportAlone(t *testing.T) {
	rep := &analysis.Report{TFFindings: []analysis.TFFinding{{Kind: "stale_link"}}}
	renderJSON(t, nil, rep)
	if f := rep.TFFindings[0]; f.Links != nil || f.Evidence != nil {
		t.Errorf("JSON rendering edited the report's tf finding: links %#v, evidence %#v", f.Links, f.Evidence)
	}
}
