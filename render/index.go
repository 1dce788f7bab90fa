package render

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/bagclock/bagclock/analysis/archive"
)

// IndexColumns are the columns of index.csv, in order.
func IndexColumns() []string {
	cols := []string{"path", "rel", "status", "size_bytes", "duration_s", "storage", "messages", "verdict", "scans", "rows"}
	for _, c := range archive.ClassColumns {
		cols = append(cols, string(c))
	}
	return append(cols, "drops", "clock_jumps", "stamp_jumps", "zero_stamp_scans", "skipped_messages",
		"findings", "problems", "error", "report_html", "report_json")
}

func indexRecord(r archive.Row) []string {
	rec := []string{r.Path, r.Rel, r.Status, strconv.FormatInt(r.SizeBytes, 10),
		strconv.FormatFloat(r.DurationS, 'f', 3, 64), r.Storage, strconv.FormatUint(r.Messages, 10),
		r.Verdict, strconv.Itoa(r.Scans), strconv.Itoa(r.Rows)}
	for _, c := range archive.ClassColumns {
		rec = append(rec, strconv.Itoa(r.Classes[string(c)]))
	}
	return append(rec, strconv.Itoa(r.Drops), strconv.Itoa(r.ClockJumps), strconv.Itoa(r.StampJumps),
		strconv.Itoa(r.ZeroStampScans), strconv.Itoa(r.Skipped),
		strings.Join(r.Findings, ";"), strings.Join(r.Problems, "; "), r.Error, r.ReportHTML, r.ReportJSON)
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

// IndexPage is the heading of index.html.
type IndexPage struct {
	Title string // e.g. "bagclock scan of /data/archive"
}

type indexView struct {
	Title   string
	Totals  archive.Totals
	Classes []string
	Rows    []indexViewRow
}

type indexViewRow struct {
	archive.Row
	Size     string
	Duration string
	Counts   []int
}

// IndexHTML writes index.html: one self-contained page (no network) with
// a table of every bag, sortable by clicking a heading and filterable by
// a text box and a status choice, linking each row to its report. Every
// string from a bag goes through html/template.
func IndexHTML(w io.Writer, page IndexPage, rows []archive.Row) error {
	v := indexView{Title: page.Title, Totals: archive.Summarize(rows)}
	for _, c := range archive.ClassColumns {
		v.Classes = append(v.Classes, string(c))
	}
	for _, r := range rows {
		vr := indexViewRow{Row: r, Size: humanBytes(r.SizeBytes), Duration: strconv.FormatFloat(r.DurationS, 'f', 1, 64)}
		for _, c := range archive.ClassColumns {
			vr.Counts = append(vr.Counts, r.Classes[string(c)])
		}
		v.Rows = append(v.Rows, vr)
	}
	if err := indexTmpl.Execute(w, v); err != nil {
		return fmt.Errorf("render: index html: %w", err)
	}
	return nil
}

var indexTmpl = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
th{cursor:pointer;background:#f4f4f4;position:sticky;top:0;user-select:none}th.asc:after{content:" \25B2"}th.desc:after{content:" \25BC"}
td.n{text-align:right;font-variant-numeric:tabular-nums}tr.error td{background:#fde8e8}tr.damaged td{background:#fff6dd}
.controls{margin:1em 0}.controls input{width:24em}.verdict{max-width:32em}.err{color:#a00}
</style></head><body>
<h1>{{.Title}}</h1>
<p>{{.Totals.Bags}} bags: {{.Totals.OK}} ok, {{.Totals.Damaged}} damaged, {{.Totals.Errors}} errors; {{.Totals.WithFindings}} with findings; {{.Totals.Drops}} predicted drops, {{.Totals.ClockJumps}} clock jumps, {{.Totals.ZeroStampScans}} zero-stamp scans.</p>
<div class="controls"><input id="filter" type="search" placeholder="filter: any text in a row">
<select id="status"><option value="">all statuses</option><option>ok</option><option>damaged</option><option>error</option></select>
<span id="shown"></span></div>
<table id="bags"><thead><tr>
<th>path</th><th>status</th><th data-num>size</th><th data-num>duration s</th><th>storage</th><th>verdict</th><th data-num>scans</th>
{{range .Classes}}<th data-num>{{.}}</th>{{end}}
<th data-num>drops</th><th data-num>clock jumps</th><th data-num>stamp jumps</th><th data-num>zero-stamp scans</th><th data-num>skipped msgs</th><th>findings</th><th>errors / problems</th>
</tr></thead><tbody>
{{range .Rows}}<tr class="{{.Status}}" data-status="{{.Status}}">
<td>{{if .ReportHTML}}<a href="{{.ReportHTML}}">{{.Rel}}</a>{{else}}{{.Rel}}{{end}}<br><small title="{{.Path}}">{{.Path}}</small>{{if .ReportJSON}} <small><a href="{{.ReportJSON}}">json</a></small>{{end}}</td>
<td>{{.Status}}</td><td class="n" data-v="{{.SizeBytes}}">{{.Size}}</td><td class="n">{{.Duration}}</td><td>{{.Storage}}</td><td class="verdict">{{.Verdict}}</td><td class="n">{{.Scans}}</td>
{{range .Counts}}<td class="n">{{.}}</td>{{end}}
<td class="n">{{.Drops}}</td><td class="n">{{.ClockJumps}}</td><td class="n">{{.StampJumps}}</td><td class="n">{{.ZeroStampScans}}</td><td class="n">{{.Skipped}}</td>
<td>{{range $i, $f := .Findings}}{{if $i}}, {{end}}{{$f}}{{end}}</td>
<td>{{if .Error}}<span class="err">{{.Error}}</span>{{end}}{{range .Problems}}<div>{{.}}</div>{{end}}</td>
</tr>
{{end}}</tbody></table>
<script>
(function(){
var table=document.getElementById("bags"),body=table.tBodies[0],filter=document.getElementById("filter"),status=document.getElementById("status"),shown=document.getElementById("shown");
function apply(){var q=filter.value.toLowerCase(),s=status.value,n=0;
for(var i=0;i<body.rows.length;i++){var r=body.rows[i],ok=(!s||r.getAttribute("data-status")===s)&&(!q||r.textContent.toLowerCase().indexOf(q)>=0);r.style.display=ok?"":"none";if(ok)n++;}
shown.textContent=n+" of "+body.rows.length+" shown";}
function key(cell,num){if(!num)return cell.textContent.trim().toLowerCase();var v=cell.getAttribute("data-v");return parseFloat(v===null?cell.textContent:v)||0;}
var heads=table.tHead.rows[0].cells;
for(var c=0;c<heads.length;c++)(function(c){heads[c].addEventListener("click",function(){
var th=heads[c],num=th.hasAttribute("data-num"),dir=th.classList.contains("asc")?-1:1;
for(var k=0;k<heads.length;k++)heads[k].classList.remove("asc","desc");th.classList.add(dir>0?"asc":"desc");
var rows=Array.prototype.slice.call(body.rows);rows.sort(function(a,b){var x=key(a.cells[c],num),y=key(b.cells[c],num);return x<y?-dir:x>y?dir:0;});
rows.forEach(function(r){body.appendChild(r);});});})(c);
filter.addEventListener("input",apply);status.addEventListener("change",apply);apply();
})();
</script>
</body></html>
`))
