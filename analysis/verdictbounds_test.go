package analysis

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
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
		names, total := deciderOf(a).treeFrames(tc.max)
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
		if got := deciderOf(a).sameClockTopics("/a"); got != tc.want {
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
		d := deciderOf(a)
		if got := d.topicsWithClass(LaserOnSystemClock, d.pairs()[0]); !reflect.DeepEqual(got, tc.want) {
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
	if got := deciderOf(a).analysedWithMessages(); !reflect.DeepEqual(got, []string{"/one"}) {
		t.Errorf("analysedWithMessages = %q, want [/one]", got)
	}
	a.rep.Skew = []Skew{{Topic: "/empty", Count: 0}, {Topic: "/one", Count: 1}}
	if got := deciderOf(a).stampedSeries(); got != 1 {
		t.Errorf("stampedSeries = %d, want 1", got)
	}
	a.pairs = []*pairStats{
		{topic: "/none", outcomes: map[string]int{"dropped_empty_frame": 0, "passed": 3}},
		{topic: "/one", outcomes: map[string]int{"dropped_empty_frame": 1}},
	}
	if topics, n := deciderOf(a).emptyFrameTopics(); !reflect.DeepEqual(topics, []string{"/one"}) || n != 1 {
		t.Errorf("emptyFrameTopics = %q, %d; want [/one], 1", topics, n)
	}
}

// TestStaticOtherClockBoundary: a static link is on another clock when its
// stamp is at least EpochThresholdNS from dynamic tf's median; without
// dynamic tf there is nothing to compare with.
func TestStaticOtherClockBoundary(t *testing.T) {
	dyn := 2 * EpochThresholdNS
	one := "Static link odom->laser on /tf_static is stamped"
	for _, tc := range []struct {
		name  string
		links []TFLink
		want  string // the one evidence line's start ("" none)
	}{
		{"no dynamic tf", []TFLink{{Parent: "odom", Child: "laser", Topic: "/tf_static", Static: true, NewestNS: 17e17}}, ""},
		{"exactly the threshold apart", []TFLink{{Parent: "map", Child: "odom", NewestNS: dyn}, {Parent: "odom", Child: "laser", Topic: "/tf_static", Static: true, NewestNS: dyn - EpochThresholdNS}}, one},
		{"1 s over", []TFLink{{Parent: "map", Child: "odom", NewestNS: dyn}, {Parent: "odom", Child: "laser", Topic: "/tf_static", Static: true, NewestNS: dyn - EpochThresholdNS - 1e9}}, one},
		{"1 s under", []TFLink{{Parent: "map", Child: "odom", NewestNS: dyn}, {Parent: "odom", Child: "laser", Topic: "/tf_static", Static: true, NewestNS: dyn - EpochThresholdNS + 1e9}}, ""},
		{"two links: dynamic tf's time in seconds", []TFLink{{Parent: "map", Child: "odom", NewestNS: dyn}, {Parent: "odom", Child: "laser", Topic: "/tf_static", Static: true}, {Parent: "odom", Child: "imu", Topic: "/tf_static", Static: true}},
			"2 static links are stamped on another clock than dynamic tf (near " + FmtS(float64(dyn)/1e9) + "), e.g. odom->laser on /tf_static and odom->imu on /tf_static"},
	} {
		a := &analyzer{hasClock: true}
		a.rep.TFTree = tc.links
		var v Verdict
		deciderOf(a).otherClockEvidence(&v)
		switch {
		case tc.want == "" && len(v.Evidence) != 0:
			t.Errorf("%s: evidence %q, want none", tc.name, v.Evidence)
		case tc.want != "" && (len(v.Evidence) != 1 || !strings.HasPrefix(v.Evidence[0], tc.want)):
			t.Errorf("%s: evidence %q, want one line starting %q", tc.name, v.Evidence, tc.want)
		}
	}
}

// TestMixedClockKindOnly: without /clock, only skew rows of kind
// different_clock are named as on another clock.
func TestMixedClockKindOnly(t *testing.T) {
	a := &analyzer{}
	a.rep.Skew = []Skew{
		{Topic: "/scan", Kind: SkewConstantOffset, Count: 10, MedianS: 2},
		{Topic: "/imu", Kind: SkewDifferentClock, Count: 10, MedianS: 1.7e9},
	}
	var v Verdict
	deciderOf(a).otherClockEvidence(&v)
	if len(v.Evidence) != 1 || !strings.HasPrefix(v.Evidence[0], "/imu: header stamps are") {
		t.Errorf("evidence %q, want one line naming /imu alone", v.Evidence)
	}
}

// TestAllOffsetSampleBoundary: a row of another kind with at least
// minSkewSamples samples means the offset is not on every topic; with
// fewer it does not count.
func TestAllOffsetSampleBoundary(t *testing.T) {
	const every = "on every topic is two machines out of sync"
	for _, tc := range []struct {
		count int
		every bool
	}{
		{MinSkewSamples - 1, true},
		{MinSkewSamples, false},
		{MinSkewSamples + 1, false},
	} {
		a := &analyzer{hasClock: true}
		a.rep.Skew = []Skew{
			{Topic: "/scan", Kind: SkewConstantOffset, Count: 100, MedianS: 400 * 86400},
			{Topic: "/imu", Kind: SkewJitter, Count: tc.count, MedianS: 0.01},
		}
		var v Verdict
		deciderOf(a).recorderClockEvidence(&v)
		got := strings.Contains(strings.Join(v.Evidence, "\n"), every)
		if got != tc.every {
			t.Errorf("other row with %d samples: %q; want %q there: %v", tc.count, v.Evidence, every, tc.every)
		}
		if !strings.Contains(strings.Join(v.Evidence, "\n"), "Record time − stamp is a constant offset on /scan (") {
			t.Errorf("other row with %d samples: %q, want the offset line", tc.count, v.Evidence)
		}
	}
}

// TestEmptyFrameCommandsBoundary: one echo command per topic, three at
// most.
func TestEmptyFrameCommandsBoundary(t *testing.T) {
	for _, tc := range []struct {
		topics []string
		want   int
	}{
		{[]string{"/a", "/b"}, 2},
		{[]string{"/a", "/b", "/c"}, 3},
		{[]string{"/a", "/b", "/c", "/d"}, 3},
	} {
		var v Verdict
		deciderOf(&analyzer{}).emptyFrameSentence(&v, tc.topics, 10)
		if len(v.Commands) != tc.want || v.Commands[0] != "ros2 topic echo /a --field header.frame_id --once" {
			t.Errorf("%d topics: commands %q, want %d starting with /a's echo", len(tc.topics), v.Commands, tc.want)
		}
	}
}

// TestClockRateBoundary: a /clock rate outside 0.9..1.1 of record time is
// evidence; a rate of 0 (not measured) is not.
func TestClockRateBoundary(t *testing.T) {
	for _, tc := range []struct {
		rtf  float64
		want bool
	}{
		{0, false}, {0.5, true}, {0.9, false}, {1, false}, {1.1, false}, {1.5, true},
	} {
		a := &analyzer{}
		a.rep.ClockRate = &ClockRate{RealTimeFactor: tc.rtf}
		var v Verdict
		deciderOf(a).jumpEvidence(&v)
		got := strings.Contains(strings.Join(v.Evidence, "\n"), "/clock runs at")
		if got != tc.want {
			t.Errorf("real-time factor %g: evidence %q, want a rate line: %v", tc.rtf, v.Evidence, tc.want)
		}
	}
}

// TestSkewAheadWithoutDrops: scans exactly ClockSkewThresholdNS ahead of tf
// are clock_skew; with a queue long enough that none is dropped, the
// offset is within what tf2 copes with, and the evidence says so.
func TestSkewAheadWithoutDrops(t *testing.T) {
	dir := writeCase(t, filepath.Join(t.TempDir(), "bag"), clockCase{name: "skew_ahead_no_drop", laserSkewNS: ClockSkewThresholdNS}, bagwrite.StorageMCAP, 5)
	rep, _ := analyzeGen(t, dir, Config{QueueSize: 1000, SetQueueSize: true})
	want := "/scan and tf (odom->base_link) are 1.000 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP)."
	if rep.Verdict.Class != string(ClockSkew) || rep.Verdict.Sentence != want {
		t.Errorf("verdict %s %q, want %s %q", rep.Verdict.Class, rep.Verdict.Sentence, ClockSkew, want)
	}
	ev := strings.Join(rep.Verdict.Evidence, "\n")
	if !strings.Contains(ev, "Within the cache time (10 s) tf2 still finds a transform") || strings.Contains(ev, "The offset matters") {
		t.Errorf("evidence %q, want the within-cache line and not the offset-matters one", rep.Verdict.Evidence)
	}
}

// TestTargetIsFrameStampJumps: with the target set to the scans' own
// frame, header-stamp jumps (no /clock) still get their warning in the
// headline; the same bag 1 ns short of a jump gets none.
func TestTargetIsFrameStampJumps(t *testing.T) {
	for _, tc := range []struct {
		scanJump, tfJump int64
		want             string
	}{
		{950e6, -20e6 - 1, " But the bag's time jumps 2 times (see the evidence)."},
		{950e6 - 1, -20e6, ""},
	} {
		links := []genLink{{parent: "odom", child: "base_link", ageNS: 10e6, jumpAt: 300, jumpNS: tc.tfJump}, {parent: "base_link", child: "laser", static: true}}
		stamp := func(i, sim, _ int64) int64 {
			if i >= 200 {
				return sim + tc.scanJump
			}
			return sim
		}
		rep, _ := analyzeGen(t, genBag(t, links, []genScan{{"/scan", "laser", stamp}}, nil, 400), Config{TargetFrames: []string{"laser"}})
		want := "/scan is in the target frame 'laser' already (frame_id 'laser'): no transform to check; choose another target (--target-frame)." + tc.want
		if rep.Verdict.Class != VerdictTargetIsFrame || rep.Verdict.Sentence != want {
			t.Errorf("scan jump %d: verdict %s %q, want %s %q", tc.scanJump, rep.Verdict.Class, rep.Verdict.Sentence, VerdictTargetIsFrame, want)
		}
	}
}
