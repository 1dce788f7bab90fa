// Package render writes bagclock analysis results as CSV, JSON or one
// self-contained HTML page. It sees only analysis values and writes to an
// io.Writer; it opens no files.
//
// Per-scan rows stream: analysis calls a sink per (scan, target) row while
// it reads the bag and returns the bounded *analysis.Report only at the
// end. The CSV and JSON writers therefore take rows one at a time, and
// their Row methods are analysis.ScanSink values:
//
//	cw := render.NewCSV(w)   // header, then one line per row
//	rep, err := analysis.Analyze(bag, cfg, cw.Row)
//	err = cw.Flush()
//
//	jw := render.NewJSON(w)  // {"schema_version":9,"scans":[ ... streamed ...
//	rep, err := analysis.Analyze(bag, cfg, jw.Row)
//	verdict.Finish(rep)      // analysis/verdict decides rep.Verdict
//	err = jw.Finish(rep)     // ], "bag":..., "summary":..., ...}
//
//	err = render.HTML(w, rep) // needs only the report
//
// # CSV
//
// One row per (scan, target). The columns are CSVHeader; the first eleven
// are fixed:
//
//	topic,scan_index,log_time_ns,stamp_ns,frame_id,target_frame,tf_latest_ns,diff_s,class,filter_outcome,filter_reason
//
// followed by publish_time_ns, clock_ns, stalest_parent, stalest_child,
// stalest_topic, filter_wait_ns, filter_wait_tf_messages and
// filter_log_line. Nanoseconds are integers. diff_s is stamp_ns −
// tf_latest_ns in seconds with exactly nine decimals, computed on the
// integers (a float64 near 1.79e9 s cannot hold nanoseconds).
// tf_latest_ns and diff_s are empty when the path has no dynamic link;
// publish_time_ns and clock_ns are empty when unknown.
//
// # JSON
//
// One object. Because rows stream, "scans" comes first; the remaining keys
// follow in the order of analysis.Report's fields, one key per line:
//
//	{"schema_version":9,"scans":[{...},...],
//	 "bag":{...}, "settings":{...}, "summary":{...}, "verdict":{...},
//	 "clock_jumps":[...], "stamp_jumps":[...], "stalls":[...],
//	 "clock_rate":{...}, "zero_stamp":{...}, "skew":[...], "tf_tree":[...],
//	 "rosout":[...], "skipped":[...], "series":{...}}
//
// A scan object has topic, scan_index, log_time_ns, stamp_ns, frame_id,
// target_frame, tf_latest_ns, diff_s, class, filter_outcome,
// filter_reason, publish_time_ns, clock_ns, stalest_link ({parent, child,
// topic}), filter_wait_ns, filter_wait_tf_messages and filter_log_line;
// values that are unknown are null, never a misleading 0. summary has
// verdict, scans, rows, classes (class → count), filter (outcome → count),
// zero_stamp_scans, clock_jumps ([{index, log_time_ns, from_ns, to_ns,
// kind, topic}]), skipped_messages and findings. Every *_ns value is a
// JSON integer; empty lists are [] and empty maps {}, never null.
// clock_rate is absent when the bag has no /clock. SCHEMA.md in this
// directory lists every field.
//
// # HTML
//
// HTML writes one page with inline CSS, inline SVG plots drawn here in Go
// and a small inline script (a plot readout, sortable tables, a "copy for a
// ticket" button). It loads nothing from the network. Every string from the
// bag goes through html/template in its context (text, attribute, SVG
// text, JSON inside <script>); none is ever template.HTML. Plots keep at
// most 2000 points per series (min/max per bucket, so spikes survive) and
// 12 diff series, and tables at most 500 rows, so a one-hour bag stays well
// under 2 MB whatever analysis hands over.
package render
