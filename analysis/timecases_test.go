package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
)

func analyzeTimeCase(t *testing.T, name, storage string, cfg Config) *Report {
	t.Helper()
	return analyzeBag(t, timeCaseBag(t, name, storage), cfg, nil)
}

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
		name     string // scenario time case
		label    string // subtest name when not name
		cfg      Config
		findings []string // exactly these
		verdict  string   // the sentence starts with this
		command  string   // the first confirm command, when set
		check    func(t *testing.T, rep *Report)
	}{
		{name: "rtf_0.5",
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
		// The same at 0.5 with the wall timer on /cmd_vel, a topic without a
		// header read for its record times alone, and /battery_level (no
		// header either) on a timer on its node's clock.
		{name: "rtf_0.5_no_header",
			findings: []string{"wall-timer"},
			verdict:  "/cmd_vel comes from a wall timer: at real-time factor 0.50 it publishes 2.0× per sim period: use rclcpp::create_timer with the node's clock, or rclcpp::Rate with the node's clock.",
			command:  "ros2 topic hz /cmd_vel",
			check: func(t *testing.T, rep *Report) {
				w, b := timerOf(rep, "/cmd_vel"), timerOf(rep, "/battery_level")
				if w == nil || b == nil {
					t.Fatalf("timer clocks %+v", rep.TimerClocks)
				}
				if w.Clock != TimerWall || !w.Flagged || !w.RecordTimeOnly || w.Confidence < 0.9 || math.Abs(w.WallRateHz-20) > 0.5 || math.Abs(w.SimRateHz-40) > 1 {
					t.Errorf("/cmd_vel = %+v, want wall, flagged, record times only, 20 Hz wall and 40 Hz sim", *w)
				}
				if b.Clock != TimerSim || b.Flagged || !b.RecordTimeOnly || b.Confidence < 0.9 || math.Abs(b.WallRateHz-5) > 0.2 || math.Abs(b.SimRateHz-10) > 0.2 {
					t.Errorf("/battery_level = %+v, want sim, not flagged, 5 Hz wall and 10 Hz sim", *b)
				}
				for _, tp := range rep.Topics {
					if (tp.Topic == "/cmd_vel" || tp.Topic == "/battery_level") && tp.Role != TopicRecordTime {
						t.Errorf("topic %+v, want role %s", tp, TopicRecordTime)
					}
				}
			}},
		{name: "rtf_varying",
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
		{name: "rtf_1",
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
		{name: "ntp_back",
			findings: []string{"jump", "clock-step"},
			verdict:  "The recorder's system clock stepped back by 7",
			command:  "chronyc tracking",
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
		{name: "ntp_forward_remote",
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
		{name: "ntp_forward_one_machine",
			findings: []string{"jump"},
			verdict:  "/scan and tf are on the same clock",
			check: func(t *testing.T, rep *Report) {
				if len(rep.ClockSteps) != 1 || rep.ClockSteps[0].Confirmed || math.Abs(rep.ClockSteps[0].StepS-2) > 0.03 {
					t.Fatalf("steps %+v, want one unconfirmed forward jump of 2 s", rep.ClockSteps)
				}
				if !containsSub(rep.Verdict.Evidence, "Record time jumps forward by 2.0") {
					t.Errorf("evidence %q", rep.Verdict.Evidence)
				}
				// Not "no clock problem" beside the jump finding.
				if !strings.HasSuffix(rep.Verdict.Sentence, "; but the bag's time jumps 2 times (see the evidence).") {
					t.Errorf("verdict %q does not point at the jumps", rep.Verdict.Sentence)
				}
			}},
		// A sim recording whose recorder clock steps: /clock goes on by a
		// tick while record time jumps 2 s.
		{name: "ntp_forward_sim",
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
		// The sensor machine's clock steps back 0.8 s while the recorder's
		// runs on: seen only in the stamps of /scan and tf, stepping
		// together. Their age from then on is the two clocks' offset, not
		// stale data.
		{name: "ntp_back_sensor_machine",
			findings: []string{"jump", "clock-step"},
			verdict:  "The system clock of the publishing machine stepped back by 800.0 ms at +10.0 s (record time): the stamps of odom->base_link and /scan jump together while record time runs on (NTP or a manual clock set on that machine); durations measured across it are wrong.",
			check: func(t *testing.T, rep *Report) {
				if len(rep.ClockSteps) != 1 {
					t.Fatalf("steps %+v", rep.ClockSteps)
				}
				s := rep.ClockSteps[0]
				if s.Source != StepStamps || s.Kind != "backward" || !s.Confirmed || math.Abs(s.StepS+0.8) > 0.005 || math.Abs(s.AtS-10) > 0.05 ||
					!equalStrings(s.Stepped, []string{"odom->base_link", "/scan"}) {
					t.Errorf("step %+v, want the stamps of /scan and tf back 0.8 s at 10 s", s)
				}
				if a := ageOf(rep, "/scan"); a == nil || a.Kind != AgeClockOffset || a.OverMax != 200 {
					t.Errorf("/scan age %+v, want clock_offset with the 200 messages after the step over 0.5 s", a)
				}
				if rep.Verdict.Class != "time" {
					t.Errorf("class %q, want time", rep.Verdict.Class)
				}
			}},
		{name: "stuck_zero",
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
		// /clock starts 3 s late: the wall timer's node stamps now() = 0
		// until the first tick arrives, then sim time. The 60 scans stamped
		// 0 before any tf are dropped by the emulated filter.
		{name: "zero_until_clock",
			findings: []string{"drop", "zero-stamp", "stuck-zero"},
			verdict:  "/wall_scan has 60 scans stamped 0: the laser driver uses sim time but published before it received /clock; tf2 pairs those scans with the latest pose.",
			check: func(t *testing.T, rep *Report) {
				if len(rep.StuckZero) != 1 {
					t.Fatalf("stuck zero %+v", rep.StuckZero)
				}
				z := rep.StuckZero[0]
				if z.Topic != "/wall_scan" || z.Kind != StuckUntilClock || z.Zero != 60 || z.Messages != 200 || z.ClockStartS == nil || math.Abs(*z.ClockStartS-3) > 0.01 || z.LastS > 3 {
					t.Errorf("stuck zero %+v, want /wall_scan at 0 for its first 60 of 200 messages, until /clock at 3 s", z)
				}
				if !containsSub(rep.Verdict.Evidence, "/wall_scan is stamped 0 until the first /clock (60 messages, +0.0 s .. +3.0 s)") {
					t.Errorf("evidence %q", rep.Verdict.Evidence)
				}
				if rep.Verdict.Class != string(ZeroStamp) {
					t.Errorf("class %q, want %s", rep.Verdict.Class, ZeroStamp)
				}
				for _, tc := range rep.TimerClocks {
					if tc.Flagged {
						t.Errorf("%+v flagged at real-time factor 1", tc)
					}
				}
			}},
		// At a constant 0.5 a wall timer whose callbacks run up to 30 ms
		// late is irregular in both clocks: the bag cannot tell its timer,
		// and the headline says so rather than only "no clock problem".
		{name: "rtf_0.5_busy_wall",
			findings: []string{},
			verdict:  "/sim_scan, /wall_scan and tf are on the same clock (median 0.0 ms apart) and no scan is dropped by the rviz-laserscan filter: no clock problem in this bag, though the bag cannot tell whether /wall_scan follows a wall or a sim timer (see the evidence).",
			check: func(t *testing.T, rep *Report) {
				w := timerOf(rep, "/wall_scan")
				if w == nil || w.Clock != TimerUndetermined || w.Flagged {
					t.Fatalf("wall timer %+v, want undetermined, not flagged", w)
				}
				if !containsSub(rep.Verdict.Evidence, "The bag cannot tell which clock /wall_scan's timer follows: at a constant real-time factor of 0.50 a 20.0 Hz wall timer and a 40.0 Hz sim timer publish alike") {
					t.Errorf("evidence %q", rep.Verdict.Evidence)
				}
				if s := timerOf(rep, "/sim_scan"); s == nil || s.Clock != TimerSim || s.Sentence != "" {
					t.Errorf("sim timer %+v, want sim and no sentence", s)
				}
			}},
		{name: "late_120ms",
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
		{name: "late_120ms", label: "late_120ms_max_age_0.1", cfg: Config{MaxAgeNS: 100_000_000},
			findings: []string{"stale"},
			verdict:  "/late_scan is often stale: 100% of its messages are older than 100.0 ms",
			command:  "ros2 topic delay /late_scan",
		},
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, tc := range cases {
			label := tc.label
			if label == "" {
				label = tc.name
			}
			t.Run(storage+"/"+label, func(t *testing.T) {
				rep := analyzeTimeCase(t, tc.name, storage, tc.cfg)
				if !equalStrings(rep.Summary.Findings, tc.findings) {
					t.Errorf("findings = %v, want %v", rep.Summary.Findings, tc.findings)
				}
				if len(rep.Verdict.Sentence) < len(tc.verdict) || rep.Verdict.Sentence[:len(tc.verdict)] != tc.verdict {
					t.Errorf("verdict = %q, want it to start %q", rep.Verdict.Sentence, tc.verdict)
				}
				// A finding that leads keeps the healthy rows' sentence as
				// evidence, without the "no clock problem" that would
				// contradict it.
				if rep.Verdict.Class == VerdictTime && containsSub(rep.Verdict.Evidence, "no clock problem") {
					t.Errorf("evidence under a time finding says there is no clock problem: %q", rep.Verdict.Evidence)
				}
				// Its commands confirm that finding, not a healthy sensor.
				if rep.Verdict.Class == VerdictTime && (len(rep.Verdict.Commands) == 0 || containsSub(rep.Verdict.Commands, "tf2_echo")) {
					t.Errorf("commands under a time finding: %q", rep.Verdict.Commands)
				}
				if tc.command != "" && (len(rep.Verdict.Commands) == 0 || rep.Verdict.Commands[0] != tc.command) {
					t.Errorf("commands = %q, want %q first", rep.Verdict.Commands, tc.command)
				}
				if tc.check != nil {
					tc.check(t, rep)
				}
				t.Logf("verdict: %s\nevidence: %q\ntimers: %+v\nages: %+v\nsteps: %+v", rep.Verdict.Sentence, rep.Verdict.Evidence, rep.TimerClocks, rep.Ages, rep.ClockSteps)
			})
		}
	}
}

// TestRowAges checks each row's age against the clock its stamp is on (the
// CSV and JSON age_s): record time for system-time stamps, /clock for
// sim-time ones, none for a stamp of 0.
func TestRowAges(t *testing.T) {
	cases := []struct {
		name   string
		topic  string
		lo, hi int64 // bounds of the age of the topic's stamped rows
		noAge  int   // rows of the topic without an age (stamp 0)
	}{
		// Published 120 ms after capture, recorded 0.5..1.5 ms later.
		{"late_120ms", "/late_scan", 120_500_000, 121_500_000, 0},
		// Stamped with the last tick received: at most one 10 ms tick
		// behind the /clock in force when recorded; 0 before /clock.
		{"zero_until_clock", "/wall_scan", 0, 10_000_000, 60},
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, tc := range cases {
			t.Run(storage+"/"+tc.name, func(t *testing.T) {
				rows, noAge := 0, 0
				analyzeBag(t, timeCaseBag(t, tc.name, storage), Config{}, func(r *ScanRow) error {
					if r.Topic != tc.topic {
						return nil
					}
					rows++
					want, ok := r.LogTimeNS-r.StampNS, r.StampNS != 0
					if r.StampNS < EpochThresholdNS {
						want, ok = r.ClockNS-r.StampNS, r.StampNS != 0 && r.HasClock
					}
					switch {
					case r.HasAge != ok || ok && r.AgeNS != want:
						t.Errorf("%s #%d: age %d (has %v), want %d (has %v)", r.Topic, r.ScanIndex, r.AgeNS, r.HasAge, want, ok)
					case !ok:
						noAge++
					case r.AgeNS < tc.lo || r.AgeNS > tc.hi:
						t.Errorf("%s #%d: age %d ns, want %d..%d", r.Topic, r.ScanIndex, r.AgeNS, tc.lo, tc.hi)
					}
					return nil
				})
				if rows == 0 || noAge != tc.noAge {
					t.Errorf("%d rows of %s, %d without an age, want %d", rows, tc.topic, noAge, tc.noAge)
				}
			})
		}
	}
}
