package analysis

import (
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
)

// Boundary tests of the rows' helpers (issue 15).

// TestRefillingBoundary: after a /clock jump back, a same-clock row
// stamped before the oldest refilled transform, and a skewed row stamped
// ahead of /clock, are the buffer refilling; at the bound they are not.
func TestRefillingBoundary(t *testing.T) {
	const oldest, clock = 5_000, 9_000
	for _, tc := range []struct {
		class Class
		stamp int64
		want  bool
	}{
		{SameClock, oldest - 1, true},
		{SameClock, oldest, false},
		{SameClock, oldest + 1, false},
		{ClockSkew, clock - 1, false},
		{ClockSkew, clock, false},
		{ClockSkew, clock + 1, true},
		{NoTransform, clock + 1, true},
		{LaserOnSystemClock, clock + 1, false},
	} {
		row := &ScanRow{Class: tc.class, StampNS: tc.stamp}
		if got := refilling(row, clock, oldest); got != tc.want {
			t.Errorf("refilling(%s at %d) = %v, want %v", tc.class, tc.stamp, got, tc.want)
		}
	}
}

// TestDropKeyBoundary: the key starts at "frame '", also at the line's
// start, and ends before " for reason" when there is one.
func TestDropKeyBoundary(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"frame 'laser' at time 1.5 for reason 'x'", "frame 'laser' at time 1.5"},
		{"Message Filter dropping message: frame 'laser' at time 1.5 for reason 'x'", "frame 'laser' at time 1.5"},
		{"Message Filter dropping message: frame 'laser' at time 1.5", "frame 'laser' at time 1.5"},
		{"no frame here", ""},
	} {
		if got := dropKey(tc.line); got != tc.want {
			t.Errorf("dropKey(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestStalestKeyCache: the key is built at the first call and again
// whenever the link changes.
func TestStalestKeyCache(t *testing.T) {
	p := &pairStats{}
	for _, tc := range []struct{ parent, child, want string }{
		{"odom", "base_link", "odom->base_link on /tf"},
		{"odom", "base_link", "odom->base_link on /tf"},
		{"map", "odom", "map->odom on /tf"},
		{"odom", "base_link", "odom->base_link on /tf"},
	} {
		if got := p.stalestKey(tc.parent, tc.child, "/tf"); got != tc.want {
			t.Errorf("stalestKey(%s, %s) = %q, want %q", tc.parent, tc.child, got, tc.want)
		}
	}
	// The empty key marks "not built yet", even for a link whose names
	// equal the zero cache.
	if got := (&pairStats{}).stalestKey("", "", ""); got != "-> on " {
		t.Errorf("first stalestKey of empty names = %q, want %q", got, "-> on ")
	}
}

// TestStalestTieBreak: the pair's stalest link is the one counted most
// often; among equal counts, the first by name, whatever the map order.
func TestStalestTieBreak(t *testing.T) {
	for _, tc := range []struct {
		name    string
		stalest map[string]int
		want    string
	}{
		{"most counted wins", map[string]int{"a on /tf": 1, "b on /tf": 1, "c on /tf": 1, "z on /tf": 5, "d on /tf": 1}, "z on /tf"},
		{"tie: first by name", map[string]int{"e on /tf": 3, "b on /tf": 3, "d on /tf": 3, "c on /tf": 3, "a on /tf": 1}, "b on /tf"},
	} {
		for i := 0; i < 20; i++ { // map order varies from run to run
			a := &analyzer{pairs: []*pairStats{{topic: "/scan", target: "odom", frame: "laser", pathSeen: true, stalest: tc.stalest, series: newDownsampler(10)}}}
			newRowsState(10).finish(a)
			if got := a.rep.Pairs[0].Stalest; got != tc.want {
				t.Fatalf("%s: stalest %q, want %q", tc.name, got, tc.want)
			}
		}
	}
}

// classifyBuf is a tf buffer map->odom->base_link->laser whose two dynamic
// links have their newest transforms at the given stamps (and one earlier,
// 1 s before), base_link->laser static.
func classifyBuf(t *testing.T, mapOdom, odomBase int64) *tfReplay {
	t.Helper()
	buf := tf.NewBuffer(tf.Options{})
	rot := tf.Transform{Rotation: tf.Quat{W: 1}}
	for _, st := range []struct {
		parent, child string
		stamp         int64
		static        bool
	}{
		{"map", "odom", mapOdom - 1e9, false}, {"map", "odom", mapOdom, false},
		{"odom", "base_link", odomBase - 1e9, false}, {"odom", "base_link", odomBase, false},
		{"base_link", "laser", 0, true},
	} {
		if err := buf.SetTransform(tf.Stamped{Parent: st.parent, Child: st.child, Stamp: st.stamp, Transform: rot}, "test", st.static); err != nil {
			t.Fatal(err)
		}
	}
	return &tfReplay{buf: buf, linkTopic: map[string]string{"odom": "/tf", "base_link": "/tf"}}
}

// TestClassifyStalestBoundary: the stalest link is the dynamic one with
// the oldest newest stamp; of two equally stale, the first on the path.
func TestClassifyStalestBoundary(t *testing.T) {
	const s = int64(100e9)
	for _, tc := range []struct {
		name              string
		mapOdom, odomBase int64
		want              string // stalest parent->child
	}{
		{"map->odom staler", s - 1, s, "map->odom"},
		{"odom->base_link staler", s, s - 1, "odom->base_link"},
	} {
		rs := newRowsState(10)
		row := &ScanRow{FrameID: "laser", TargetFrame: "map"}
		rs.classify(classifyBuf(t, tc.mapOdom, tc.odomBase), row, s)
		if got := row.StalestParent + "->" + row.StalestChild; got != tc.want || !row.HasTF || row.Class != SameClock {
			t.Errorf("%s: stalest %s (has tf %v, class %s), want %s, same_clock", tc.name, got, row.HasTF, row.Class, tc.want)
		}
	}
	// A tie: the first dynamic link met walking from the frame up the path
	// (odom->base_link) keeps it.
	rs := newRowsState(10)
	row := &ScanRow{FrameID: "laser", TargetFrame: "map"}
	rs.classify(classifyBuf(t, s, s), row, s)
	if got := row.StalestParent + "->" + row.StalestChild; got != "odom->base_link" {
		t.Errorf("tie: stalest %s, want odom->base_link", got)
	}
}

// TestClassifyIdentityUnknownFrame: a message already in the target frame
// is static_only (nothing to look up) when tf names that frame, and has no
// transform when it does not, as a frame tf never names under another
// target.
func TestClassifyIdentityUnknownFrame(t *testing.T) {
	for _, tc := range []struct {
		frame, target string
		want          Class
	}{
		{"laser", "laser", StaticOnly},
		{"/laser", "laser", StaticOnly},
		{"sonar", "sonar", NoTransform},
		{"sonar", "map", NoTransform},
		{"laser", "sonar", NoTransform},
	} {
		rs := newRowsState(10)
		row := &ScanRow{FrameID: tc.frame, TargetFrame: tc.target}
		rs.classify(classifyBuf(t, 100e9, 100e9), row, 100e9)
		if row.Class != tc.want || row.HasTF {
			t.Errorf("frame %s, target %s: class %s (has tf %v), want %s", tc.frame, tc.target, row.Class, row.HasTF, tc.want)
		}
	}
}

// TestStalestLinkAsData: the pair's stalest link comes with its frames and
// topic as data, so its name is never split (a frame may hold " on ").
func TestStalestLinkAsData(t *testing.T) {
	for _, tc := range []struct {
		name  string
		links [][3]string // one stalest link per message
		want  [3]string
		link  string
	}{
		{"most counted", [][3]string{{"odom", "laser", "/tf"}, {"map", "odom", "/tf"}, {"odom", "laser", "/tf"}}, [3]string{"odom", "laser", "/tf"}, "odom->laser"},
		{"a frame with \" on \" in it", [][3]string{{"arm on base", "tool", "/tf"}}, [3]string{"arm on base", "tool", "/tf"}, "arm on base->tool"},
		{"none", nil, [3]string{}, ""},
	} {
		p := &pairStats{topic: "/scan", target: "odom", frame: "laser", pathSeen: true, stalest: map[string]int{}, series: newDownsampler(10)}
		for _, l := range tc.links {
			p.stalest[p.stalestKey(l[0], l[1], l[2])]++
		}
		a := &analyzer{pairs: []*pairStats{p}}
		newRowsState(10).finish(a)
		ps := &a.rep.Pairs[0]
		if got := [3]string{ps.StalestParent, ps.StalestChild, ps.StalestTopic}; got != tc.want || ps.StalestLink() != tc.link {
			t.Errorf("%s: %q (%q), want %q (%q)", tc.name, got, ps.StalestLink(), tc.want, tc.link)
		}
	}
}
