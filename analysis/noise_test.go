package analysis

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// noiseSeeds is how many seeds the property tests draw per case: each
// bag is a few seconds long, so the whole matrix stays cheap.
const noiseSeeds = 12

// noiseDuration is each noisy bag's length: past the 5 s start-up backlog
// with room for a burst and a stall.
const noiseDuration = 8 * time.Second

// noisyCase is one scenario of the property tests: a case, the noise a
// seed gives it, and what the verdict must say.
type noisyCase struct {
	name string
	spec func(seed uint64) scenario.Spec
	// healthy: no finding at all, verdict no_problem. Otherwise lead
	// lists the verdict classes that name the fault and finding is the
	// --fail-on kind it must raise.
	healthy bool
	lead    []string
	finding string
}

func noisySpec(name string, seed uint64, extra func(*scenario.Noise)) scenario.Spec {
	s, _ := scenario.Get(name) // a known case
	s.Duration = noiseDuration
	s.Ranges = 30
	s.Odometry = seed%2 == 0
	s.Sensors = seed%3 == 0
	n := scenario.NoiseMatrix(seed, noiseDuration)
	if extra != nil {
		extra(&n)
	}
	s.Noise = &n
	return s
}

func noisyCases() []noisyCase {
	var out []noisyCase
	for _, name := range []string{scenario.BothSystem, scenario.BothSim} {
		out = append(out, noisyCase{name: name, healthy: true, spec: func(seed uint64) scenario.Spec {
			return noisySpec(name, seed, nil)
		}})
	}
	fault := func(name, base string, lead []string, finding string, extra func(*scenario.Noise)) noisyCase {
		return noisyCase{name: name, lead: lead, finding: finding, spec: func(seed uint64) scenario.Spec {
			return noisySpec(base, seed, extra)
		}}
	}
	one := func(c string) []string { return []string{c} }
	stepBack := fault("robot_step_back_800ms", scenario.BothSystem, one(VerdictTime), "clock-step", func(n *scenario.Noise) {
		n.Steps = []scenario.Step{{Machine: scenario.MachineRobot, At: 6500 * time.Millisecond, By: -800 * time.Millisecond}}
	})
	stepFwd := fault("robot_step_800ms", scenario.BothSystem, one(VerdictTime), "clock-step", func(n *scenario.Noise) {
		n.Steps = []scenario.Step{{Machine: scenario.MachineRobot, At: 6500 * time.Millisecond, By: 800 * time.Millisecond}}
	})

	out = append(out,
		fault("laser_system_tf_sim", scenario.LaserSystemTFSim, one(scenario.ClassLaserOnSystemClock), "clock-mismatch", nil),
		fault("laser_sim_tf_system", scenario.LaserSimTFSystem, one(scenario.ClassTFOnSystemClock), "clock-mismatch", nil),
		fault("laser_zero_stamp", scenario.LaserZeroStamp, one(scenario.ClassZeroStamp), "zero-stamp", nil),
		fault("skew_2_5s", scenario.Skew2500ms, one(scenario.ClassClockSkew), "skew", nil),
		stepBack, stepFwd,
		// The sensor machine alone steps (tf does not): with one topic on
		// it (seeds without --sensors) nothing steps with it.
		fault("sensors_step_800ms", scenario.BothSystem, one(VerdictTime), "clock-step", func(n *scenario.Noise) {
			n.Steps = []scenario.Step{{Machine: scenario.MachineSensors, At: 6500 * time.Millisecond, By: 800 * time.Millisecond}}
		}),
		fault("sensors_step_back_800ms", scenario.BothSystem, one(VerdictTime), "clock-step", func(n *scenario.Noise) {
			n.Steps = []scenario.Step{{Machine: scenario.MachineSensors, At: 6500 * time.Millisecond, By: -800 * time.Millisecond}}
		}),
		// The same step inside a 2 s stall of the sensors' link, only its
		// last 150 ms delivered: no two messages show the step, the lag
		// the 3 s after the stall settle at does.
		fault("sensors_step_back_in_stall", scenario.BothSystem, one(VerdictTime), "clock-step", func(n *scenario.Noise) {
			n.Stalls = append(n.Stalls, scenario.Stall{Machine: scenario.MachineSensors, At: 2500 * time.Millisecond, Dur: 2 * time.Second, KeepLast: 150 * time.Millisecond})
			n.Steps = []scenario.Step{{Machine: scenario.MachineSensors, At: 3500 * time.Millisecond, By: -800 * time.Millisecond}}
		}),
		// A robot clock 40 ms ahead: a time finding, or the cause of the
		// drops it makes (clock_skew).
		fault("robot_ahead_40ms", scenario.BothSystem, []string{VerdictTime, scenario.ClassClockSkew}, "skew", func(n *scenario.Noise) {
			n.RobotOffset = 40 * time.Millisecond
		}),
	)
	return out
}

// noiseOutcome is what one noisy bag's analysis said.
type noiseOutcome struct {
	healthy bool
	ok      bool // healthy with no finding, or faulty with the right lead
	// tfStallDrops: a healthy bag whose only finding is the drops a stall
	// of the tf machine really causes (RViz's queue of 10 scans lasts 0.5
	// s), worded as not a clock problem.
	tfStallDrops bool
	what         string
	findings     []string
}

// clockFindings are the --fail-on kinds about clocks and time (all but
// drop, damage, tf-tree and missing-link).
var clockFindings = []string{"clock-mismatch", "jump", "zero-stamp", "skew", "wall-timer", "clock-step", "stuck-zero", "stale"}

func runNoisyCase(t *testing.T, c noisyCase, seed uint64, storage string) noiseOutcome {
	t.Helper()
	spec := c.spec(seed)
	rep := analyzeBag(t, specBag(t, spec, storage), Config{}, nil)
	o := noiseOutcome{healthy: c.healthy, findings: rep.Summary.Findings}
	o.what = fmt.Sprintf("%s seed %d %s (%v): verdict %s %v: %s", c.name, seed, storage, *spec.Noise, rep.Verdict.Class, rep.Summary.Findings, rep.Verdict.Sentence)
	if c.healthy {
		o.ok = len(rep.Summary.Findings) == 0 && rep.Verdict.Class == VerdictNoProblem
		tfStall := slices.ContainsFunc(spec.Noise.Stalls, func(s scenario.Stall) bool { return s.Machine&scenario.MachineTF != 0 })
		o.tfStallDrops = tfStall && slices.Equal(rep.Summary.Findings, []string{"drop"}) &&
			(rep.Verdict.Class == VerdictSameClockDrops || rep.Verdict.Class == VerdictNoProblem)
	} else {
		o.ok = slices.Contains(c.lead, rep.Verdict.Class) && slices.Contains(rep.Summary.Findings, c.finding)
	}
	return o
}

// noiseFigure counts the outcomes of the noise matrix.
type noiseFigure struct {
	healthy, healthyAny, healthyClock, tfStall int
	faulty, faultyOK                           int
	wrong                                      []string
}

func (f *noiseFigure) add(o noiseOutcome, clockFinding bool) {
	switch {
	case o.healthy:
		f.healthy++
		if !o.ok {
			f.healthyAny++
		}
		if clockFinding {
			f.healthyClock++
		}
		if o.tfStallDrops {
			f.tfStall++
		} else if !o.ok {
			f.wrong = append(f.wrong, o.what)
		}
	default:
		f.faulty++
		if o.ok {
			f.faultyOK++
		} else {
			f.wrong = append(f.wrong, o.what)
		}
	}
}

// noiseMatrix runs every noisy case over noiseSeeds seeds, both storages
// alternating by seed.
func noiseMatrix(t *testing.T) *noiseFigure {
	f := &noiseFigure{}
	for _, c := range noisyCases() {
		for seed := range uint64(noiseSeeds) {
			storage := bagwrite.StorageMCAP
			if seed%2 == 1 {
				storage = bagwrite.StorageSQLite3
			}
			o, clock := runNoisyCaseFindings(t, c, seed, storage)
			f.add(o, clock)
		}
	}
	return f
}

// runNoisyCaseFindings is runNoisyCase, and whether a healthy bag got a
// clock or time finding.
func runNoisyCaseFindings(t *testing.T, c noisyCase, seed uint64, storage string) (noiseOutcome, bool) {
	o := runNoisyCase(t, c, seed, storage)
	clock := false
	if c.healthy {
		for _, k := range clockFindings {
			clock = clock || slices.Contains(o.findings, k)
		}
	}
	return o, clock
}

// TestNoiseMatrix: healthy cases with a real robot's noise give no clock
// or time finding (so --fail-on with those kinds exits 0), and no finding
// at all but the real drops of a tf stall; faulty cases with the same
// noise lead with their class.
func TestNoiseMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("generates many bags")
	}
	f := noiseMatrix(t)
	t.Logf("noise matrix over %d seeds: healthy %d, with any finding %d (clock or time %d; the real drops of a tf stall %d); faulty %d, right lead %d",
		noiseSeeds, f.healthy, f.healthyAny, f.healthyClock, f.tfStall, f.faulty, f.faultyOK)
	if f.healthyClock > 0 || len(f.wrong) > 0 {
		t.Errorf("%d wrong:\n%s", len(f.wrong), strings.Join(f.wrong, "\n"))
	}
}
