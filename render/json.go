package render

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/finding"
)

// JSONWriter streams a report as one JSON object: the "scans" array first,
// one row per line as rows arrive, then the rest of the report at Finish.
// The schema is in doc.go and SCHEMA.md. Its Row method is an
// analysis.ScanSink.
type JSONWriter struct {
	w        *bufio.Writer
	rows     int
	finished bool
	err      error
	buf      []byte // one row, reused
}

// NewJSON returns a writer that writes to w. Nothing is written until the
// first Row or Finish.
func NewJSON(w io.Writer) *JSONWriter {
	return &JSONWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

// JSONSchemaVersion is the "schema_version" of the JSON report, its first
// key. 1 was the LaserScan-only report (no schema_version key); 2 analyses
// every sensor topic: rows carry "type", pairs "type", "consumer" and
// "startup_drops", and the report lists "topics"; 3 adds the time checks:
// "timer_clocks", "real_time_factor_range", "clock_steps", "stuck_zero",
// "ages" and "counts.clock_steps"; 4 adds the verdict class
// "sensor_on_system_clock"; 5 adds "findings", every check's typed
// findings as objects; 6 adds "sync", the emulated message_filters
// synchronizers, and the finding kind "sync"; 7 adds their
// "inter_message_lower_bounds_s" and "age_penalty", and ROS 1 bags'
// "nodes[].publishes" and index "format"; 8 adds "ages[].link"; 9 adds
// "lag_floor". See SCHEMA.md.
const JSONSchemaVersion = 9

// errFinished is returned by Row after Finish.
var errFinished = errors.New("render: json: row after Finish")

func (j *JSONWriter) open() {
	if j.rows == 0 && j.err == nil {
		_, j.err = fmt.Fprintf(j.w, `{"schema_version":%d,"scans":[`, JSONSchemaVersion)
	}
}

// Row appends one (scan, target) row to "scans". The row is not retained.
// After the first error every call returns that error.
func (j *JSONWriter) Row(r *analysis.ScanRow) error {
	if j.finished {
		return errFinished
	}
	if j.err != nil || r == nil {
		return j.err
	}
	j.buf = appendJSONScan(j.buf[:0], r)
	b := j.buf
	j.open()
	sep := ",\n"
	if j.rows == 0 {
		sep = "\n"
	}
	j.rows++
	if j.err == nil {
		_, j.err = j.w.WriteString(sep)
	}
	if j.err == nil {
		_, j.err = j.w.Write(b)
	}
	if j.err != nil {
		j.err = fmt.Errorf("render: json row %d: %w", j.rows, j.err)
	}
	return j.err
}

// Finish closes "scans", writes every other key of rep in the order of
// analysis.Report's fields (one key per line), closes the object and
// flushes. A nil rep (the
// analysis failed) still closes the object, with "scans" as its only key.
// Non-finite floats in rep make Finish fail: JSON cannot hold them.
func (j *JSONWriter) Finish(rep *analysis.Report) error {
	if j.finished {
		return errFinished
	}
	j.finished = true
	if j.err != nil {
		return j.err
	}
	var fields [][]byte
	if rep != nil {
		var err error
		if fields, err = reportFields(normalized(rep)); err != nil {
			j.err = fmt.Errorf("render: json report: %w", err)
			return j.err
		}
	}
	j.open()
	if j.err == nil && j.rows > 0 {
		_, j.err = j.w.WriteString("\n")
	}
	if j.err == nil {
		_, j.err = j.w.WriteString("]")
	}
	for _, f := range fields {
		if j.err == nil {
			_, j.err = j.w.WriteString(",\n")
		}
		if j.err == nil {
			_, j.err = j.w.Write(f)
		}
	}
	if j.err == nil {
		_, j.err = j.w.WriteString("}")
	}
	if j.err == nil {
		_, j.err = j.w.WriteString("\n")
	}
	if j.err == nil {
		j.err = j.w.Flush()
	}
	if j.err != nil {
		j.err = fmt.Errorf("render: json finish: %w", j.err)
	}
	return j.err
}

// reportFields marshals each field of rep as `"key":value`, in field
// order, honouring the json tags of analysis.Report (name, "-",
// omitempty), so new report fields appear without touching render.
func reportFields(rep *analysis.Report) ([][]byte, error) {
	v := reflect.ValueOf(rep).Elem()
	t := v.Type()
	var out [][]byte
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fv := v.Field(i)
		if strings.Contains(","+opts+",", ",omitempty,") && fv.IsZero() {
			continue
		}
		val, err := json.Marshal(fv.Interface())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		key, _ := json.Marshal(name)
		out = append(out, append(append(key, ':'), val...))
	}
	return out, nil
}

// normalized returns a shallow copy of rep whose nil slices and maps are
// empty, so that consumers see [] and {} rather than null. rep is not
// modified.
func normalized(rep *analysis.Report) *analysis.Report {
	c := *rep
	c.Bag.Files = nonNil(c.Bag.Files)
	c.Settings.ScanTopics = nonNil(c.Settings.ScanTopics)
	c.Settings.TargetFrames = nonNil(c.Settings.TargetFrames)
	c.Summary.Classes = nonNilMap(c.Summary.Classes)
	c.Summary.Filter = nonNilMap(c.Summary.Filter)
	c.Summary.ClockJumps = nonNil(c.Summary.ClockJumps)
	c.Summary.Findings = nonNil(c.Summary.Findings)
	c.Verdict.Evidence = nonNil(c.Verdict.Evidence)
	c.Verdict.Commands = nonNil(c.Verdict.Commands)
	c.Findings = make([]finding.Finding, len(rep.Findings))
	for i, f := range rep.Findings {
		c.Findings[i] = finding.Normalize(f)
	}
	c.ClockJumps = nonNil(c.ClockJumps)
	c.StampJumps = nonNil(c.StampJumps)
	c.Stalls = nonNil(c.Stalls)
	c.Skew = nonNil(c.Skew)
	c.TFTree = nonNil(c.TFTree)
	c.TFFindings = append([]analysis.TFFinding{}, c.TFFindings...) // its elements are edited below
	for i := range c.TFFindings {
		c.TFFindings[i].Links = nonNil(c.TFFindings[i].Links)
		c.TFFindings[i].Evidence = nonNil(c.TFFindings[i].Evidence)
	}
	c.Rosout = nonNil(c.Rosout)
	c.Skipped = nonNil(c.Skipped)
	c.Pairs = append([]analysis.PairSummary{}, c.Pairs...)
	for i := range c.Pairs {
		c.Pairs[i].Classes = nonNilMap(c.Pairs[i].Classes)
		c.Pairs[i].Filter = nonNilMap(c.Pairs[i].Filter)
	}
	c.Topics = nonNil(c.Topics)
	c.TimerClocks = nonNil(c.TimerClocks)
	c.ClockSteps = append([]analysis.ClockStep{}, c.ClockSteps...)
	for i := range c.ClockSteps {
		c.ClockSteps[i].Stepped = nonNil(c.ClockSteps[i].Stepped)
		c.ClockSteps[i].Unstepped = nonNil(c.ClockSteps[i].Unstepped)
	}
	c.Sync = append([]analysis.SyncSummary{}, c.Sync...)
	c.StuckZero = append([]analysis.StuckZero{}, c.StuckZero...)
	for i := range c.StuckZero {
		c.StuckZero[i].Nodes = nonNil(c.StuckZero[i].Nodes)
	}
	c.Ages = nonNil(c.Ages)
	if c.Series.Diff == nil {
		c.Series.Diff = map[string][]analysis.Point{}
	}
	c.Series.Clock = nonNil(c.Series.Clock)
	c.Series.Outcomes = nonNil(c.Series.Outcomes)
	return &c
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func nonNilMap(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

// WarmJSON builds encoding/json's encoders for the types of a report's
// keys by encoding an empty report: encoding/json caches them per type
// (safely across goroutines), and building a struct's encoder builds its
// fields' too, omitted or not. A fresh process that calls it on a
// goroutine of its own while the analysis runs finds them built at
// Finish, where they took about 100 µs a key on the benchmark VM, after
// the pass.
func WarmJSON() {
	_, _ = json.Marshal(&analysis.Report{})
}
