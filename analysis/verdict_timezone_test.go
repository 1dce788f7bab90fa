package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestZoneOffset: one to fourteen hours, within a second of a multiple of
// 15 minutes.
func TestZoneOffset(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want bool
	}{
		{3600, true}, {3599, true}, {3598.9, false}, {-7200.5, true}, {19800, true}, {20700, true},
		{3600 + 1.5, false}, {14 * 3600, true}, {14*3600 + 1.1, false}, {2.5, false}, {86400, false},
	} {
		if got := zoneOffset(tc.s); got != tc.want {
			t.Errorf("zoneOffset(%g) = %v, want %v", tc.s, got, tc.want)
		}
	}
	if got := zoneHours(-19800.4); got != "5.5 h" {
		t.Errorf("zoneHours = %q", got)
	}
}

// TestTimeZoneSkew: a laser a whole number of hours ahead of tf (a driver
// on local time) is a time-zone step in the headline, with timedatectl;
// an hour and 1.5 s is drift, the chrony wording as before.
func TestTimeZoneSkew(t *testing.T) {
	for _, tc := range []struct {
		offsetNS int64
		sentence string
		zone     bool
	}{
		{3 * 3600e9, "/scan and tf (odom->base_link) are 10800.002 s apart on the same clock, 3 h to within a second: a time-zone step, not drift", true},
		{-2 * 3600e9, "/scan and tf (odom->base_link) are -7199.998 s apart on the same clock, 2 h to within a second: a time-zone step", true},
		{3600e9 + 1_500_000_000, "/scan and tf (odom->base_link) are 3601.502 s apart on the same clock: the machines' clocks are out of sync", false},
	} {
		spec, err := scenario.Get(scenario.Skew2500ms)
		if err != nil {
			t.Fatal(err)
		}
		spec.Duration = 5 * time.Second
		spec.Laser.OffsetNS = tc.offsetNS
		rep := analyzeBag(t, specBag(t, spec, bagwrite.StorageMCAP), Config{}, nil)
		v := rep.Verdict
		if v.Class != string(ClockSkew) || !strings.HasPrefix(v.Sentence, tc.sentence) {
			t.Errorf("%d: verdict %s %q, want %q", tc.offsetNS, v.Class, v.Sentence, tc.sentence)
		}
		if got := containsSub(v.Commands, "timedatectl"); got != tc.zone {
			t.Errorf("%d: timedatectl in %q: %v, want %v", tc.offsetNS, v.Commands, got, tc.zone)
		}
		if containsSub(v.Evidence, "time-zone step") {
			t.Errorf("%d: the headline's zone step repeated in the evidence %q", tc.offsetNS, v.Evidence)
		}
	}
}

// TestTimeZoneEvidence: a skew row at a constant time-zone offset from
// record time, under another headline, gets the line once.
func TestTimeZoneEvidence(t *testing.T) {
	a := &analyzer{}
	a.rep.Skew = []Skew{{Topic: "/gps", Count: 9, MedianS: -3600.2, Kind: SkewConstantOffset}, {Topic: "/imu", Count: 9, MedianS: 7200, Kind: SkewConstantOffset}, {Topic: "/cam", Count: 9, MedianS: 3600, Kind: SkewJitter}}
	v := Verdict{Sentence: "/scan and tf are on the same clock"}
	deciderOf(a).timeZoneEvidence(&v)
	if len(v.Evidence) != 1 || !strings.HasPrefix(v.Evidence[0], "/gps: record time − stamp is -60.0 min: 1 h to within a second, a whole time-zone step") || !containsSub(v.Commands, "timedatectl") {
		t.Errorf("evidence %q commands %q", v.Evidence, v.Commands)
	}
	v = Verdict{Sentence: "x are 3 h apart: a time-zone step, not drift"}
	deciderOf(a).timeZoneEvidence(&v)
	if len(v.Evidence) != 0 {
		t.Errorf("evidence under a zone headline: %q", v.Evidence)
	}
}
