package analysis

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestVerdictCases: each generated verdict case, in both storage formats,
// gets the headline, the one evidence line and the findings its situation
// calls for, and nothing it does not (no fake zeros, no per-topic noise).
func TestVerdictCases(t *testing.T) {
	cases := []struct {
		name     string
		class    string
		sentence string // exact headline ("" = check prefix)
		prefix   string
		evidence []string // each must be in exactly one evidence line
		findings string   // Summary.Findings joined
		not      []string // must appear in no sentence, evidence or command
		check    func(t *testing.T, rep *Report)
	}{
		{name: scenario.StartupDrop, class: VerdictNoProblem,
			sentence: "/scan and tf are on the same clock (median 0.0 ms apart) and no scan is dropped by the rviz-laserscan filter: no clock problem in this bag.",
			evidence: []string{"stamped before the first transform on their path were dropped at start-up"},
			check: func(t *testing.T, rep *Report) {
				p := rep.Pairs[0]
				if p.StartupDrops == 0 || p.StartupDrops != p.Filter["dropped_out_the_back"]+p.Filter["dropped_queue_full"] {
					t.Errorf("pair %+v: want every drop counted as start-up", p)
				}
			}},
		{name: scenario.SimWallRecorder, class: VerdictNoProblem,
			sentence: "/scan and tf are on the same clock (median 0.0 ms apart) and no scan is dropped by the rviz-laserscan filter: no clock problem in this bag.",
			evidence: []string{"Stamps of every stamped topic and tf link are on sim time (/clock) and the recorder ran on wall time, normal for simulation"},
			not:      []string{"different_clock", "check chrony"},
			check:    skewKinds(SkewSimTime)},
		{name: scenario.SimNoClock, class: VerdictNoProblem,
			sentence: "/scan and tf are on the same clock (median 0.0 ms apart) and no scan is dropped by the rviz-laserscan filter: no clock problem in this bag.",
			evidence: []string{"the bag has no /clock: it was recorded without /clock", "`ros2 bag play --clock` publishes record time"},
			not:      []string{"different_clock"},
			check:    skewKinds(SkewSimTime)},
		{name: scenario.NoTFBag, class: VerdictNoTF,
			sentence: "This bag has no /tf or /tf_static: the clocks of /scan cannot be checked against transforms; record tf with the sensors (ros2 bag record /tf /tf_static ...).",
			not:      []string{"odom", "median diff", "0.0 ms", "/<"}},
		{name: scenario.ManyStatic, class: VerdictNoProblem,
			sentence: "/scan and tf are on the same clock (median 0.0 ms apart) and no scan is dropped by the rviz-laserscan filter: no clock problem in this bag.",
			evidence: []string{"59 static links are stamped on another clock than dynamic tf"},
			check: func(t *testing.T, rep *Report) {
				n := 0
				for _, e := range rep.Verdict.Evidence {
					if strings.Contains(e, "static_") {
						n++
					}
				}
				if n != 1 {
					t.Errorf("%d evidence lines name static links, want one folded line: %q", n, rep.Verdict.Evidence)
				}
			}},
		{name: scenario.ReRecorded, class: VerdictTFTree + TFOffsetFromRecorder,
			prefix:   "/scan and tf are on the same clock (median 2.0 ms apart) and no scan is dropped by the rviz-laserscan filter; but the tf tree has a warning: Every tf stamp lags record time by the same 30.0 days and /rosout has rosbag2_player lines: this bag was re-recorded while `ros2 bag play` ran without --clock",
			evidence: []string{"this bag was re-recorded while `ros2 bag play` ran without --clock"},
			findings: "skew",
			not:      []string{"check chrony", "chrony"}},
		{name: scenario.ResetRefill, class: VerdictClockJumpBack,
			sentence: "/clock jumps back 1 time (a looping bag or a simulator reset): every sim-time node clears its tf buffer each time; /scan and tf are otherwise on the same clock (median 0.0 ms apart).",
			evidence: []string{"12 messages were dropped within the first 10 s of sim time after a /clock jump back"},
			findings: "jump",
			not:      []string{"stamped before the first transform", "not a clock problem"}},
		{name: scenario.ResetTFLate, class: VerdictClockJumpBack,
			prefix:   "/clock jumps back 1 time (a looping bag or a simulator reset): every sim-time node clears its tf buffer each time; /scan and tf are otherwise on the same clock (median 0.0 ms apart), yet 31 scans were dropped outside start-up: not a clock problem; check that every tf publisher restarts with the simulator",
			evidence: []string{"200 messages were dropped within the first 10 s of sim time after a /clock jump back"},
			findings: "drop,jump"},
		{name: scenario.OdomUnderMap, class: VerdictNoProblem,
			sentence: "/scan, /odom and tf are on the same clock (median 0.0 ms apart) and no message is dropped by the emulated filters (rviz-laserscan, rviz-display): no clock problem in this bag.",
			evidence: []string{"Checked against 'map', the root of the tf tree, not the default target 'odom'"},
			not:      []string{"target frame 'odom' already"}},
		{name: scenario.MissingLink, class: VerdictMissingLink,
			sentence: "Frame 'laser' is never connected to 'odom' in this bag's tf ('laser' hangs under 'laser_mount', in a tree without 'odom'): a missing static transform or URDF link, not a clock problem; a consumer with fixed frame 'odom' drops every one of /scan's 100 scans. Publish the link (robot_state_publisher with the full URDF, or a static_transform_publisher) and record /tf_static from the start.",
			findings: "missing-link",
			not:      []string{"laser_mount, the root", "static_only"}},
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, tc := range cases {
			t.Run(storage+"/"+tc.name, func(t *testing.T) {
				rep := analyseDir(t, caseBag(t, tc.name, storage))
				v := rep.Verdict
				if tc.sentence != "" && v.Sentence != tc.sentence || tc.prefix != "" && !strings.HasPrefix(v.Sentence, tc.prefix) {
					t.Errorf("verdict\n got %q\nwant %q%q", v.Sentence, tc.sentence, tc.prefix)
				}
				if v.Class != tc.class {
					t.Errorf("class %q, want %q", v.Class, tc.class)
				}
				if got := strings.Join(rep.Summary.Findings, ","); got != tc.findings {
					t.Errorf("findings %q, want %q", got, tc.findings)
				}
				for _, want := range tc.evidence {
					n := 0
					for _, e := range v.Evidence {
						if strings.Contains(e, want) {
							n++
						}
					}
					if n != 1 {
						t.Errorf("%d evidence lines contain %q, want 1: %q", n, want, v.Evidence)
					}
				}
				all := append(append([]string{v.Sentence}, v.Evidence...), v.Commands...)
				for _, bad := range tc.not {
					if containsSub(all, bad) {
						t.Errorf("%q appears in the verdict: %q", bad, all)
					}
				}
				for _, s := range rep.Skew {
					if s.Kind == SkewDifferentClock {
						t.Errorf("skew %+v: no real mixture in this bag", s)
					}
				}
				if tc.check != nil {
					tc.check(t, rep)
				}
			})
		}
	}
}

// skewKinds checks every skew row with samples is of kind k.
func skewKinds(k string) func(t *testing.T, rep *Report) {
	return func(t *testing.T, rep *Report) {
		if len(rep.Skew) == 0 {
			t.Fatal("no skew rows")
		}
		for _, s := range rep.Skew {
			if s.Count > 0 && s.Kind != k {
				t.Errorf("skew %+v, want kind %s", s, k)
			}
		}
	}
}
