package analysis

// Boundary tests that pin every threshold and choice of the analysis on
// both sides: the class thresholds, the stalest-link choice, the jump and
// stall rules, /clock decoding, and the verdict's priority and share rules
// on bags mixing classes, topics and targets.

import (
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

func TestDiffClassBoundaries(t *testing.T) {
	const ns = int64(1)
	for _, tc := range []struct {
		d    int64
		want Class
	}{
		{0, SameClock},
		{ClockSkewThresholdNS - ns, SameClock},
		{-(ClockSkewThresholdNS - ns), SameClock},
		{ClockSkewThresholdNS, ClockSkew},
		{-ClockSkewThresholdNS, ClockSkew},
		{ClockSkewThresholdNS + ns, ClockSkew},
		{1_500_000_000, ClockSkew}, // between 1 s and 2 s: pins the 1 s value itself
		{-1_500_000_000, ClockSkew},
		{EpochThresholdNS - ns, ClockSkew},
		{-(EpochThresholdNS - ns), ClockSkew},
		{20_000_000 * 1_000_000_000, ClockSkew}, // 2e7 s: pins the epoch value itself (not a tenth of it)
		{-20_000_000 * 1_000_000_000, ClockSkew},
		{EpochThresholdNS, LaserOnSystemClock},
		{EpochThresholdNS + ns, LaserOnSystemClock},
		{-EpochThresholdNS, TFOnSystemClock},
		{-EpochThresholdNS - ns, TFOnSystemClock},
		{1_790_000_000e9 - 120e9, LaserOnSystemClock},
		{120e9 - 1_790_000_000e9, TFOnSystemClock},
	} {
		if got := diffClass(tc.d); got != tc.want {
			t.Errorf("diffClass(%d) = %s, want %s", tc.d, got, tc.want)
		}
	}
	if ClockSkewThresholdNS != 1e9 || EpochThresholdNS != 1e17 {
		t.Errorf("thresholds %d, %d: README and the verdict quote 1 s and 1e8 s", ClockSkewThresholdNS, EpochThresholdNS)
	}
}

func TestJumpThresholdBoundaries(t *testing.T) {
	for _, tc := range []struct {
		delta, minBackward int64
		want               bool
	}{
		{-1, 0, true}, {0, 0, false}, {1, 0, false},
		{-5, -5, true}, {-4, -5, false}, {-6, -5, true}, {0, -5, false},
	} {
		if got := isBackward(tc.delta, tc.minBackward); got != tc.want {
			t.Errorf("isBackward(%d, %d) = %v, want %v", tc.delta, tc.minBackward, got, tc.want)
		}
	}
	ticks := func(tick float64, n int) *reservoir {
		r := &reservoir{}
		for range n {
			r.add(tick)
		}
		return r
	}
	for _, tc := range []struct {
		name  string
		cfg   int64
		ticks *reservoir
		want  int64
	}{
		{"configured wins", 7, ticks(200e6, 20), 7},
		{"fewer than 8 ticks: 1 s", 0, ticks(200e6, 7), 1e9},
		{"10x a 200 ms tick", 0, ticks(200e6, 8), 2e9},
		{"10x a 150 ms tick", 0, ticks(150e6, 50), 1.5e9},
		{"at least 1 s", 0, ticks(10e6, 50), 1e9},
		{"10x a 100 ms tick is 1 s", 0, ticks(100e6, 50), 1e9},
	} {
		if got := forwardThreshold(tc.cfg, tc.ticks); got != tc.want {
			t.Errorf("%s: forwardThreshold = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestDecodeClockNSPaths(t *testing.T) {
	for _, c := range []cdr.Time{{Sec: 120, Nanosec: 5_000_000}, {Sec: -3, Nanosec: 999_999_999}, {Sec: 1_790_000_000, Nanosec: 1}, {}} {
		for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			data := cdr.AppendClock(nil, &cdr.Clock{Clock: c}, order)
			got, err := decodeClockNS(data)
			if err != nil || got != c.Nanoseconds() {
				t.Errorf("%v %v: decodeClockNS = %d, %v; want %d", order, c, got, err, c.Nanoseconds())
			}
			// The general path must agree on the same value with a
			// trailing byte (not the fast layout's length).
			if _, err := decodeClockNS(data[:len(data)-1]); err == nil {
				t.Errorf("%v: a cut message decodes", order)
			}
		}
	}
	if _, err := decodeClockNS(nil); err == nil {
		t.Error("empty /clock message decodes")
	}
	if _, err := decodeClockNS([]byte{0, 1, 0, 0, 1, 2, 3}); err == nil {
		t.Error("short little-endian /clock message decodes")
	}
}

// genLink is one tf link of a generated bag; age is how far its stamps lag
// the sim time (an older link is staler).
type genLink struct {
	parent, child string
	static        bool
	ageNS         int64
	everyTicks    int64 // publication period in 10 ms ticks (default 2)
	jumpAt        int64 // from this tick on (0: never) the stamps are shifted by jumpNS
	jumpNS        int64
	fromTick      int64 // first tick published (dynamic links)
	toTick        int64 // no publication from this tick on (0: to the end)
}

// genScan is one scan topic of a generated bag; stamp maps (tick, sim time,
// system time) to the header stamp.
type genScan struct {
	topic, frame string
	stamp        func(i, sim, sys int64) int64
}

// genBag writes a bag with /clock at 100 Hz (clock(i, sim) returns the
// value and whether to publish), the given links on /tf and /tf_static and
// 20 Hz scans, for n ticks of 10 ms.
func genBag(t *testing.T, links []genLink, scans []genScan, clock func(i, sim int64) (int64, bool), n int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bag")
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: bagwrite.StorageMCAP})
	if err != nil {
		t.Fatal(err)
	}
	topics := []struct{ n, ty string }{{"/clock", cdr.TypeClock}, {"/tf", cdr.TypeTFMessage}, {"/tf_static", cdr.TypeTFMessage}}
	for _, s := range scans {
		topics = append(topics, struct{ n, ty string }{s.topic, cdr.TypeLaserScan})
	}
	for _, tp := range topics {
		if err := w.AddTopic(tp.n, tp.ty); err != nil {
			t.Fatal(err)
		}
	}
	le := binary.LittleEndian
	ts := func(ns int64) cdr.Time { return cdr.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)} }
	write := func(topic string, logNS int64, data []byte) {
		if err := w.Write(topic, logNS, logNS, data); err != nil {
			t.Fatal(err)
		}
	}
	tf := func(l genLink, stamp int64) []byte {
		return cdr.AppendTFMessage(nil, &cdr.TFMessage{Transforms: []cdr.TransformStamped{{
			Header: cdr.Header{Stamp: ts(stamp), FrameID: l.parent}, ChildFrameID: l.child,
			Transform: cdr.Transform{Rotation: cdr.Quaternion{W: 1}},
		}}}, le)
	}
	for _, l := range links {
		if l.static {
			write("/tf_static", sysStartNS, tf(l, simStartNS))
		}
	}
	const step = int64(10e6)
	for i := int64(0); i < n; i++ {
		sim := simStartNS + i*step
		rec := sysStartNS + i*step + 1_000_000
		if clock != nil {
			if v, ok := clock(i, sim); ok {
				write("/clock", rec, cdr.AppendClock(nil, &cdr.Clock{Clock: ts(v)}, le))
			}
		}
		for _, l := range links {
			every := l.everyTicks
			if every == 0 {
				every = 2
			}
			if !l.static && i%every == 0 && i >= l.fromTick && (l.toTick == 0 || i < l.toTick) && sim-l.ageNS > 0 {
				stamp := sim - l.ageNS
				if l.jumpAt > 0 && i >= l.jumpAt {
					stamp += l.jumpNS
				}
				write("/tf", rec+100_000, tf(l, stamp))
			}
		}
		if i%5 == 2 {
			for k, s := range scans {
				m := cdr.LaserScan{Header: cdr.Header{Stamp: ts(s.stamp(i, sim, sysStartNS+i*step)), FrameID: s.frame}, Ranges: make([]float32, 8), RangeMax: 10}
				write(s.topic, rec+200_000+int64(k)*1000, cdr.AppendLaserScan(nil, &m, le))
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func analyzeGen(t *testing.T, dir string, cfg Config) (*Report, []ScanRow) {
	t.Helper()
	var rows []ScanRow
	rep := analyzeBag(t, dir, cfg, func(r *ScanRow) error { rows = append(rows, *r); return nil })
	return rep, rows
}

var simClock = func(_, sim int64) (int64, bool) { return sim, true }

func simStamp(_, sim, _ int64) int64 { return sim }

// The stalest dynamic link on the path decides the diff, whichever its
// position, with two and three dynamic links of different ages.
func TestStalestLinkChoice(t *testing.T) {
	for _, tc := range []struct {
		name          string
		links         []genLink
		parent, child string
		ageNS         int64
	}{
		{"two, stalest first", []genLink{{parent: "odom", child: "base_link", ageNS: 300e6}, {parent: "base_link", child: "laser", ageNS: 40e6}}, "odom", "base_link", 300e6},
		{"two, stalest last", []genLink{{parent: "odom", child: "base_link", ageNS: 40e6}, {parent: "base_link", child: "laser", ageNS: 300e6}}, "base_link", "laser", 300e6},
		{"three, stalest in the middle", []genLink{{parent: "odom", child: "base_link", ageNS: 100e6}, {parent: "base_link", child: "mount", ageNS: 500e6}, {parent: "mount", child: "laser", ageNS: 40e6}}, "base_link", "mount", 500e6},
		{"three and a static, stalest last", []genLink{{parent: "odom", child: "base_link", ageNS: 100e6}, {parent: "base_link", child: "mount", static: true}, {parent: "mount", child: "turret", ageNS: 200e6}, {parent: "turret", child: "laser", ageNS: 700e6}}, "turret", "laser", 700e6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := genBag(t, tc.links, []genScan{{"/scan", "laser", simStamp}}, simClock, 300)
			_, rows := analyzeGen(t, dir, Config{})
			checked := 0
			for _, r := range rows {
				if !r.HasTF || r.LogTimeNS < sysStartNS+1_500_000_000 { // after every link has data
					continue
				}
				checked++
				if r.StalestParent != tc.parent || r.StalestChild != tc.child {
					t.Fatalf("scan %d: stalest %s->%s, want %s->%s", r.ScanIndex, r.StalestParent, r.StalestChild, tc.parent, tc.child)
				}
				// Links publish every 20 ms: the newest stamp lags by the
				// age plus at most one period.
				if want := float64(tc.ageNS) / 1e9; r.DiffS < want-1e-9 || r.DiffS > want+0.02+1e-9 || r.Class != SameClock {
					t.Fatalf("scan %d: diff %g s (%s), want %g s .. +20 ms", r.ScanIndex, r.DiffS, r.Class, want)
				}
			}
			if checked < 20 {
				t.Fatalf("only %d rows checked", checked)
			}
		})
	}
}

// A /clock that repeats one value, or falls silent, while record time runs
// is a stall from 1 s on; shorter ones are not.
func TestStallDetection(t *testing.T) {
	for _, tc := range []struct {
		name   string
		clock  func(i, sim int64) (int64, bool)
		stalls []Stall
	}{
		{"repeats 1.5 s", func(i, sim int64) (int64, bool) {
			if i >= 100 && i < 250 {
				return simStartNS + 100*10e6, true
			}
			return sim, true
		}, []Stall{{StartLogNS: sysStartNS + 100*10e6 + 1e6, EndLogNS: sysStartNS + 249*10e6 + 1e6, ClockNS: simStartNS + 100*10e6, Messages: 150}}},
		{"repeats 0.99 s", func(i, sim int64) (int64, bool) {
			if i >= 100 && i < 200 {
				return simStartNS + 100*10e6, true
			}
			return sim, true
		}, nil},
		{"repeats exactly 1 s", func(i, sim int64) (int64, bool) {
			if i >= 100 && i <= 200 {
				return simStartNS + 100*10e6, true
			}
			return sim, true
		}, []Stall{{StartLogNS: sysStartNS + 100*10e6 + 1e6, EndLogNS: sysStartNS + 200*10e6 + 1e6, ClockNS: simStartNS + 100*10e6, Messages: 101}}},
		{"silent 2 s", func(i, sim int64) (int64, bool) { return sim, i < 100 || i >= 300 },
			[]Stall{{StartLogNS: sysStartNS + 99*10e6 + 1e6, EndLogNS: sysStartNS + 300*10e6 + 1e6, ClockNS: simStartNS + 99*10e6}}},
		{"silent 0.5 s", func(i, sim int64) (int64, bool) { return sim, i < 100 || i >= 150 }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := genBag(t, []genLink{{parent: "odom", child: "base_link", ageNS: 10e6}, {parent: "base_link", child: "laser", static: true}},
				[]genScan{{"/scan", "laser", simStamp}}, tc.clock, 400)
			rep, _ := analyzeGen(t, dir, Config{})
			if len(rep.Stalls) != len(tc.stalls) || rep.Counts.Stalls != len(tc.stalls) {
				t.Fatalf("stalls %+v (count %d), want %+v", rep.Stalls, rep.Counts.Stalls, tc.stalls)
			}
			for i := range tc.stalls {
				if rep.Stalls[i] != tc.stalls[i] {
					t.Errorf("stall %+v, want %+v", rep.Stalls[i], tc.stalls[i])
				}
			}
		})
	}
}

// The verdict leads with the first class in priority order that describes
// at least a tenth of a pair's scans, across topics and targets.
func TestVerdictPriorityAndShare(t *testing.T) {
	links := []genLink{{parent: "odom", child: "base_link", ageNS: 10e6}, {parent: "base_link", child: "laser", static: true}}
	system := func(_, _, sys int64) int64 { return sys }
	// systemFor puts the first k of every 20 scans on system time.
	systemFor := func(k int64) func(i, sim, sys int64) int64 {
		return func(i, sim, sys int64) int64 {
			if (i/5)%20 < k {
				return sys
			}
			return sim
		}
	}
	skew := func(_, sim, _ int64) int64 { return sim + 2_500_000_000 }
	laserSystem := "The laser driver publishes %s with system time"
	for _, tc := range []struct {
		name    string
		scans   []genScan
		cfg     Config
		want    string // verdict prefix, %s = topic
		topic   string
		classes map[Class]int // summed over pairs
	}{
		{"a tenth on system time leads", []genScan{{"/scan", "laser", systemFor(2)}}, Config{}, laserSystem, "/scan", map[Class]int{LaserOnSystemClock: 20, SameClock: 180}},
		{"under a tenth does not", []genScan{{"/scan", "laser", systemFor(1)}}, Config{}, "/scan and tf are on the same clock", "", map[Class]int{LaserOnSystemClock: 10, SameClock: 190}},
		{"a third on system time beats two thirds skew", []genScan{{"/scan", "laser", func(i, sim, sys int64) int64 {
			if (i/5)%3 == 0 {
				return sys
			}
			return sim + 2_500_000_000
		}}}, Config{}, laserSystem, "/scan", nil},
		{"system-time topic beats a skewed one", []genScan{{"/a_skewed", "laser", skew}, {"/b_system", "laser", system}}, Config{}, laserSystem, "/b_system", nil},
		{"skew beats same clock across topics", []genScan{{"/a_same", "laser", simStamp}, {"/b_skewed", "laser", skew}}, Config{}, "/b_skewed and tf (odom->base_link) are 2.5", "", nil},
		{"two targets: the dynamic one leads over static-only", []genScan{{"/scan", "laser", skew}}, Config{TargetFrames: []string{"base_link", "odom"}}, "/scan and tf (odom->base_link) are 2.5", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := genBag(t, links, tc.scans, simClock, 1000)
			rep, _ := analyzeGen(t, dir, tc.cfg)
			want := tc.want
			if strings.Contains(want, "%s") {
				want = strings.Replace(want, "%s", tc.topic, 1)
			}
			if !strings.HasPrefix(rep.Verdict.Sentence, want) {
				t.Errorf("verdict %q, want it to start with %q", rep.Verdict.Sentence, want)
			}
			for c, n := range tc.classes {
				if rep.Summary.Classes[string(c)] != n {
					t.Errorf("classes %v, want %v", rep.Summary.Classes, tc.classes)
				}
			}
		})
	}
}

// Every generated clock case states the verdict its cause calls for, word
// for word.
func TestClockCaseVerdictSentences(t *testing.T) {
	for _, tc := range []struct {
		c        clockCase
		sentence string
		evidence string // one evidence line that must be there ("" none)
	}{
		{clockCase{name: "same_clock"}, "/scan and tf are on the same clock (median 0.0 ms apart) and no scan is dropped by the rviz-laserscan filter: no clock problem in this bag.", ""},
		{clockCase{name: "laser_system", laserSystem: true}, "The laser driver publishes /scan with system time while tf follows /clock: set use_sim_time:=true on the node publishing /scan.", "the filter drops it when the queue is full"},
		{clockCase{name: "tf_system", tfSystem: true}, "A tf publisher stamps odom->base_link with system time while /scan follows /clock: set use_sim_time:=true on the node publishing odom->base_link (robot_state_publisher or the odometry node).", "more than the cache time (10 s) older"},
		{clockCase{name: "zero", laserZero: true}, "/scan has 100 scans stamped 0: the laser driver uses sim time but never received /clock; tf2 pairs those scans with the latest pose.", "None of them arrived before the first recorded /clock"},
		{clockCase{name: "skew", laserSkewNS: 2_500_000_000}, "/scan and tf (odom->base_link) are 2.500 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).", "The offset matters to tf2"},
		{clockCase{name: "skew_behind", laserSkewNS: -2_500_000_000}, "/scan and tf (odom->base_link) are -2.500 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).", "Within the cache time (10 s) tf2 still finds a transform"},
		{clockCase{name: "skew_behind_cache", laserSkewNS: -12_000_000_000}, "/scan and tf (odom->base_link) are -12.000 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).", "The offset matters to tf2"},
		{clockCase{name: "loop", loopAtS: 2.5}, "/clock jumps back 1 time (a looping bag or a simulator reset): every sim-time node clears its tf buffer each time; /scan and tf are otherwise on the same clock (median 0.0 ms apart).", "/clock jumps back 1 time (bag loop"},
	} {
		t.Run(tc.c.name, func(t *testing.T) {
			dir := writeCase(t, filepath.Join(t.TempDir(), "bag"), tc.c, bagwrite.StorageMCAP, 5)
			if tc.c.laserSkewNS < -10e9 {
				dir = writeCase(t, filepath.Join(t.TempDir(), "bag"), tc.c, bagwrite.StorageMCAP, 16)
			}
			rep, _ := analyzeGen(t, dir, Config{})
			if rep.Verdict.Sentence != tc.sentence {
				t.Errorf("verdict\n got %q\nwant %q", rep.Verdict.Sentence, tc.sentence)
			}
			found := tc.evidence == ""
			for _, e := range rep.Verdict.Evidence {
				found = found || strings.Contains(e, tc.evidence)
			}
			if !found {
				t.Errorf("no evidence line with %q in %q", tc.evidence, rep.Verdict.Evidence)
			}
		})
	}
}
