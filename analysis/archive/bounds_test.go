package archive

import (
	"reflect"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// Boundary tests of the archive helpers (issue 15): the characters a
// report name keeps, when the age limit enters the settings key, Merge's
// tie-breaks, and how a report's status and counts become a row.

// TestReportNameKeptCharacters: letters, digits and . _ - are kept,
// including the first and last of each range; the characters just
// outside each range become '_'.
func TestReportNameKeptCharacters(t *testing.T) {
	for _, tc := range []struct{ rel, want string }{
		{"azAZ09", "azAZ09"},
		{"x.y_z-w", "x.y_z-w"},
		{"x`x{x", "x_x_x"},
		{"x@x[x", "x_x_x"},
		{"x/x:x", "x__x_x"},
	} {
		got := ReportName(tc.rel, "/p")
		if name := got[:len(got)-len("-01234567")]; name != tc.want {
			t.Errorf("ReportName(%q) = %q, want %s-<hash>", tc.rel, got, tc.want)
		}
	}
}

// TestConfigKeyMaxAge: an age limit of 0 or below, or the default one,
// leaves the key as without it; any other value changes it.
func TestConfigKeyMaxAge(t *testing.T) {
	base := ConfigKey(analysis.Config{}, "1")
	for _, tc := range []struct {
		maxAge int64
		same   bool
	}{
		{0, true},
		{-1, true},
		{analysis.DefaultMaxAgeNS, true},
		{analysis.DefaultMaxAgeNS + 1, false},
		{1, false},
	} {
		if got := ConfigKey(analysis.Config{MaxAgeNS: tc.maxAge}, "1"); (got == base) != tc.same {
			t.Errorf("MaxAgeNS %d: key %s, default %s; want same %v", tc.maxAge, got, base, tc.same)
		}
	}
}

// TestShardString: the zero Shard prints as nothing, others as I/N.
func TestShardString(t *testing.T) {
	if got := (Shard{}).String(); got != "" {
		t.Errorf("zero Shard = %q", got)
	}
	if got := (Shard{2, 3}).String(); got != "2/3" {
		t.Errorf("Shard{2,3} = %q", got)
	}
}

// TestComposeFirstRun: a first run (no earlier index) keeps all its rows,
// sorted.
func TestComposeFirstRun(t *testing.T) {
	fresh := Latest([]Row{{Path: "/arch/b"}, {Path: "/arch/a"}, {Path: "/arch/c"}})
	got := Compose(nil, fresh, Scope{Roots: []string{"/arch"}})
	var paths []string
	for _, r := range got {
		paths = append(paths, r.Path)
	}
	if want := []string{"/arch/a", "/arch/b", "/arch/c"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("Compose = %q, want %q", paths, want)
	}
}

// TestMergeTieBreaks: between two analysed rows the newer mtime wins,
// whichever input it is in; at equal mtimes the earlier input's row. The
// conflicts are listed by path.
func TestMergeTieBreaks(t *testing.T) {
	row := func(p string, mtime int64, scans int) Row {
		return Row{Path: p, Status: StatusOK, ModTimeNS: mtime, Scans: scans}
	}
	a := []Row{row("/b", 5, 1), row("/a", 9, 1)}
	b := []Row{row("/b", 6, 2), row("/a", 9, 2)}
	for _, tc := range []struct {
		name      string
		in        [][]Row
		wantScans []int // of /a, /b
		wantFrom  []int
	}{
		{"newer second", [][]Row{a, b}, []int{1, 2}, []int{0, 1}},
		{"newer first", [][]Row{b, a}, []int{2, 2}, []int{0, 0}},
	} {
		got, conflicts := Merge(tc.in...)
		if len(got) != 2 || got[0].Scans != tc.wantScans[0] || got[1].Scans != tc.wantScans[1] {
			t.Errorf("%s: Merge = %+v, want /a with %d scans, /b with %d", tc.name, got, tc.wantScans[0], tc.wantScans[1])
		}
		want := []Conflict{{Path: "/a", Chosen: tc.wantFrom[0], Inputs: []int{0, 1}}, {Path: "/b", Chosen: tc.wantFrom[1], Inputs: []int{0, 1}}}
		if !reflect.DeepEqual(conflicts, want) {
			t.Errorf("%s: conflicts = %+v, want %+v", tc.name, conflicts, want)
		}
	}
}

// TestFromReportStatus: a report from Analyze is damaged when its damage
// status is not ok; one made otherwise (no Damage) when it has a problem
// note or a skipped message.
func TestFromReportStatus(t *testing.T) {
	for _, tc := range []struct {
		name     string
		damage   *analysis.Damage
		problems []string
		skipped  int
		want     string
	}{
		{"analysed, ok", &analysis.Damage{Status: analysis.DamageOK}, nil, 0, StatusOK},
		{"analysed, damaged", &analysis.Damage{Status: analysis.DamageDamaged}, nil, 0, StatusDamaged},
		{"analysed, ok with a note", &analysis.Damage{Status: analysis.DamageOK}, []string{"metadata rebuilt"}, 0, StatusOK},
		{"no damage field, clean", nil, nil, 0, StatusOK},
		{"no damage field, a skipped message", nil, nil, 1, StatusDamaged},
		{"no damage field, a problem", nil, []string{"cut"}, 0, StatusDamaged},
	} {
		rep := &analysis.Report{Damage: tc.damage, Bag: analysis.BagSummary{Problems: tc.problems}, Summary: analysis.Summary{Skipped: tc.skipped}}
		if got := FromReport(Row{Status: StatusError}, rep); got.Status != tc.want {
			t.Errorf("%s: status %s, want %s", tc.name, got.Status, tc.want)
		}
	}
}

// TestFromReportCounts: confirmed clock steps, flagged wall timers and
// stale topics are counted; the others are not. A bag whose end is before
// its start lasts 0 s.
func TestFromReportCounts(t *testing.T) {
	rep := &analysis.Report{
		Bag:         analysis.BagSummary{StartNS: 5e9, EndNS: 4e9},
		ClockSteps:  []analysis.ClockStep{{Confirmed: true}, {}, {Confirmed: true}},
		TimerClocks: []analysis.TimerClock{{Flagged: true}, {}},
		Ages:        []analysis.TopicAge{{Kind: analysis.AgeStale}, {Kind: "ok"}, {Kind: analysis.AgeStale}, {Kind: analysis.AgeStale}},
		StuckZero:   []analysis.StuckZero{{}},
	}
	got := FromReport(Row{DurationS: 7}, rep)
	if got.ClockSteps != 2 || got.WallTimerTopics != 1 || got.StaleTopics != 3 || got.StuckZeroTopics != 1 || got.DurationS != 0 {
		t.Errorf("FromReport: steps %d, timers %d, stale %d, stuck %d, duration %v; want 2, 1, 3, 1, 0",
			got.ClockSteps, got.WallTimerTopics, got.StaleTopics, got.StuckZeroTopics, got.DurationS)
	}
}

// TestSummarizeNotAnalysed: a row an interrupted scan did not reach is
// counted as such, not as an error.
func TestSummarizeNotAnalysed(t *testing.T) {
	rows := []Row{NotAnalysedRow(Row{Path: "/a", SizeBytes: 3}, "interrupted"), {Status: StatusNotAnalysed}, {Status: StatusError}}
	if got := Summarize(rows); got != (Totals{Bags: 3, NotAnalysed: 2, Errors: 1, SizeBytes: 3}) {
		t.Errorf("Summarize = %+v", got)
	}
}
