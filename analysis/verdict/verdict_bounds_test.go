package verdict

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

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
	a := &analysis.Report{}
	a.TFTree = []analysis.TFLink{{Parent: "map", Child: "odom"}, {Parent: "odom", Child: "base_link"}}
	for _, tc := range []struct {
		max  int
		want []string
	}{
		{2, []string{"map", "odom"}},
		{3, []string{"map", "odom", "base_link"}},
		{4, []string{"map", "odom", "base_link"}},
	} {
		names, total := deciderFor(a).treeFrames(tc.max)
		if !reflect.DeepEqual(names, tc.want) || total != 3 {
			t.Errorf("treeFrames(%d) = %q, %d; want %q, 3", tc.max, names, total, tc.want)
		}
	}
}

// TestSameClockTopicsBoundary: another topic joins the healthy headline
// when at least 9 in 10 of its rows are on the same clock; up to four
// names are listed, from five on three are named and the rest counted.
func TestSameClockTopicsBoundary(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pairs []analysis.PairSummary
		want  string
	}{
		{"9 of 10 same clock joins", []analysis.PairSummary{pairWith("/b", analysis.ClockSkew, 9, 1)}, "/a, /b"},
		{"18 of 20 same clock joins", []analysis.PairSummary{pairWith("/b", analysis.ClockSkew, 18, 2)}, "/a, /b"},
		{"8 of 10 same clock: topic alone", []analysis.PairSummary{pairWith("/b", analysis.ClockSkew, 8, 2)}, "/a"},
		{"17 of 20 same clock: topic alone", []analysis.PairSummary{pairWith("/b", analysis.ClockSkew, 17, 3)}, "/a"},
		{"four names listed", []analysis.PairSummary{pairWith("/b", analysis.SameClock, 1, 0), pairWith("/c", analysis.SameClock, 1, 0), pairWith("/d", analysis.SameClock, 1, 0)}, "/a, /b, /c, /d"},
		{"five names counted", []analysis.PairSummary{pairWith("/b", analysis.SameClock, 1, 0), pairWith("/c", analysis.SameClock, 1, 0), pairWith("/d", analysis.SameClock, 1, 0), pairWith("/e", analysis.SameClock, 1, 0)}, "/a, /b, /c and 2 other topics"},
	} {
		a := &analysis.Report{Pairs: tc.pairs}
		if got := sameClockList(deciderFor(a).sameClockTopics("/a")); got != tc.want {
			t.Errorf("%s: sameClockTopics = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTopicsWithClassBoundary: a topic joins when at least 9 in 10 of its
// rows are of the class; a pair without rows never does.
func TestTopicsWithClassBoundary(t *testing.T) {
	best := pairWith("/a", analysis.LaserOnSystemClock, 0, 10)
	for _, tc := range []struct {
		name string
		p    analysis.PairSummary
		want []string
	}{
		{"no rows", pairWith("/b", analysis.LaserOnSystemClock, 0, 0), []string{"/a"}},
		{"9 of 10", pairWith("/b", analysis.LaserOnSystemClock, 1, 9), []string{"/a", "/b"}},
		{"10 of 10", pairWith("/b", analysis.LaserOnSystemClock, 0, 10), []string{"/a", "/b"}},
		{"8 of 10", pairWith("/b", analysis.LaserOnSystemClock, 2, 8), []string{"/a"}},
	} {
		a := &analysis.Report{Pairs: []analysis.PairSummary{best, tc.p}}
		d := deciderFor(a)
		if got := d.topicsWithClass(analysis.LaserOnSystemClock, d.pairs()[0]); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: topicsWithClass = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCountedOnlyBoundary: the helpers that list topics, series or pairs
// with something to show skip the ones with a count of zero.
func TestCountedOnlyBoundary(t *testing.T) {
	a := &analysis.Report{}
	a.Topics = []analysis.TopicSummary{
		{Topic: "/empty", Role: analysis.TopicAnalysed, Messages: 0},
		{Topic: "/one", Role: analysis.TopicAnalysed, Messages: 1},
	}
	if got := deciderFor(a).analysedWithMessages(); !reflect.DeepEqual(got, []string{"/one"}) {
		t.Errorf("analysedWithMessages = %q, want [/one]", got)
	}
	a.Skew = []analysis.Skew{{Topic: "/empty", Count: 0}, {Topic: "/one", Count: 1}}
	if got := deciderFor(a).stampedSeries(); got != 1 {
		t.Errorf("stampedSeries = %d, want 1", got)
	}
	a.Pairs = []analysis.PairSummary{
		{Topic: "/none", Filter: map[string]int{"dropped_empty_frame": 0, "passed": 3}},
		{Topic: "/one", Filter: map[string]int{"dropped_empty_frame": 1}},
	}
	if topics, n := deciderFor(a).emptyFrameTopics(); !reflect.DeepEqual(topics, []string{"/one"}) || n != 1 {
		t.Errorf("emptyFrameTopics = %q, %d; want [/one], 1", topics, n)
	}
}

// TestStaticOtherClockBoundary: a static link is on another clock when its
// stamp is at least EpochThresholdNS from dynamic tf's median; without
// dynamic tf there is nothing to compare with.
func TestStaticOtherClockBoundary(t *testing.T) {
	dyn := 2 * analysis.EpochThresholdNS
	one := "Static link odom->laser on /tf_static is stamped"
	for _, tc := range []struct {
		name  string
		links []analysis.TFLink
		want  string // the one evidence line's start ("" none)
	}{
		{"no dynamic tf", []analysis.TFLink{{Parent: "odom", Child: "laser", Topic: "/tf_static", Static: true, NewestNS: 17e17}}, ""},
		{"exactly the threshold apart", []analysis.TFLink{{Parent: "map", Child: "odom", NewestNS: dyn}, {Parent: "odom", Child: "laser", Topic: "/tf_static", Static: true, NewestNS: dyn - analysis.EpochThresholdNS}}, one},
		{"1 s over", []analysis.TFLink{{Parent: "map", Child: "odom", NewestNS: dyn}, {Parent: "odom", Child: "laser", Topic: "/tf_static", Static: true, NewestNS: dyn - analysis.EpochThresholdNS - 1e9}}, one},
		{"1 s under", []analysis.TFLink{{Parent: "map", Child: "odom", NewestNS: dyn}, {Parent: "odom", Child: "laser", Topic: "/tf_static", Static: true, NewestNS: dyn - analysis.EpochThresholdNS + 1e9}}, ""},
		{"two links: dynamic tf's time in seconds", []analysis.TFLink{{Parent: "map", Child: "odom", NewestNS: dyn}, {Parent: "odom", Child: "laser", Topic: "/tf_static", Static: true}, {Parent: "odom", Child: "imu", Topic: "/tf_static", Static: true}},
			"2 static links are stamped on another clock than dynamic tf (near " + analysis.FmtS(float64(dyn)/1e9) + "), e.g. odom->laser on /tf_static and odom->imu on /tf_static"},
	} {
		a := &analysis.Report{Pass: analysis.PassFacts{HasClock: true}}
		a.TFTree = tc.links
		var v draft
		deciderFor(a).otherClockEvidence(&v)
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
	a := &analysis.Report{}
	a.Skew = []analysis.Skew{
		{Topic: "/scan", Kind: analysis.SkewConstantOffset, Count: 10, MedianS: 2},
		{Topic: "/imu", Kind: analysis.SkewDifferentClock, Count: 10, MedianS: 1.7e9},
	}
	var v draft
	deciderFor(a).otherClockEvidence(&v)
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
		{analysis.MinSkewSamples - 1, true},
		{analysis.MinSkewSamples, false},
		{analysis.MinSkewSamples + 1, false},
	} {
		a := &analysis.Report{Pass: analysis.PassFacts{HasClock: true}}
		a.Skew = []analysis.Skew{
			{Topic: "/scan", Kind: analysis.SkewConstantOffset, Count: 100, MedianS: 400 * 86400},
			{Topic: "/imu", Kind: analysis.SkewJitter, Count: tc.count, MedianS: 0.01},
		}
		var v draft
		deciderFor(a).recorderClockEvidence(&v)
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
		var v draft
		deciderFor(&analysis.Report{}).emptyFrameSentence(&v, tc.topics, 10)
		if got := lines(v.cmds); len(got) != tc.want || got[0] != "ros2 topic echo /a --field header.frame_id --once" {
			t.Errorf("%d topics: commands %q, want %d starting with /a's echo", len(tc.topics), got, tc.want)
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
		a := &analysis.Report{}
		a.ClockRate = &analysis.ClockRate{RealTimeFactor: tc.rtf}
		var v draft
		deciderFor(a).jumpEvidence(&v)
		got := strings.Contains(strings.Join(v.Evidence, "\n"), "/clock runs at")
		if got != tc.want {
			t.Errorf("real-time factor %g: evidence %q, want a rate line: %v", tc.rtf, v.Evidence, tc.want)
		}
	}
}

// TestRecorderClockEveryStampLags: recorderClockEvidence says it wrote the
// line on every stamp's days-to-a-year lag exactly when it did (tfTreeLead
// reads that instead of the line).
func TestRecorderClockEveryStampLags(t *testing.T) {
	const day = 86400.0
	for _, tc := range []struct {
		name string
		skew []analysis.Skew
		want bool
	}{
		{"every topic 30 days behind", []analysis.Skew{{Topic: "/scan", Kind: analysis.SkewConstantOffset, Count: 100, MedianS: 30 * day},
			{Topic: "/tf", Link: "odom->base_link", Kind: analysis.SkewConstantOffset, Count: 100, MedianS: 30 * day}}, true},
		{"every topic 2 s behind", []analysis.Skew{{Topic: "/scan", Kind: analysis.SkewConstantOffset, Count: 100, MedianS: 2}}, false},
		{"another kind beside the lag", []analysis.Skew{{Topic: "/scan", Kind: analysis.SkewConstantOffset, Count: 100, MedianS: 30 * day},
			{Topic: "/imu", Kind: analysis.SkewJitter, Count: analysis.MinSkewSamples, MedianS: 0.01}}, false},
		{"no offset", []analysis.Skew{{Topic: "/imu", Kind: analysis.SkewJitter, Count: 100, MedianS: 0.01}}, false},
	} {
		var v draft
		got := deciderFor(&analysis.Report{Skew: tc.skew}).recorderClockEvidence(&v)
		line := false
		for _, e := range v.Evidence {
			line = line || strings.HasPrefix(e, "Every stamp lags record time")
		}
		if got != tc.want || line != tc.want {
			t.Errorf("%s: said %v, line %v (%q); want %v", tc.name, got, line, v.Evidence, tc.want)
		}
	}
}

// TestConstantOffsetLine: the constant-offset line, whole, for one topic
// and for several, with "check chrony" or, for a days-long offset on
// every topic (beyond the year a re-recorded bag's lag line covers), why.
func TestConstantOffsetLine(t *testing.T) {
	off := func(topic string, s float64) analysis.Skew {
		return analysis.Skew{Topic: topic, Kind: analysis.SkewConstantOffset, Count: 100, MedianS: s}
	}
	jitter := analysis.Skew{Topic: "/imu", Kind: analysis.SkewJitter, Count: 100, MedianS: 0.01}
	const days = ": an offset of 400.0 days on every topic is two machines out of sync (chrony/NTP), or a bag re-recorded while `ros2 bag play` ran without --clock (the offset is then the age of the replayed recording)."
	for _, tc := range []struct {
		name string
		skew []analysis.Skew
		want string
	}{
		{"one topic", []analysis.Skew{off("/scan", 2), jitter},
			"Record time − stamp is a constant offset on /scan (2.000 s): the recorder's clock and the publisher's differ (check chrony)."},
		{"two topics", []analysis.Skew{off("/scan", 2), off("/cam", 3), jitter},
			"Record time − stamp is a constant offset on 2 topics or links (/scan (2.000 s) and /cam (3.000 s)): the recorder's clock and the publishers' differ (check chrony)."},
		{"one topic, days, every topic", []analysis.Skew{off("/scan", 400*86400)},
			"Record time − stamp is a constant offset on /scan (400.0 days): the recorder's clock and the publisher's differ" + days},
		{"two topics, days, every topic", []analysis.Skew{off("/scan", 400*86400), off("/cam", 400*86400)},
			"Record time − stamp is a constant offset on 2 topics or links (/scan (400.0 days) and /cam (400.0 days)): the recorder's clock and the publishers' differ" + days},
		{"days, not every topic", []analysis.Skew{off("/scan", 400*86400), jitter},
			"Record time − stamp is a constant offset on /scan (400.0 days): the recorder's clock and the publisher's differ (check chrony)."},
	} {
		a := &analysis.Report{Pass: analysis.PassFacts{HasClock: true}, Skew: tc.skew}
		var v draft
		deciderFor(a).recorderClockEvidence(&v)
		if !slices.Contains(v.Evidence, tc.want) {
			t.Errorf("%s: %q\nwant %q", tc.name, v.Evidence, tc.want)
		}
	}
}
