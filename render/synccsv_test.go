package render

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// syncReport holds a synchronizer that fires with a steady, costly offset
// and one that never fires over a topic named like a formula.
func syncReport() *analysis.Report {
	f := func(v float64) *float64 { return &v }
	return &analysis.Report{Sync: []analysis.SyncSummary{
		{Topics: []string{"/camera/depth/image_raw", "/camera/color/image_raw"}, Policy: "approximate", QueueSize: 5, Source: "depth_image_proc",
			LowerBoundsS: []float64{0, 0.03}, AgePenalty: f(0.1),
			Sets: 298, FirstSetS: f(0.1), Received: []int64{300, 300}, InSets: []int64{298, 298}, Unused: []int64{2, 2},
			ZeroStamps: []int64{0, 0}, Skipped: []int64{0, 1}, SpreadMedianS: f(0.03), SpreadP95S: f(0.031), SpreadMaxS: f(0.034), Fires: true,
			Sentence: "ApproximateTime (queue 5) pairs /camera/depth/image_raw and /camera/color/image_raw: 298 sets.",
			Offsets: []analysis.SyncOffset{{From: "/camera/depth/image_raw", To: "/camera/color/image_raw", Samples: 300, MedianS: 0.03, P95AbsS: 0.031,
				DriftS: 0.0002, DriftPPM: 6.7, Clock: analysis.SyncClockOneClock,
				Series: []analysis.SyncOffsetPoint{{XS: 1, MedianS: 0.0299, N: 100}, {XS: 5, MedianS: 0.03, N: 100}, {XS: 9, MedianS: 0.0301, N: 100}},
				Cost: &analysis.SyncPoseCost{OffsetS: 0.03, SpeedMS: 1.2, RateRadS: 0.8, DisplacementM: 0.036, RotationDeg: 1.375,
					Sentence: "/camera/color/image_raw is stamped 30 ms after /camera/depth/image_raw: at 1.20 m/s and 0.80 rad/s (median, camera_link in odom) that is 3.6 cm, 1.4° of pose error (up to 4.0 cm, 1.6°)."}}}},
		{Topics: []string{"/points", "=HYPERLINK(\"x\")", "/imu"}, Policy: "exact", QueueSize: 10, Source: "--sync",
			Received: []int64{100, 0, 50}, InSets: []int64{0, 0, 0}, Unused: []int64{100, 0, 50}, ZeroStamps: []int64{0, 0, 0}, Skipped: []int64{0, 3, 0},
			Reason: analysis.SyncReasonEmptyTopic, Sentence: "-never pair: =HYPERLINK(\"x\") has no message that decodes (3 messages skipped).",
			Offsets: []analysis.SyncOffset{{From: "/points", To: "=HYPERLINK(\"x\")", Clock: analysis.SyncClockUnknown},
				{From: "/points", To: "/imu", Samples: 50, MedianS: -1.79e9, P95AbsS: 1.79e9, Clock: analysis.SyncClockDifferent,
					Series: []analysis.SyncOffsetPoint{{XS: 2, MedianS: -1.79e9, N: 50}}}}},
	}}
}

// TestSyncCSV: one row per synchronizer and topic, against the golden
// file; every row as wide as the header, no text cell a formula, and a
// report without synchronizers is the header alone.
func TestSyncCSV(t *testing.T) {
	var b bytes.Buffer
	if err := SyncCSV(&b, syncReport()); err != nil {
		t.Fatal(err)
	}
	golden(t, "sync.csv", b.Bytes())
	rows, err := csv.NewReader(bytes.NewReader(b.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+2+3 {
		t.Fatalf("%d rows, want a header and 5", len(rows))
	}
	for i, r := range rows {
		if len(r) != len(SyncCSVHeader) {
			t.Errorf("row %d has %d cells, want %d", i, len(r), len(SyncCSVHeader))
		}
		for j, c := range r {
			if c != "" && isCSVDangerous(c[0]) && !isNumber(c) {
				t.Errorf("row %d %s = %q: a formula", i, SyncCSVHeader[j], c)
			}
		}
	}
	var empty bytes.Buffer
	if err := SyncCSV(&empty, &analysis.Report{}); err != nil || empty.Len() == 0 || bytes.Count(empty.Bytes(), []byte("\n")) != 1 {
		t.Errorf("no synchronizers: %q, %v", empty.String(), err)
	}
}

// isNumber: a negative number bagclock formatted itself may start with '-'.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
