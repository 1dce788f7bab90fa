package render

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/archive"
)

// csvInjection has one text per dangerous leading character, plus texts
// that must pass unchanged.
var csvInjection = []struct {
	in, want string
}{
	{`=HYPERLINK("http:x","c").mcap`, `'=HYPERLINK("http:x","c").mcap`},
	{"+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"},
	{"-2+3", "'-2+3"},
	{"@SUM(A1:A9)", "'@SUM(A1:A9)"},
	{"\t=1+1", "'\t=1+1"},
	{"\r=1+1", "'\r=1+1"},
	{"base_link", "base_link"},
	{"/scan", "/scan"},
	{"a=b", "a=b"},
	{"'quoted", "'quoted"},
	{"", ""},
}

func TestSafeCSVCell(t *testing.T) {
	for _, c := range csvInjection {
		if got := SafeCSVCell(c.in); got != c.want {
			t.Errorf("SafeCSVCell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCSVInjection writes every dangerous text into every text column of
// the analyze CSV and of index.csv, reads the files back with a CSV
// parser and requires each text cell to carry the leading quote, while
// the numbers bagclock formats (a negative diff_s) stay numbers.
func TestCSVInjection(t *testing.T) {
	for _, c := range csvInjection {
		var buf bytes.Buffer
		w := NewCSV(&buf)
		row := &analysis.ScanRow{Topic: c.in, FrameID: c.in, TargetFrame: c.in, Class: analysis.Class(c.in),
			FilterOutcome: c.in, FilterReason: c.in, StalestParent: c.in, StalestChild: c.in, StalestTopic: c.in,
			FilterLogLine: c.in, Type: c.in, StampNS: 1, TFLatestNS: 1500000001, HasTF: true, AgeNS: -2_000_000, HasAge: true}
		if err := w.Row(row); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		rec := recs[1]
		for _, col := range []int{0, 4, 5, 8, 9, 10, 13, 14, 15, 18, 19} {
			if rec[col] != c.want {
				t.Errorf("analyze csv column %s of %q = %q, want %q", CSVHeader[col], c.in, rec[col], c.want)
			}
		}
		if rec[7] != "-1.500000000" {
			t.Errorf("diff_s = %q, want the number -1.500000000 unquoted", rec[7])
		}
		if rec[20] != "-0.002000000" {
			t.Errorf("age_s = %q, want the number -0.002000000 unquoted", rec[20])
		}

		buf.Reset()
		ir := archive.Row{Path: c.in, Rel: c.in, Status: c.in, Storage: c.in, Verdict: c.in,
			Findings: []string{c.in}, Problems: []string{c.in}, Error: c.in, ReportHTML: c.in, ReportJSON: c.in,
			Classes: map[string]int{}}
		if err := IndexCSV(&buf, []archive.Row{ir}); err != nil {
			t.Fatal(err)
		}
		recs, err = csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		cols := IndexColumns()
		for i, name := range cols {
			switch name {
			case "path", "rel", "status", "storage", "verdict", "findings", "problems", "error", "report_html", "report_json":
				if recs[1][i] != c.want {
					t.Errorf("index.csv column %s of %q = %q, want %q", name, c.in, recs[1][i], c.want)
				}
			}
		}
	}
}
