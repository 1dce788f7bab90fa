package analysis

import (
	"encoding/binary"
	"path/filepath"
	"sort"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// Boundary tests of the tf look-ahead (issue 15): how far past the first
// message of every analysed topic, and past the first message of the bag,
// it reads the tree that decides a sensor's default target.

// lookAheadEvent is one message of a look-ahead bag: a transform
// parent->child on /tf (on /tf_static when static), or (parent empty) a
// scan on /scan in frame laser (child, when set, names another frame), at
// record time at (ns after lookAheadT0).
type lookAheadEvent struct {
	at            int64
	parent, child string
	static        bool
}

const lookAheadT0 = int64(1_700_000_000) * 1e9

// lookAheadBag writes the events in record order; emptyTopic, when set, is
// a LaserScan topic without messages.
func lookAheadBag(t *testing.T, events []lookAheadEvent, emptyTopic string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bag")
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: bagwrite.StorageMCAP})
	if err != nil {
		t.Fatal(err)
	}
	topics := [][2]string{{"/tf", cdr.TypeTFMessage}, {"/tf_static", cdr.TypeTFMessage}, {"/scan", cdr.TypeLaserScan}}
	if emptyTopic != "" {
		topics = append(topics, [2]string{emptyTopic, cdr.TypeLaserScan})
	}
	for _, tp := range topics {
		if err := w.AddTopic(tp[0], tp[1]); err != nil {
			t.Fatal(err)
		}
	}
	events = append([]lookAheadEvent(nil), events...)
	sort.SliceStable(events, func(i, j int) bool { return events[i].at < events[j].at })
	le := binary.LittleEndian
	for _, e := range events {
		log := lookAheadT0 + e.at
		stamp := cdr.Time{Sec: int32(log / 1e9), Nanosec: uint32(log % 1e9)}
		topic, data := "/scan", []byte(nil)
		if e.parent == "" {
			frame := "laser"
			if e.child != "" {
				frame = e.child
			}
			m := cdr.LaserScan{Header: cdr.Header{Stamp: stamp, FrameID: frame}, Ranges: make([]float32, 8), RangeMax: 10}
			data = cdr.AppendLaserScan(nil, &m, le)
		} else {
			topic = "/tf"
			if e.static {
				topic = "/tf_static"
			}
			data = cdr.AppendTFMessage(nil, &cdr.TFMessage{Transforms: []cdr.TransformStamped{{
				Header: cdr.Header{Stamp: stamp, FrameID: e.parent}, ChildFrameID: e.child,
				Transform: cdr.Transform{Rotation: cdr.Quaternion{W: 1}},
			}}}, le)
		}
		if err := w.Write(topic, log, log, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLookAheadBounds: a tree map->laser that the look-ahead reads makes
// map /scan's target (the root of laser's tree); one it stops before
// leaves the default odom. Once a transform has named odom it stops a
// second after the first message of every analysed topic (at most 5 s
// after the bag's first message); until one does, it goes on to
// lookAheadTFMaxNS. The odom cases scan in frame odom, with odom->b on
// /tf from the start: a map->odom it reads makes map the target (the root
// above odom), one it stops before leaves odom.
func TestLookAheadBounds(t *testing.T) {
	const s = int64(1e9)
	scansIn := func(frame string, from int64) []lookAheadEvent {
		var out []lookAheadEvent
		for i := int64(0); i < 20; i++ {
			out = append(out, lookAheadEvent{at: from + i*s/2, child: frame})
		}
		return out
	}
	scans := func(from int64) []lookAheadEvent { return scansIn("", from) }
	linkFrom := func(parent, child string, from int64) []lookAheadEvent {
		var out []lookAheadEvent
		for i := int64(0); i < 20; i++ {
			out = append(out, lookAheadEvent{at: from + i*s/2, parent: parent, child: child})
		}
		return out
	}
	tree := func(from int64) []lookAheadEvent { return linkFrom("map", "laser", from) }
	other := lookAheadEvent{at: 0, parent: "a", child: "b"}
	odomNamed := lookAheadEvent{at: 0, parent: "odom", child: "b"}
	join := func(parts ...[]lookAheadEvent) []lookAheadEvent {
		var out []lookAheadEvent
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	one := func(e lookAheadEvent) []lookAheadEvent { return []lookAheadEvent{e} }
	for _, tc := range []struct {
		name   string
		events []lookAheadEvent
		empty  string
		want   string
	}{
		{"tree 1 s after the first scan, /tf seen before", join(scans(0), tree(s), one(other)), "", "map"},
		{"tree 1 s and 1 ns after the first scan, the first on /tf", join(scans(0), tree(s+1)), "", "map"},
		{"tree 5 s after the first message", join(scans(4*s+s/2), tree(5*s), one(other)), "", "map"},
		{"odom named: map->odom 1 s after the first scan", join(scansIn("odom", 0), linkFrom("map", "odom", s), one(odomNamed)), "", "map"},
		{"odom named: map->odom 1 s and 1 ns after the first scan", join(scansIn("odom", 0), linkFrom("map", "odom", s+1), one(odomNamed)), "", "odom"},
		{"odom named: map->odom 5 s and 1 ns after the first message", join(scansIn("odom", 4*s+s/2), linkFrom("map", "odom", 5*s+1), one(odomNamed)), "", "odom"},
		{"odom named: an analysed topic without messages is not waited for", join(scansIn("odom", 0), linkFrom("map", "odom", 2*s), one(odomNamed)), "/scan_empty", "odom"},
		{"odom never named: tree 1 s and 1 ns after the first scan", join(scans(0), tree(s+1), one(other)), "", "map"},
		{"odom never named: tree at the cap", join(scans(0), tree(lookAheadTFMaxNS), one(other)), "", "map"},
		{"odom never named: tree past the cap", join(scans(0), tree(lookAheadTFMaxNS+1), one(other)), "", "odom"},
	} {
		rep, _ := analyzeGen(t, lookAheadBag(t, tc.events, tc.empty), Config{})
		got := scanTargets(rep)
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: /scan targets %q, want %s", tc.name, got, tc.want)
		}
	}
}

// TestLookAheadWaitsForTF: the look-ahead does not stop before the first
// message of each tf topic that has any (up to lookAheadTFMaxNS). A laser
// mount on /tf_static at the start and odometry on /tf from 2.5 s, after
// the scans began: stopping 1 s after the first scan saw base_link->laser
// alone, took base_link (the root of that tree, "no odom") as the target,
// and every row was static_only, the one path on which no clock fault
// shows.
func TestLookAheadWaitsForTF(t *testing.T) {
	const s = int64(1e9)
	var ev []lookAheadEvent
	ev = append(ev, lookAheadEvent{at: 0, parent: "base_link", child: "laser", static: true})
	for i := int64(0); i < 40; i++ {
		ev = append(ev, lookAheadEvent{at: s/10 + i*s/10})
	}
	odomFrom := func(from int64) []lookAheadEvent {
		var out []lookAheadEvent
		for i := int64(0); i < 20; i++ {
			out = append(out, lookAheadEvent{at: from + i*s/20, parent: "odom", child: "base_link"})
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		events []lookAheadEvent
		want   string
		class  string
	}{
		{"odometry 2.5 s after the first scan", append(append([]lookAheadEvent(nil), ev...), odomFrom(5*s/2)...), "odom", "same_clock"},
		{"odometry at the cap", append(append([]lookAheadEvent(nil), ev...), odomFrom(lookAheadTFMaxNS)...), "odom", ""},
		{"odometry past the cap", append(append([]lookAheadEvent(nil), ev...), odomFrom(lookAheadTFMaxNS+1)...), "base_link", ""},
	} {
		rep, rows := analyzeGen(t, lookAheadBag(t, tc.events, ""), Config{})
		got := scanTargets(rep)
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: /scan targets %q, want %s", tc.name, got, tc.want)
		}
		if tc.class == "" {
			continue
		}
		// Scans before the first odometry have no path yet; those after
		// it are checked against odom->base_link.
		n := 0
		for _, r := range rows {
			if string(r.Class) == tc.class {
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no row is %s", tc.name, tc.class)
		}
	}
}

// scanTargets lists the target frames /scan was checked against.
func scanTargets(rep *Report) []string {
	var got []string
	for _, p := range rep.Pairs {
		if p.Topic == "/scan" {
			got = append(got, p.TargetFrame)
		}
	}
	return got
}
