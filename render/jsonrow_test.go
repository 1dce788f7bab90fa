package render

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// jsonScan is one element of "scans" as encoding/json writes it: the
// reference appendJSONScan is held to. Optional values are pointers so
// that "absent" is null rather than a misleading 0.
type jsonScan struct {
	Topic         string       `json:"topic"`
	ScanIndex     uint64       `json:"scan_index"`
	LogTimeNS     int64        `json:"log_time_ns"`
	StampNS       int64        `json:"stamp_ns"`
	FrameID       string       `json:"frame_id"`
	TargetFrame   string       `json:"target_frame"`
	TFLatestNS    *int64       `json:"tf_latest_ns"`
	DiffS         *json.Number `json:"diff_s"`
	Class         string       `json:"class"`
	FilterOutcome string       `json:"filter_outcome"`
	FilterReason  string       `json:"filter_reason"`
	PublishTimeNS *int64       `json:"publish_time_ns"`
	ClockNS       *int64       `json:"clock_ns"`
	Stalest       *jsonLink    `json:"stalest_link"`
	FilterWaitNS  int64        `json:"filter_wait_ns"`
	FilterWaitTF  int          `json:"filter_wait_tf_messages"`
	FilterLogLine string       `json:"filter_log_line"`
	Type          string       `json:"type"`
	AgeS          *json.Number `json:"age_s"`
}

type jsonLink struct {
	Parent string `json:"parent"`
	Child  string `json:"child"`
	Topic  string `json:"topic"`
}

func newJSONScan(r *analysis.ScanRow) jsonScan {
	s := jsonScan{
		Topic:         r.Topic,
		Type:          r.Type,
		ScanIndex:     r.ScanIndex,
		LogTimeNS:     r.LogTimeNS,
		StampNS:       r.StampNS,
		FrameID:       r.FrameID,
		TargetFrame:   r.TargetFrame,
		Class:         string(r.Class),
		FilterOutcome: r.FilterOutcome,
		FilterReason:  r.FilterReason,
		FilterWaitNS:  r.FilterWaitNS,
		FilterWaitTF:  r.FilterWaitTF,
		FilterLogLine: r.FilterLogLine,
	}
	if r.HasTF {
		tf := r.TFLatestNS
		s.TFLatestNS = &tf
		if d := diffSeconds(r); d != "" {
			n := json.Number(d)
			s.DiffS = &n
		}
	}
	if r.HasPublishTime {
		p := r.PublishTimeNS
		s.PublishTimeNS = &p
	}
	if r.HasClock {
		c := r.ClockNS
		s.ClockNS = &c
	}
	if r.HasAge {
		n := json.Number(formatNSAsSeconds(r.AgeNS))
		s.AgeS = &n
	}
	if r.StalestParent != "" || r.StalestChild != "" {
		s.Stalest = &jsonLink{Parent: r.StalestParent, Child: r.StalestChild, Topic: r.StalestTopic}
	}
	return s
}

// TestAppendJSONScan: the hand-written row encoder writes what
// encoding/json writes for the same row, for every optional field absent
// or present and strings that need escaping.
func TestAppendJSONScan(t *testing.T) {
	base := analysis.ScanRow{Topic: "/scan", Type: "sensor_msgs/msg/LaserScan", ScanIndex: 7, LogTimeNS: 1_700_000_000_123456789,
		StampNS: 1_700_000_000_100000000, FrameID: "laser", TargetFrame: "odom", Class: "same_clock", FilterOutcome: "passed",
		FilterWaitNS: 25_000_000, FilterWaitTF: 3, FilterLogLine: "Message Filter dropping message: frame 'laser' at time 1.0 for reason 'x'"}
	rows := []analysis.ScanRow{base}
	add := func(f func(r *analysis.ScanRow)) {
		r := base
		f(&r)
		rows = append(rows, r)
	}
	add(func(r *analysis.ScanRow) { r.HasTF, r.TFLatestNS = true, 1_700_000_000_000000000 })
	add(func(r *analysis.ScanRow) { r.HasTF, r.TFLatestNS, r.StampNS = true, math.MinInt64, math.MaxInt64 }) // diff overflows
	add(func(r *analysis.ScanRow) { r.HasTF, r.DiffS, r.TFLatestNS = true, math.NaN(), 5 })
	// Past int64 the diff comes from DiffS: signed zero, extremes, infinity.
	for _, d := range []float64{math.Copysign(0, -1), 1e300, -5e-324, 1.7976931348623157e308, math.Inf(-1)} {
		add(func(r *analysis.ScanRow) {
			r.HasTF, r.TFLatestNS, r.StampNS, r.DiffS = true, math.MinInt64, math.MaxInt64, d
		})
	}
	add(func(r *analysis.ScanRow) {
		r.HasPublishTime, r.PublishTimeNS, r.HasClock, r.ClockNS = true, -3, true, 0
	})
	add(func(r *analysis.ScanRow) { r.StalestParent, r.StalestTopic = "map", "/tf" })
	add(func(r *analysis.ScanRow) { r.HasAge, r.AgeNS = true, -1_500_000_000 })
	add(func(r *analysis.ScanRow) { r.StalestChild = "base_link" })
	add(func(r *analysis.ScanRow) {
		r.StampNS, r.LogTimeNS, r.FilterWaitNS, r.FilterWaitTF = math.MinInt64, -1, -2, -3
	})
	for _, s := range []string{"", "a\"b", "back\\slash", "<script>&", "tab\tnew\nline\x01\x7f", "caf\u00e9", "bad\xff\xfeutf8", "\u2028\u2029", "=HYPERLINK(\"x\")",
		// One character alone: each test of the fast path decides by itself.
		"\"", "\\", "<", ">", "&", "\x01", "\x1f", " ", "~", "\x7f", "\xff", "\u00e9"} {
		add(func(r *analysis.ScanRow) { r.Topic, r.FrameID, r.TargetFrame, r.FilterReason, r.Type = s, s, s, s, s })
		add(func(r *analysis.ScanRow) {
			r.FilterLogLine, r.Class, r.StalestParent, r.StalestChild, r.StalestTopic = s, analysis.Class(s), s, "c", s
		})
	}
	for i := range rows {
		want, err := json.Marshal(newJSONScan(&rows[i]))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONScan([]byte("x"), &rows[i]); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Errorf("row %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
