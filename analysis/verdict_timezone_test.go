package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

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
