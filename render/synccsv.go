package render

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// SyncCSVHeader is the header of the synchronizer table (--sync-csv).
var SyncCSVHeader = []string{"sync", "topics", "policy", "queue_size", "max_interval_s", "age_penalty", "source",
	"sets", "first_set_s", "fires", "reason", "spread_median_s", "spread_p95_s", "spread_max_s",
	"topic", "received", "in_sets", "unused", "zero_stamps", "skipped", "lower_bound_s",
	"offset_from", "offset_samples", "offset_median_s", "offset_p95_abs_s", "drift_s", "drift_ppm", "clock",
	"pose_cost_m", "pose_cost_deg", "sentence"}

// SyncCSV writes the emulated synchronizers (Report.Sync) as one row per
// synchronizer and input topic: the synchronizer's own columns repeat on
// each of its rows (sync numbers them from 1), the per-topic counts
// follow, and for every topic but the first its stamp offset against the
// first, its clock relation and the pose error a steady offset costs.
// Empty cells mean "none" (no set, no offset, ApproximateTime's default
// interval). Text cells are spreadsheet-safe.
func SyncCSV(w io.Writer, rep *analysis.Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(SyncCSVHeader); err != nil {
		return err
	}
	for si, s := range rep.Sync {
		head := []string{strconv.Itoa(si + 1), SafeCSVCell(strings.Join(s.Topics, " ")), s.Policy, strconv.Itoa(s.QueueSize),
			optFloat(s.MaxIntervalS), optFloat(s.AgePenalty), SafeCSVCell(s.Source), strconv.FormatInt(s.Sets, 10), optFloat(s.FirstSetS),
			strconv.FormatBool(s.Fires), s.Reason, optFloat(s.SpreadMedianS), optFloat(s.SpreadP95S), optFloat(s.SpreadMaxS)}
		for i, t := range s.Topics {
			row := append(append([]string{}, head...), SafeCSVCell(t),
				countAt(s.Received, i), countAt(s.InSets, i), countAt(s.Unused, i), countAt(s.ZeroStamps, i), countAt(s.Skipped, i), boundAt(s.LowerBoundsS, i))
			row = append(row, offsetCells(s.Offsets, t)...)
			row = append(row, SafeCSVCell(s.Sentence))
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// offsetCells are the offset columns of topic to: empty for the first
// topic, and for one without a pair of stamps to compare but its clock.
func offsetCells(offs []analysis.SyncOffset, to string) []string {
	for _, o := range offs {
		if o.To != to {
			continue
		}
		cells := []string{SafeCSVCell(o.From), strconv.Itoa(o.Samples), "", "", "", "", o.Clock, "", ""}
		if o.Samples > 0 {
			cells[2], cells[3], cells[4], cells[5] = num(o.MedianS), num(o.P95AbsS), num(o.DriftS), strconv.FormatFloat(o.DriftPPM, 'f', 1, 64)
		}
		if o.Cost != nil {
			cells[7], cells[8] = strconv.FormatFloat(o.Cost.DisplacementM, 'f', 4, 64), strconv.FormatFloat(o.Cost.RotationDeg, 'f', 2, 64)
		}
		return cells
	}
	return make([]string, 9)
}

// num formats v in the shortest form that reads back as the same float.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func optFloat(v *float64) string {
	if v == nil {
		return ""
	}
	return num(*v)
}

func boundAt(b []float64, i int) string {
	if i >= len(b) {
		return ""
	}
	return num(b[i])
}

func countAt(n []int64, i int) string {
	if i >= len(n) {
		return ""
	}
	return strconv.FormatInt(n[i], 10)
}
