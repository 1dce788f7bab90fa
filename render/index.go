package render

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/bagclock/bagclock/analysis/archive"
)

// IndexColumns are the columns of index.csv, in order.
func IndexColumns() []string {
	cols := []string{"path", "rel", "status", "size_bytes", "duration_s", "storage", "messages", "verdict", "scans", "rows"}
	for _, c := range archive.ClassColumns {
		cols = append(cols, string(c))
	}
	return append(cols, "drops", "clock_jumps", "stamp_jumps", "zero_stamp_scans", "skipped_messages",
		"findings", "problems", "error", "report_html", "report_json",
		"clock_steps", "stuck_zero_topics", "wall_timer_topics", "stale_topics", "format")
}

func indexRecord(r archive.Row) []string {
	rec := []string{SafeCSVCell(r.Path), SafeCSVCell(r.Rel), SafeCSVCell(r.Status), strconv.FormatInt(r.SizeBytes, 10),
		strconv.FormatFloat(r.DurationS, 'f', 3, 64), SafeCSVCell(r.Storage), strconv.FormatUint(r.Messages, 10),
		SafeCSVCell(r.Verdict), strconv.Itoa(r.Scans), strconv.Itoa(r.Rows)}
	for _, c := range archive.ClassColumns {
		rec = append(rec, strconv.Itoa(r.Classes[string(c)]))
	}
	return append(rec, strconv.Itoa(r.Drops), strconv.Itoa(r.ClockJumps), strconv.Itoa(r.StampJumps),
		strconv.Itoa(r.ZeroStampScans), strconv.Itoa(r.Skipped),
		SafeCSVCell(strings.Join(r.Findings, ";")), SafeCSVCell(strings.Join(r.Problems, "; ")), SafeCSVCell(r.Error),
		SafeCSVCell(r.ReportHTML), SafeCSVCell(r.ReportJSON),
		strconv.Itoa(r.ClockSteps), strconv.Itoa(r.StuckZeroTopics), strconv.Itoa(r.WallTimerTopics), strconv.Itoa(r.StaleTopics),
		SafeCSVCell(r.Format))
}

// IndexCSV writes rows as index.csv: a header of IndexColumns, then one
// record per bag in the order given.
func IndexCSV(w io.Writer, rows []archive.Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(IndexColumns()); err != nil {
		return fmt.Errorf("render: index csv: %w", err)
	}
	for _, r := range rows {
		if err := cw.Write(indexRecord(r)); err != nil {
			return fmt.Errorf("render: index csv %s: %w", r.Path, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("render: index csv: %w", err)
	}
	return nil
}

// IndexJSONLine encodes one row as a line of index.jsonl (newline
// included). One Write per row keeps an append-only file whole up to the
// last finished row when the process is killed.
func IndexJSONLine(r archive.Row) ([]byte, error) {
	// Lists and counts are [] and {} when empty, never null, as in the
	// reports (error rows have none).
	r.Findings, r.Problems = nonNil(r.Findings), nonNil(r.Problems)
	r.Classes, r.Filter = nonNilMap(r.Classes), nonNilMap(r.Filter)
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("render: index row %s: %w", r.Path, err)
	}
	return append(b, '\n'), nil
}

// IndexJSONL writes rows as index.jsonl.
func IndexJSONL(w io.Writer, rows []archive.Row) error {
	for _, r := range rows {
		b, err := IndexJSONLine(r)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("render: index jsonl: %w", err)
		}
	}
	return nil
}

// IndexPage is the heading of index.html: what was scanned, by which
// bagclock, when and how, and what discovery could not read.
type IndexPage struct {
	Title     string   // e.g. "bagclock scan of /data/archive"
	Version   string   // bagclock version
	Generated string   // when the index was written, e.g. "2026-12-02 05:40 UTC"
	Settings  []string // analysis settings, e.g. "consumer rviz", "queue size 10"
	// Problems are folders or files discovery could not read.
	Problems []string
	// Notes are remarks shown first, above the totals (an interrupted
	// scan: how many bags were analysed and how to resume).
	Notes []string
}

type indexView struct {
	IndexPage
	Totals  archive.Totals
	Clean   int // status ok and no findings
	Classes []string
	Kinds   []string // finding classes present, for the filter
	Rows    []indexViewRow
}

type indexViewRow struct {
	archive.Row
	Size     string
	Duration string
	Counts   []int
	Rank     int    // triage order: findings, damaged, errors, ok
	Group    string // "findings", "damaged", "error" or "ok"
	Kinds    string // findings, space-separated, for the class filter
}

// triage ranks a row for the default order: bags with findings first
// (what needs a look), then damaged bags, then bags that could not be
// read, then the rest, then bags an interrupted scan did not analyse.
func triage(r archive.Row) (int, string) {
	switch {
	case r.Status == archive.StatusNotAnalysed:
		return 4, "not_analysed"
	case r.Status == archive.StatusError:
		return 2, "error"
	case len(r.Findings) > 0:
		return 0, "findings"
	case r.Status == archive.StatusDamaged:
		return 1, "damaged"
	}
	return 3, "ok"
}

// IndexOrder sorts rows for triage: findings first (most drops first),
// then damaged, then errors, then ok bags, then bags not analysed; by
// path within a group.
func IndexOrder(rows []archive.Row) []archive.Row {
	out := append([]archive.Row(nil), rows...)
	slices.SortStableFunc(out, func(a, b archive.Row) int {
		ra, _ := triage(a)
		rb, _ := triage(b)
		return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(b.Drops, a.Drops), strings.Compare(a.Path, b.Path))
	})
	return out
}

// IndexHTML writes index.html: one self-contained page (no network) with
// a header saying what was scanned and a table of every bag in triage
// order, sortable by clicking a heading and filterable by text, status
// (including "with findings") and finding class, linking each row to its
// report. Every string from a bag goes through html/template.
func IndexHTML(w io.Writer, page IndexPage, rows []archive.Row) error {
	v := indexView{IndexPage: page, Totals: archive.Summarize(rows)}
	for _, c := range archive.ClassColumns {
		v.Classes = append(v.Classes, string(c))
	}
	kinds := map[string]bool{}
	for _, r := range IndexOrder(rows) {
		vr := indexViewRow{Row: r, Size: humanBytes(r.SizeBytes), Duration: humanSeconds(r.DurationS),
			Kinds: strings.Join(r.Findings, " ")}
		vr.Rank, vr.Group = triage(r)
		if vr.Group == "ok" {
			v.Clean++
		}
		for _, c := range archive.ClassColumns {
			vr.Counts = append(vr.Counts, r.Classes[string(c)])
		}
		for _, f := range r.Findings {
			kinds[f] = true
		}
		v.Rows = append(v.Rows, vr)
	}
	for k := range kinds {
		v.Kinds = append(v.Kinds, k)
	}
	sort.Strings(v.Kinds)
	if err := indexTmpl().Execute(w, v); err != nil {
		return fmt.Errorf("render: index html: %w", err)
	}
	return nil
}

var indexTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#0f172a;background:#f8fafc}
main{padding:20px 24px 40px;max-width:1600px;margin:0 auto}
h1{font-size:20px;margin:0 0 4px;overflow-wrap:anywhere}
.meta{color:#64748b;font-size:13px;margin:0 0 10px}
.tot{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0}
.tot span{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:4px 10px}
.tot b{font-variant-numeric:tabular-nums}
.problems{background:#fef2f2;border:1px solid #fecaca;border-radius:8px;padding:8px 12px;margin:10px 0}
.problems ul{margin:4px 0 0;padding-left:18px}
.controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:12px 0}
.controls input{flex:1 1 16em;min-width:0;max-width:28em;font:inherit;padding:4px 8px}
.controls select{font:inherit;padding:3px 6px}
.wrap{overflow-x:auto;border:1px solid #e2e8f0;border-radius:10px;background:#fff}
table{border-collapse:collapse;width:100%;min-width:900px}
th,td{border-bottom:1px solid #e2e8f0;padding:5px 8px;text-align:left;vertical-align:top}
th{cursor:pointer;background:#f1f5f9;user-select:none;white-space:nowrap;font-weight:600}
th.asc:after{content:" \25B2"}th.desc:after{content:" \25BC"}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.path{min-width:16em;max-width:30em;overflow-wrap:anywhere}
td.path small{color:#64748b}
td.verdict{min-width:18em;max-width:36em}
tr.findings td:first-child{box-shadow:inset 4px 0 #dc2626}
tr.damaged td:first-child{box-shadow:inset 4px 0 #d97706}
tr.error td:first-child{box-shadow:inset 4px 0 #64748b}
.st{display:inline-block;border-radius:999px;padding:0 8px;font-size:12px;font-weight:600;color:#fff;white-space:nowrap}
.st.ok{background:#16a34a}.st.damaged{background:#d97706}.st.error{background:#475569}.st.not_analysed{background:#94a3b8}
.interrupted{background:#fff7ed;border:2px solid #ea580c;border-radius:8px;padding:8px 12px;margin:10px 0;font-weight:600}
.f{display:inline-block;border-radius:4px;padding:0 5px;margin:0 3px 2px 0;font-size:12px;background:#fee2e2;color:#991b1b;white-space:nowrap}
.err{color:#b91c1c;overflow-wrap:anywhere}
.muted{color:#94a3b8}
</style></head><body><main>
<h1>{{.Title}}</h1>
<p class="meta">{{if .Version}}bagclock {{.Version}}{{end}}{{if .Generated}} · written {{.Generated}}{{end}}{{if .Settings}} · {{range $i, $s := .Settings}}{{if $i}}, {{end}}{{$s}}{{end}}{{end}}</p>
{{range .Notes}}<p class="interrupted" role="alert">{{.}}</p>{{end}}
<div class="tot" id="totals"><span><b>{{.Totals.Bags}}</b> bags</span><span><b>{{.Totals.WithFindings}}</b> with findings</span><span><b>{{.Totals.Damaged}}</b> damaged</span><span><b>{{.Totals.Errors}}</b> errors</span><span><b>{{.Clean}}</b> ok, no findings</span><span><b>{{.Totals.Drops}}</b> predicted drops</span><span><b>{{.Totals.ClockJumps}}</b> clock jumps</span><span><b>{{.Totals.ZeroStampScans}}</b> zero-stamp messages</span></div>
<p class="meta">{{.Totals.Bags}} bags: {{.Totals.OK}} ok, {{.Totals.Damaged}} damaged, {{.Totals.Errors}} errors{{if .Totals.NotAnalysed}}, {{.Totals.NotAnalysed}} not analysed{{end}}; {{.Totals.WithFindings}} with findings.</p>
{{if .Problems}}<div class="problems" id="discovery"><b>{{len .Problems}} discovery problem{{if gt (len .Problems) 1}}s{{end}}</b>: these folders or files were not searched for bags.<ul>{{range .Problems}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
<div class="controls"><input id="filter" type="search" placeholder="filter by path or verdict" aria-label="filter by path or verdict">
<select id="status" aria-label="status"><option value="">all bags</option><option value="findings">with findings</option><option value="damaged">damaged</option><option value="error">errors</option><option value="ok">ok, no findings</option><option value="not_analysed">not analysed</option></select>
<select id="kind" aria-label="finding class"><option value="">any finding class</option>{{range .Kinds}}<option value="{{.}}">{{.}}</option>{{end}}</select>
<span id="shown"></span></div>
<div class="wrap"><table id="bags"><thead><tr>
<th data-num data-key="rank">status</th><th>findings</th><th>verdict</th><th data-num>drops</th><th>path</th><th data-num>scans</th><th data-num>clock jumps</th><th data-num>zero-stamp msgs</th><th data-num>skipped msgs</th><th data-num>clock steps</th><th data-num>topics stuck at 0</th><th data-num>wall timers</th><th data-num>stale topics</th>
{{range .Classes}}<th data-num>{{.}}</th>{{end}}
<th data-num>duration</th><th data-num>size</th><th>storage</th><th>format</th><th>problems</th>
</tr></thead><tbody>
{{range .Rows}}<tr class="{{.Group}}" data-group="{{.Group}}" data-status="{{.Status}}" data-kinds="{{.Kinds}}">
<td data-v="{{.Rank}}"><span class="st {{.Status}}">{{.Status}}</span></td>
<td>{{range .Findings}}<span class="f">{{.}}</span>{{else}}<span class="muted">–</span>{{end}}</td>
{{if .Error}}<td class="verdict err">{{.Error}}</td><td class="n muted" data-v="-1">–</td>{{else}}<td class="verdict">{{.Verdict}}</td><td class="n" data-v="{{.Drops}}">{{.Drops}}</td>{{end}}
<td class="path">{{if .ReportHTML}}<a href="{{.ReportHTML}}">{{.Rel}}</a>{{else}}{{.Rel}}{{end}}<br><small>{{.Path}}</small>{{if .ReportJSON}} <small><a href="{{.ReportJSON}}">json</a></small>{{end}}</td>
{{if .Error}}<td class="n muted" data-v="-1">–</td><td class="n muted" data-v="-1">–</td><td class="n muted" data-v="-1">–</td><td class="n muted" data-v="-1">–</td><td class="n muted" data-v="-1">–</td><td class="n muted" data-v="-1">–</td><td class="n muted" data-v="-1">–</td><td class="n muted" data-v="-1">–</td>{{range .Counts}}<td class="n muted" data-v="-1">–</td>{{end}}<td class="n muted" data-v="-1">–</td><td class="n" data-v="{{.SizeBytes}}">{{.Size}}</td><td class="muted">–</td><td>{{.Format}}</td>
{{else}}<td class="n">{{.Scans}}</td><td class="n">{{.ClockJumps}}</td><td class="n">{{.ZeroStampScans}}</td><td class="n">{{.Skipped}}</td><td class="n">{{.ClockSteps}}</td><td class="n">{{.StuckZeroTopics}}</td><td class="n">{{.WallTimerTopics}}</td><td class="n">{{.StaleTopics}}</td>{{range .Counts}}<td class="n">{{.}}</td>{{end}}<td class="n" data-v="{{.DurationS}}">{{.Duration}}</td><td class="n" data-v="{{.SizeBytes}}">{{.Size}}</td><td>{{.Storage}}</td><td>{{.Format}}</td>{{end}}
<td>{{range .Problems}}<div>{{.}}</div>{{end}}</td>
</tr>
{{end}}</tbody></table></div>
</main>
<script>
(function(){
var table=document.getElementById("bags"),body=table.tBodies[0],filter=document.getElementById("filter"),status=document.getElementById("status"),kind=document.getElementById("kind"),shown=document.getElementById("shown");
function apply(){var q=filter.value.toLowerCase(),s=status.value,k=kind.value,n=0;
for(var i=0;i<body.rows.length;i++){var r=body.rows[i],g=r.getAttribute("data-group"),st=r.getAttribute("data-status"),ks=" "+r.getAttribute("data-kinds")+" ";
var ok=(!s||(s==="findings"?ks.trim()!=="":s==="ok"?g==="ok":st===s))&&(!k||ks.indexOf(" "+k+" ")>=0)&&(!q||r.cells[2].textContent.toLowerCase().indexOf(q)>=0||r.cells[4].textContent.toLowerCase().indexOf(q)>=0);
r.style.display=ok?"":"none";if(ok)n++;}
shown.textContent=n+" of "+body.rows.length+" shown";}
function key(cell,num){if(!num)return cell.textContent.trim().toLowerCase();var v=cell.getAttribute("data-v");return parseFloat(v===null?cell.textContent:v)||0;}
var heads=table.tHead.rows[0].cells;
for(var c=0;c<heads.length;c++)(function(c){heads[c].addEventListener("click",function(){
var th=heads[c],num=th.hasAttribute("data-num"),dir=th.classList.contains("asc")?-1:1;
for(var k=0;k<heads.length;k++)heads[k].classList.remove("asc","desc");th.classList.add(dir>0?"asc":"desc");
var rows=Array.prototype.slice.call(body.rows);rows.sort(function(a,b){var x=key(a.cells[c],num),y=key(b.cells[c],num);return x<y?-dir:x>y?dir:0;});
rows.forEach(function(r){body.appendChild(r);});});})(c);
filter.addEventListener("input",apply);status.addEventListener("change",apply);kind.addEventListener("change",apply);apply();
})();
</script>
</body></html>
`))
})
