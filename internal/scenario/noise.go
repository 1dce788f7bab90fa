package scenario

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/bagclock/bagclock/cdr"
)

// Noise is what a real robot adds to a clean recording: rate jitter, lost
// messages, latency that comes and goes, a network that stalls and then
// delivers everything at once, a start-up backlog, a republishing node
// with its own delay, tf from another machine, a robot clock a few tens of
// milliseconds off the recorder's, and (a fault, not noise) a step of one
// machine's clock. Every knob is independent, so a test combines any of
// them with any case; all randomness comes from Seed, so a spec with the
// same Noise writes the same bag. The zero Noise changes nothing: a spec
// without it writes exactly the bag it wrote before Noise existed.
//
// Machines: MachineSensors is the laser driver and the other drivers of
// Spec.Sensors (they stamp with Spec.Laser), MachineTF the tf publishers
// and the odometry (Spec.TF, and the localiser). /clock, /rosout and the
// detector of the tree cases are never delayed.
type Noise struct {
	// Seed drives every random choice below.
	Seed uint64
	// RateJitter moves each publication by up to ±RateJitter periods
	// (uniform; at most 0.4), on every periodic stream of both machines.
	RateJitter float64
	// Loss is the chance that a periodic message is lost on the way (never
	// recorded), per message; /tf_static is never lost.
	Loss float64
	// Bursts of latency on one machine: delivery slows down and recovers.
	Bursts []Burst
	// Stalls of one machine's link: nothing arrives for a while, then
	// everything sent meanwhile arrives at once.
	Stalls []Stall
	// Backlog: a publisher that was running before the recorder
	// subscribed delivers its queue at start-up.
	Backlog *Backlog
	// TFDelay is a steady transport delay of the tf publishers' messages
	// (tf from another machine over the network), with ±10% jitter.
	TFDelay time.Duration
	// RobotOffset moves the system clock of both robot machines (the
	// stamps and publish times of system-time publishers) this far ahead
	// of the recorder's (negative: behind), e.g. ±20..60 ms of a robot
	// without chrony.
	RobotOffset time.Duration
	// Republish adds a node that republishes the scans with its own delay
	// and now and then repeats or skips a stamp.
	Republish *Republish
	// Steps of a machine's system clock (NTP, a manual date -s): every
	// system-time stamp and publish time of that machine moves by By from
	// At on. The recorder is another machine: record time does not step.
	Steps []Step
}

// Machine names the robot computers Noise acts on (a bit set).
type Machine uint8

// Machines of Noise.
const (
	MachineSensors Machine = 1 << iota // the laser and sensor drivers
	MachineTF                          // the tf publishers and odometry
	MachineRobot   = MachineSensors | MachineTF
)

// Burst raises one machine's delivery latency from At for Dur: it climbs
// to Extra by the middle and falls back to its usual value at the end (a
// Wi-Fi link under load).
type Burst struct {
	Machine Machine
	At, Dur time.Duration
	Extra   time.Duration
}

// Stall holds one machine's messages from At for Dur (a network stall):
// those sent in the stall arrive when it ends, in their order, 0.1 ms
// apart. With KeepLast > 0 the senders' queues overflow: only what was
// sent in the stall's last KeepLast arrives, the rest is lost (a QoS
// depth of a few messages), so the stamps leap forward when it ends.
type Stall struct {
	Machine  Machine
	At, Dur  time.Duration
	KeepLast time.Duration
}

// Backlog is a publisher on Machine that ran Age before recording started:
// its queued messages (stamped up to Age before the start) arrive in the
// first Burst of the recording, and from then on its messages arrive Lag
// after they were sent (e.g. Age 5 s, Burst 0.4 s, Lag 65 ms).
type Backlog struct {
	Machine         Machine
	Age, Burst, Lag time.Duration
}

// Republish is a filter node on the sensor machine republishing every scan
// on Topic (default /scan_filtered, the scan's frame) Delay after it
// arrives (±20%). Behind times, it falls one message behind: that output
// repeats the previous output's stamp, and every later output carries the
// stamp of the scan before the one it answers. Skips times (after falling
// behind) it catches up by one: that output's stamp jumps two periods.
// Reorders times two consecutive outputs swap: the stamp jumps two
// periods, goes back one, then jumps two. Times are chosen from the seed;
// the stamps are those of the scans' ticks.
type Republish struct {
	Topic                   string
	Delay                   time.Duration
	Behind, Skips, Reorders int
}

// Step is a step of one machine's system clock by By at At.
type Step struct {
	Machine Machine
	At, By  time.Duration
}

// TopicScanFiltered is the default topic of Noise.Republish.
const TopicScanFiltered = "/scan_filtered"

// active says whether any knob is set.
func (n *Noise) active() bool {
	return n != nil && (n.RateJitter > 0 || n.Loss > 0 || len(n.Bursts) > 0 || len(n.Stalls) > 0 || n.Backlog != nil ||
		n.TFDelay > 0 || n.RobotOffset != 0 || n.Republish != nil || len(n.Steps) > 0)
}

func (n *Noise) validate(name string) error {
	if n == nil {
		return nil
	}
	bad := func(f string, a ...any) error {
		return fmt.Errorf("scenario %s: noise: %s", name, fmt.Sprintf(f, a...))
	}
	switch {
	case n.RateJitter < 0 || n.RateJitter > 0.4:
		return bad("rate jitter %g outside 0..0.4 periods", n.RateJitter)
	case n.Loss < 0 || n.Loss >= 1:
		return bad("loss %g outside [0, 1)", n.Loss)
	case n.TFDelay < 0:
		return bad("negative tf delay")
	}
	for _, b := range n.Bursts {
		if b.Machine == 0 || b.Dur <= 0 || b.Extra < 0 || b.At < 0 {
			return bad("burst %+v needs a machine, a positive duration and extra latency >= 0", b)
		}
	}
	for _, st := range n.Stalls {
		if st.Machine == 0 || st.Dur <= 0 || st.At < 0 || st.KeepLast < 0 || st.KeepLast > st.Dur {
			return bad("stall %+v needs a machine, a positive duration and a kept tail within it", st)
		}
	}
	if b := n.Backlog; b != nil && (b.Machine == 0 || b.Age <= 0 || b.Burst <= b.Lag || b.Lag < 0) {
		return bad("backlog %+v needs a machine, a positive age and a burst longer than the lag", *b)
	}
	if r := n.Republish; r != nil && (r.Delay < 0 || r.Behind < 0 || r.Skips < 0 || r.Reorders < 0 || r.Skips > r.Behind) {
		return bad("republish %+v: negative values, or more skips than times behind", *r)
	}
	for _, st := range n.Steps {
		if st.Machine == 0 || st.At < 0 || st.By == 0 {
			return bad("step %+v needs a machine and a non-zero size", st)
		}
	}
	return nil
}

// republishTopic is the topic of the spec's republisher ("" without one).
func (s Spec) republishTopic() string {
	if s.Noise == nil || s.Noise.Republish == nil {
		return ""
	}
	if s.Noise.Republish.Topic != "" {
		return s.Noise.Republish.Topic
	}
	return s.TopicName(TopicScanFiltered)
}

// noiseState is the generator's view of a spec's Noise: its own random
// source (the spec's rng draws stay as they were without noise).
type noiseState struct {
	n   *Noise
	rng *rand.Rand
}

func newNoiseState(n *Noise) *noiseState {
	if !n.active() {
		return nil
	}
	return &noiseState{n: n, rng: rand.New(rand.NewPCG(n.Seed, 0x6e6f697365))}
}

// stepNS is how far machine m's system clock has stepped at true time t.
func (ns *noiseState) stepNS(m Machine, t int64) int64 {
	if ns == nil || m == 0 {
		return 0
	}
	var d int64
	for _, st := range ns.n.Steps {
		if st.Machine&m != 0 && t >= int64(st.At) {
			d += int64(st.By)
		}
	}
	return d + int64(ns.n.RobotOffset)
}

// publishAt moves tick t of a stream with period p by the rate jitter.
func (ns *noiseState) publishAt(m Machine, t, p int64) int64 {
	if ns == nil || m == 0 || ns.n.RateJitter == 0 {
		return t
	}
	j := ns.n.RateJitter * float64(p)
	return t + int64((ns.rng.Float64()*2-1)*j)
}

// lost draws whether a message is lost.
func (ns *noiseState) lost(m Machine) bool {
	return ns != nil && m != 0 && ns.n.Loss > 0 && ns.rng.Float64() < ns.n.Loss
}

// stallLost says whether a message of machine m sent at t is lost in a
// stall whose senders keep only its last KeepLast.
func (ns *noiseState) stallLost(m Machine, t int64) bool {
	if ns == nil || m == 0 {
		return false
	}
	for _, st := range ns.n.Stalls {
		if st.KeepLast > 0 && st.Machine&m != 0 && t >= int64(st.At) && t < int64(st.At+st.Dur-st.KeepLast) {
			return true
		}
	}
	return false
}

// deliver is the true time a message of machine m sent at t with the
// stream's usual latency lat arrives, before FIFO order is enforced.
func (ns *noiseState) deliver(m Machine, t, lat int64) int64 {
	if ns == nil || m == 0 {
		return t + lat
	}
	n := ns.n
	if m&MachineTF != 0 && n.TFDelay > 0 {
		d := float64(n.TFDelay)
		lat += int64(d + (ns.rng.Float64()*2-1)*0.1*d)
	}
	for _, b := range n.Bursts {
		if b.Machine&m == 0 || t < int64(b.At) || t >= int64(b.At+b.Dur) {
			continue
		}
		// A triangle: 0 at At, Extra at the middle, 0 at the end.
		x := float64(t-int64(b.At)) / float64(b.Dur)
		f := 2 * x
		if x > 0.5 {
			f = 2 * (1 - x)
		}
		lat += int64(f * float64(b.Extra))
	}
	arrive := t + lat
	if b := n.Backlog; b != nil && b.Machine&m != 0 {
		tb := int64(b.Burst - b.Lag) // the last tick delivered in the burst
		if t < tb {
			// Ticks from −Age to tb arrive spread over [0, Burst).
			arrive = int64(float64(t+int64(b.Age)) / float64(tb+int64(b.Age)) * float64(b.Burst))
		} else {
			arrive = t + int64(b.Lag) + lat
		}
	}
	for _, st := range n.Stalls {
		if st.Machine&m != 0 && arrive >= int64(st.At) && arrive < int64(st.At+st.Dur) {
			arrive = int64(st.At + st.Dur)
		}
	}
	return arrive
}

// firstTick is the first tick index of a stream: negative for a backlog
// publisher (it ran before the recording started).
func (ns *noiseState) firstTick(m Machine, phase, period int64) int {
	if ns == nil || m == 0 || ns.n.Backlog == nil || ns.n.Backlog.Machine&m == 0 || period <= 0 {
		return 0
	}
	return -int((int64(ns.n.Backlog.Age) + phase) / period)
}

// NoiseMatrix returns a healthy robot's noise, drawn from seed: each knob
// on or off and its size at random within what real robots show (rate
// jitter up to 10%, loss up to 2%, a latency burst of up to 150 ms, a
// stall of 0.6 to 1 s, a tf backlog of 5 s at start-up, a republished
// scan that falls behind, tf from another machine 10 to 60 ms away, a
// robot clock 20 to 60 ms behind the recorder). None of it is a clock
// fault: an analysis must find no clock or time problem in a healthy case
// with this noise. dur is the recording's length; the events fall inside.
func NoiseMatrix(seed uint64, dur time.Duration) Noise {
	r := rand.New(rand.NewPCG(seed, 0x6d6174726978))
	n := Noise{Seed: seed}
	on := func() bool { return r.IntN(2) == 0 }
	between := func(lo, hi time.Duration) time.Duration {
		return (lo + time.Duration(r.Int64N(int64(hi-lo)+1))).Round(time.Millisecond)
	}
	machine := func() Machine { return []Machine{MachineSensors, MachineTF, MachineRobot}[r.IntN(3)] }
	if on() {
		n.RateJitter = 0.1 * r.Float64()
	}
	if on() {
		n.Loss = 0.02 * r.Float64()
	}
	if on() {
		n.Bursts = []Burst{{Machine: machine(), At: between(dur/5, dur/2), Dur: between(300*time.Millisecond, 2*time.Second), Extra: between(20*time.Millisecond, 150*time.Millisecond)}}
	}
	if on() {
		n.Stalls = []Stall{{Machine: machine(), At: between(dur/2, 3*dur/4), Dur: between(600*time.Millisecond, time.Second)}}
	}
	if on() {
		n.Backlog = &Backlog{Machine: MachineTF, Age: 5 * time.Second, Burst: 400 * time.Millisecond, Lag: between(10*time.Millisecond, 65*time.Millisecond)}
	}
	if on() {
		n.TFDelay = between(10*time.Millisecond, 60*time.Millisecond)
	}
	if on() {
		n.RobotOffset = -between(20*time.Millisecond, 60*time.Millisecond)
	}
	if on() {
		n.Republish = &Republish{Delay: between(2*time.Millisecond, 30*time.Millisecond), Behind: 1 + r.IntN(2), Skips: r.IntN(2), Reorders: r.IntN(2)}
	}
	// Drawn last, so every draw above is what it was before the knob.
	if len(n.Stalls) > 0 && on() {
		n.Stalls[0].KeepLast = between(50*time.Millisecond, 300*time.Millisecond)
	}
	return n
}

// republishStream is Noise.Republish's filter node: output k answers scan
// k, stamped with the stamp of scan k − behind(k).
func (g *gen) republishStream(scanP int64) *stream {
	s, rp, ns := g.s, g.s.Noise.Republish, g.noise
	n := ticks(g.dur, scanPhaseNS, scanP)
	pick := func(count int) []int {
		var out []int
		for range count {
			out = append(out, n/5+ns.rng.IntN(max(1, 3*n/5)))
		}
		slices.Sort(out)
		return out
	}
	behind := pick(rp.Behind)
	var skips []int
	for i := range rp.Skips {
		// Each catch-up follows its fall behind by 5 to 25 outputs.
		skips = append(skips, behind[i]+5+ns.rng.IntN(21))
	}
	reorders := pick(rp.Reorders)
	src := func(k int) int {
		j := k
		for _, b := range behind {
			if k >= b {
				j--
			}
		}
		for _, sk := range skips {
			if k >= sk {
				j++
			}
		}
		return j
	}
	scanLat := g.jitter(1_500_000, 3_000_000)
	delay := float64(rp.Delay)
	topic := s.republishTopic()
	return g.periodicOn(MachineSensors, scanPhaseNS, scanP, nil, func() int64 {
		return scanLat() + int64(delay+(ns.rng.Float64()*2-1)*0.2*delay)
	}, func(k int, t int64, r *Record) {
		j := src(k)
		switch {
		case slices.Contains(reorders, k):
			j = src(k + 1)
		case slices.Contains(reorders, k-1):
			j = src(k - 1)
		}
		st := g.stampOn(MachineSensors, s.Laser, scanPhaseNS+int64(max(j, 0))*scanP)
		g.fillScan(t, st, scanP)
		r.Topic, r.Type, r.StampNS, r.PublishTimeNS = topic, cdr.TypeLaserScan, st, g.sendOn(MachineSensors, t, s.Laser.OffsetNS)
		r.Data = cdr.AppendLaserScan(g.buf[:0], &g.scan, binary.LittleEndian)
		g.buf = r.Data
	})
}

// String lists the knobs that are set, for logs and baggen's output.
func (n Noise) String() string {
	var parts []string
	add := func(f string, a ...any) { parts = append(parts, fmt.Sprintf(f, a...)) }
	if n.RateJitter > 0 {
		add("rate jitter ±%.2f periods", n.RateJitter)
	}
	if n.Loss > 0 {
		add("loss %.1f%%", 100*n.Loss)
	}
	for _, b := range n.Bursts {
		add("latency burst on %s +%v at %v for %v", b.Machine, b.Extra, b.At, b.Dur)
	}
	for _, st := range n.Stalls {
		add("stall of %s at %v for %v", st.Machine, st.At, st.Dur)
		if st.KeepLast > 0 {
			add("only its last %v delivered", st.KeepLast)
		}
	}
	if b := n.Backlog; b != nil {
		add("backlog of %s %v old in %v, then %v lag", b.Machine, b.Age, b.Burst, b.Lag)
	}
	if n.TFDelay > 0 {
		add("tf delay %v", n.TFDelay)
	}
	if n.RobotOffset != 0 {
		add("robot clock %+v", n.RobotOffset)
	}
	if r := n.Republish; r != nil {
		add("republish %v later, %d behind, %d skips, %d swaps", r.Delay, r.Behind, r.Skips, r.Reorders)
	}
	for _, st := range n.Steps {
		add("%s clock step %+v at %v", st.Machine, st.By, st.At)
	}
	if len(parts) == 0 {
		return fmt.Sprintf("seed %d, none", n.Seed)
	}
	return fmt.Sprintf("seed %d: %s", n.Seed, strings.Join(parts, "; "))
}

func (m Machine) String() string {
	switch m {
	case MachineSensors:
		return "sensors"
	case MachineTF:
		return "tf"
	case MachineRobot:
		return "robot"
	}
	return fmt.Sprintf("Machine(%d)", int(m))
}
