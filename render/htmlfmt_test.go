package render

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// Tests of the page's number formatting and of newPage's choices at the
// values where they turn.

func TestHumanSecondsBoundaries(t *testing.T) {
	tests := []struct {
		s    float64
		want string
	}{
		{math.Copysign(0, -1), "0 s"}, {math.NaN(), "–"}, {math.Inf(-1), "–"},
		{9.99e-7, "999 ns"}, {1e-6, "1.0 µs"}, {-1e-6, "−1.0 µs"},
		{9.99e-4, "999.0 µs"}, {1e-3, "1.00 ms"},
		{0.999, "999.00 ms"}, {1, "1.000 s"},
		{999.5, "999.500 s"}, {1000, "1000.0 s"},
		{999999, "999999.0 s"}, {1e6, "1.000e6 s"}, {-2.5e-8, "−25 ns"},
	}
	for _, tc := range tests {
		if got := humanSeconds(tc.s); got != tc.want {
			t.Errorf("humanSeconds(%g) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestHumanBytesPct(t *testing.T) {
	bytes := []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1<<20 - 1, "1024.0 KiB"}, {1 << 20, "1.0 MiB"},
		{1<<30 - 1, "1024.0 MiB"}, {1 << 30, "1.00 GiB"}, {5 << 30, "5.00 GiB"},
	}
	for _, tc := range bytes {
		if got := humanBytes(tc.n); got != tc.want {
			t.Errorf("humanBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	pcts := []struct {
		n, of int
		want  string
	}{{0, 0, "–"}, {1, -1, "–"}, {0, 1, "0.0%"}, {1, 3, "33.3%"}, {3, 3, "100.0%"}}
	for _, tc := range pcts {
		if got := pct(tc.n, tc.of); got != tc.want {
			t.Errorf("pct(%d, %d) = %q, want %q", tc.n, tc.of, got, tc.want)
		}
	}
}

func TestTimeFormats(t *testing.T) {
	const year = int64(1e9 * 86400 * 365)
	pads := []struct {
		ns   int64
		want string
	}{
		{0, "0.000000000"},
		{year, "31536000.000000000"}, // 1971-01-01 exactly: still sim time
		{year + 1, "31536000.000000001 (1971-01-01 00:00:00Z)"},
		{1_700_000_000_000_000_000, "1700000000.000000000 (2023-11-14 22:13:20Z)"},
	}
	for _, tc := range pads {
		if got := padNS(tc.ns); got != tc.want {
			t.Errorf("padNS(%d) = %q, want %q", tc.ns, got, tc.want)
		}
	}
	if got, want := diffS(3e9, 1e9), 2.0; got != want {
		t.Errorf("diffS(3e9, 1e9) = %g, want %g", got, want)
	}
	// Past int64: computed in floats.
	if got, want := diffS(math.MaxInt64, math.MinInt64), 18446744073.709552; got != want {
		t.Errorf("diffS(max, min) = %v, want %v", got, want)
	}
	if got, want := diffS(math.MinInt64, math.MaxInt64), -18446744073.709552; got != want {
		t.Errorf("diffS(min, max) = %v, want %v", got, want)
	}
	epoch := float64(analysis.EpochThresholdNS) / 1e9
	delays := []struct {
		s    float64
		want string
	}{
		{epoch, "other clock"}, {-epoch, "other clock"}, {epoch - 1, "1.000e8 s"}, {0.002, "2.00 ms"},
	}
	for _, tc := range delays {
		if got := delayText(tc.s); got != tc.want {
			t.Errorf("delayText(%g) = %q, want %q", tc.s, got, tc.want)
		}
	}
	if consumerName("") != "rviz" || consumerName("nav2") != "nav2" {
		t.Errorf("consumerName: %q, %q", consumerName(""), consumerName("nav2"))
	}
}

func TestCountText(t *testing.T) {
	tests := []struct {
		m    map[string]int
		want string
	}{
		{nil, ""},
		{map[string]int{"b": 1, "a": 1, "c": 2}, "c 2, a 1, b 1"},
		{map[string]int{"x": 0, "y": 5}, "y 5, x 0"},
	}
	for _, tc := range tests {
		if got := CountText(tc.m); got != tc.want {
			t.Errorf("CountText(%v) = %q, want %q", tc.m, got, tc.want)
		}
	}
}

func TestCapRows(t *testing.T) {
	for _, n := range []int{0, maxTableRows - 1, maxTableRows, maxTableRows + 1, 2 * maxTableRows} {
		tb := capRows(make([]int, n))
		if want := min(n, maxTableRows); len(tb.Rows) != want || tb.Omitted != n-want {
			t.Errorf("%d rows: %d kept, %d omitted; want %d, %d", n, len(tb.Rows), tb.Omitted, want, n-want)
		}
	}
}

func cardsOf(p *page) map[string]card {
	out := map[string]card{}
	for _, c := range p.Cards {
		out[c.Label] = c
	}
	return out
}

func TestNewPageCardsAtZero(t *testing.T) {
	cards := cardsOf(newPage(&analysis.Report{}))
	for _, l := range []string{"filter drops", "clock jumps", "stamped 0", "skipped messages"} {
		if c := cards[l]; c.Value != "0" || c.Tone != "" {
			t.Errorf("card %s: %q tone %q, want 0 and no tone", l, c.Value, c.Tone)
		}
	}
	if c := cards["filter drops"]; c.Note != "– of rows" {
		t.Errorf("drop note %q, want %q", c.Note, "– of rows")
	}
	if c := cards["duration"]; c.Value != "0 s" {
		t.Errorf("duration %q, want 0 s", c.Value)
	}

	r := &analysis.Report{Summary: analysis.Summary{ZeroStampScans: 1, Skipped: 1,
		ClockJumps: []analysis.ClockJump{{Kind: "forward"}, {Kind: "backward"}}}}
	cards = cardsOf(newPage(r))
	for l, want := range map[string]string{"clock jumps": "2", "stamped 0": "1", "skipped messages": "1"} {
		if c := cards[l]; c.Value != want || c.Tone != "warn" {
			t.Errorf("card %s: %q tone %q, want %s and warn", l, c.Value, c.Tone, want)
		}
	}
}

func TestNewPageDuration(t *testing.T) {
	tests := []struct {
		start, end int64
		want       float64
	}{{5e9, 7.5e9, 2.5}, {5e9, 5e9, 0}, {7e9, 5e9, 0}, {math.MaxInt64, math.MinInt64, 0}}
	for _, tc := range tests {
		r := &analysis.Report{Bag: analysis.BagSummary{StartNS: tc.start, EndNS: tc.end}}
		if got := newPage(r).Duration; got != tc.want {
			t.Errorf("start %d end %d: duration %g, want %g", tc.start, tc.end, got, tc.want)
		}
	}
}

func TestNewPageParts(t *testing.T) {
	r := &analysis.Report{}
	r.Verdict.Commands = []string{"ros2 topic echo /clock  (check the rate)", "chronyc tracking", "# just a note"}
	r.Summary.Classes = map[string]int{string(analysis.SameClock): 3, string(analysis.ZeroStamp): 0, string(analysis.ClockSkew): 1}
	r.Summary.ClockJumps = []analysis.ClockJump{{Index: 1}, {Index: 2}}
	p := newPage(r)
	if want := []command{{"ros2 topic echo /clock", true}, {"chronyc tracking", false}}; !reflect.DeepEqual(p.Commands, want) {
		t.Errorf("commands %+v, want %+v", p.Commands, want)
	}
	if want := []string{"check the rate", "just a note"}; !reflect.DeepEqual(p.Notes, want) {
		t.Errorf("notes %q, want %q", p.Notes, want)
	}
	var segs []string
	for _, s := range p.ClassBar {
		segs = append(segs, f1(s.X)+"+"+f1(s.W)+" "+s.Title)
	}
	if want := []string{"0.0+750.0 same_clock: 3", "750.0+250.0 clock_skew: 1"}; !reflect.DeepEqual(segs, want) {
		t.Errorf("class bar %q, want %q", segs, want)
	}
	// No clock jump list: the summary's jumps fill the table.
	if n := len(p.ClockJumps.Rows); n != 2 {
		t.Errorf("%d jump rows from the summary, want 2", n)
	}
	r.ClockJumps = []analysis.ClockJump{{Index: 9}}
	if rows := newPage(r).ClockJumps.Rows; len(rows) != 1 || rows[0].Index != 9 {
		t.Errorf("jump rows %+v, want the report's one", rows)
	}
	// No outcome bars, no bucket sentence; with bars, their width.
	if c := p.Plots[2].Caption; strings.Contains(c, "bucket") || !strings.Contains(c, "What the tf2_ros::MessageFilter of rviz would") {
		t.Errorf("outcome caption %q", c)
	}
	r.Series.Outcomes = []analysis.OutcomePoint{{X: 0, Outcome: "passed", Count: 1}, {X: 0.5, Outcome: "passed", Count: 1}}
	if c := newPage(r).Plots[2].Caption; !strings.HasSuffix(c, " Each bar counts the messages recorded in one 500.00 ms bucket.") {
		t.Errorf("outcome caption %q", c)
	}
}
