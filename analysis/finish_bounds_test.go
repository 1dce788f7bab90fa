package analysis

import (
	"reflect"
	"testing"

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
	for _, tc := range []struct {
		name string
		prep func(r *Report)
		want []string
	}{
		{"nothing", func(r *Report) { r.TFTree = link }, []string{}},
		{"one drop", func(r *Report) {
			r.TFTree = link
			r.Summary.Filter = map[string]int{"dropped_queue_full": 1, "passed": 9}
		}, []string{"drop"}},
		{"drops all start-up", func(r *Report) {
			r.TFTree = link
			r.Summary.Filter = map[string]int{"dropped_queue_full": 2}
			r.Pairs = []PairSummary{{StartupDrops: 1}, {StartupDrops: 1}}
		}, []string{}},
		{"drops, one not at start-up", func(r *Report) {
			r.TFTree = link
			r.Summary.Filter = map[string]int{"dropped_queue_full": 2, "dropped_x": 1}
			r.Pairs = []PairSummary{{StartupDrops: 2}}
		}, []string{"drop"}},
		{"no tf at all: only empty frames are drops", func(r *Report) { r.Summary.Filter = map[string]int{"dropped_queue_full": 5} }, []string{}},
		{"no tf, an empty frame", func(r *Report) {
			r.Summary.Filter = map[string]int{"dropped_queue_full": 5, "dropped_empty_frame": 1}
		}, []string{"drop"}},
		{"a key named dropped_ only", func(r *Report) { r.TFTree = link; r.Summary.Filter = map[string]int{"dropped": 3} }, []string{}},
		{"laser on system clock", func(r *Report) {
			r.TFTree = link
			r.Summary.Classes = map[string]int{string(LaserOnSystemClock): 1}
		}, []string{"clock-mismatch"}},
		{"tf on system clock", func(r *Report) { r.TFTree = link; r.Summary.Classes = map[string]int{string(TFOnSystemClock): 1} }, []string{"clock-mismatch"}},
		{"a clock jump", func(r *Report) { r.TFTree = link; r.Counts.ClockJumps = 1 }, []string{"jump"}},
		{"a stamp jump", func(r *Report) { r.TFTree = link; r.Counts.StampJumps = 1 }, []string{"jump"}},
		{"a zero stamp", func(r *Report) { r.TFTree = link; r.ZeroStamp.Count = 1 }, []string{"zero-stamp"}},
		{"a constant offset", func(r *Report) { r.TFTree = link; r.Skew = []Skew{{Kind: "jitter"}, {Kind: SkewConstantOffset}} }, []string{"skew"}},
		{"tf findings", func(r *Report) {
			r.TFTree = link
			r.TFFindings = []TFFinding{{FailOn: "clock-mismatch"}, {FailOn: "skew"}, {FailOn: failOnTFTree}, {FailOn: "clock-mismatch"}}
		}, []string{"clock-mismatch", "skew", failOnTFTree}},
		{"tf mismatch with a class mismatch: once", func(r *Report) {
			r.TFTree = link
			r.Summary.Classes = map[string]int{string(TFOnSystemClock): 2}
			r.TFFindings = []TFFinding{{FailOn: "clock-mismatch"}}
		}, []string{"clock-mismatch"}},
	} {
		a := &analyzer{}
		tc.prep(&a.rep)
		if got := a.findings(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: findings %q, want %q", tc.name, got, tc.want)
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
		if got := has(a.findings(), "skew"); got != tc.want {
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
		if got := fmtS(tc.s); got != tc.want {
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
