package verdict

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
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

// TestTimeZoneEvidence: a skew row at a constant time-zone offset from
// record time, under another headline, gets the line once; under a
// time-zone step headline, none.
func TestTimeZoneEvidence(t *testing.T) {
	a := &analysis.Report{}
	a.Skew = []analysis.Skew{{Topic: "/gps", Count: 9, MedianS: -3600.2, Kind: analysis.SkewConstantOffset}, {Topic: "/imu", Count: 9, MedianS: 7200, Kind: analysis.SkewConstantOffset}, {Topic: "/cam", Count: 9, MedianS: 3600, Kind: analysis.SkewJitter}}
	v := draftSaying("/scan and tf are on the same clock")
	deciderFor(a).timeZoneEvidence(&v, false)
	if len(v.Evidence) != 1 || !strings.HasPrefix(v.Evidence[0], "/gps: record time − stamp is -60.0 min: 1 h to within a second, a whole time-zone step") || !containsSub(lines(v.cmds), "timedatectl") {
		t.Errorf("evidence %q commands %q", v.Evidence, lines(v.cmds))
	}
	v = draftSaying("x are 3 h apart: a time-zone step, not drift")
	deciderFor(a).timeZoneEvidence(&v, true)
	if len(v.Evidence) != 0 {
		t.Errorf("evidence under a zone headline: %q", v.Evidence)
	}
}
