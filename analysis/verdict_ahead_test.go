package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestAheadOfRecorder: a laser whose machine's clock runs a fraction of a
// second ahead of the recorder's (tf and the recorder agree) stamps every
// scan after it was recorded. 0.7 s ahead, RViz's queue of 10 overflows:
// before, the headline said "not a clock problem; the stalest link ... is
// odom->base_link: check its publisher's rate", sending the reader to the
// wrong node. 0.3 s ahead nothing is dropped, yet the clocks are out of
// sync: before, "no clock problem". 40 ms ahead was under the old 50 ms
// bound and called fine (issue 22); the least age of each second, 20 ms
// or more below 0, proves it now; 15 ms ahead is under that. 0.3 s behind
// is an age (latency or a clock behind), not proof.
func TestAheadOfRecorder(t *testing.T) {
	for _, tc := range []struct {
		offsetNS int64
		sensors  bool // a lidar, an IMU and a camera on the laser's machine
		class    string
		findings []string
		sentence string // its start
		kind     string // /scan's ages kind
	}{
		{700_000_000, false, string(ClockSkew), []string{"drop", "skew"},
			"90 scans were dropped because /scan is stamped 697.8 ms ahead of the recorder's clock, which tf agrees with", AgeAhead},
		{300_000_000, false, VerdictTime, []string{"skew"},
			"/scan is stamped 297.8 ms ahead of the recorder's clock (record time − stamp: median -297.8 ms", AgeAhead},
		{40_000_000, false, VerdictTime, []string{"skew"},
			"/scan is stamped 37.8 ms ahead of the recorder's clock (record time − stamp: median -37.8 ms, p95 -37.0 ms; its least value of each second -38.3 ms, below 0 in 5 of 5 seconds)", AgeAhead},
		{15_000_000, false, VerdictNoProblem, []string{}, "/scan and tf are on the same clock", AgeOK},
		// One machine's clock, one sentence, every dropped message counted.
		{700_000_000, true, string(ClockSkew), []string{"drop", "skew"},
			"645 messages were dropped because /camera/image_raw, /imu, /points and /scan are stamped 697.8 ms ahead of the recorder's clock, which tf agrees with", AgeAhead},
		{-300_000_000, false, VerdictNoProblem, []string{}, "/scan and tf are on the same clock", AgeConstantOffset},
	} {
		for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
			spec, err := scenario.Get(scenario.Skew2500ms)
			if err != nil {
				t.Fatal(err)
			}
			spec.Duration = 5 * time.Second
			spec.Laser.OffsetNS = tc.offsetNS
			spec.Sensors = tc.sensors
			rep := analyzeBag(t, specBag(t, spec, storage), Config{}, nil)
			name := storage + "/" + FmtS(float64(tc.offsetNS)/1e9)
			if tc.sensors {
				name += "/sensors"
			}
			v := rep.Verdict
			if v.Class != tc.class || !strings.HasPrefix(v.Sentence, tc.sentence) {
				t.Errorf("%s: verdict %s %q, want %s %q", name, v.Class, v.Sentence, tc.class, tc.sentence)
			}
			if !equalStrings(rep.Summary.Findings, tc.findings) {
				t.Errorf("%s: findings %v, want %v", name, rep.Summary.Findings, tc.findings)
			}
			if ag := ageOf(rep, "/scan"); ag == nil || ag.Kind != tc.kind {
				t.Errorf("%s: /scan age %+v, want kind %s", name, ag, tc.kind)
			}
			if tc.sensors {
				// Every drop of every topic of that machine is counted.
				if n := rep.Summary.Filter["dropped_queue_full"]; n != 645 {
					t.Errorf("%s: %d queue-full drops, want the 645 the headline counts", name, n)
				}
			}
			// Without drops the rows' own sentence stays, demoted to evidence.
			if tc.offsetNS == 300_000_000 && !containsSub(v.Evidence, "Sensor topics and tf: /scan and tf are on the same clock (median 302.0 ms apart) and no scan is dropped") {
				t.Errorf("%s: evidence %q", name, v.Evidence)
			}
			if tc.kind == AgeAhead && !containsSub(v.Commands, "chronyc tracking") {
				t.Errorf("%s: commands %q", name, v.Commands)
			}
		}
	}
}

// TestIsAhead: the bounds of an ahead age (50 ms, p95 below 0, five
// samples, record time as reference).
func TestIsAhead(t *testing.T) {
	base := TopicAge{Reference: "record_time", Count: MinSkewSamples, MedianS: -0.05, P95S: -0.01}
	for _, tc := range []struct {
		name string
		edit func(ag *TopicAge)
		want bool
	}{
		{"50 ms ahead", func(*TopicAge) {}, true},
		{"2 s ahead (a jittery one: no constant offset took it)", func(ag *TopicAge) { ag.MedianS = -2 }, true},
		{"49.9 ms ahead", func(ag *TopicAge) { ag.MedianS = -0.0499 }, false},
		{"p95 at 0", func(ag *TopicAge) { ag.P95S = 0 }, false},
		{"four samples", func(ag *TopicAge) { ag.Count = MinSkewSamples - 1 }, false},
		{"against /clock", func(ag *TopicAge) { ag.Reference = "clock" }, false},
		{"50 ms behind", func(ag *TopicAge) { ag.MedianS, ag.P95S = 0.05, 0.06 }, false},
	} {
		ag := base
		tc.edit(&ag)
		if got := isAhead(&ag); got != tc.want {
			t.Errorf("%s: isAhead %v, want %v", tc.name, got, tc.want)
		}
	}
}
