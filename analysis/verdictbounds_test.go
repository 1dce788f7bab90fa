package analysis

import (
	"reflect"
	"testing"
)

// Boundary tests of the verdict's small helpers (issue 15): each threshold
// is pinned exactly at its value and just on each side, so that an
// off-by-one in a comparison changes a stated outcome.

// TestExamplesBoundary: three names are listed in full, a fourth is counted.
func TestExamplesBoundary(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"/a", "/b"}, "/a and /b"},
		{[]string{"/a", "/b", "/c"}, "/a, /b and /c"},
		{[]string{"/a", "/b", "/c", "/d"}, "/a, /b, /c, … (1 more)"},
		{[]string{"/a", "/b", "/c", "/d", "/e"}, "/a, /b, /c, … (2 more)"},
	} {
		if got := examples(tc.names); got != tc.want {
			t.Errorf("examples(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

// TestTreeFramesBoundary: treeFrames lists exactly max frames and counts
// them all.
func TestTreeFramesBoundary(t *testing.T) {
	a := &analyzer{}
	a.rep.TFTree = []TFLink{{Parent: "map", Child: "odom"}, {Parent: "odom", Child: "base_link"}}
	for _, tc := range []struct {
		max  int
		want []string
	}{
		{2, []string{"map", "odom"}},
		{3, []string{"map", "odom", "base_link"}},
		{4, []string{"map", "odom", "base_link"}},
	} {
		names, total := a.treeFrames(tc.max)
		if !reflect.DeepEqual(names, tc.want) || total != 3 {
			t.Errorf("treeFrames(%d) = %q, %d; want %q, 3", tc.max, names, total, tc.want)
		}
	}
}

// pairWith is a pair of topic to odom whose rows count same_clock and
// other rows of class c.
func pairWith(topic string, c Class, same, other int) *pairStats {
	p := &pairStats{topic: topic, frame: "laser", target: "odom", classes: map[Class]int{}}
	if same > 0 {
		p.classes[SameClock] = same
	}
	if other > 0 {
		p.classes[c] = other
	}
	return p
}

// TestSameClockTopicsBoundary: another topic joins the healthy headline
// when at least 9 in 10 of its rows are on the same clock; up to four
// names are listed, from five on three are named and the rest counted.
func TestSameClockTopicsBoundary(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pairs []*pairStats
		want  string
	}{
		{"9 of 10 same clock joins", []*pairStats{pairWith("/b", ClockSkew, 9, 1)}, "/a, /b"},
		{"18 of 20 same clock joins", []*pairStats{pairWith("/b", ClockSkew, 18, 2)}, "/a, /b"},
		{"8 of 10 same clock: topic alone", []*pairStats{pairWith("/b", ClockSkew, 8, 2)}, "/a"},
		{"17 of 20 same clock: topic alone", []*pairStats{pairWith("/b", ClockSkew, 17, 3)}, "/a"},
		{"four names listed", []*pairStats{pairWith("/b", SameClock, 1, 0), pairWith("/c", SameClock, 1, 0), pairWith("/d", SameClock, 1, 0)}, "/a, /b, /c, /d"},
		{"five names counted", []*pairStats{pairWith("/b", SameClock, 1, 0), pairWith("/c", SameClock, 1, 0), pairWith("/d", SameClock, 1, 0), pairWith("/e", SameClock, 1, 0)}, "/a, /b, /c and 2 other topics"},
	} {
		a := &analyzer{pairs: tc.pairs}
		if got := a.sameClockTopics("/a"); got != tc.want {
			t.Errorf("%s: sameClockTopics = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTopicsWithClassBoundary: a topic joins when at least 9 in 10 of its
// rows are of the class; a pair without rows never does.
func TestTopicsWithClassBoundary(t *testing.T) {
	best := pairWith("/a", LaserOnSystemClock, 0, 10)
	for _, tc := range []struct {
		name string
		p    *pairStats
		want []string
	}{
		{"no rows", pairWith("/b", LaserOnSystemClock, 0, 0), []string{"/a"}},
		{"9 of 10", pairWith("/b", LaserOnSystemClock, 1, 9), []string{"/a", "/b"}},
		{"10 of 10", pairWith("/b", LaserOnSystemClock, 0, 10), []string{"/a", "/b"}},
		{"8 of 10", pairWith("/b", LaserOnSystemClock, 2, 8), []string{"/a"}},
	} {
		a := &analyzer{pairs: []*pairStats{best, tc.p}}
		if got := a.topicsWithClass(LaserOnSystemClock, best); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: topicsWithClass = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCountedOnlyBoundary: the helpers that list topics, series or pairs
// with something to show skip the ones with a count of zero.
func TestCountedOnlyBoundary(t *testing.T) {
	a := &analyzer{}
	a.topics.list = []*topicState{
		{name: "/empty", role: roleStamped, count: 0},
		{name: "/one", role: roleStamped, count: 1},
	}
	if got := a.analysedWithMessages(); !reflect.DeepEqual(got, []string{"/one"}) {
		t.Errorf("analysedWithMessages = %q, want [/one]", got)
	}
	a.rep.Skew = []Skew{{Topic: "/empty", Count: 0}, {Topic: "/one", Count: 1}}
	if got := a.stampedSeries(); got != 1 {
		t.Errorf("stampedSeries = %d, want 1", got)
	}
	a.pairs = []*pairStats{
		{topic: "/none", outcomes: map[string]int{"dropped_empty_frame": 0, "passed": 3}},
		{topic: "/one", outcomes: map[string]int{"dropped_empty_frame": 1}},
	}
	if topics, n := a.emptyFrameTopics(); !reflect.DeepEqual(topics, []string{"/one"}) || n != 1 {
		t.Errorf("emptyFrameTopics = %q, %d; want [/one], 1", topics, n)
	}
}
