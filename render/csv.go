package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/bagclock/bagclock/analysis"
)

// CSVHeader is the CSV header row. The first eleven columns are fixed by
// the command-line contract; later columns may be appended, never reordered.
var CSVHeader = []string{
	"topic", "scan_index", "log_time_ns", "stamp_ns", "frame_id", "target_frame",
	"tf_latest_ns", "diff_s", "class", "filter_outcome", "filter_reason",
	"publish_time_ns", "clock_ns", "stalest_parent", "stalest_child", "stalest_topic",
	"filter_wait_ns", "filter_wait_tf_messages", "filter_log_line", "type",
	"age_s",
}

// CSVWriter writes one CSV row per (scan, target) as rows stream out of the
// analysis. Create it with NewCSV; its Row method is an analysis.ScanSink.
type CSVWriter struct {
	w      *csv.Writer
	header bool
	rec    []string
	err    error
}

// NewCSV returns a writer that writes CSVHeader before the first row (or on
// Flush, if no row came) and then one line per row to w.
func NewCSV(w io.Writer) *CSVWriter {
	return &CSVWriter{w: csv.NewWriter(w), rec: make([]string, len(CSVHeader))}
}

// Row writes one (scan, target) row. The row is not retained, so the caller
// may reuse it. After the first write error every call returns that error.
func (c *CSVWriter) Row(r *analysis.ScanRow) error {
	if c.err != nil {
		return c.err
	}
	if r == nil {
		return nil
	}
	if err := c.writeHeader(); err != nil {
		return err
	}
	rec := c.rec
	rec[0] = SafeCSVCell(r.Topic)
	rec[1] = strconv.FormatUint(r.ScanIndex, 10)
	rec[2] = strconv.FormatInt(r.LogTimeNS, 10)
	rec[3] = strconv.FormatInt(r.StampNS, 10)
	rec[4] = SafeCSVCell(r.FrameID)
	rec[5] = SafeCSVCell(r.TargetFrame)
	rec[6], rec[7] = "", ""
	if r.HasTF {
		rec[6] = strconv.FormatInt(r.TFLatestNS, 10)
		rec[7] = diffSeconds(r)
	}
	rec[8] = SafeCSVCell(string(r.Class))
	rec[9] = SafeCSVCell(r.FilterOutcome)
	rec[10] = SafeCSVCell(r.FilterReason)
	rec[11] = ""
	if r.HasPublishTime {
		rec[11] = strconv.FormatInt(r.PublishTimeNS, 10)
	}
	rec[12] = ""
	if r.HasClock {
		rec[12] = strconv.FormatInt(r.ClockNS, 10)
	}
	rec[13] = SafeCSVCell(r.StalestParent)
	rec[14] = SafeCSVCell(r.StalestChild)
	rec[15] = SafeCSVCell(r.StalestTopic)
	rec[16] = strconv.FormatInt(r.FilterWaitNS, 10)
	rec[17] = strconv.Itoa(r.FilterWaitTF)
	rec[18] = SafeCSVCell(r.FilterLogLine)
	rec[19] = SafeCSVCell(r.Type)
	// A number bagclock formats: never prefixed, even when negative.
	rec[20] = ""
	if r.HasAge {
		rec[20] = formatNSAsSeconds(r.AgeNS)
	}
	if err := c.w.Write(rec); err != nil {
		c.err = fmt.Errorf("render: csv row %s #%d: %w", r.Topic, r.ScanIndex, err)
	}
	return c.err
}

// Flush writes the header if no row was written yet and flushes buffered
// output, returning the first error met.
func (c *CSVWriter) Flush() error {
	if c.err != nil {
		return c.err
	}
	if err := c.writeHeader(); err != nil {
		return err
	}
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		c.err = fmt.Errorf("render: csv flush: %w", err)
	}
	return c.err
}

func (c *CSVWriter) writeHeader() error {
	if c.header {
		return nil
	}
	c.header = true
	if err := c.w.Write(CSVHeader); err != nil {
		c.err = fmt.Errorf("render: csv header: %w", err)
	}
	return c.err
}

// diffSeconds formats stamp − tf_latest in seconds with exactly nine
// decimals. It works on the integer nanoseconds, because a float64 near
// 1.79e9 s cannot hold nanoseconds; it falls back to DiffS only when the
// subtraction would overflow, and returns "" for a non-finite DiffS then.
func diffSeconds(r *analysis.ScanRow) string {
	b, ok := appendDiffSeconds(nil, r)
	if !ok {
		return ""
	}
	return string(b)
}

// appendDiffSeconds appends diffSeconds(r) to b; false (b unchanged) where
// that is "".
func appendDiffSeconds(b []byte, r *analysis.ScanRow) ([]byte, bool) {
	if d, ok := subNS(r.StampNS, r.TFLatestNS); ok {
		return appendNSAsSeconds(b, d), true
	}
	if math.IsNaN(r.DiffS) || math.IsInf(r.DiffS, 0) {
		return b, false
	}
	return strconv.AppendFloat(b, r.DiffS, 'f', 9, 64), true
}

// subNS returns a − b and whether it fits in an int64.
func subNS(a, b int64) (int64, bool) {
	d := a - b
	// It overflowed when a and b differ in sign and d's sign is not a's.
	if (a^b)&(a^d) < 0 {
		return 0, false
	}
	return d, true
}

// formatNSAsSeconds writes ns as seconds with nine decimals, exactly:
// -1500000000 → "-1.500000000".
func formatNSAsSeconds(ns int64) string { return string(appendNSAsSeconds(nil, ns)) }

// appendNSAsSeconds appends formatNSAsSeconds(ns) to b (a row's diff and
// age, without a string each).
func appendNSAsSeconds(b []byte, ns int64) []byte {
	u := uint64(ns)
	if ns < 0 {
		b = append(b, '-')
		u = uint64(-(ns + 1)) + 1 // safe for math.MinInt64
	}
	b = strconv.AppendUint(b, u/1e9, 10)
	frac := u % 1e9
	var d [10]byte
	d[0] = '.'
	for i := 9; i > 0; i-- {
		d[i] = byte('0' + frac%10)
		frac /= 10
	}
	return append(b, d[:]...)
}
