package scenario

import (
	"bytes"
	"math"
	"testing"
	"time"

	"github.com/bagclock/bagclock/cdr"
)

// noisyRec is one generated message with its decoded header stamp.
type noisyRec struct {
	topic        string
	logNS, stamp int64
}

// records generates s and decodes every header stamp from the CDR bytes
// (not Record.StampNS), checking record order on the way.
func records(t *testing.T, s Spec) []noisyRec {
	t.Helper()
	var out []noisyRec
	last := int64(math.MinInt64)
	err := Generate(s, func(r *Record) error {
		if r.LogTimeNS < last {
			t.Fatalf("%s at %d before the previous record at %d", r.Topic, r.LogTimeNS, last)
		}
		last = r.LogTimeNS
		var stamp int64
		switch r.Type {
		case cdr.TypeTFMessage:
			m, err := cdr.DecodeTFMessage(r.Data)
			if err != nil {
				return err
			}
			stamp = m.Transforms[0].Header.Stamp.Nanoseconds()
		case cdr.TypeLaserScan:
			m, err := cdr.DecodeLaserScan(r.Data)
			if err != nil {
				return err
			}
			stamp = m.Header.Stamp.Nanoseconds()
		case cdr.TypeClock:
			c, err := cdr.DecodeClock(r.Data)
			if err != nil {
				return err
			}
			stamp = c.Clock.Nanoseconds()
		default:
			h, err := cdr.DecodeHeader(r.Data, r.Type)
			if err != nil {
				return err
			}
			stamp = h.Stamp.Nanoseconds()
		}
		out = append(out, noisyRec{r.Topic, r.LogTimeNS, stamp})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func noisy(t *testing.T, name string, n Noise) Spec {
	t.Helper()
	s, err := Get(name)
	if err != nil {
		t.Fatal(err)
	}
	s.Duration = 10 * time.Second
	s.Odometry = true
	s.Noise = &n
	return s
}

// ages are record time − stamp of one topic's messages, in record order.
func ages(recs []noisyRec, topic string) []int64 {
	var out []int64
	for _, r := range recs {
		if r.topic == topic {
			out = append(out, r.logNS-r.stamp)
		}
	}
	return out
}

func count(recs []noisyRec, topic string) int { return len(ages(recs, topic)) }

func TestNoiseZeroChangesNothing(t *testing.T) {
	s, _ := Get(BothSystem)
	s = s.Sample()
	var plain, zero bytes.Buffer
	collect := func(b *bytes.Buffer) func(*Record) error {
		return func(r *Record) error {
			b.WriteString(r.Topic)
			b.Write(r.Data)
			b.WriteString(time.Duration(r.LogTimeNS).String())
			return nil
		}
	}
	if err := Generate(s, collect(&plain)); err != nil {
		t.Fatal(err)
	}
	s.Noise = &Noise{Seed: 42}
	if err := Generate(s, collect(&zero)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.Bytes(), zero.Bytes()) {
		t.Fatal("a Noise with no knob set changed the bag")
	}
}

func TestNoiseIsSeeded(t *testing.T) {
	gen := func(seed uint64) []noisyRec {
		s := noisy(t, BothSystem, NoiseMatrix(seed, 10*time.Second))
		return records(t, s)
	}
	a, b, c := gen(3), gen(3), gen(4)
	if len(a) != len(b) {
		t.Fatalf("same seed: %d and %d records", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed differs at record %d: %+v vs %+v", i, a[i], b[i])
		}
	}
	same := len(a) == len(c)
	for i := 0; same && i < len(a); i++ {
		same = a[i] == c[i]
	}
	if same {
		t.Fatal("seeds 3 and 4 wrote the same bag")
	}
}

func TestNoiseMatrixValidAndVaried(t *testing.T) {
	on := map[string]int{}
	for seed := range uint64(64) {
		n := NoiseMatrix(seed, 10*time.Second)
		if err := n.validate("m"); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !n.active() {
			on["none"]++
		}
		for name, set := range map[string]bool{"jitter": n.RateJitter > 0, "loss": n.Loss > 0, "burst": len(n.Bursts) > 0,
			"stall": len(n.Stalls) > 0, "backlog": n.Backlog != nil, "tf delay": n.TFDelay > 0, "offset": n.RobotOffset < 0,
			"republish": n.Republish != nil} {
			if set {
				on[name]++
			}
		}
		if n.RobotOffset > 0 || len(n.Steps) > 0 {
			t.Fatalf("seed %d: the healthy matrix has a clock fault: %+v", seed, n)
		}
	}
	for _, k := range []string{"jitter", "loss", "burst", "stall", "backlog", "tf delay", "offset", "republish"} {
		if on[k] < 16 || on[k] > 48 {
			t.Errorf("knob %s on in %d of 64 seeds, want about half", k, on[k])
		}
	}
}

func TestNoiseLossAndJitter(t *testing.T) {
	clean := records(t, noisy(t, BothSystem, Noise{}))
	lossy := records(t, noisy(t, BothSystem, Noise{Seed: 1, Loss: 0.1, RateJitter: 0.3}))
	for _, tp := range []string{TopicScan, TopicTF, TopicOdom} {
		c, l := count(clean, tp), count(lossy, tp)
		if share := 1 - float64(l)/float64(c); share < 0.05 || share > 0.15 {
			t.Errorf("%s: %d of %d messages lost, want about 10%%", tp, c-l, c)
		}
	}
	if count(lossy, TopicTFStatic) != 1 {
		t.Error("/tf_static was lost")
	}
	// Jitter of ±0.3 periods: the scan stamps' steps spread from 0.4 to
	// 1.6 periods (3.6 with two lost in a row).
	var prev int64
	lo, hi := int64(math.MaxInt64), int64(0)
	for i, r := range lossy {
		if r.topic != TopicScan {
			continue
		}
		if prev != 0 && i > 0 {
			lo, hi = min(lo, r.stamp-prev), max(hi, r.stamp-prev)
		}
		prev = r.stamp
	}
	if lo > 30_000_000 || lo < 19_000_000 || hi > 181_000_000 {
		t.Errorf("scan stamp steps %d..%d ns with ±30%% jitter of 50 ms", lo, hi)
	}
}

func TestNoiseBurstAndStall(t *testing.T) {
	n := Noise{Seed: 2,
		Bursts: []Burst{{Machine: MachineSensors, At: 2 * time.Second, Dur: time.Second, Extra: 100 * time.Millisecond}},
		Stalls: []Stall{{Machine: MachineTF, At: 6 * time.Second, Dur: 800 * time.Millisecond}}}
	recs := records(t, noisy(t, BothSystem, n))
	scanAges := ages(recs, TopicScan)
	// 20 Hz: the burst covers scans 40..59; the peak is near scan 50.
	if a := scanAges[50]; a < 80_000_000 || a > 105_000_000 {
		t.Errorf("scan age at the burst's peak %d ns, want about 100 ms", a)
	}
	if a := scanAges[70]; a > 4_000_000 {
		t.Errorf("scan age after the burst %d ns, want back to ~2 ms", a)
	}
	if tfA := ages(recs, TopicTF); tfA[125] > 2_000_000 {
		t.Errorf("tf (the other machine) aged %d ns during the scan burst", tfA[125])
	}
	// Nothing of the tf machine arrives in the stall; what it sent then
	// arrives at its end, stamps in order.
	start := DefaultSystemStartNS + int64(6*time.Second)
	end := start + int64(800*time.Millisecond)
	var burst int
	var last int64
	for _, r := range recs {
		if r.topic != TopicTF && r.topic != TopicOdom {
			continue
		}
		if r.logNS >= start && r.logNS < end {
			t.Fatalf("%s recorded at +%d ms inside the stall", r.topic, (r.logNS-start)/1e6)
		}
		if r.logNS >= end && r.logNS < end+10_000_000 {
			burst++
		}
		if r.topic == TopicTF {
			if r.stamp <= last {
				t.Fatalf("tf stamps not monotonic across the stall")
			}
			last = r.stamp
		}
	}
	if burst < 70 { // 40 tf and 40 odom messages sent in 0.8 s
		t.Errorf("%d tf and odom messages in the burst after the stall, want about 80", burst)
	}
}

func TestNoiseBacklog(t *testing.T) {
	n := Noise{Seed: 3, Backlog: &Backlog{Machine: MachineTF, Age: 5 * time.Second, Burst: 400 * time.Millisecond, Lag: 65 * time.Millisecond}}
	recs := records(t, noisy(t, BothSystem, n))
	tfA := ages(recs, TopicTF)
	if tfA[0] < 4_900_000_000 || tfA[0] > 5_100_000_000 {
		t.Errorf("first tf message %d ns old, want 5 s", tfA[0])
	}
	last := tfA[len(tfA)-1]
	if last < 64_000_000 || last > 67_000_000 {
		t.Errorf("steady tf age %d ns, want 65 ms + ~1 ms", last)
	}
	// The backlog arrives in the first 0.4 s: about 270 messages.
	in := 0
	for _, r := range recs {
		if r.topic == TopicTF && r.logNS < DefaultSystemStartNS+int64(400*time.Millisecond) {
			in++
		}
	}
	if in < 250 || in > 290 {
		t.Errorf("%d tf messages in the start-up burst, want about 270", in)
	}
	if a := ages(recs, TopicScan); a[0] > 4_000_000 {
		t.Errorf("the sensor machine has no backlog, yet its first scan is %d ns old", a[0])
	}
}

func TestNoiseRepublish(t *testing.T) {
	n := Noise{Seed: 4, Republish: &Republish{Delay: 10 * time.Millisecond, Behind: 2, Skips: 1, Reorders: 1}}
	recs := records(t, noisy(t, BothSystem, n))
	var prev int64
	repeats, doubles, backs := 0, 0, 0
	for _, r := range recs {
		if r.topic != TopicScanFiltered {
			continue
		}
		switch d := r.stamp - prev; {
		case prev == 0:
		case d == 0:
			repeats++
		case d < 0:
			backs++
		case d > 75_000_000:
			doubles++
		}
		prev = r.stamp
	}
	if repeats != 2 || backs != 1 || doubles != 3 {
		t.Errorf("republished stamps: %d repeats, %d back, %d jumps of two periods; want 2, 1, 3 (a skip and a swap)", repeats, backs, doubles)
	}
	if c, s := count(recs, TopicScanFiltered), count(recs, TopicScan); c != s {
		t.Errorf("%d republished of %d scans", c, s)
	}
}

func TestNoiseOffsetDelayAndStep(t *testing.T) {
	n := Noise{Seed: 5, RobotOffset: 40 * time.Millisecond, TFDelay: 30 * time.Millisecond,
		Steps: []Step{{Machine: MachineSensors, At: 5 * time.Second, By: 800 * time.Millisecond}}}
	recs := records(t, noisy(t, BothSystem, n))
	scanA, tfA := ages(recs, TopicScan), ages(recs, TopicTF)
	// Scans: 1.5..3 ms of latency − 40 ms ahead; after the step 800 ms more.
	if a := scanA[10]; a > -37_000_000 || a < -39_000_000 {
		t.Errorf("scan age %d ns before the step, want −38.5 ± 1 ms", a)
	}
	if a := scanA[150]; a > -837_000_000 || a < -839_000_000 {
		t.Errorf("scan age %d ns after the step, want −838.5 ± 1 ms", a)
	}
	// tf: 30 ms (±3) transport − 40 ms, no step.
	for _, i := range []int{10, 400} {
		if a := tfA[i]; a < -14_000_000 || a > -6_000_000 {
			t.Errorf("tf age %d ns at message %d, want about −10 ms", a, i)
		}
	}
}

func TestNoiseValidate(t *testing.T) {
	for _, n := range []Noise{
		{RateJitter: 0.5}, {Loss: 1}, {TFDelay: -1},
		{Bursts: []Burst{{Dur: time.Second}}}, {Stalls: []Stall{{Machine: MachineTF}}},
		{Backlog: &Backlog{Machine: MachineTF, Age: time.Second, Burst: time.Millisecond, Lag: time.Second}},
		{Republish: &Republish{Skips: 1}}, {Steps: []Step{{Machine: MachineTF}}},
	} {
		s := noisy(t, BothSystem, n)
		if err := s.Validate(); err == nil {
			t.Errorf("%+v validated", n)
		}
	}
}
