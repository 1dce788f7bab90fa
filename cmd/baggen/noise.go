package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/spf13/pflag"
)

// noiseFlagValues are the --case flags that add a real robot's noise
// (scenario.Noise) to the case.
type noiseFlagValues struct {
	seed                     uint64
	jitter, loss             float64
	tfDelay, offset, backlog time.Duration
	stall, burst, step       string
	behind                   int
}

func noiseFlags(fs *pflag.FlagSet) *noiseFlagValues {
	v := &noiseFlagValues{}
	fs.Uint64Var(&v.seed, "noise-seed", 0, "add a healthy robot's noise drawn from this seed (rate jitter, loss, a latency burst, a stall, a tf backlog, tf from another machine, a clock 20-60 ms behind, a republished scan; each on or off)")
	fs.Float64Var(&v.jitter, "rate-jitter", 0, "move each publication by up to ± this many periods (0..0.4)")
	fs.Float64Var(&v.loss, "loss", 0, "chance that a message is lost (0..1)")
	fs.DurationVar(&v.tfDelay, "tf-delay", 0, "steady transport delay of tf and odometry (tf from another machine, e.g. 40ms)")
	fs.DurationVar(&v.offset, "robot-offset", 0, "robot clock ahead of the recorder's by this much (negative: behind, e.g. -40ms)")
	fs.DurationVar(&v.backlog, "backlog", 0, "the tf publisher ran this long before recording: its queue (stamps that old) arrives in the first 0.4 s, then a steady 65 ms lag")
	fs.StringVar(&v.stall, "stall", "", "AT:DUR[:KEEP]: the robot's messages stall at AT for DUR, then arrive in a burst; with KEEP only those sent in the stall's last KEEP arrive, the rest is lost (e.g. 5s:800ms, 5s:2s:150ms)")
	fs.StringVar(&v.burst, "burst", "", "AT:DUR:EXTRA: the robot's latency rises to EXTRA and back over DUR from AT (e.g. 3s:1s:150ms)")
	fs.IntVar(&v.behind, "republish-behind", 0, "add /scan_filtered, republished 10 ms later, falling one message behind this many times")
	fs.StringVar(&v.step, "clock-step", "", "AT:BY: the sensor machine's clock steps by BY at AT (e.g. 5s:800ms, 5s:-800ms)")
	return v
}

// noise is the Noise the flags ask for (nil when none was set).
func (v *noiseFlagValues) noise(fs *pflag.FlagSet, dur time.Duration) (*scenario.Noise, error) {
	set := false
	for _, name := range []string{"noise-seed", "rate-jitter", "loss", "tf-delay", "robot-offset", "backlog", "stall", "burst", "republish-behind", "clock-step"} {
		set = set || fs.Changed(name)
	}
	if !set {
		return nil, nil
	}
	n := scenario.Noise{Seed: v.seed}
	if fs.Changed("noise-seed") {
		n = scenario.NoiseMatrix(v.seed, dur)
	}
	if v.jitter > 0 {
		n.RateJitter = v.jitter
	}
	if v.loss > 0 {
		n.Loss = v.loss
	}
	if v.tfDelay > 0 {
		n.TFDelay = v.tfDelay
	}
	if v.offset != 0 {
		n.RobotOffset = v.offset
	}
	if v.backlog > 0 {
		n.Backlog = &scenario.Backlog{Machine: scenario.MachineTF, Age: v.backlog, Burst: 400 * time.Millisecond, Lag: 65 * time.Millisecond}
	}
	if v.behind > 0 {
		n.Republish = &scenario.Republish{Delay: 10 * time.Millisecond, Behind: v.behind}
	}
	if v.stall != "" {
		k := 2
		if strings.Count(v.stall, ":") == 2 {
			k = 3
		}
		d, err := durations("--stall", v.stall, k)
		if err != nil {
			return nil, err
		}
		st := scenario.Stall{Machine: scenario.MachineRobot, At: d[0], Dur: d[1]}
		if k == 3 {
			st.KeepLast = d[2]
		}
		n.Stalls = append(n.Stalls, st)
	}
	if v.burst != "" {
		d, err := durations("--burst", v.burst, 3)
		if err != nil {
			return nil, err
		}
		n.Bursts = append(n.Bursts, scenario.Burst{Machine: scenario.MachineRobot, At: d[0], Dur: d[1], Extra: d[2]})
	}
	if v.step != "" {
		d, err := durations("--clock-step", v.step, 2)
		if err != nil {
			return nil, err
		}
		n.Steps = append(n.Steps, scenario.Step{Machine: scenario.MachineSensors, At: d[0], By: d[1]})
	}
	return &n, nil
}

// durations parses k colon-separated durations.
func durations(flag, s string, k int) ([]time.Duration, error) {
	parts := strings.Split(s, ":")
	if len(parts) != k {
		return nil, fmt.Errorf("%s %q: want %d durations separated by ':'", flag, s, k)
	}
	out := make([]time.Duration, k)
	for i, p := range parts {
		d, err := time.ParseDuration(p)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", flag, s, err)
		}
		out[i] = d
	}
	return out, nil
}
