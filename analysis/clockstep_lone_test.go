package analysis

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestLoneSeriesStepAhead: the clock of a machine with one topic steps
// forward by 800 ms. The step is under the 1 s jump threshold and nothing
// else steps with it, but its stamps land ahead of their own receipt, which
// no delay does: a confirmed clock step naming what did not step, and the
// drops it causes are not called "not a clock problem".
func TestLoneSeriesStepAhead(t *testing.T) {
	for _, storage := range []string{"mcap", "sqlite3"} {
		t.Run(storage, func(t *testing.T) {
			rep := robotReport(t, storage, scenario.Noise{Seed: 7, Steps: []scenario.Step{{Machine: scenario.MachineSensors, At: 5 * time.Second, By: 800 * time.Millisecond}}}, nil)
			var st *ClockStep
			for i := range rep.ClockSteps {
				if rep.ClockSteps[i].Confirmed && rep.ClockSteps[i].Source == StepStamps {
					st = &rep.ClockSteps[i]
				}
			}
			if st == nil {
				t.Fatalf("no confirmed stamps step: %+v", rep.ClockSteps)
			}
			if !slices.Equal(st.Stepped, []string{"/scan"}) || !slices.Contains(st.Unstepped, "odom->base_link") || st.StepS < 0.7 || st.StepS > 0.9 {
				t.Errorf("step %+v", st)
			}
			if !slices.Contains(rep.Summary.Findings, "clock-step") {
				t.Errorf("findings %v", rep.Summary.Findings)
			}
			v := rep.Verdict
			if !strings.HasPrefix(v.Sentence, "The clock stamping /scan stepped forward by") || !strings.Contains(v.Sentence, "odom->base_link did not step") {
				t.Errorf("headline: %s", v.Sentence)
			}
			for _, e := range v.Evidence {
				if strings.Contains(e, "not a clock problem") {
					t.Errorf("evidence contradicts the headline: %s", e)
				}
			}
		})
	}
}

func TestLoneStepShown(t *testing.T) {
	const s = int64(1_790_000_000_000_000_000)
	fwd := ClockJump{Kind: "forward", Topic: "/scan", PrevLogTimeNS: s + 1_002_000_000, FromNS: s + 1_000_000_000, LogTimeNS: s + 1_052_000_000, ToNS: s + 1_850_000_000}
	back := func(after int64) ClockJump {
		return ClockJump{Kind: "backward", Topic: "/scan", LogTimeNS: fwd.LogTimeNS + after, FromNS: s + 2_000_000_000, ToNS: s + 1_200_000_000}
	}
	stays := fwd
	stays.ToNS = s + 1_040_000_000 // lands 12 ms behind its receipt: a late stamp
	small := fwd
	small.ToNS = fwd.LogTimeNS + 100_000_000 // 100 ms ahead, but only 102 ms of step
	stepBack := ClockJump{Kind: "backward", Topic: "/scan", PrevLogTimeNS: s + 1_002_000_000, FromNS: s + 1_000_000_000, LogTimeNS: s + 1_052_000_000, ToNS: s + 250_000_000}
	periodBack := stepBack
	periodBack.ToNS = s + 950_000_000
	fwdAfter := ClockJump{Kind: "forward", Topic: "/scan", LogTimeNS: stepBack.LogTimeNS + 300_000_000}
	cases := []struct {
		name  string
		j     ClockJump
		later []ClockJump
		want  bool
	}{
		{"ahead and stays", fwd, nil, true},
		{"back within a second: a glitch", fwd, []ClockJump{back(400_000_000)}, false},
		{"back much later: another step", fwd, []ClockJump{back(5_000_000_000)}, true},
		{"behind its receipt", stays, nil, false},
		{"a step too small", small, nil, false},
		{"no record time before it", back(0), nil, false},
		{"back 800 ms and on from there", stepBack, nil, true},
		{"back a period", periodBack, nil, false},
		{"back, then forward within a second", stepBack, []ClockJump{fwdAfter}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := loneStepShown(c.j, nil, c.later); got != c.want {
				t.Errorf("loneStepShown = %v, want %v", got, c.want)
			}
		})
	}
}

// TestGapShiftSettle: after a gap, the lag the 2nd and 3rd seconds settle
// at says whether the clock stepped inside it (and by how much), or the
// series only came late and settled back.
func TestGapShiftSettle(t *testing.T) {
	const ms = int64(1_000_000)
	cases := []struct {
		name     string
		min2     int64 // least age in the 2nd second after the gap; 0: no message
		min3     int64
		kind     string // "": no step
		stepNSAt int64  // stampStepNS of the step
	}{
		{"settled back: late delivery", 3 * ms, 2 * ms, "", 0},
		{"lag 800 ms higher: stepped back", 802 * ms, 803 * ms, "backward", -800 * ms},
		{"lag 600 ms lower: stepped forward", -598 * ms, -597 * ms, "forward", 600 * ms},
		{"still draining: not steady", 900 * ms, 400 * ms, "", 0},
		{"a shift under 250 ms", 150 * ms, 151 * ms, "", 0},
		{"the bag ends first", 802 * ms, 0, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const at = int64(10_000_000_000)
			g := gapShift{open: true, before: 2 * ms, logNS: at, prevLog: at - 2000*ms, prevStamp: at - 2002*ms, topic: "/scan"}
			feed := []struct{ t, age int64 }{{at + 100*ms, 950 * ms}}
			if c.min2 != 0 {
				feed = append(feed, struct{ t, age int64 }{at + 1500*ms, c.min2})
			}
			if c.min3 != 0 {
				feed = append(feed, struct{ t, age int64 }{at + 2500*ms, c.min3}, struct{ t, age int64 }{at + 3100*ms, c.min3})
			}
			var got ClockJump
			var ok bool
			for _, f := range feed {
				if j, k := g.settle(f.t, f.age, false); k {
					got, ok = j, true
				}
			}
			if j, k := g.settle(0, 0, true); k {
				got, ok = j, true
			}
			if ok != (c.kind != "") || ok && (got.Kind != c.kind || absI(stampStepNS(got)-c.stepNSAt) > ms) {
				t.Fatalf("got %+v (ok %v, step %d), want %q by %d", got, ok, stampStepNS(got), c.kind, c.stepNSAt)
			}
		})
	}
}
