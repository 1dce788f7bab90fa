package analysis

import (
	"reflect"
	"testing"

	"github.com/bagclock/bagclock/analysis/finding"
	"github.com/bagclock/bagclock/analysis/topics"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// Boundary tests of finish.go (issue 15): which --fail-on findings a
// finished report gives, the skew share of a pair, the topic list, and
// the duration wording.

// TestFindingsBoundary: each finding from its first count on.
func TestFindingsBoundary(t *testing.T) {
	link := []TFLink{{Parent: "odom", Child: "base"}}
	drops := func(out map[string]int, startup int) *pairStats {
		p := pairWith("/scan", SameClock, 10, 0)
		p.outcomes, p.startupDrops, p.pathSeen = out, startup, true
		return p
	}
	for _, tc := range []struct {
		name string
		prep func(a *analyzer)
		want []string
	}{
		{"nothing", func(a *analyzer) { a.rep.TFTree = link }, []string{}},
		{"one drop", func(a *analyzer) {
			a.rep.TFTree = link
			a.pairs = []*pairStats{drops(map[string]int{"dropped_queue_full": 1, "passed": 9}, 0)}
		}, []string{"drop"}},
		{"drops all start-up", func(a *analyzer) {
			a.rep.TFTree = link
			a.pairs = []*pairStats{drops(map[string]int{"dropped_queue_full": 1}, 1), drops(map[string]int{"dropped_queue_full": 1}, 1)}
		}, []string{}},
		{"drops, one not at start-up", func(a *analyzer) {
			a.rep.TFTree = link
			a.pairs = []*pairStats{drops(map[string]int{"dropped_queue_full": 2, "dropped_x": 1}, 2)}
		}, []string{"drop"}},
		{"no tf at all: only empty frames are drops", func(a *analyzer) {
			a.pairs = []*pairStats{drops(map[string]int{"dropped_queue_full": 5}, 0)}
		}, []string{}},
		{"no tf, an empty frame", func(a *analyzer) {
			a.pairs = []*pairStats{drops(map[string]int{"dropped_queue_full": 5, "dropped_empty_frame": 1}, 0)}
		}, []string{"drop"}},
		{"a key named dropped_ only", func(a *analyzer) {
			a.rep.TFTree = link
			a.pairs = []*pairStats{drops(map[string]int{"dropped": 3}, 0)}
		}, []string{}},
		{"laser on system clock", func(a *analyzer) {
			a.rep.TFTree = link
			a.pairs = []*pairStats{pairWith("/scan", LaserOnSystemClock, 9, 1)}
		}, []string{"clock-mismatch"}},
		{"tf on system clock", func(a *analyzer) {
			a.rep.TFTree = link
			a.pairs = []*pairStats{pairWith("/scan", TFOnSystemClock, 9, 1)}
		}, []string{"clock-mismatch"}},
		{"a clock jump", func(a *analyzer) { a.rep.TFTree = link; a.rep.Counts.ClockJumps = 1 }, []string{"jump"}},
		{"a stamp jump", func(a *analyzer) { a.rep.TFTree = link; a.rep.Counts.StampJumps = 1 }, []string{"jump"}},
		{"a zero stamp", func(a *analyzer) { a.rep.TFTree = link; a.rep.ZeroStamp.Count = 1 }, []string{"zero-stamp"}},
		{"a constant offset", func(a *analyzer) {
			a.rep.TFTree = link
			a.rep.Skew = []Skew{{Kind: "jitter"}, {Kind: SkewConstantOffset}}
		}, []string{"skew"}},
		{"tf findings", func(a *analyzer) {
			a.rep.TFTree = link
			a.rep.TFFindings = []TFFinding{{FailOn: "clock-mismatch", Sentence: "a"}, {FailOn: "skew", Sentence: "b"}, {FailOn: failOnTFTree, Sentence: "c"}, {FailOn: "clock-mismatch", Sentence: "d"}, {FailOn: "", Sentence: "e"}}
		}, []string{"clock-mismatch", "skew", failOnTFTree}},
		{"tf mismatch with a class mismatch: once", func(a *analyzer) {
			a.rep.TFTree = link
			a.pairs = []*pairStats{pairWith("/scan", TFOnSystemClock, 0, 2)}
			a.rep.TFFindings = []TFFinding{{FailOn: "clock-mismatch", Sentence: "a"}}
		}, []string{"clock-mismatch"}},
	} {
		a := &analyzer{}
		tc.prep(a)
		fs := collectFindings(reportOf(a))
		if got := finding.Categories(fs); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: findings %q, want %q", tc.name, got, tc.want)
		}
		for i := range fs {
			if err := fs[i].Validate(); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
	}
}

// TestSkewPairsBoundary: a pair is skewed when a tenth of its rows are
// clock_skew.
func TestSkewPairsBoundary(t *testing.T) {
	for _, tc := range []struct {
		name        string
		skew, other int
		want        bool
	}{
		{"1 of 10", 1, 9, true},
		{"1 of 11", 1, 10, false},
		{"2 of 20", 2, 18, true},
		{"2 of 21", 2, 19, false},
		{"all", 3, 0, true},
		{"none", 0, 5, false},
		{"a pair without rows", 0, 0, false},
	} {
		a := &analyzer{pairs: []*pairStats{pairWith("/a", SameClock, 5, 0), pairWith("/b", ClockSkew, tc.other, tc.skew)}}
		if got := a.skewPairs(); got != tc.want {
			t.Errorf("%s: skewPairs = %v, want %v", tc.name, got, tc.want)
		}
		if got := has(finding.Categories(collectFindings(reportOf(a))), "skew"); got != tc.want {
			t.Errorf("%s: skew finding %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestFmtSBoundary: milliseconds below 1 s, three decimals from 1 s,
// four significant digits from 10^6 s (epoch-sized values).
func TestFmtSBoundary(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want string
	}{
		{0.9995, "999.5 ms"},
		{1, "1.000 s"},
		{-1, "-1.000 s"},
		{-0.5, "-500.0 ms"},
		{999999.5, "999999.500 s"},
		{1e6, "1e+06 s"},
		{-1.7e9, "-1.7e+09 s"},
	} {
		if got := FmtS(tc.s); got != tc.want {
			t.Errorf("fmtS(%v) = %q, want %q", tc.s, got, tc.want)
		}
	}
	for _, tc := range []struct{ v, want int64 }{{-3, 3}, {0, 0}, {4, 4}} {
		if got := absI(tc.v); got != tc.want {
			t.Errorf("absI(%d) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// TestTopicSummaries: roles by name, analysed topics with their decoded
// count and consumer, record-time topics listed once, and the reason a
// stamped topic was left out depending on whether topics were named.
func TestTopicSummaries(t *testing.T) {
	for _, named := range []bool{false, true} {
		a := &analyzer{bag: &bagread.Bag{Topics: []bagread.Topic{{Name: "/pose", MessageCount: 7}}}}
		if named {
			a.cfg.ScanTopics = []string{"/scan"}
		}
		a.topics.add(&topicState{name: "/tf", typ: "tf2_msgs/msg/TFMessage", role: roleTF, messages: 3})
		a.topics.add(&topicState{name: "/scan", typ: cdr.TypeLaserScan, role: roleStamped, messages: 9, count: 8, preset: "rviz", noFrame: 1})
		a.topics.add(&topicState{name: "/js", typ: "sensor_msgs/msg/JointState", role: roleTimeOnly, messages: 4})
		a.topics.add(&topicState{name: "/pose", typ: "geometry_msgs/msg/PoseStamped", role: roleTimeOnly, messages: 7})
		a.notAnalysed = []topics.TopicInfo{
			{Name: "/pose", Type: "geometry_msgs/msg/PoseStamped", Stamp: cdr.StampInfo{Stamped: true, Reason: "r"}},
			{Name: "/odd", Type: "x/msg/Y", Stamp: cdr.StampInfo{Reason: "unknown type"}},
		}
		reason := "stamped, but not a sensor type: name it with --topic to analyse it"
		if named {
			reason = "stamped, not selected"
		}
		want := []TopicSummary{
			{Topic: "/js", Type: "sensor_msgs/msg/JointState", Role: TopicRecordTime, Messages: 4},
			{Topic: "/odd", Type: "x/msg/Y", Role: TopicNotAnalysed, Reason: "unknown type"},
			{Topic: "/pose", Type: "geometry_msgs/msg/PoseStamped", Role: TopicNotAnalysed, Messages: 7, Reason: reason},
			{Topic: "/scan", Type: cdr.TypeLaserScan, Role: TopicAnalysed, Messages: 8, Consumer: "rviz", NoFrame: 1},
			{Topic: "/tf", Type: "tf2_msgs/msg/TFMessage", Role: "tf", Messages: 3},
		}
		if got := a.topicSummaries(); !reflect.DeepEqual(got, want) {
			t.Errorf("named %v: topics\n%+v\nwant\n%+v", named, got, want)
		}
	}
	a := &analyzer{bag: &bagread.Bag{}}
	a.cfg.Topics = []string{"/x"}
	a.notAnalysed = []topics.TopicInfo{{Name: "/p", Stamp: cdr.StampInfo{Stamped: true}}}
	if got := a.topicSummaries(); len(got) != 1 || got[0].Reason != "stamped, not selected" {
		t.Errorf("--topic named: %+v, want reason stamped, not selected", got)
	}
}
