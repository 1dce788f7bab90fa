package render

import (
	"bytes"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

func TestSubNS(t *testing.T) {
	tests := []struct {
		a, b int64
		d    int64
		ok   bool
	}{
		{5, 3, 2, true}, {5, -3, 8, true}, {-5, 3, -8, true}, {0, 0, 0, true}, {7, 0, 7, true},
		{math.MaxInt64, -1, 0, false}, {math.MinInt64, 1, 0, false},
		{math.MaxInt64, 0, math.MaxInt64, true}, {-1, math.MinInt64, math.MaxInt64, true},
		{0, math.MinInt64, 0, false}, {math.MinInt64, math.MinInt64, 0, true},
		{math.MaxInt64, math.MaxInt64, 0, true}, {-1, math.MaxInt64, math.MinInt64, true}, {-2, math.MaxInt64, 0, false},
	}
	for _, tc := range tests {
		if d, ok := subNS(tc.a, tc.b); d != tc.d || ok != tc.ok {
			t.Errorf("subNS(%d, %d) = %d, %v; want %d, %v", tc.a, tc.b, d, ok, tc.d, tc.ok)
		}
	}
}

func TestClassifyEdgesThresholds(t *testing.T) {
	const year = int64(1e9 * 86400 * 365)
	if clockFamily(year) != edgeSim || clockFamily(year+1) != edgeSystem {
		t.Errorf("clockFamily at 1971: %s, %s", clockFamily(year), clockFamily(year+1))
	}
	dyn := func(p, c string, count int, hz float64, newestS float64) analysis.TFLink {
		return analysis.TFLink{Parent: p, Child: c, Topic: "/tf", Count: count, RateHz: hz, NewestNS: int64(newestS * 1e9)}
	}
	tests := []struct {
		name  string
		links []analysis.TFLink
		want  []string
	}{
		// A link never received does not set its clock's newest stamp.
		{"count 0", []analysis.TFLink{dyn("map", "odom", 0, 10, 100), dyn("odom", "base", 5, 10, 10)}, []string{edgeSim, edgeSim}},
		// Lagging exactly 1 s is not stale; a hair more is.
		{"lag 1 s", []analysis.TFLink{dyn("map", "odom", 5, 10, 11), dyn("odom", "base", 5, 10, 10)}, []string{edgeSim, edgeSim}},
		{"lag 1.001 s", []analysis.TFLink{dyn("map", "odom", 5, 10, 11.001), dyn("odom", "base", 5, 10, 10)}, []string{edgeSim, edgeStale}},
		// At 1 Hz a lag up to five periods is normal.
		{"1 Hz", []analysis.TFLink{dyn("map", "odom", 5, 10, 13), dyn("odom", "base", 5, 1, 10)}, []string{edgeSim, edgeSim}},
		{"1 Hz lag 6 s", []analysis.TFLink{dyn("map", "odom", 5, 10, 16), dyn("odom", "base", 5, 1, 10)}, []string{edgeSim, edgeStale}},
		// An unknown rate: the one-second rule alone.
		{"rate 0", []analysis.TFLink{dyn("map", "odom", 5, 10, 12), dyn("odom", "base", 5, 0, 10)}, []string{edgeSim, edgeStale}},
		// Two neighbours on sim time, one on system time between them... the
		// odd one out is on another clock, and one same-clock neighbour is enough.
		{"other clock", []analysis.TFLink{dyn("map", "odom", 5, 10, 10), dyn("odom", "base", 5, 10, 1.7e9), dyn("base", "laser", 5, 10, 10)},
			[]string{edgeOtherClock, edgeOtherClock, edgeOtherClock}},
		{"one same neighbour", []analysis.TFLink{dyn("map", "odom", 5, 10, 10), dyn("odom", "base", 5, 10, 10), dyn("odom", "imu", 5, 10, 1.7e9)},
			[]string{edgeSim, edgeSim, edgeOtherClock}},
	}
	for _, tc := range tests {
		if got := classifyEdges(tc.links); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTFTreeCycleRootAndCap(t *testing.T) {
	// a → b → a: the walk starts at a, which has no drawn incoming link.
	pic := tfTreePicture([]analysis.TFLink{
		{Parent: "a", Child: "b", Topic: "/tf", Count: 1, RateHz: 1},
		{Parent: "b", Child: "a", Topic: "/tf", Count: 1, RateHz: 1},
	}, nil)
	var roots []string
	for _, n := range pic.Nodes {
		if n.Root {
			roots = append(roots, n.Name)
		}
	}
	if !reflect.DeepEqual(roots, []string{"a"}) || len(pic.Edges) != 1 {
		t.Errorf("cycle: roots %v, %d edges; want [a] and 1", roots, len(pic.Edges))
	}
	// A chain of treeMaxNodes+2 frames: the last two are not drawn.
	var links []analysis.TFLink
	for i := 0; i <= treeMaxNodes; i++ {
		links = append(links, analysis.TFLink{Parent: "f" + strconv.Itoa(i), Child: "f" + strconv.Itoa(i+1), Static: true})
	}
	pic = tfTreePicture(links, nil)
	if len(pic.Nodes) != treeMaxNodes || pic.Omitted != 2 {
		t.Errorf("%d frames: %d drawn, %d omitted; want %d, 2", treeMaxNodes+2, len(pic.Nodes), pic.Omitted, treeMaxNodes)
	}
	// Exactly treeMaxNodes frames: all drawn.
	pic = tfTreePicture(links[:treeMaxNodes-1], nil)
	if len(pic.Nodes) != treeMaxNodes || pic.Omitted != 0 {
		t.Errorf("%d frames: %d drawn, %d omitted", treeMaxNodes, len(pic.Nodes), pic.Omitted)
	}
}

func TestJSONNoRowsAndEnd(t *testing.T) {
	var buf bytes.Buffer
	j := NewJSON(&buf)
	if err := j.Finish(nil); err != nil {
		t.Fatal(err)
	}
	if want := `{"schema_version":` + strconv.Itoa(JSONSchemaVersion) + `,"scans":[]}` + "\n"; buf.String() != want {
		t.Errorf("no rows, no report: %q, want %q", buf.String(), want)
	}
	buf.Reset()
	j = NewJSON(&buf)
	if err := j.Row(&analysis.ScanRow{Topic: "/s"}); err != nil {
		t.Fatal(err)
	}
	if err := j.Finish(&analysis.Report{}); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "}\n]") || !strings.HasSuffix(out, "}\n") || strings.HasSuffix(out, "\n\n") {
		t.Errorf("one row: %q", out)
	}
}
