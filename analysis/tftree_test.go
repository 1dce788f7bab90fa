package analysis

import (
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// treeLink is one tf link of a generated tree: its stamp and x offset at
// tick i (10 ms ticks; sim and sys are the sim and system times then), and
// whether it is published at that tick.
type treeLink struct {
	parent, child string
	static        bool
	every         int64 // publish every this many ticks (default 2)
	stamp         func(i, sim, sys int64) int64
	x             func(i int64) float64 // nil: 0
	topic         string                // default /tf or /tf_static
}

// genTree writes a bag (storage as given) with the links, /clock at 100 Hz
// when withClock, and no sensor topic, for n ticks.
func genTree(t *testing.T, storage string, links []treeLink, withClock bool, n int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bag")
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: storage})
	if err != nil {
		t.Fatal(err)
	}
	topics := map[string]bool{}
	add := func(name, typ string) {
		if !topics[name] {
			topics[name] = true
			if err := w.AddTopic(name, typ); err != nil {
				t.Fatal(err)
			}
		}
	}
	if withClock {
		add("/clock", cdr.TypeClock)
	}
	for i := range links {
		if links[i].topic == "" {
			links[i].topic = "/tf"
			if links[i].static {
				links[i].topic = "/tf_static"
			}
		}
		add(links[i].topic, cdr.TypeTFMessage)
	}
	le := binary.LittleEndian
	ts := func(ns int64) cdr.Time { return cdr.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)} }
	const step = int64(10e6)
	for i := int64(0); i < n; i++ {
		sim, sys := simStartNS+i*step, sysStartNS+i*step
		rec := sys + 1_000_000
		if withClock {
			if err := w.Write("/clock", rec, rec, cdr.AppendClock(nil, &cdr.Clock{Clock: ts(sim)}, le)); err != nil {
				t.Fatal(err)
			}
		}
		for k, l := range links {
			every := l.every
			if every == 0 {
				every = 2
			}
			if i%every != 0 {
				continue
			}
			x := 0.0
			if l.x != nil {
				x = l.x(i)
			}
			msg := cdr.AppendTFMessage(nil, &cdr.TFMessage{Transforms: []cdr.TransformStamped{{
				Header: cdr.Header{Stamp: ts(l.stamp(i, sim, sys)), FrameID: l.parent}, ChildFrameID: l.child,
				Transform: cdr.Transform{Translation: cdr.Vector3{X: x}, Rotation: cdr.Quaternion{W: 1}},
			}}}, le)
			if err := w.Write(l.topic, rec+int64(k+1)*1000, rec+int64(k+1)*1000, msg); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func simAt(_, sim, _ int64) int64 { return sim }
func sysAt(_, _, sys int64) int64 { return sys }

// findingOf returns the finding of kind, or nil.
func findingOf(r *Report, kind string) *TFFinding {
	for i := range r.TFFindings {
		if r.TFFindings[i].Kind == kind {
			return &r.TFFindings[i]
		}
	}
	return nil
}

func TestTFTreeFindings(t *testing.T) {
	const days = int64(4.8 * 86400 * 1e9)
	cases := []struct {
		name      string
		links     []treeLink
		clock     bool
		want      []string // finding kinds, in order
		findings  []string // --fail-on categories
		sentence  []string // substrings of the verdict sentence
		evidence  []string // substrings of some evidence line
		wantLinks map[string][]string
	}{
		{
			name: "healthy sim tree",
			links: []treeLink{
				{parent: "odom", child: "base_link", stamp: simAt},
				{parent: "base_link", child: "laser", static: true, stamp: simAt, every: 1000},
			},
			clock: true, want: nil, findings: []string{},
			sentence: []string{"No sensor messages"},
		},
		{
			// A detector broadcasting object frames in system time beside
			// arm links in sim time.
			name: "detector on system time",
			links: []treeLink{
				{parent: "world", child: "arm_link", stamp: simAt},
				{parent: "arm_link", child: "gripper", stamp: simAt},
				{parent: "camera", child: "object_1", stamp: sysAt},
			},
			clock: true, want: []string{TFOtherClockFamily}, findings: []string{"clock-mismatch"},
			sentence:  []string{"camera->object_1 on /tf", "system time", "set use_sim_time:=true"},
			wantLinks: map[string][]string{TFOtherClockFamily: {"camera->object_1 on /tf"}},
		},
		{
			// Two machines without time sync: every stamp 4.8 days behind
			// the recorder, map->odom a further 100 s.
			name: "tree offset by days and a stale link",
			links: []treeLink{
				{parent: "odom", child: "base_link", stamp: func(_, _, sys int64) int64 { return sys - days }},
				{parent: "map", child: "odom", every: 10, stamp: func(_, _, sys int64) int64 { return sys - days - 100e9 }},
			},
			want:      []string{TFStaleLink, TFOffsetFromRecorder},
			findings:  []string{"skew", "tf-tree"},
			sentence:  []string{"map->odom on /tf lags the rest of the tree by 100.000 s", "more than the 10 s tf2 cache"},
			evidence:  []string{"Every tf stamp lags record time by the same 4.8 days"},
			wantLinks: map[string][]string{TFStaleLink: {"map->odom on /tf"}},
		},
		{
			// A laser mount published by two publishers 8 cm apart.
			name: "conflicting static publishers",
			links: []treeLink{
				{parent: "odom", child: "base_link", stamp: simAt},
				{parent: "base_link", child: "laser", static: true, every: 100, stamp: simAt, x: func(i int64) float64 {
					if i >= 300 {
						return 0.18
					}
					return 0.10
				}},
			},
			clock: true, want: []string{TFStaticConflict}, findings: []string{"tf-tree"},
			sentence: []string{"Static link base_link->laser is published with different values"},
			evidence: []string{"8.0 cm apart", "tf2 keeps the last one received: the second value"},
		},
		{
			// Two robots in one bag: their mounts differ and robot2's
			// odometry runs 100 s behind robot1's. Separate trees (one tf
			// namespace each) are never compared: no conflict, no stale link.
			name: "two robots, separate trees",
			links: []treeLink{
				{parent: "odom", child: "base_link", stamp: simAt, topic: "/robot1/tf"},
				{parent: "odom", child: "base_link", stamp: func(_, sim, _ int64) int64 { return sim - 100e9 }, topic: "/robot2/tf"},
				{parent: "base_link", child: "laser", static: true, every: 100, stamp: simAt, topic: "/robot1/tf_static", x: func(int64) float64 { return 0.10 }},
				{parent: "base_link", child: "laser", static: true, every: 100, stamp: simAt, topic: "/robot2/tf_static", x: func(int64) float64 { return 0.18 }},
			},
			clock: true, want: nil, findings: []string{},
			sentence: []string{"No sensor messages"},
		},
		{
			// The same two mounts on one robot's tf_static do conflict.
			name: "conflicting static publishers in a namespace",
			links: []treeLink{
				{parent: "odom", child: "base_link", stamp: simAt, topic: "/robot1/tf"},
				{parent: "odom", child: "base_link", stamp: simAt, topic: "/robot2/tf"},
				{parent: "base_link", child: "laser", static: true, every: 100, stamp: simAt, topic: "/robot1/tf_static", x: func(i int64) float64 {
					if i >= 300 {
						return 0.18
					}
					return 0.10
				}},
			},
			clock: true, want: []string{TFStaticConflict}, findings: []string{"tf-tree"},
			sentence:  []string{"Static link base_link->laser in /robot1 is published with different values"},
			wantLinks: map[string][]string{TFStaticConflict: {"base_link->laser in /robot1"}},
		},
		{
			// A publisher faster than /clock's tick repeats stamps.
			name: "repeated stamps",
			links: []treeLink{
				{parent: "odom", child: "base_link", every: 1, stamp: func(i, sim, _ int64) int64 { return sim - (i%2)*10e6 }},
			},
			clock: true, want: []string{TFRepeatedStamps}, findings: []string{"tf-tree"},
			sentence: []string{"repeat the previous stamp", "TF_REPEATED_DATA"},
		},
		{
			// Two publishers on one link, one 0.5 s behind the other.
			name: "two publishers on one link",
			links: []treeLink{
				{parent: "odom", child: "base_link", every: 1, stamp: func(i, sim, _ int64) int64 { return sim - (i%2)*500e6 }},
			},
			clock: true, want: []string{TFStampsBackward}, findings: []string{"tf-tree"},
			sentence: []string{"tf stamps go back", "two publishers on one link"},
		},
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, c := range cases {
			t.Run(storage+"/"+c.name, func(t *testing.T) {
				dir := genTree(t, storage, append([]treeLink(nil), c.links...), c.clock, 1000)
				rep, _ := analyzeGen(t, dir, Config{})
				var kinds []string
				for _, f := range rep.TFFindings {
					kinds = append(kinds, f.Kind)
				}
				if strings.Join(kinds, ",") != strings.Join(c.want, ",") {
					t.Fatalf("findings %v, want %v\n%+v", kinds, c.want, rep.TFFindings)
				}
				for kind, links := range c.wantLinks {
					if got := findingOf(rep, kind).Links; strings.Join(got, ";") != strings.Join(links, ";") {
						t.Errorf("%s links %v, want %v", kind, got, links)
					}
				}
				if strings.Join(rep.Summary.Findings, ",") != strings.Join(c.findings, ",") {
					t.Errorf("fail-on findings %v, want %v", rep.Summary.Findings, c.findings)
				}
				for _, s := range c.sentence {
					if !strings.Contains(rep.Verdict.Sentence, s) {
						t.Errorf("verdict %q lacks %q", rep.Verdict.Sentence, s)
					}
				}
				for _, s := range c.evidence {
					found := false
					for _, e := range rep.Verdict.Evidence {
						found = found || strings.Contains(e, s)
					}
					if !found {
						t.Errorf("no evidence line has %q: %q", s, rep.Verdict.Evidence)
					}
				}
				for _, l := range rep.TFTree {
					if l.Static && l.RateHz != 0 {
						t.Errorf("static link %s->%s has rate %g Hz", l.Parent, l.Child, l.RateHz)
					}
				}
			})
		}
	}
}

// TestStaleLinkBoundary pins staleLinkNS on both sides.
func TestStaleLinkBoundary(t *testing.T) {
	for _, c := range []struct {
		lagNS int64
		stale bool
	}{{1_900_000_000, false}, {2_000_000_000, true}, {2_100_000_000, true}} {
		links := []treeLink{
			{parent: "odom", child: "base_link", every: 1, stamp: simAt},
			{parent: "map", child: "odom", every: 1, stamp: func(_, sim, _ int64) int64 { return sim - c.lagNS }},
		}
		// map->odom is written after odom->base_link at each tick, so its
		// lag is exactly lagNS.
		rep, _ := analyzeGen(t, genTree(t, bagwrite.StorageMCAP, links, true, 500), Config{})
		if got := findingOf(rep, TFStaleLink) != nil; got != c.stale {
			t.Errorf("lag %d ns: stale %v, want %v (%+v)", c.lagNS, got, c.stale, rep.TFFindings)
		}
	}
}

// TestLinkFamilyReference: without /clock the family most links are on is
// the tree's; with /clock, /clock's family wins even against a majority.
func TestLinkFamilyReference(t *testing.T) {
	links := []treeLink{
		{parent: "a", child: "b", stamp: sysAt},
		{parent: "b", child: "c", stamp: sysAt},
		{parent: "c", child: "d", stamp: simAt},
	}
	rep, _ := analyzeGen(t, genTree(t, bagwrite.StorageMCAP, append([]treeLink(nil), links...), false, 300), Config{})
	if f := findingOf(rep, TFOtherClockFamily); f == nil || strings.Join(f.Links, ";") != "c->d on /tf" {
		t.Fatalf("without /clock: %+v", rep.TFFindings)
	}
	rep, _ = analyzeGen(t, genTree(t, bagwrite.StorageMCAP, append([]treeLink(nil), links...), true, 300), Config{})
	if f := findingOf(rep, TFOtherClockFamily); f == nil || strings.Join(f.Links, ";") != "a->b on /tf;b->c on /tf" {
		t.Fatalf("with /clock: %+v", rep.TFFindings)
	}
}
