package analysis

import "testing"

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
