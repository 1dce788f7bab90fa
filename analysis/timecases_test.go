package analysis

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// timeCase is one generated recording of the time checks (issue 11). True
// time t runs from 0 to durS seconds; the recorder's system clock reads
// sysStartNS + t, plus stepNS from stepAtS on (an NTP step of the machine
// every node runs on: record times and system-time stamps step together).
//
// With rtf set, a simulator publishes /clock: sim time advances 10 ms per
// tick and a tick comes every 10 ms / rtf(t) of wall time. Topics:
//   - /sim_scan: a timer on the node's clock (10 Hz of sim time): it fires
//     on the /clock tick that reaches its deadline and stamps that tick;
//   - /wall_scan: a wall timer (20 Hz of wall time) stamping now(), the last
//     /clock value received;
//   - tf odom->base_link: a sim timer at 50 Hz of sim time.
//
// Without rtf the recording is on wall time: /scan at 20 Hz and tf at 50
// Hz, stamped with the system clock at capture, recorded 1-3 ms later.
// lateNS adds /late_scan, captured and stamped at 10 Hz and published
// lateNS later. stuckZero adds /zero_scan (10 Hz wall timer of a node whose
// ROS time is 0) and /parameter_events announcing it and a healthy node.
type timeCase struct {
	name      string
	durS      float64
	rtf       func(tS float64) float64
	stepAtS   float64
	stepNS    int64
	lateNS    int64
	stuckZero bool
	// remote adds /remote_scan (10 Hz) from a machine whose clock does not
	// step.
	remote bool
}

type timeEvent struct {
	t, logNS, pubNS int64
	topic           string
	data            []byte
}

func writeTimeCase(t testing.TB, dir string, c timeCase, storage string) string {
	t.Helper()
	le := binary.LittleEndian
	rng := rand.New(rand.NewPCG(7, uint64(len(c.name))))
	dur := int64(c.durS * 1e9)
	sys := func(tt int64) int64 {
		v := sysStartNS + tt
		if c.stepNS != 0 && tt >= int64(c.stepAtS*1e9) {
			v += c.stepNS
		}
		return v
	}
	ts := func(ns int64) cdr.Time { return cdr.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)} }
	var evs []timeEvent
	add := func(tt, latency int64, topic string, data []byte) {
		evs = append(evs, timeEvent{t: tt + latency, logNS: sys(tt + latency), pubNS: sys(tt), topic: topic, data: data})
	}
	scan := func(frame string, stamp int64) []byte {
		m := cdr.LaserScan{Header: cdr.Header{Stamp: ts(stamp), FrameID: frame}, Ranges: make([]float32, 16), RangeMax: 10}
		return cdr.AppendLaserScan(nil, &m, le)
	}
	odom := func(stamp int64, x float64) []byte {
		m := cdr.TFMessage{Transforms: []cdr.TransformStamped{{
			Header: cdr.Header{Stamp: ts(stamp), FrameID: "odom"}, ChildFrameID: "base_link",
			Transform: cdr.Transform{Translation: cdr.Vector3{X: x}, Rotation: cdr.Quaternion{W: 1}},
		}}}
		return cdr.AppendTFMessage(nil, &m, le)
	}
	topics := [][2]string{{"/tf", cdr.TypeTFMessage}, {"/tf_static", cdr.TypeTFMessage}}
	staticStamp := sysStartNS
	if c.rtf != nil {
		staticStamp = simStartNS
	}
	frames := []string{"laser", "laser_wall", "laser_late", "laser_zero", "laser_remote"}
	static := cdr.TFMessage{}
	for _, f := range frames {
		static.Transforms = append(static.Transforms, cdr.TransformStamped{
			Header: cdr.Header{Stamp: ts(staticStamp), FrameID: "base_link"}, ChildFrameID: f,
			Transform: cdr.Transform{Translation: cdr.Vector3{X: 0.1}, Rotation: cdr.Quaternion{W: 1}}})
	}
	add(0, 100_000, "/tf_static", cdr.AppendTFMessage(nil, &static, le))
	jit := func(lo, hi int64) int64 { return lo + rng.Int64N(hi-lo+1) }

	if c.rtf != nil {
		topics = append(topics, [2]string{"/clock", cdr.TypeClock}, [2]string{"/sim_scan", cdr.TypeLaserScan}, [2]string{"/wall_scan", cdr.TypeLaserScan})
		// Ticks: (wall time, sim value), sim 10 ms per tick.
		var tickT, tickV []int64
		for tt, v := int64(0), simStartNS; tt < dur; v += 10_000_000 {
			tickT, tickV = append(tickT, tt), append(tickV, v)
			add(tt, 200_000, "/clock", cdr.AppendClock(nil, &cdr.Clock{Clock: ts(v)}, le))
			tt += int64(10e6 / c.rtf(float64(tt)/1e9))
		}
		nextSim, nextTF := simStartNS, simStartNS
		for i, tt := range tickT {
			v := tickV[i]
			if v >= nextTF {
				add(tt, 300_000+jit(0, 300_000), "/tf", odom(v, float64(v-simStartNS)/1e9*0.5))
				nextTF += 20_000_000
			}
			if v >= nextSim {
				add(tt, 500_000+jit(500_000, 1_500_000), "/sim_scan", scan("laser", v))
				nextSim += 100_000_000
			}
		}
		// The wall timer: now() is the last tick received (0.2 ms after
		// it was sent).
		k := 0
		for tt := int64(7_000_000); tt < dur; tt += 50_000_000 {
			for k+1 < len(tickT) && tickT[k+1]+200_000 <= tt {
				k++
			}
			add(tt, jit(500_000, 2_000_000), "/wall_scan", scan("laser_wall", tickV[k]))
		}
		if c.stuckZero {
			topics = append(topics, [2]string{"/zero_scan", cdr.TypeLaserScan}, [2]string{"/parameter_events", cdr.TypeParameterEvent})
			for tt := int64(13_000_000); tt < dur; tt += 100_000_000 {
				add(tt, jit(500_000, 2_000_000), "/zero_scan", scan("laser_zero", 0))
			}
			for i, n := range []struct {
				node  string
				stamp int64
			}{{"/zero_driver", 0}, {"/scan_driver", simStartNS + 100_000_000}} {
				ev := cdr.ParameterEvent{Stamp: ts(n.stamp), Node: n.node,
					NewParameters: []cdr.Parameter{{Name: "use_sim_time", Value: cdr.ParameterValue{Type: cdr.ParameterBool, BoolValue: true}}}}
				add(100_000_000+int64(i)*1_000_000, 100_000, "/parameter_events", cdr.AppendParameterEvent(nil, &ev, le))
			}
		}
	} else {
		topics = append(topics, [2]string{"/scan", cdr.TypeLaserScan})
		for tt := int64(1_000_000); tt < dur; tt += 20_000_000 {
			add(tt, jit(300_000, 1_000_000), "/tf", odom(sys(tt), float64(tt)/1e9*0.5))
		}
		for tt := int64(3_000_000); tt < dur; tt += 50_000_000 {
			add(tt, jit(1_000_000, 3_000_000), "/scan", scan("laser", sys(tt)))
		}
		if c.remote {
			topics = append(topics, [2]string{"/remote_scan", cdr.TypeLaserScan})
			for tt := int64(9_000_000); tt < dur; tt += 100_000_000 {
				add(tt, jit(1_000_000, 3_000_000), "/remote_scan", scan("laser_remote", sysStartNS+tt))
			}
		}
		if c.lateNS > 0 {
			topics = append(topics, [2]string{"/late_scan", cdr.TypeLaserScan})
			for tt := int64(5_000_000); tt < dur; tt += 100_000_000 {
				data := scan("laser_late", sys(tt))
				pub := tt + c.lateNS
				evs = append(evs, timeEvent{t: pub + 500_000, logNS: sys(pub) + jit(500_000, 1_500_000), pubNS: sys(pub), topic: "/late_scan", data: data})
			}
		}
	}
	// Storage order is the order of true time (the recorder writes as
	// messages come, whatever its clock says).
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].t < evs[j].t })
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: storage})
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range topics {
		if err := w.AddTopic(tp[0], tp[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range evs {
		if err := w.Write(e.topic, e.logNS, e.pubNS, e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func analyzeTimeCase(t *testing.T, c timeCase, storage string, cfg Config) *Report {
	t.Helper()
	dir := writeTimeCase(t, filepath.Join(t.TempDir(), "bag"), c, storage)
	bag, err := bagread.Open(dir, bagread.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer bag.Close()
	rep, err := Analyze(bag, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func constRTF(v float64) func(float64) float64 { return func(float64) float64 { return v } }

// varyingRTF swings between 0.3 and 1.0 with a 7 s period.
func varyingRTF(tS float64) float64 { return 0.65 + 0.35*math.Sin(2*math.Pi*tS/7) }

func timerOf(rep *Report, topic string) *TimerClock {
	for i := range rep.TimerClocks {
		if rep.TimerClocks[i].Topic == topic {
			return &rep.TimerClocks[i]
		}
	}
	return nil
}

func ageOf(rep *Report, topic string) *TopicAge {
	for i := range rep.Ages {
		if rep.Ages[i].Topic == topic {
			return &rep.Ages[i]
		}
	}
	return nil
}

func TestTimeCases(t *testing.T) {
	cases := []struct {
		c        timeCase
		cfg      Config
		findings []string // exactly these
		verdict  string   // the sentence starts with this
		check    func(t *testing.T, rep *Report)
	}{
		{c: timeCase{name: "rtf_0.5", durS: 20, rtf: constRTF(0.5)},
			findings: []string{"wall-timer"},
			verdict:  "/wall_scan comes from a wall timer: at real-time factor 0.50 it publishes 2.0× per sim period: use rclcpp::create_timer with the node's clock, or rclcpp::Rate with the node's clock.",
			check: func(t *testing.T, rep *Report) {
				w, s := timerOf(rep, "/wall_scan"), timerOf(rep, "/sim_scan")
				if w == nil || s == nil {
					t.Fatalf("timer clocks %+v", rep.TimerClocks)
				}
				if w.Clock != TimerWall || !w.Flagged || w.Confidence < 0.9 || math.Abs(w.WallRateHz-20) > 0.5 || math.Abs(w.SimRateHz-40) > 1 {
					t.Errorf("wall timer = %+v, want wall, flagged, 20 Hz wall and 40 Hz sim", *w)
				}
				if s.Clock != TimerSim || s.Flagged || s.Confidence < 0.9 || math.Abs(s.WallRateHz-5) > 0.2 || math.Abs(s.SimRateHz-10) > 0.2 {
					t.Errorf("sim timer = %+v, want sim, 5 Hz wall and 10 Hz sim", *s)
				}
			}},
		{c: timeCase{name: "rtf_varying", durS: 28, rtf: varyingRTF},
			findings: []string{"wall-timer"},
			verdict:  "/wall_scan comes from a wall timer: at real-time factor 0.",
			check: func(t *testing.T, rep *Report) {
				w, s := timerOf(rep, "/wall_scan"), timerOf(rep, "/sim_scan")
				if w == nil || s == nil || w.Clock != TimerWall || !w.Flagged || s.Clock != TimerSim || s.Flagged {
					t.Fatalf("timer clocks %+v", rep.TimerClocks)
				}
				if g := rep.RealTimeFactorRange; g == nil || g.P10 > 0.45 || g.P90 < 0.85 {
					t.Errorf("rtf range %+v, want about 0.3..1.0", g)
				}
				if math.Abs(w.WallRateHz-20) > 0.5 || math.Abs(s.SimRateHz-10) > 0.2 {
					t.Errorf("rates: wall timer %.2f Hz wall, sim timer %.2f Hz sim", w.WallRateHz, s.SimRateHz)
				}
			}},
		{c: timeCase{name: "rtf_1", durS: 20, rtf: constRTF(1)},
			findings: []string{},
			verdict:  "/sim_scan, /wall_scan and tf are on the same clock",
			check: func(t *testing.T, rep *Report) {
				for _, tc := range rep.TimerClocks {
					if tc.Flagged || tc.Clock != TimerIndistinguishable {
						t.Errorf("%+v: at real-time factor 1 the clocks cannot be told apart", tc)
					}
				}
				if len(rep.TimerClocks) != 2 {
					t.Errorf("timer clocks %+v, want both topics", rep.TimerClocks)
				}
			}},
		{c: timeCase{name: "ntp_back", durS: 20, stepAtS: 10, stepNS: -800_000_000},
			findings: []string{"jump", "clock-step"},
			verdict:  "The recorder's system clock stepped back by 7",
			check: func(t *testing.T, rep *Report) {
				if len(rep.ClockSteps) != 1 || rep.Counts.ClockSteps != 1 {
					t.Fatalf("steps %+v", rep.ClockSteps)
				}
				s := rep.ClockSteps[0]
				if s.Source != StepRecordTime || s.Kind != "backward" || math.Abs(s.StepS+0.8) > 0.03 || math.Abs(s.AtS-10) > 0.05 {
					t.Errorf("step %+v, want record time back 0.8 s at 10 s", s)
				}
				if !contains(s.Stepped, "/scan") || !contains(s.Stepped, "odom->base_link") {
					t.Errorf("stepped %v, want /scan and odom->base_link", s.Stepped)
				}
				if len(rep.ClockJumps) != 0 {
					t.Errorf("clock jumps %+v: no /clock here", rep.ClockJumps)
				}
			}},
		{c: timeCase{name: "ntp_forward_remote", durS: 20, stepAtS: 10, stepNS: 2_000_000_000, remote: true},
			// From the step on the two machines are 2 s apart: the rows
			// show that as skew, the step says why.
			findings: []string{"clock-mismatch", "jump", "skew", "clock-step"},
			verdict:  "/remote_scan and tf (odom->base_link) are -1.99",
			check: func(t *testing.T, rep *Report) {
				if !containsSub(rep.Verdict.Evidence, "The recorder's system clock stepped forward by 2.0") {
					t.Errorf("evidence %q", rep.Verdict.Evidence)
				}
				if a := ageOf(rep, "/remote_scan"); a == nil || a.Kind != AgeClockOffset {
					t.Errorf("/remote_scan age %+v, want clock_offset (not stale)", a)
				}
				if len(rep.ClockSteps) != 1 {
					t.Fatalf("steps %+v", rep.ClockSteps)
				}
				s := rep.ClockSteps[0]
				if s.Kind != "forward" || !s.Confirmed || math.Abs(s.StepS-2) > 0.03 || math.Abs(s.AtS-10) > 0.05 ||
					!contains(s.Stepped, "/scan") || !contains(s.Stepped, "odom->base_link") || !equalStrings(s.Unstepped, []string{"/remote_scan"}) {
					t.Errorf("step %+v, want record time forward 2 s, /scan and tf stepped, /remote_scan not", s)
				}
			}},
		// The same step with every publisher on the recorder's machine: a
		// pause of everything looks the same, so it is reported, not a
		// finding.
		{c: timeCase{name: "ntp_forward_one_machine", durS: 20, stepAtS: 10, stepNS: 2_000_000_000},
			findings: []string{"jump"},
			verdict:  "/scan and tf are on the same clock",
			check: func(t *testing.T, rep *Report) {
				if len(rep.ClockSteps) != 1 || rep.ClockSteps[0].Confirmed || math.Abs(rep.ClockSteps[0].StepS-2) > 0.03 {
					t.Fatalf("steps %+v, want one unconfirmed forward jump of 2 s", rep.ClockSteps)
				}
				if !containsSub(rep.Verdict.Evidence, "Record time jumps forward by 2.0") {
					t.Errorf("evidence %q", rep.Verdict.Evidence)
				}
			}},
		// A sim recording whose recorder clock steps: /clock goes on by a
		// tick while record time jumps 2 s.
		{c: timeCase{name: "ntp_forward_sim", durS: 20, rtf: constRTF(1), stepAtS: 10, stepNS: 2_000_000_000},
			findings: []string{"clock-step"},
			verdict:  "The recorder's system clock stepped forward by 2.0",
			check: func(t *testing.T, rep *Report) {
				if len(rep.ClockSteps) != 1 || !rep.ClockSteps[0].Confirmed || len(rep.ClockJumps) != 0 {
					t.Fatalf("steps %+v, clock jumps %+v", rep.ClockSteps, rep.ClockJumps)
				}
				for _, tc := range rep.TimerClocks {
					if tc.Flagged {
						t.Errorf("%+v flagged: a record-time step is no wall timer", tc)
					}
				}
			}},
		{c: timeCase{name: "stuck_zero", durS: 10, rtf: constRTF(1), stuckZero: true},
			findings: []string{"zero-stamp", "stuck-zero"},
			check: func(t *testing.T, rep *Report) {
				if len(rep.StuckZero) != 1 {
					t.Fatalf("stuck zero %+v", rep.StuckZero)
				}
				z := rep.StuckZero[0]
				if z.Topic != "/zero_scan" || z.Kind != StuckWholeLife || z.Zero != 100 || z.Messages != 100 || len(z.Nodes) != 1 || z.Nodes[0] != "/zero_driver (use_sim_time=true)" {
					t.Errorf("stuck zero %+v", z)
				}
				if z.LastS-z.FirstS < 9.8 || z.ClockStartS == nil || *z.ClockStartS > 0.01 {
					t.Errorf("window %.2f..%.2f s, clock from %v", z.FirstS, z.LastS, z.ClockStartS)
				}
				if !containsSub(rep.Verdict.Evidence, "/zero_scan is stamped 0 its whole life in the bag") {
					t.Errorf("evidence %q", rep.Verdict.Evidence)
				}
			}},
		{c: timeCase{name: "late_120ms", durS: 10, lateNS: 120_000_000},
			findings: []string{},
			check: func(t *testing.T, rep *Report) {
				a := ageOf(rep, "/late_scan")
				if a == nil || a.Kind != AgeConstantOffset || math.Abs(a.MedianS-0.121) > 0.002 || a.OverMax != 0 || a.Reference != "record_time" {
					t.Fatalf("age %+v, want a constant 121 ms", a)
				}
				if s := ageOf(rep, "/scan"); s == nil || s.Kind != AgeOK || s.MedianS > 0.004 {
					t.Errorf("/scan age %+v", s)
				}
				if !containsSub(rep.Verdict.Evidence, "/late_scan: age is a constant 12") {
					t.Errorf("evidence %q", rep.Verdict.Evidence)
				}
			}},
		{c: timeCase{name: "late_stale", durS: 10, lateNS: 120_000_000}, cfg: Config{MaxAgeNS: 100_000_000},
			findings: []string{"stale"},
			verdict:  "/late_scan is often stale: 100% of its messages are older than 100.0 ms",
		},
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, tc := range cases {
			t.Run(storage+"/"+tc.c.name, func(t *testing.T) {
				rep := analyzeTimeCase(t, tc.c, storage, tc.cfg)
				if !equalStrings(rep.Summary.Findings, tc.findings) {
					t.Errorf("findings = %v, want %v", rep.Summary.Findings, tc.findings)
				}
				if len(rep.Verdict.Sentence) < len(tc.verdict) || rep.Verdict.Sentence[:len(tc.verdict)] != tc.verdict {
					t.Errorf("verdict = %q, want it to start %q", rep.Verdict.Sentence, tc.verdict)
				}
				if tc.check != nil {
					tc.check(t, rep)
				}
				t.Logf("verdict: %s\nevidence: %q\ntimers: %+v\nages: %+v\nsteps: %+v", rep.Verdict.Sentence, rep.Verdict.Evidence, rep.TimerClocks, rep.Ages, rep.ClockSteps)
			})
		}
	}
}
