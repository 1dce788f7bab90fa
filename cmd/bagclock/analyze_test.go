package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const demoBag = "../../testdata/samples/demo"

// TestAnalyzeFormats runs the README's main job in every format on the
// committed demo bag (laser on system time, tf on /clock, a sim reset).
func TestAnalyzeFormats(t *testing.T) {
	dir := t.TempDir()
	t.Run("csv", func(t *testing.T) {
		code, out, errOut := runCLI(t, "analyze", demoBag)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		want := "topic,scan_index,log_time_ns,stamp_ns,frame_id,target_frame,tf_latest_ns,diff_s,class,filter_outcome,filter_reason"
		if got := strings.Join(recs[0][:11], ","); got != want {
			t.Errorf("header %q", got)
		}
		if len(recs) != 81 {
			t.Errorf("%d rows, want 80 scans + header", len(recs))
		}
		for _, r := range recs[1:] {
			if r[8] != "laser_on_system_clock" {
				t.Fatalf("class %q in %v", r[8], r)
			}
		}
		if !strings.Contains(errOut, "laser driver publishes /scan with system time") {
			t.Errorf("verdict not on stderr: %s", errOut)
		}
	})
	t.Run("json", func(t *testing.T) {
		out := filepath.Join(dir, "r.json")
		if code, _, errOut := runCLI(t, "analyze", demoBag, "--format", "json", "-o", out); code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Bag     map[string]any `json:"bag"`
			Scans   []any          `json:"scans"`
			Summary struct {
				Verdict    string         `json:"verdict"`
				Scans      int            `json:"scans"`
				Classes    map[string]int `json:"classes"`
				Filter     map[string]int `json:"filter"`
				ZeroStamp  *int           `json:"zero_stamp_scans"`
				ClockJumps []struct {
					Index     uint64 `json:"index"`
					LogTimeNS int64  `json:"log_time_ns"`
					FromNS    int64  `json:"from_ns"`
					ToNS      int64  `json:"to_ns"`
					Kind      string `json:"kind"`
				} `json:"clock_jumps"`
			} `json:"summary"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		s := doc.Summary
		if doc.Bag == nil || len(doc.Scans) != 80 || s.Scans != 80 || s.Classes["laser_on_system_clock"] != 80 || s.ZeroStamp == nil {
			t.Errorf("summary %+v, %d scans", s, len(doc.Scans))
		}
		if len(s.ClockJumps) != 1 || s.ClockJumps[0].Kind != "backward" || s.ClockJumps[0].ToNS >= s.ClockJumps[0].FromNS {
			t.Errorf("clock jumps %+v, want one backward (the sim reset)", s.ClockJumps)
		}
		if s.Filter["dropped_queue_full"] == 0 {
			t.Errorf("filter %v: RViz drops these scans with a full queue", s.Filter)
		}
	})
	t.Run("html", func(t *testing.T) {
		out := filepath.Join(dir, "r.html")
		if code, _, errOut := runCLI(t, "analyze", demoBag, "--format", "html", "-o", out); code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "The laser driver publishes /scan with system time") {
			t.Error("verdict missing from the HTML report")
		}
	})
}

func TestAnalyzeExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"fail-on drop finds drops", []string{"analyze", demoBag, "--fail-on", "drop,jump"}, exitFindings},
		{"fail-on zero-stamp finds none", []string{"analyze", demoBag, "--fail-on", "zero-stamp"}, exitOK},
		{"same clock passes the gate", []string{"analyze", "../../testdata/samples/mcap/both_sim", "--fail-on", "drop,clock-mismatch,zero-stamp"}, exitOK},
		{"unknown fail-on kind", []string{"analyze", demoBag, "--fail-on", "bogus"}, exitUsage},
		{"html without -o", []string{"analyze", demoBag, "--format", "html"}, exitUsage},
		{"bad format", []string{"analyze", demoBag, "--format", "xml"}, exitUsage},
		{"bad consumer", []string{"analyze", demoBag, "--consumer", "bogus"}, exitUsage},
		{"negative queue", []string{"analyze", demoBag, "--queue-size", "-1"}, exitUsage},
		{"missing bag", []string{"analyze", "/nonexistent"}, exitFailure},
		{"two bags", []string{"analyze", demoBag, demoBag}, exitUsage},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d: %s", code, tc.code, errOut)
			}
		})
	}
}

// TestAnalyzeCrashedBag: a recorder killed mid-run leaves an MCAP without
// summary or footer; analyze still reports every complete scan.
func TestAnalyzeCrashedBag(t *testing.T) {
	code, out, errOut := runCLI(t, "analyze", "../../testdata/samples/variants/mcap-crashed", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Bag struct {
			MetadataReconstructed bool     `json:"metadata_reconstructed"`
			Problems              []string `json:"problems"`
		} `json:"bag"`
		Summary struct {
			Scans int `json:"scans"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Bag.MetadataReconstructed || len(doc.Bag.Problems) == 0 || doc.Summary.Scans == 0 {
		t.Errorf("bag %+v, %d scans: want reconstructed metadata, a recovery note and scans", doc.Bag, doc.Summary.Scans)
	}
}
