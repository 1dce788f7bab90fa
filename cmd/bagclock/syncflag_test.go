package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestAnalyzeSyncFlags: --sync names a synchronizer (slash optional) whose
// summary reaches the JSON; a topic the bag lacks, or one without a header,
// is a usage error listing the stamped topics; the policy flags without
// --sync, a bad policy, queue or interval are usage errors; --fail-on sync
// exits 1 when the synchronizer never fires.
func TestAnalyzeSyncFlags(t *testing.T) {
	spec, err := scenario.Get(scenario.BothSystem)
	if err != nil {
		t.Fatal(err)
	}
	spec.Duration, spec.Sensors = 3*time.Second, true
	bag := specBag(t, spec, "")
	code, out, errOut := runCLI(t, "analyze", bag, "--format", "json", "--sync", "camera/image_raw,/points", "--sync-queue", "5")
	var doc struct {
		Sync []struct {
			Topics    []string
			Policy    string
			QueueSize int `json:"queue_size"`
			Sets      int64
			Fires     bool
			Received  []int64
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitOK {
		t.Fatalf("exit %d, json %v: %s", code, err, errOut)
	}
	if len(doc.Sync) != 1 || doc.Sync[0].Topics[0] != "/camera/image_raw" || doc.Sync[0].Policy != "approximate" || doc.Sync[0].QueueSize != 5 ||
		!doc.Sync[0].Fires || doc.Sync[0].Sets == 0 || doc.Sync[0].Received[1] == 0 {
		t.Errorf("sync: %+v", doc.Sync)
	}
	// Camera at 15 Hz, lidar at 10 Hz, 1 ms apart at best: never equal.
	code, _, errOut = runCLI(t, "analyze", bag, "--format", "json", "-o", "/dev/null", "--sync", "/camera/image_raw,/points", "--sync-policy", "exact", "--fail-on", "sync")
	if code != exitFindings || !strings.Contains(errOut, "never pair") {
		t.Errorf("exact on unequal stamps: exit %d, want %d and the reason in the verdict: %s", code, exitFindings, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--sync", "/camera/image_raw,/nope"}, `the bag's stamped topics`},
		{[]string{"--sync", "/camera/image_raw,/tf"}, "no header stamp"},
		{[]string{"--sync", "/camera/image_raw"}, "2 to 9 topics"},
		{[]string{"--sync-policy", "exact"}, "applies to --sync"},
		{[]string{"--sync", "/a,/b", "--sync-policy", "latest"}, "want approximate or exact"},
		{[]string{"--sync", "/a,/b", "--sync-queue", "0"}, "must be >= 1"},
		{[]string{"--sync", "/a,/b", "--sync-policy", "exact", "--sync-max-interval", "0.1"}, "approximate only"},
	} {
		code, _, errOut := runCLI(t, append([]string{"analyze", bag, "--format", "json"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, want %d with %q: %s", tc.args, code, exitUsage, tc.want, errOut)
		}
		// The listing names the bag's stamped topics, not /tf.
		if tc.want == `the bag's stamped topics` && (!strings.Contains(errOut, "/camera/image_raw") || !strings.Contains(errOut, "/points") || strings.Contains(errOut, "/tf,")) {
			t.Errorf("%v: the usage error does not list the stamped topics: %s", tc.args, errOut)
		}
	}
}

// TestAnalyzeSyncParamFlags: --sync-lower-bound (one for all topics or
// one per topic) and --sync-age-penalty reach the emulation, whose
// sentence names them; bad values, a count that fits no --sync group, and
// either flag with ExactTime or without --sync are usage errors.
func TestAnalyzeSyncParamFlags(t *testing.T) {
	spec, err := scenario.Get(scenario.BothSystem)
	if err != nil {
		t.Fatal(err)
	}
	spec.Duration, spec.Sensors = 3*time.Second, true
	bag := specBag(t, spec, "")
	for _, tc := range []struct {
		args    []string
		want    string
		bounds  []float64
		penalty *float64
	}{
		{[]string{"--sync-age-penalty", "0.5"}, "age penalty 0.5)", []float64{0, 0}, ptr(0.5)},
		{[]string{"--sync-lower-bound", "0.05"}, "inter-message lower bounds 50.0 ms, 50.0 ms)", []float64{0.05, 0.05}, ptr(0.1)},
		{[]string{"--sync-lower-bound", "0.06, 0.09", "--sync-age-penalty", "0"}, "age penalty 0, inter-message lower bounds 60.0 ms, 90.0 ms)", []float64{0.06, 0.09}, ptr(0)},
		{[]string{"--sync-policy", "exact"}, "never pair under ExactTime", nil, nil},
	} {
		code, out, errOut := runCLI(t, append([]string{"analyze", bag, "--format", "json", "--sync", "/camera/image_raw,/points"}, tc.args...)...)
		var doc struct {
			Sync []struct {
				Sentence string
				Bounds   []float64 `json:"inter_message_lower_bounds_s"`
				Penalty  *float64  `json:"age_penalty"`
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitOK || len(doc.Sync) != 1 {
			t.Fatalf("%v: exit %d, json %v: %s", tc.args, code, err, errOut)
		}
		s := doc.Sync[0]
		if !strings.Contains(s.Sentence, tc.want) {
			t.Errorf("%v: sentence %q, want %q in it", tc.args, s.Sentence, tc.want)
		}
		if !reflect.DeepEqual(s.Bounds, tc.bounds) || (s.Penalty == nil) != (tc.penalty == nil) || s.Penalty != nil && *s.Penalty != *tc.penalty {
			t.Errorf("%v: JSON bounds %v penalty %v, want %v and %v", tc.args, s.Bounds, s.Penalty, tc.bounds, tc.penalty)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--sync-age-penalty", "0.3"}, "applies to --sync"},
		{[]string{"--sync", "/a,/b", "--sync-age-penalty", "-1"}, "finite number >= 0"},
		{[]string{"--sync", "/a,/b", "--sync-age-penalty", "NaN"}, "finite number >= 0"},
		{[]string{"--sync", "/a,/b", "--sync-lower-bound", "x"}, "want seconds >= 0"},
		{[]string{"--sync", "/a,/b", "--sync-lower-bound", "-0.1"}, "want seconds >= 0"},
		{[]string{"--sync", "/a,/b", "--sync-lower-bound", "0.1,0.1,0.1"}, "3 values for the 2 topics"},
		{[]string{"--sync", "/a,/b", "--sync-policy", "exact", "--sync-lower-bound", "0.1"}, "approximate only"},
		{[]string{"--sync", "/a,/b", "--sync-policy", "exact", "--sync-age-penalty", "0.2"}, "approximate only"},
	} {
		code, _, errOut := runCLI(t, append([]string{"analyze", bag, "--format", "json"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, want %d with %q: %s", tc.args, code, exitUsage, tc.want, errOut)
		}
	}
}

// TestAnalyzeSyncCSV: --sync-csv writes one row per synchronizer and
// topic, with the counts the JSON has; '-' is refused.
func TestAnalyzeSyncCSV(t *testing.T) {
	spec, err := scenario.Get(scenario.BothSystem)
	if err != nil {
		t.Fatal(err)
	}
	spec.Duration, spec.Sensors = 3*time.Second, true
	bag := specBag(t, spec, "")
	p := filepath.Join(t.TempDir(), "sync.csv")
	code, out, errOut := runCLI(t, "analyze", bag, "--format", "json", "--sync", "/camera/image_raw,/points", "--sync-csv", p)
	var doc struct {
		Sync []struct {
			Sets     int64
			Received []int64
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitOK || len(doc.Sync) != 1 {
		t.Fatalf("exit %d, json %v: %s", code, err, errOut)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows (%v), want a header and one per topic:\n%s", len(rows), err, b)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for i, topic := range []string{"/camera/image_raw", "/points"} {
		r := rows[1+i]
		if r[col["topic"]] != topic || r[col["sets"]] != strconv.FormatInt(doc.Sync[0].Sets, 10) || r[col["received"]] != strconv.FormatInt(doc.Sync[0].Received[i], 10) {
			t.Errorf("row %d: %v, want %s with the JSON's counts %+v", i, r, topic, doc.Sync[0])
		}
	}
	if rows[2][col["offset_from"]] != "/camera/image_raw" || rows[2][col["offset_median_s"]] == "" {
		t.Errorf("second topic's offset columns: %v", rows[2])
	}
	code, _, errOut = runCLI(t, "analyze", bag, "--format", "json", "-o", "/dev/null", "--sync-csv", "-")
	if code != exitFailure || !strings.Contains(errOut, "--sync-csv needs a file name") {
		t.Errorf("--sync-csv -: exit %d: %s", code, errOut)
	}
}

func ptr(v float64) *float64 { return &v }
