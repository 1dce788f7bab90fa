package archive

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

func TestParseShard(t *testing.T) {
	cases := []struct {
		in      string
		want    Shard
		wantErr bool
	}{
		{"1/3", Shard{1, 3}, false},
		{" 3/3 ", Shard{3, 3}, false},
		{"1/1", Shard{1, 1}, false},
		{"0/3", Shard{}, true},
		{"4/3", Shard{}, true},
		{"1/0", Shard{}, true},
		{"a/3", Shard{}, true},
		{"2", Shard{}, true},
		{"-1/3", Shard{}, true},
	}
	for _, tc := range cases {
		got, err := ParseShard(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, err %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestShardsPartition(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		counts := make([]int, n+1)
		for i := 0; i < 3000; i++ {
			rel := fmt.Sprintf("2026/run-%04d", i)
			owners := 0
			for k := 1; k <= n; k++ {
				if (Shard{k, n}).Contains(rel) {
					owners++
					counts[k]++
				}
			}
			if owners != 1 {
				t.Fatalf("n=%d: %s in %d shards", n, rel, owners)
			}
		}
		for k := 1; k <= n; k++ {
			// Each shard gets roughly 1/n (within 20%): a hash, not a
			// counter, so no exact split is promised.
			if want := 3000 / n; counts[k] < want*8/10 || counts[k] > want*12/10 {
				t.Errorf("n=%d shard %d has %d of 3000", n, k, counts[k])
			}
		}
	}
	// Stable: a bag's shard depends only on its relative path (the value
	// is pinned so a change of hash, which would reshuffle every archive,
	// shows up here).
	if got := ShardOf("tb3-walker-humble-nitesh", 3); got != ShardOf("tb3-walker-humble-nitesh", 3) || got < 1 || got > 3 {
		t.Fatalf("ShardOf unstable: %d", got)
	}
	if (Shard{}).Contains("anything") != true {
		t.Error("zero Shard must select everything")
	}
}

func TestReportName(t *testing.T) {
	long := strings.Repeat("segment/", 30) + "bag"
	cases := []struct {
		rel, path string
		prefix    string
	}{
		{"2026/run1", "/a/2026/run1", "2026__run1-"},
		{"../../etc/passwd", "/x/../../etc/passwd", "etc__passwd-"},
		{"/abs/olute", "/abs/olute", "abs__olute-"},
		{"..", "/a/..", "bag-"},
		{".hidden", "/a/.hidden", "hidden-"},
		{"ünï côdé/<script>", "/u", "n__c_d____script_-"},
		{"", "/", "bag-"},
		{long, "/l/" + long, "ent__segment__"}, // the tail is kept
	}
	seen := map[string]string{}
	for _, tc := range cases {
		got := ReportName(tc.rel, tc.path)
		if !strings.HasPrefix(got, tc.prefix) {
			t.Errorf("ReportName(%q) = %q, want prefix %q", tc.rel, got, tc.prefix)
		}
		if strings.ContainsAny(got, `/\`) || strings.HasPrefix(got, ".") || strings.Contains(got, "..") && !strings.Contains(tc.rel, "..") {
			t.Errorf("ReportName(%q) = %q is not a safe base name", tc.rel, got)
		}
		if len(got) > maxNameBytes+9 {
			t.Errorf("ReportName(%q) is %d bytes", tc.rel, len(got))
		}
		if prev, dup := seen[got]; dup {
			t.Errorf("ReportName collision: %q and %q", prev, tc.rel)
		}
		seen[got] = tc.rel
	}
	// Relative paths that sanitise alike stay apart through the hash.
	a, b := ReportName("a/b", "/r/a/b"), ReportName("a_b", "/r/a_b")
	if a == b || ReportName("a/b", "/r/a/b") != a {
		t.Errorf("names %q %q: want distinct and repeatable", a, b)
	}
}

func TestReusable(t *testing.T) {
	base := Row{Path: "/a", Status: StatusOK, SizeBytes: 10, ModTimeNS: 5, Fingerprint: "fp", ConfigKey: "k"}
	fpOK := func() (string, error) { return "fp", nil }
	cases := []struct {
		name   string
		old    *Row
		st     Stat
		key    string
		fp     func() (string, error)
		want   bool
		wantFP string
	}{
		{"unchanged", &base, Stat{10, 5}, "k", fpOK, true, "fp"},
		{"no earlier row", nil, Stat{10, 5}, "k", fpOK, false, ""},
		{"size changed", &base, Stat{11, 5}, "k", fpOK, false, ""},
		{"mtime changed", &base, Stat{10, 6}, "k", fpOK, false, ""},
		{"settings changed", &base, Stat{10, 5}, "other", fpOK, false, ""},
		{"content changed", &base, Stat{10, 5}, "k", func() (string, error) { return "new", nil }, false, "new"},
		{"fingerprint unreadable", &base, Stat{10, 5}, "k", func() (string, error) { return "", errors.New("denied") }, false, ""},
		{"error rows are retried", &Row{Path: "/a", Status: StatusError, SizeBytes: 10, ModTimeNS: 5, Fingerprint: "fp", ConfigKey: "k"}, Stat{10, 5}, "k", fpOK, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			fp := func() (string, error) { called = true; return tc.fp() }
			got, gotFP := Reusable(tc.old, tc.st, tc.key, fp)
			if got != tc.want || gotFP != tc.wantFP {
				t.Errorf("got %v %q, want %v %q", got, gotFP, tc.want, tc.wantFP)
			}
			cheapMismatch := tc.old == nil || tc.old.Status == StatusError || tc.st != (Stat{tc.old.SizeBytes, tc.old.ModTimeNS}) || tc.key != tc.old.ConfigKey
			if cheapMismatch && called {
				t.Error("fingerprint computed although a cheap check already failed")
			}
		})
	}
}

func TestParseIndexTornLine(t *testing.T) {
	in := `{"path":"/a","status":"ok","scans":3}
{"path":"/b","status":"error","error":"boom"}

{"path":"/a","status":"ok","scans":4}
{"path":"/c","sta`
	rows, bad, err := ParseIndex(strings.NewReader(in))
	if err != nil || bad != 1 || len(rows) != 3 {
		t.Fatalf("rows %d bad %d err %v", len(rows), bad, err)
	}
	latest := Latest(rows)
	if latest["/a"].Scans != 4 || latest["/b"].Error != "boom" || len(latest) != 2 {
		t.Errorf("latest = %+v", latest)
	}
}

func TestCompose(t *testing.T) {
	row := func(p string, scans int) Row { return Row{Path: p, Status: StatusOK, Scans: scans} }
	old := Latest([]Row{row("/arch/a", 1), row("/arch/b", 1), row("/arch/gone", 1), row("/other/x", 1), row("/archive2/y", 1)})
	fresh := Latest([]Row{row("/arch/a", 2), row("/arch/new", 2)})
	scope := Scope{Roots: []string{"/arch"}, Discovered: map[string]bool{"/arch/a": true, "/arch/b": true, "/arch/new": true}}
	got := Compose(old, fresh, scope)
	var paths []string
	for _, r := range got {
		paths = append(paths, fmt.Sprintf("%s=%d", r.Path, r.Scans))
	}
	// b: discovered, not finished (interrupted): kept. gone: under the
	// root, not discovered: dropped. /other and /archive2 (a sibling
	// whose name shares the prefix): outside the roots: kept.
	want := []string{"/arch/a=2", "/arch/b=1", "/arch/new=2", "/archive2/y=1", "/other/x=1"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("Compose = %q, want %q", paths, want)
	}
}

func TestMerge(t *testing.T) {
	a := []Row{{Path: "/a", Status: StatusOK, Scans: 1}, {Path: "/c", Status: StatusOK}}
	b := []Row{{Path: "/b", Status: StatusOK}, {Path: "/c", Status: StatusOK}}
	c := []Row{{Path: "/d", Status: StatusError, Error: "x"}, {Path: "/a", Status: StatusError, Error: "later failure", ModTimeNS: 9}}
	got, conflicts := Merge(a, b, c)
	var paths []string
	for _, r := range got {
		paths = append(paths, r.Path+":"+r.Status)
	}
	if want := []string{"/a:ok", "/b:ok", "/c:ok", "/d:error"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("Merge = %q, want %q", paths, want)
	}
	if want := []Conflict{{Path: "/a", Chosen: 0, Inputs: []int{0, 2}}}; !reflect.DeepEqual(conflicts, want) {
		t.Errorf("conflicts = %+v, want %+v", conflicts, want)
	}
	// Order of inputs does not change the result.
	got2, _ := Merge(c, b, a)
	if !reflect.DeepEqual(got, got2) {
		t.Errorf("Merge depends on input order:\n%+v\n%+v", got, got2)
	}
}

func TestFromReport(t *testing.T) {
	rep := &analysis.Report{
		Bag: analysis.BagSummary{Storage: "mcap", StartNS: 1_000_000_000, EndNS: 3_500_000_000, Messages: 42, Problems: []string{"cut at byte 9"}},
		Summary: analysis.Summary{
			Verdict: "The laser driver publishes /scan with system time", Scans: 10, Rows: 10,
			Classes:        map[string]int{"laser_on_system_clock": 10},
			Filter:         map[string]int{"dropped_queue_full": 7, "dropped_out_the_back": 1, "passed": 2},
			ZeroStampScans: 0, ClockJumps: []analysis.ClockJump{{Kind: "backward"}},
			Findings: []string{"drop", "clock-mismatch"}, Skipped: 0,
		},
		StampJumps: []analysis.ClockJump{{}, {}},
	}
	in := Row{Path: "/p", Rel: "p", SizeBytes: 9, ReportHTML: "reports/p.html"}
	got := FromReport(in, rep)
	want := Row{
		Path: "/p", Rel: "p", SizeBytes: 9, ReportHTML: "reports/p.html", Status: StatusDamaged,
		Storage: "mcap", Format: FormatROS2, DurationS: 2.5, Messages: 42, Verdict: rep.Summary.Verdict, Scans: 10, Rows: 10,
		Classes: map[string]int{"laser_on_system_clock": 10},
		Filter:  map[string]int{"dropped_queue_full": 7, "dropped_out_the_back": 1, "passed": 2},
		Drops:   8, ClockJumps: 1, StampJumps: 2, Findings: []string{"clock-mismatch", "drop"},
		Problems: []string{"cut at byte 9"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FromReport:\n got %+v\nwant %+v", got, want)
	}
	if !got.HasFinding([]string{"jump", "drop"}) || got.HasFinding([]string{"skew"}) {
		t.Error("HasFinding wrong")
	}
	e := ErrorRow(got, errors.New("open: permission denied"))
	if e.Status != StatusError || e.Error != "open: permission denied" || e.Scans != 0 || e.ReportHTML != "" || e.SizeBytes != 9 {
		t.Errorf("ErrorRow = %+v", e)
	}
	tot := Summarize([]Row{got, e, {Status: StatusOK}})
	if tot != (Totals{Bags: 3, OK: 1, Damaged: 1, Errors: 1, WithFindings: 1, Drops: 8, ClockJumps: 1, SizeBytes: 18}) {
		t.Errorf("Summarize = %+v", tot)
	}
}

func TestConfigKey(t *testing.T) {
	a := ConfigKey(analysis.Config{Consumer: "rviz"}, "1")
	cases := []analysis.Config{
		{Consumer: "nav2"},
		{Consumer: "rviz", ScanTopics: []string{"/scan"}},
		{Consumer: "rviz", CacheTimeS: 10, SetCacheTime: true},
		{Consumer: "rviz", RclpyBuffer: true},
	}
	for _, c := range cases {
		if ConfigKey(c, "1") == a {
			t.Errorf("ConfigKey(%+v) equals the default's", c)
		}
	}
	if ConfigKey(analysis.Config{Consumer: "rviz"}, "2") == a {
		t.Error("version not in ConfigKey")
	}
	if ConfigKey(analysis.Config{Consumer: "rviz", Progress: func(int64) {}}, "1") != a {
		t.Error("Progress callback must not change ConfigKey")
	}
}

// TestFormatOf: every storage bagread names maps to its ROS generation,
// anything else to "".
func TestFormatOf(t *testing.T) {
	for _, tc := range []struct{ storage, want string }{
		{"rosbag_v2", FormatROS1},
		{"sqlite3", FormatROS2},
		{"mcap", FormatROS2},
		{"", ""},
		{"sqlite3,mcap", ""},
	} {
		if got := FormatOf(tc.storage); got != tc.want {
			t.Errorf("FormatOf(%q) = %q, want %q", tc.storage, got, tc.want)
		}
	}
}

// TestParseIndexFormatOfOldRows: a row written before the format column
// reads back with the format its storage implies.
func TestParseIndexFormatOfOldRows(t *testing.T) {
	in := `{"path":"/a.bag","rel":"a.bag","status":"ok","storage":"rosbag_v2"}` + "\n" +
		`{"path":"/b","rel":"b","status":"ok","storage":"sqlite3"}` + "\n" +
		`{"path":"/c","rel":"c","status":"ok","storage":"mcap","format":"ros2"}` + "\n"
	rows, bad, err := ParseIndex(strings.NewReader(in))
	if err != nil || bad != 0 || len(rows) != 3 {
		t.Fatalf("%d rows, %d bad, %v", len(rows), bad, err)
	}
	for i, want := range []string{FormatROS1, FormatROS2, FormatROS2} {
		if rows[i].Format != want {
			t.Errorf("row %d (%s): format %q, want %q", i, rows[i].Storage, rows[i].Format, want)
		}
	}
}
