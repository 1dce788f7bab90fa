package tf

import (
	"bufio"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// demoOp is one line of the tf2 oracle's JSON-lines protocol.
type demoOp struct {
	Op         string    `json:"op"`
	Parent     string    `json:"parent"`
	Child      string    `json:"child"`
	StampNS    int64     `json:"stamp_ns"`
	Static     bool      `json:"static"`
	T          []float64 `json:"t"`
	Q          []float64 `json:"q"`
	Authority  string    `json:"authority"`
	Target     string    `json:"target"`
	Source     string    `json:"source"`
	CacheTimeS float64   `json:"cache_time_s"`
	ID         string    `json:"id"`
}

func (o *demoOp) stamped() Stamped {
	s := Stamped{Parent: o.Parent, Child: o.Child, Stamp: o.StampNS, Transform: Transform{Rotation: identityQuat}}
	if len(o.T) == 3 {
		s.Transform.Translation = Vec3{o.T[0], o.T[1], o.T[2]}
	}
	if len(o.Q) == 4 {
		s.Transform.Rotation = Quat{o.Q[0], o.Q[1], o.Q[2], o.Q[3]}
	}
	return s
}

// demoWant is the expected outcome of one demo line. Values are the ones
// Debian's tf2 (ROS 1 0.7.6) printed in demo-output.txt (6 decimals); texts
// are ROS 2's (Jazzy) wording, which differs from the ROS 1 text there.
type demoWant struct {
	line  int
	kind  ErrorKind // 0 = success
	text  string    // exact error text (lookups) or reject text (sets)
	stamp int64
	t     [3]float64
	q     [4]float64
	can   *bool
}

var (
	yes = func() *bool { b := true; return &b }()
	no  = func() *bool { b := false; return &b }()
)

const sfx = ", when looking up transform from frame [laser] to frame [odom]"

// demoWants lists every demo line that produces an outcome. pruneAfter
// holds the lines whose outcome depends on the TimeCache generation: ROS 1
// prunes after inserting (as GenerationPruneAfter does), the current ROS 2
// rule prunes before, so one more old sample survives.
func demoWants(gen Generation) []demoWant {
	earliest127 := "125.000000"
	if gen == GenerationCurrent {
		earliest127 = "124.000000" // prune-before-insert keeps 124 s
	}
	ok1205 := demoWant{stamp: 120_500_000_000, t: [3]float64{0.499818, 0.012498, 0.18}, q: [4]float64{0, 0, 0.0125, 0.999922}}
	ok126 := demoWant{stamp: 126_000_000_000, t: [3]float64{3.194036, 0.520515, 0.18}, q: [4]float64{0, 0, 0.149438, 0.988771}}
	at := func(line int, w demoWant) demoWant { w.line = line; return w }
	staticLaser := func(line int, stamp int64) demoWant {
		return demoWant{line: line, stamp: stamp, t: [3]float64{0.25, 0, 0.18}, q: [4]float64{0, 0, 0, 1}}
	}
	return []demoWant{
		// 1. interpolation
		at(7, ok1205),
		{line: 8, stamp: 122_000_000_000, t: [3]float64{1.247085, 0.074917, 0.18}, q: [4]float64{0, 0, 0.049979, 0.998750}},
		{line: 9, can: yes},
		// 2. future extrapolation (ROS 1 also prints the amount, 9 decimals)
		{line: 11, kind: ForwardExtrapolationError, text: "Lookup would require extrapolation into the future.  Requested time 1790000000.123457 but the latest data is at time 122.000000" + sfx},
		{line: 12, can: no},
		{line: 14, kind: ForwardExtrapolationError, text: "Lookup would require extrapolation into the future.  Requested time 122.010000 but the latest data is at time 122.000000" + sfx},
		// 3. past extrapolation
		{line: 21, kind: BackwardExtrapolationError, text: "Lookup would require extrapolation into the past.  Requested time 120.500000 but the earliest data is at time 1790000000.123457" + sfx},
		{line: 22, can: no},
		// 4. time zero: latest common time, exact to the nanosecond
		{line: 24, stamp: 1790000002123456789, t: [3]float64{1.247085, 0.074917, 0.18}, q: [4]float64{0, 0, 0.049979, 0.998750}},
		{line: 25, stamp: 1790000002123456789},
		{line: 26, can: yes},
		// 5. static-only paths ignore time and report the requested time
		staticLaser(28, 0), staticLaser(29, 120_500_000_000), staticLaser(30, 1791000000123456789),
		staticLaser(34, 1790000000123456789),
		{line: 35, stamp: 0, t: [3]float64{-0.25, 0, -0.18}, q: [4]float64{0, 0, 0, 1}},
		// 6. 2.5 s skew
		{line: 50, kind: ForwardExtrapolationError, text: "Lookup would require extrapolation into the future.  Requested time 1790000003.623457 but the latest data is at time 1790000001.123457" + sfx},
		{line: 81, stamp: 1790000003623456789, t: [3]float64{1.987263, 0.196262, 0.18}, q: [4]float64{0, 0, 0.087388, 0.996174}},
		// 7. backward jump without clear: TF_OLD_DATA, then clear() helps
		{line: 99, text: "TF_OLD_DATA ignoring data from the past for frame base_link at time 120.000000 according to authority demo\nPossible reasons are listed at http://wiki.ros.org/tf/Errors%20explained"},
		{line: 100, text: "TF_OLD_DATA ignoring data from the past for frame base_link at time 121.000000 according to authority demo\nPossible reasons are listed at http://wiki.ros.org/tf/Errors%20explained"},
		{line: 101, kind: BackwardExtrapolationError, text: "Lookup would require extrapolation into the past.  Requested time 120.500000 but the earliest data is at time 122.000000" + sfx},
		at(107, ok1205),
		// 8. pruning
		{line: 127, kind: BackwardExtrapolationError, text: "Lookup would require extrapolation into the past.  Requested time 120.500000 but the earliest data is at time " + earliest127 + sfx},
		at(128, ok126),
		// 9. errors (ROS 1's invalid-argument text is "... target_frame in tf2
		// frame_ids cannot start with a '/' like: ")
		{line: 130, kind: LookupError, text: `"camera" passed to lookupTransform argument source_frame does not exist. `},
		{line: 132, kind: ConnectivityError, text: "Could not find a connection between 'odom' and 'marker' because they are not part of the same tree.Tf has two or more unconnected trees."},
		{line: 133, kind: InvalidArgumentError, text: `Invalid argument "/odom" passed to lookupTransform argument target_frame - in tf2 frame_ids cannot start with a '/'`},
		at(134, ok126),
		// 10. repeated stamp: ROS 1 rejects the second set (TF_REPEATED_DATA);
		// ROS 2 keeps both (line 138 succeeds). At exactly the repeated stamp,
		// which is the oldest, both return the first-inserted entry.
		{line: 138},
		{line: 140, stamp: 120_000_000_000, t: [3]float64{0, 0, 0}, q: [4]float64{0, 0, 0, 1}},
	}
}

// TestDemoSeeds replays the tf2 oracle's demo.jsonl and checks every
// outcome against the values Debian's tf2 printed (demo-output.txt), with
// ROS 2's message texts, under both the current and the prune-after rules.
func TestDemoSeeds(t *testing.T) {
	path := filepath.Join(testenv.SharedDir(t), "peers", "tf2oracle", "demo.jsonl")
	for _, gen := range []Generation{GenerationCurrent, GenerationPruneAfter} {
		t.Run(gen.String(), func(t *testing.T) {
			wants := map[int]demoWant{}
			for _, w := range demoWants(gen) {
				wants[w.line] = w
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			b := NewBuffer(Options{Generation: gen})
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			seen := 0
			for line := 1; sc.Scan(); line++ {
				var op demoOp
				if err := json.Unmarshal(sc.Bytes(), &op); err != nil {
					t.Fatalf("line %d: %v", line, err)
				}
				w, checked := wants[line]
				if checked {
					seen++
				}
				switch op.Op {
				case "reset":
					b = NewBuffer(Options{CacheTimeNS: int64(op.CacheTimeS * 1e9), Generation: gen})
				case "clear":
					b.Clear()
				case "set":
					err := b.SetTransform(op.stamped(), op.Authority, op.Static)
					switch {
					case checked && w.text != "":
						var re *RejectError
						if !errors.As(err, &re) || re.Code != TFOldData || re.Text != w.text {
							t.Errorf("line %d: set = %v, want TF_OLD_DATA %q", line, err, w.text)
						}
					case err != nil:
						t.Errorf("line %d: set: %v", line, err)
					}
				case "lookup":
					got, err := b.LookupTransform(op.Target, op.Source, op.StampNS)
					checkDemo(t, line, w, checked, got, err)
				case "can":
					can := b.CanTransform(op.Target, op.Source, op.StampNS)
					if checked && (w.can == nil || *w.can != can) {
						t.Errorf("line %d: can = %v", line, can)
					}
					if (b.CanTransformErr(op.Target, op.Source, op.StampNS) == nil) != can {
						t.Errorf("line %d: CanTransformErr disagrees with CanTransform", line)
					}
				case "latest":
					lt, err := b.LatestCommonTime(op.Target, op.Source)
					if err != nil || !checked || lt != w.stamp {
						t.Errorf("line %d: latest = %d, %v; want %d", line, lt, err, w.stamp)
					}
				}
			}
			if seen != len(wants) {
				t.Errorf("checked %d demo lines, want %d", seen, len(wants))
			}
		})
	}
}

func checkDemo(t *testing.T, line int, w demoWant, checked bool, got Stamped, err error) {
	t.Helper()
	if !checked {
		t.Errorf("line %d: lookup without expectation (got %+v, %v)", line, got, err)
		return
	}
	if w.kind != 0 {
		var te *Error
		if !errors.As(err, &te) || te.Kind != w.kind || te.Error() != w.text {
			t.Errorf("line %d: err = %v (%T), want %v %q", line, err, err, w.kind, w.text)
		}
		return
	}
	if err != nil {
		t.Errorf("line %d: %v", line, err)
		return
	}
	tr, q := got.Transform.Translation, got.Transform.Rotation
	gt := [3]float64{tr.X, tr.Y, tr.Z}
	gq := [4]float64{q.X, q.Y, q.Z, q.W}
	for i := range gt {
		if math.Abs(gt[i]-w.t[i]) > 5e-7 {
			t.Errorf("line %d: t = %v, want %v", line, gt, w.t)
			break
		}
	}
	for i := range gq {
		if math.Abs(gq[i]-w.q[i]) > 5e-7 {
			t.Errorf("line %d: q = %v, want %v", line, gq, w.q)
			break
		}
	}
	if got.Stamp != w.stamp {
		t.Errorf("line %d: stamp = %d, want %d", line, got.Stamp, w.stamp)
	}
}
