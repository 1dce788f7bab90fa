// Package archive holds the logic of `bagclock scan` that is not I/O: the
// index row a bag's analysis becomes, which shard a bag belongs to, safe
// report names, whether an earlier row can be reused, and how index files
// (one per run or per shard) combine into one.
package archive

import (
	"sort"
	"strings"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/bagread"
)

// Row statuses.
const (
	StatusOK      = "ok"      // analysed, bag intact
	StatusDamaged = "damaged" // analysed, but the bag was cut or messages were skipped
	StatusError   = "error"   // could not be analysed; Error says why
	// StatusNotAnalysed is a bag the scan discovered but was interrupted
	// before it analysed; Error says how to resume. Such a row is never
	// reused: the next run analyses the bag.
	StatusNotAnalysed = "not_analysed"
)

// ClassColumns are the classes counted per bag, in index column order.
var ClassColumns = []analysis.Class{
	analysis.SameClock, analysis.LaserOnSystemClock, analysis.TFOnSystemClock,
	analysis.ZeroStamp, analysis.ClockSkew, analysis.StaticOnly, analysis.NoTransform,
}

// Index formats: which ROS wrote the bag, so an archive that mixes ROS 1
// and ROS 2 recordings can be filtered by generation.
const (
	FormatROS1 = "ros1" // bag format 2.0 (rosbag), storage rosbag_v2
	FormatROS2 = "ros2" // rosbag2, storage sqlite3 or mcap
)

// FormatOf is the index format of a storage identifier ("" when it is
// unknown or mixed).
func FormatOf(storage string) string {
	switch storage {
	case bagread.StorageROS1:
		return FormatROS1
	case bagread.StorageSQLite3, bagread.StorageMCAP:
		return FormatROS2
	}
	return ""
}

// Row is one bag of the index: where it is, what identified its content
// when it was analysed, and the headline of its report. Rows are written
// to index.jsonl as they finish and read back on the next run.
type Row struct {
	// Path is the bag's absolute path; it identifies the row.
	Path string `json:"path"`
	// Rel is the path below the scanned root (the shard key).
	Rel    string `json:"rel"`
	Status string `json:"status"`
	// SizeBytes, ModTimeNS and Fingerprint describe the bag's files when
	// the analysis started (sum of sizes, newest mtime, hash of the first
	// and last MiB of each file); ConfigKey the analysis settings.
	SizeBytes   int64  `json:"size_bytes"`
	ModTimeNS   int64  `json:"mtime_ns"`
	Fingerprint string `json:"fingerprint"`
	ConfigKey   string `json:"config_key"`

	Storage string `json:"storage"`
	// Format is the ROS generation of the bag (FormatROS1, FormatROS2;
	// "" when its storage is not known), from Storage.
	Format    string  `json:"format"`
	DurationS float64 `json:"duration_s"`
	Messages  uint64  `json:"messages"`
	Verdict   string  `json:"verdict"`
	Scans     int     `json:"scans"`
	// Rows counts (scan, target) rows; Classes and Filter count them by
	// class and by MessageFilter outcome.
	Rows    int            `json:"rows"`
	Classes map[string]int `json:"classes"`
	Filter  map[string]int `json:"filter"`
	// Drops counts rows whose outcome is one of the dropped_* outcomes.
	Drops          int `json:"drops"`
	ClockJumps     int `json:"clock_jumps"`
	StampJumps     int `json:"stamp_jumps"`
	ZeroStampScans int `json:"zero_stamp_scans"`
	Skipped        int `json:"skipped_messages"`
	// ClockSteps counts confirmed system clock steps; StuckZeroTopics,
	// WallTimerTopics and StaleTopics the analysed topics stuck at time 0,
	// flagged as wall timers under sim time, and often stale.
	ClockSteps      int      `json:"clock_steps"`
	StuckZeroTopics int      `json:"stuck_zero_topics"`
	WallTimerTopics int      `json:"wall_timer_topics"`
	StaleTopics     int      `json:"stale_topics"`
	Findings        []string `json:"findings"`
	// Problems are damage notes from the bag (cut files, metadata rebuilt).
	Problems []string `json:"problems"`
	// Error is why the bag could not be analysed ("" otherwise).
	Error string `json:"error"`
	// ReportHTML and ReportJSON are the per-bag report files, relative to
	// the output directory, with forward slashes ("" for error rows).
	ReportHTML string `json:"report_html"`
	ReportJSON string `json:"report_json"`
}

// FromReport fills the analysis columns of row from rep. Identity columns
// (Path, Rel, size, fingerprint, report names) are left as they are.
func FromReport(row Row, rep *analysis.Report) Row {
	row.Status, row.Error = StatusOK, ""
	row.Storage = rep.Bag.Storage
	row.Format = FormatOf(row.Storage)
	row.DurationS = max(0, float64(rep.Bag.EndNS-rep.Bag.StartNS)/1e9) // 0 for an end before the start
	row.Messages = rep.Bag.Messages
	row.Verdict = rep.Summary.Verdict
	if row.Verdict == "" {
		row.Verdict = rep.Verdict.Sentence
	}
	row.Scans = rep.Summary.Scans
	row.Rows = rep.Summary.Rows
	row.Classes = copyCounts(rep.Summary.Classes)
	row.Filter = copyCounts(rep.Summary.Filter)
	row.Drops = 0
	for outcome, n := range rep.Summary.Filter {
		if strings.HasPrefix(outcome, "dropped_") {
			row.Drops += n
		}
	}
	row.ClockJumps = len(rep.Summary.ClockJumps)
	if row.ClockJumps == 0 {
		row.ClockJumps = len(rep.ClockJumps)
	}
	row.StampJumps = len(rep.StampJumps)
	row.ZeroStampScans = rep.Summary.ZeroStampScans
	row.Skipped = rep.Summary.Skipped
	row.ClockSteps, row.StuckZeroTopics, row.WallTimerTopics, row.StaleTopics = 0, len(rep.StuckZero), 0, 0
	for _, st := range rep.ClockSteps {
		if st.Confirmed {
			row.ClockSteps++
		}
	}
	for _, t := range rep.TimerClocks {
		if t.Flagged {
			row.WallTimerTopics++
		}
	}
	for _, ag := range rep.Ages {
		if ag.Kind == analysis.AgeStale {
			row.StaleTopics++
		}
	}
	row.Findings = append([]string{}, rep.Summary.Findings...)
	sort.Strings(row.Findings)
	row.Problems = []string{}
	if rep.Damage != nil {
		row.Problems = append(row.Problems, rep.Damage.Notes...)
	}
	row.Problems = append(row.Problems, rep.Bag.Problems...)
	switch {
	case rep.Damage == nil:
		// A report not made by Analyze: any problem note is damage.
		if len(row.Problems) > 0 || row.Skipped > 0 {
			row.Status = StatusDamaged
		}
	case rep.Damage.Status != analysis.DamageOK:
		row.Status = StatusDamaged
	}
	// (A complete bag whose metadata.yaml was rebuilt is ok, with its note.)
	return row
}

// ErrorRow marks row as a bag that could not be analysed, keeping its
// identity columns and dropping any analysis results and report names.
func ErrorRow(row Row, err error) Row {
	out := Row{
		Path: row.Path, Rel: row.Rel, SizeBytes: row.SizeBytes, ModTimeNS: row.ModTimeNS,
		Fingerprint: row.Fingerprint, ConfigKey: row.ConfigKey, Storage: row.Storage, Format: FormatOf(row.Storage),
		Status: StatusError, Error: "unknown error",
	}
	if err != nil {
		out.Error = err.Error()
	}
	return out
}

// NotAnalysedRow is the row of a discovered bag an interrupted scan did
// not analyse: its identity columns, StatusNotAnalysed and why in Error.
func NotAnalysedRow(row Row, why string) Row {
	return Row{Path: row.Path, Rel: row.Rel, SizeBytes: row.SizeBytes, ModTimeNS: row.ModTimeNS,
		ConfigKey: row.ConfigKey, Storage: row.Storage, Format: FormatOf(row.Storage), Status: StatusNotAnalysed, Error: why}
}

// HasFinding reports whether the row's bag had any finding named in kinds
// (the --fail-on categories).
func (r Row) HasFinding(kinds []string) bool {
	for _, f := range r.Findings {
		for _, k := range kinds {
			if f == k {
				return true
			}
		}
	}
	return false
}

func copyCounts(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Totals summarise an index for the summary line and the index page.
type Totals struct {
	Bags, OK, Damaged, Errors int
	// NotAnalysed counts bags an interrupted scan did not reach.
	NotAnalysed int
	// WithFindings counts bags with at least one finding; Drops, ClockJumps
	// and ZeroStampScans are sums over all bags.
	WithFindings   int
	Drops          int
	ClockJumps     int
	ZeroStampScans int
	SizeBytes      int64
}

// Summarize adds up rows.
func Summarize(rows []Row) Totals {
	var t Totals
	for _, r := range rows {
		t.Bags++
		switch r.Status {
		case StatusOK:
			t.OK++
		case StatusDamaged:
			t.Damaged++
		case StatusNotAnalysed:
			t.NotAnalysed++
		default:
			t.Errors++
		}
		if len(r.Findings) > 0 {
			t.WithFindings++
		}
		t.Drops += r.Drops
		t.ClockJumps += r.ClockJumps
		t.ZeroStampScans += r.ZeroStampScans
		t.SizeBytes += r.SizeBytes
	}
	return t
}
