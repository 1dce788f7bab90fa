package render

import (
	"bufio"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bagclock/bagclock/analysis"
)

//go:embed report.html.tmpl
var reportTemplate string

// tmpl is parsed once, at the first HTML report (not at start-up: a JSON
// or CSV run never needs it); html/template escapes every value by the
// context it lands in (HTML text, attribute, SVG text, JSON inside
// <script>). Nothing from a bag is ever passed as template.HTML.
var tmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"f1":      f1,
		"secs":    humanSeconds,
		"delay":   delayText,
		"ns":      padNS,
		"rel":     relS,
		"bytes":   humanBytes,
		"pct":     pct,
		"outcome": outcomeColor,
		"add":     func(a, b float64) float64 { return a + b },
		"sub":     func(a, b float64) float64 { return a - b },
		"g":       func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) },
		"rate":    func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) },
		"dS":      diffS,
		"jumpsOf": func(t tableOf[analysis.ClockJump], start int64) jumpsArg { return jumpsArg{T: t, Start: start} },
	}).Parse(reportTemplate))
})

// HTML writes r as one self-contained HTML page: verdict first, then
// plots and tables. The page loads nothing from the network.
func HTML(w io.Writer, r *analysis.Report) error {
	if r == nil {
		return fmt.Errorf("render: html: nil report")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := tmpl().Execute(bw, newPage(r)); err != nil {
		return fmt.Errorf("render: html: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("render: html: %w", err)
	}
	return nil
}

// page is the template's view of a report.
type page struct {
	R        *analysis.Report
	Title    string
	Sentence string
	Tone     string // "ok", "warn", "bad"
	ToneText string
	Duration float64
	// Consumers names the MessageFilter presets emulated, one per message
	// type ("rviz-laserscan, rviz-camera"), or the chosen one.
	Consumers string
	Cards     []card
	Classes   []countRow
	Outcomes  []countRow
	ClassBar  []barSeg
	Plots     []*plot
	// PlotData is what the page script draws, one entry per plot that has
	// data; it is emitted as JSON inside <script>, escaped there.
	PlotData []plotData
	// Sync and SyncPlot: the emulated synchronizers and their offsets
	// over time (nil without synchronizers).
	Sync     []syncRow
	SyncPlot *plot
	// Commands are the confirm commands as shell lines only; Notes are the
	// remarks that came attached to them.
	Commands []command
	Notes    []string
	HasEcho  bool

	ClockJumps, StampJumps tableOf[analysis.ClockJump]
	Stalls                 tableOf[analysis.Stall]
	Skew                   tableOf[analysis.Skew]
	TFTree                 tableOf[analysis.TFLink]
	TFPic                  *tfPicture
	Rosout                 tableOf[analysis.RosoutLine]
	RosoutMatched          int
	Skipped                tableOf[analysis.Skipped]
	Nodes                  tableOf[analysis.NodeClock]
	// ByTopic has one row per (analysed topic, target), grouped by topic;
	// NotAnalysed lists the stamped topics left out, with why.
	ByTopic     []topicRow
	NotAnalysed []analysis.TopicSummary
	// Ticket is the plain-text summary the "copy" button puts on the
	// clipboard; it is emitted as JSON inside <script>, escaped there.
	Ticket ticket
}

type ticket struct {
	Bag      string   `json:"bag"`
	Verdict  string   `json:"verdict"`
	Evidence []string `json:"evidence"`
	Commands []string `json:"commands"`
	Findings []string `json:"findings"`
}

type card struct {
	Label, Value, Note, Tone string
}

type countRow struct {
	Name, Color, Meaning string
	Count                int
	Pct                  string
}

type barSeg struct {
	X, W  float64
	Color string
	Title string
}

type tableOf[T any] struct {
	Rows    []T
	Omitted int
}

func capRows[T any](rows []T) tableOf[T] {
	n := min(len(rows), maxTableRows)
	return tableOf[T]{Rows: rows[:n], Omitted: len(rows) - n}
}

// jumpsArg feeds the "jumps" sub-template.
type jumpsArg struct {
	T     tableOf[analysis.ClockJump]
	Start int64
}

// classMeaning explains each class in one line, for the class table.
var classMeaning = map[string]struct{ color, meaning string }{
	string(analysis.SameClock):          {"#16a34a", "message and tf on the same clock (differences of milliseconds)"},
	string(analysis.LaserOnSystemClock): {"#dc2626", "message ≈ +epoch ahead: its driver ignores use_sim_time"},
	string(analysis.TFOnSystemClock):    {"#9333ea", "message ≈ −epoch behind: a tf publisher is on system time"},
	string(analysis.ZeroStamp):          {"#ea580c", "stamp 0: its driver had no /clock yet; tf2 pairs it with the latest pose"},
	string(analysis.ClockSkew):          {"#d97706", "same clock family but seconds apart: machines out of sync"},
	string(analysis.StaticOnly):         {"#64748b", "only static links on the path: a clock mismatch is invisible here"},
	string(analysis.NoTransform):        {"#334155", "the message's frame is not (yet) connected to the target in tf"},
}

func newPage(r *analysis.Report) *page {
	p := &page{R: r}
	p.Title = "bagclock: " + path.Base(strings.TrimRight(r.Bag.Path, "/"))
	if r.Bag.Path == "" {
		p.Title = "bagclock report"
	}
	p.Sentence = r.Verdict.Sentence
	if p.Sentence == "" {
		p.Sentence = r.Summary.Verdict
	}
	if p.Sentence == "" {
		p.Sentence = "No verdict: the analysis produced none."
	}
	p.Tone, p.ToneText = tone(r.Summary.Findings, r.Verdict.Class)
	p.Duration = max(0, diffS(r.Bag.EndNS, r.Bag.StartNS))
	p.Consumers = consumersText(r)
	for _, c := range r.Verdict.Commands {
		if strings.Contains(c, "tf2_echo") {
			p.HasEcho = true
		}
		cmd, note := splitCommand(c)
		if cmd != "" {
			p.Commands = append(p.Commands, command{Line: cmd, Note: note != ""})
		}
		if note != "" && !contains(p.Notes, note) {
			p.Notes = append(p.Notes, note)
		}
	}

	for _, n := range p.Notes {
		if strings.Contains(n, "tf2_echo") {
			p.HasEcho = false // the analysis's note already says it
		}
	}
	drops := 0
	for o, n := range r.Summary.Filter {
		if strings.HasPrefix(o, "dropped") {
			drops += n
		}
	}
	// Start-up drops (before the first transform, or while the buffer
	// refills after a /clock reset) are harmless: the card counts the rest,
	// as the drop finding does, and names the start-up ones beside it.
	startup := 0
	for _, ps := range r.Pairs {
		startup += ps.StartupDrops
	}
	startup = min(startup, drops)
	drops -= startup
	dropNote := pct(drops, r.Summary.Rows) + " of rows"
	if startup > 0 {
		dropNote += fmt.Sprintf("; %d more at start-up (harmless)", startup)
	}
	jumps := len(r.ClockJumps)
	if jumps == 0 {
		jumps = len(r.Summary.ClockJumps)
	}
	skipped := r.Summary.Skipped
	p.Cards = []card{
		{Label: "duration", Value: humanSeconds(p.Duration), Note: humanBytes(r.Bag.SizeBytes) + ", " + strconv.FormatUint(r.Bag.Messages, 10) + " messages"},
		{Label: "messages analysed", Value: strconv.Itoa(r.Summary.Scans), Note: strconv.Itoa(r.Summary.Rows) + " (message, target) rows"},
		{Label: "filter drops", Value: strconv.Itoa(drops), Note: dropNote, Tone: toneIf(drops > 0, "bad")},
		{Label: "clock jumps", Value: strconv.Itoa(jumps), Note: strconv.Itoa(len(r.StampJumps)) + " stamp jumps", Tone: toneIf(jumps > 0, "warn")},
		{Label: "stamped 0", Value: strconv.Itoa(r.Summary.ZeroStampScans), Note: zeroNote(r), Tone: toneIf(r.Summary.ZeroStampScans > 0, "warn")},
		{Label: "skipped messages", Value: strconv.Itoa(skipped), Note: "unreadable or undecodable", Tone: toneIf(skipped > 0, "warn")},
	}

	p.Classes = countRows(r.Summary.Classes, func(k string) (string, string) {
		if m, ok := classMeaning[k]; ok {
			return m.color, m.meaning
		}
		return "#475569", ""
	}, classOrder())
	p.Outcomes = countRows(r.Summary.Filter, func(k string) (string, string) {
		return outcomeColor(k), outcomeMeaning[k]
	}, outcomeOrder)
	total := 0
	for _, c := range p.Classes {
		total += c.Count
	}
	x := 0.0
	for _, c := range p.Classes {
		if total == 0 || c.Count <= 0 {
			continue
		}
		w := float64(c.Count) / float64(total) * 1000
		p.ClassBar = append(p.ClassBar, barSeg{X: x, W: w, Color: c.Color, Title: c.Name + ": " + strconv.Itoa(c.Count)})
		x += w
	}

	p.Plots = []*plot{diffPlot(r, p.Duration), clockPlot(r, p.Duration), outcomePlot(r, p.Duration)}
	for _, pl := range p.Plots {
		if pl.Empty == "" {
			p.PlotData = append(p.PlotData, pl.Data)
		}
	}
	if len(r.Sync) > 0 {
		p.Sync, p.SyncPlot = syncRows(r), syncPlot(r, p.Duration)
		if p.SyncPlot.Empty == "" {
			p.PlotData = append(p.PlotData, p.SyncPlot.Data)
		}
	}
	p.Plots[0].Caption = "Each dot is one message: header.stamp minus the newest stamp of the stalest dynamic link to the target. " +
		"The axis is linear below 0.1 ms and logarithmic beyond, so milliseconds of latency and 1.79e9 s of clock mismatch fit on one axis. " +
		"Past the cache length (dashed) tf2 can no longer interpolate: that, not 1 s, is the boundary."
	if cr := r.ClockRate; cr != nil {
		p.Plots[1].Caption = fmt.Sprintf("%d /clock messages; real-time factor %s; median tick %s. ",
			cr.Messages, rateText(cr.RealTimeFactor), humanSeconds(nsToS(cr.MedianTickNS)))
	}
	p.Plots[1].Caption += "Markers: ◀ /clock went backwards (bag loop, simulator reset), ▶ jumped forward; shaded: /clock stalled while recording went on."
	p.Plots[2].Caption = "What the tf2_ros::MessageFilter of " + p.Consumers + " would have done with each message."
	if b := p.Plots[2].Data.Bucket; b > 0 {
		p.Plots[2].Caption += " Each bar counts the messages recorded in one " + humanSeconds(b) + " bucket."
	}

	p.ClockJumps = capRows(r.ClockJumps)
	if len(r.ClockJumps) == 0 {
		p.ClockJumps = capRows(r.Summary.ClockJumps)
	}
	p.StampJumps = capRows(r.StampJumps)
	p.Stalls = capRows(r.Stalls)
	p.Skew = capRows(r.Skew)
	p.Nodes = capRows(r.Nodes)
	p.TFTree = capRows(r.TFTree)
	p.TFPic = tfTreePicture(r.TFTree, r.Pairs)
	p.Rosout = capRows(r.Rosout)
	for _, l := range r.Rosout {
		if l.Matched {
			p.RosoutMatched++
		}
	}
	p.Skipped = capRows(r.Skipped)
	p.ByTopic, p.NotAnalysed = topicRows(r)
	p.Ticket = ticket{Bag: r.Bag.Path, Verdict: p.Sentence, Evidence: nonNil(r.Verdict.Evidence),
		Commands: nonNil(r.Verdict.Commands), Findings: nonNil(r.Summary.Findings)}
	return p
}

// topicRow is one (analysed topic, target frame) pair in the "By topic"
// table.
type topicRow struct {
	Topic, Type, Consumer, Frame, Target string
	Classes, Outcomes                    string
	MedianDiffS                          float64
	HasDiff                              bool
	StartupDrops                         int
}

// topicRows turns the report's pairs into table rows sorted by topic (a
// topic's targets stay together) and picks the topics not analysed.
func topicRows(r *analysis.Report) ([]topicRow, []analysis.TopicSummary) {
	var rows []topicRow
	for _, p := range r.Pairs {
		rows = append(rows, topicRow{Topic: p.Topic, Type: p.Type, Consumer: p.Consumer, Frame: p.FrameID,
			Target: p.TargetFrame, Classes: CountText(p.Classes), Outcomes: CountText(p.Filter),
			MedianDiffS: p.MedianDiffS, HasDiff: p.MinDiffS != 0 || p.MaxDiffS != 0, StartupDrops: p.StartupDrops})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Topic < rows[j].Topic })
	var left []analysis.TopicSummary
	for _, t := range r.Topics {
		if t.Role == analysis.TopicNotAnalysed {
			left = append(left, t)
		}
	}
	return rows, left
}

// CountText prints a count map as "a 3, b 1": largest first, then by
// name ("" for an empty map).
func CountText(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(m[b], m[a]), strings.Compare(a, b))
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// command is one shell line of the confirm block.
type command struct {
	Line string
	Note bool // a note beside the block belongs to it
}

// splitCommand separates a confirm command from a remark appended to it
// as "CMD  (remark)" or "CMD  # remark", so the copied line is pure shell.
func splitCommand(c string) (cmd, note string) {
	c = strings.TrimSpace(c)
	if strings.HasPrefix(c, "#") {
		return "", strings.TrimSpace(strings.TrimLeft(c, "#"))
	}
	for _, sep := range []string{"  (", "  # ", " # "} {
		if cmd, n, ok := strings.Cut(c, sep); ok {
			n = strings.TrimSpace(n)
			if sep == "  (" {
				n = strings.TrimSuffix(n, ")")
			}
			return strings.TrimSpace(cmd), n
		}
	}
	return c, ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var outcomeMeaning = map[string]string{
	"passed":               "transform available at once",
	"passed_after_wait":    "transform arrived while the message waited in the queue",
	"pending_at_end":       "still waiting when the bag ended",
	"dropped_queue_full":   "pushed out of a full queue: tf never reached the stamp",
	"dropped_out_the_back": "older than everything in the tf cache",
	"dropped_empty_frame":  "empty frame_id",
}

func classOrder() []string {
	return []string{string(analysis.SameClock), string(analysis.LaserOnSystemClock), string(analysis.TFOnSystemClock),
		string(analysis.ZeroStamp), string(analysis.ClockSkew), string(analysis.StaticOnly), string(analysis.NoTransform)}
}

// countRows lists m in the given order, then unknown keys sorted.
func countRows(m map[string]int, info func(string) (string, string), order []string) []countRow {
	total := 0
	for _, n := range m {
		total += n
	}
	seen := map[string]bool{}
	var keys []string
	for _, k := range order {
		if _, ok := m[k]; ok {
			keys = append(keys, k)
			seen[k] = true
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	keys = append(keys, rest...)
	rows := make([]countRow, 0, len(keys))
	for _, k := range keys {
		c, meaning := info(k)
		rows = append(rows, countRow{Name: k, Color: c, Meaning: meaning, Count: m[k], Pct: pct(m[k], total)})
	}
	return rows
}

// tone is the banner's colour and label. Without a finding, only a
// no_problem verdict is green: any other headline is one the bag could not
// decide (an empty topic, a target that shows nothing, a lag or a timer it
// cannot tell), and says so.
func tone(findings []string, class string) (string, string) {
	if len(findings) == 0 && class != "" && class != analysis.VerdictNoProblem {
		return "warn", "no finding, but not everything could be checked: read the headline"
	}
	if len(findings) == 0 {
		return "ok", "no clock problem found"
	}
	for _, f := range findings {
		switch f {
		case "drop", "clock-mismatch", "zero-stamp":
			return "bad", "found: " + strings.Join(findings, ", ")
		}
	}
	return "warn", "found: " + strings.Join(findings, ", ")
}

func toneIf(b bool, t string) string {
	if b {
		return t
	}
	return ""
}

// consumersText is the presets the pairs were emulated with, in the order
// first used, or the configured one when no pair was analysed: a bag of
// scans and cameras runs rviz-laserscan and rviz-camera, not one preset.
func consumersText(r *analysis.Report) string {
	var names []string
	seen := map[string]bool{}
	for _, ps := range r.Pairs {
		if ps.Consumer != "" && !seen[ps.Consumer] {
			seen[ps.Consumer] = true
			names = append(names, ps.Consumer)
		}
	}
	if len(names) == 0 {
		return consumerName(r.Settings.Consumer)
	}
	return strings.Join(names, ", ")
}

func consumerName(c string) string {
	if c == "" {
		return "rviz"
	}
	return c
}

func rateText(f float64) string {
	if !finite(f) || f == 0 {
		return "unknown"
	}
	return strconv.FormatFloat(f, 'f', 2, 64) + "×"
}

func nsToS(ns int64) float64 { return float64(ns) / 1e9 }

// diffS is (a − b) in seconds, without int64 overflow.
func diffS(a, b int64) float64 {
	if d, ok := subNS(a, b); ok {
		return nsToS(d)
	}
	return (float64(a) - float64(b)) / 1e9
}

// relS prints ns as seconds since the bag start, +12.345 s.
func relS(start, ns int64) string {
	d, ok := subNS(ns, start)
	if !ok {
		return padNS(ns)
	}
	return "+" + strconv.FormatFloat(nsToS(d), 'f', 3, 64) + " s"
}

// padNS prints a time in nanoseconds as sec.nanosec with nine digits: the
// padding tf2_echo leaves out. System-clock values get their UTC date.
func padNS(ns int64) string {
	s := formatNSAsSeconds(ns)
	if ns > 1e9*86400*365 { // after 1971: a wall-clock stamp
		s += " (" + time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05Z") + ")"
	}
	return s
}

// humanSeconds prints a duration with a unit that suits it: 3.20 ms,
// 12.5 s, 1.79e9 s.
func humanSeconds(s float64) string {
	if !finite(s) {
		return "–"
	}
	a := math.Abs(s)
	sign := ""
	if math.Signbit(s) {
		sign = "−"
	}
	switch {
	case a == 0:
		return "0 s"
	case a < 1e-6:
		return sign + strconv.FormatFloat(a*1e9, 'f', 0, 64) + " ns"
	case a < 1e-3:
		return sign + strconv.FormatFloat(a*1e6, 'f', 1, 64) + " µs"
	case a < 1:
		return sign + strconv.FormatFloat(a*1e3, 'f', 2, 64) + " ms"
	case a < 1000:
		return sign + strconv.FormatFloat(a, 'f', 3, 64) + " s"
	case a < 1e6:
		return sign + strconv.FormatFloat(a, 'f', 1, 64) + " s"
	default:
		m := strconv.FormatFloat(a, 'e', 3, 64) // 1.790e+09
		mant, exp, _ := strings.Cut(m, "e")
		e, _ := strconv.Atoi(exp)
		return sign + mant + "e" + strconv.Itoa(e) + " s"
	}
}

func humanBytes(n int64) string {
	f := float64(n)
	switch {
	case n < 1024:
		return strconv.FormatInt(n, 10) + " B"
	case f < 1<<20:
		return strconv.FormatFloat(f/1024, 'f', 1, 64) + " KiB"
	case f < 1<<30:
		return strconv.FormatFloat(f/(1<<20), 'f', 1, 64) + " MiB"
	default:
		return strconv.FormatFloat(f/(1<<30), 'f', 2, 64) + " GiB"
	}
}

func pct(n, of int) string {
	if of <= 0 {
		return "–"
	}
	return strconv.FormatFloat(float64(n)*100/float64(of), 'f', 1, 64) + "%"
}

// zeroNote says how many zero stamps came before the first /clock, or that
// the bag has none.
func zeroNote(r *analysis.Report) string {
	if r.ClockRate == nil {
		return "no /clock in this bag"
	}
	return strconv.Itoa(r.ZeroStamp.BeforeFirstClock) + " before the first /clock"
}

// delayText prints a tf link's median record time − stamp, or says that
// the stamps and the recorder are on different clock families (a
// simulation recorded on wall time), where the difference is no delay.
func delayText(s float64) string {
	if math.Abs(s) >= float64(analysis.EpochThresholdNS)/1e9 {
		return "other clock"
	}
	return humanSeconds(s)
}
