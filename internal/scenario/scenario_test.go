package scenario

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/testenv"
)

// observed is what decoding a generated stream finds, computed from the
// CDR bytes alone, independently of Truth's formulas.
type observed struct {
	counts        map[string]int
	zeroScans     int
	backward      int
	diffs         []float64 // scan stamp minus the latest /tf stamp received before it
	rosoutDrops   int
	rosoutJumps   int
	maxLatencyNS  int64
	outOfOrder    int
	stampMismatch int
}

func observe(t *testing.T, s Spec) observed {
	t.Helper()
	o := observed{counts: map[string]int{}}
	var lastLog, lastClock, lastTF int64 = math.MinInt64, math.MinInt64, 0
	haveTF := false
	err := Generate(s, func(r *Record) error {
		o.counts[r.Topic]++
		if r.LogTimeNS < lastLog {
			o.outOfOrder++
		}
		lastLog = r.LogTimeNS
		var stamp int64
		switch r.Topic {
		case TopicClock:
			c, err := cdr.DecodeClock(r.Data)
			if err != nil {
				return err
			}
			stamp = c.Clock.Nanoseconds()
			if lastClock != math.MinInt64 && stamp < lastClock {
				o.backward++
			}
			lastClock = stamp
		case TopicTF, TopicTFStatic:
			m, err := cdr.DecodeTFMessage(r.Data)
			if err != nil {
				return err
			}
			if len(m.Transforms) != 1 {
				t.Fatalf("%s: %d transforms", r.Topic, len(m.Transforms))
			}
			tr := m.Transforms[0]
			stamp = tr.Header.Stamp.Nanoseconds()
			q := tr.Transform.Rotation
			if n := q.X*q.X + q.Y*q.Y + q.Z*q.Z + q.W*q.W; math.Abs(n-1) > 1e-9 {
				t.Fatalf("%s: quaternion norm %v", r.Topic, n)
			}
			if r.Topic == TopicTF {
				if tr.Header.FrameID != s.OdomFrame || tr.ChildFrameID != s.BaseFrame {
					t.Fatalf("/tf link %s->%s", tr.Header.FrameID, tr.ChildFrameID)
				}
				lastTF, haveTF = stamp, true
			} else if tr.Header.FrameID != s.BaseFrame || tr.ChildFrameID != s.LaserFrame {
				t.Fatalf("/tf_static link %s->%s", tr.Header.FrameID, tr.ChildFrameID)
			}
		case TopicScan:
			m, err := cdr.DecodeLaserScan(r.Data)
			if err != nil {
				return err
			}
			if m.Header.FrameID != s.LaserFrame || len(m.Ranges) != s.Ranges {
				t.Fatalf("scan frame %q with %d ranges", m.Header.FrameID, len(m.Ranges))
			}
			for _, v := range m.Ranges {
				if v < m.RangeMin || v > m.RangeMax {
					t.Fatalf("range %v outside [%v, %v]", v, m.RangeMin, m.RangeMax)
				}
			}
			stamp = m.Header.Stamp.Nanoseconds()
			if stamp == 0 {
				o.zeroScans++
			}
			if haveTF {
				o.diffs = append(o.diffs, float64(stamp-lastTF)/1e9)
			}
			if s.Laser.OffsetNS == 0 && s.Laser.Clock == ClockSystem {
				o.maxLatencyNS = max(o.maxLatencyNS, r.LogTimeNS-stamp)
			}
		case TopicRosout:
			m, err := cdr.DecodeLog(r.Data)
			if err != nil {
				return err
			}
			stamp = m.Stamp.Nanoseconds()
			switch {
			case strings.HasPrefix(m.Msg, "Message Filter dropping message: frame '"+s.LaserFrame+"' at time "):
				o.rosoutDrops++
			case m.Msg == "Detected jump back in time. Clearing TF buffer.":
				o.rosoutJumps++
			default:
				t.Fatalf("unexpected log line %q", m.Msg)
			}
		default:
			t.Fatalf("unexpected topic %s", r.Topic)
		}
		if stamp != r.StampNS {
			o.stampMismatch++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestTruthMatchesGeneratedBytes decodes every case's messages and checks
// that what they say matches the spec's Truth.
func TestTruthMatchesGeneratedBytes(t *testing.T) {
	for _, name := range append(Names(), Demo) {
		full, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []Spec{full, full.Sample()} {
			t.Run(name+"/"+s.Duration.String(), func(t *testing.T) {
				truth := s.Truth()
				o := observe(t, s)
				if o.outOfOrder != 0 || o.stampMismatch != 0 {
					t.Errorf("%d records out of record order, %d decoded stamps differ from Record.StampNS", o.outOfOrder, o.stampMismatch)
				}
				want := map[string]int{TopicScan: truth.Scans, TopicTF: truth.TFMessages, TopicTFStatic: truth.StaticMessages,
					TopicClock: truth.ClockMessages, TopicRosout: truth.RosoutMessages}
				for topic, n := range want {
					if o.counts[topic] != n {
						t.Errorf("%s: %d messages, truth says %d", topic, o.counts[topic], n)
					}
				}
				if o.zeroScans != truth.ZeroStampScans {
					t.Errorf("zero-stamp scans %d, truth %d", o.zeroScans, truth.ZeroStampScans)
				}
				if o.backward != truth.BackwardJumps || o.rosoutJumps != boolInt(s.Rosout)*truth.BackwardJumps {
					t.Errorf("backward /clock jumps %d (logged %d), truth %d", o.backward, o.rosoutJumps, truth.BackwardJumps)
				}
				if o.rosoutDrops != truth.RosoutDrops {
					t.Errorf("drop lines %d, truth %d", o.rosoutDrops, truth.RosoutDrops)
				}
				checkClass(t, s, truth, o)
			})
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkClass checks every scan's diff against the class's rule from the
// project brief: a few ms for the same clock, about +/- the epoch for a
// publisher on the wrong clock, the skew for two machines.
func checkClass(t *testing.T, s Spec, truth Truth, o observed) {
	t.Helper()
	if truth.Class == ClassStaticOnly {
		if len(o.diffs) != 0 || o.counts[TopicTF] != 0 {
			t.Errorf("static_only case has /tf")
		}
		return
	}
	if len(o.diffs) < truth.Scans-1 {
		t.Fatalf("only %d of %d scans had a /tf before them", len(o.diffs), truth.Scans)
	}
	for i, d := range o.diffs {
		ok := false
		switch truth.Class {
		case ClassSameClock:
			// tf at 50 Hz: the latest transform is at most one period
			// old, also right after a loop or reset (tf ticks 2 ms before
			// each scan, both stamped from the same /clock value).
			ok = math.Abs(d) < 0.025
		case ClassLaserOnSystemClock, ClassTFOnSystemClock, ClassClockSkew:
			// Within the recording's length plus the sim start (a reset
			// moves tf back to near 0) of the epoch difference.
			ok = math.Abs(d-truth.DiffS) < s.Duration.Seconds()+float64(s.SimStartNS)/1e9
			if truth.Class == ClassClockSkew {
				ok = math.Abs(d-truth.DiffS) < 0.05
			}
		case ClassZeroStamp:
			ok = math.Abs(d-truth.DiffS) < 60
		}
		if !ok {
			t.Fatalf("scan %d: diff %.6f s does not fit class %s (truth diff %.3f)", i, d, truth.Class, truth.DiffS)
		}
	}
	if s.Laser.Clock == ClockSystem && s.Laser.OffsetNS == 0 && (o.maxLatencyNS <= 0 || o.maxLatencyNS > 10_000_000) {
		t.Errorf("scan latency up to %d ns; want 0-10 ms", o.maxLatencyNS)
	}
}

func TestTruthTable(t *testing.T) {
	// Hand-checked expectations for the full-size cases (30 s, 20 Hz
	// scans, 50 Hz tf, 100 Hz /clock).
	cases := []struct {
		name           string
		class          string
		jumps, zero    int
		clock, statics int
	}{
		{BothSim, ClassSameClock, 0, 0, 3000, 1},
		{BothSystem, ClassSameClock, 0, 0, 0, 1},
		{LaserSystemTFSim, ClassLaserOnSystemClock, 0, 0, 3000, 1},
		{LaserSimTFSystem, ClassTFOnSystemClock, 0, 0, 3000, 1},
		{LaserZeroStamp, ClassZeroStamp, 0, 600, 3000, 1},
		{ClockLoop, ClassSameClock, 2, 0, 3000, 3},
		{SimReset, ClassSameClock, 1, 0, 3000, 1},
		{Skew2500ms, ClassClockSkew, 0, 0, 0, 1},
		{StaticOnly, ClassStaticOnly, 0, 0, 3000, 1},
	}
	for _, c := range cases {
		s, err := Get(c.name)
		if err != nil {
			t.Fatal(err)
		}
		tr := s.Truth()
		if tr.Class != c.class || tr.BackwardJumps != c.jumps || tr.ZeroStampScans != c.zero || tr.ClockMessages != c.clock ||
			tr.StaticMessages != c.statics || tr.Scans != 600 {
			t.Errorf("%s: truth %+v", c.name, tr)
		}
	}
	if s, _ := Get(LaserSystemTFSim); math.Abs(s.Truth().DiffS-(1_790_000_000.25-120)) > 1e-6 {
		t.Errorf("laser_system_tf_sim diff %v", s.Truth().DiffS)
	}
	if _, err := Get("nope"); err == nil {
		t.Error("Get accepted an unknown case")
	}
}

func TestValidateRejects(t *testing.T) {
	good, _ := Get(BothSim)
	bad := []func(*Spec){
		func(s *Spec) { s.Duration = 0 },
		func(s *Spec) { s.ScanHz = 0 },
		func(s *Spec) { s.ClockHz = 0 }, // publishers on sim time
		func(s *Spec) { s.LoopPeriod = 1e9; s.ResetAt = 2e9 },
		func(s *Spec) { s.LoopPeriod = 1_234_567 },
	}
	for i, f := range bad {
		s := good
		f(&s)
		if err := Generate(s, func(*Record) error { return nil }); err == nil {
			t.Errorf("bad spec %d accepted", i)
		}
	}
	sentinel := errors.New("stop")
	if err := Generate(good, func(*Record) error { return sentinel }); !errors.Is(err, sentinel) {
		t.Errorf("callback error not passed through: %v", err)
	}
}

// TestSamplesUpToDate regenerates testdata/samples into a temp dir and
// requires identical bytes: the generator is deterministic and the
// committed samples match the code. Regenerate with
// `go run ./cmd/baggen --samples testdata/samples`.
func TestSamplesUpToDate(t *testing.T) {
	committed := filepath.Join(testenv.RepoRoot(t), "testdata", "samples")
	if _, err := os.Stat(committed); err != nil {
		t.Fatalf("no committed samples at %s (regenerate with go run ./cmd/baggen --samples testdata/samples): %v", committed, err)
	}
	fresh := t.TempDir()
	if err := WriteSamples(fresh); err != nil {
		t.Fatal(err)
	}
	files := func(root string) map[string][]byte {
		out := map[string][]byte{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			if rel == "README.md" {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[rel] = data
			return nil
		})
		return out
	}
	want, got := files(committed), files(fresh)
	for rel, data := range got {
		if c, ok := want[rel]; !ok {
			t.Errorf("%s is generated but not committed", rel)
		} else if !bytes.Equal(c, data) {
			t.Errorf("%s differs from a fresh generation (run go run ./cmd/baggen --samples testdata/samples)", rel)
		}
	}
	for rel := range want {
		if _, ok := got[rel]; !ok {
			t.Errorf("%s is committed but no longer generated", rel)
		}
	}
	// A second generation in another directory gives the same bytes too.
	again := t.TempDir()
	if err := WriteSamples(again); err != nil {
		t.Fatal(err)
	}
	for rel, data := range files(again) {
		if !bytes.Equal(got[rel], data) {
			t.Errorf("%s differs between two generations", rel)
		}
	}
}
