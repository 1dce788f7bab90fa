package verdict

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestAheadBy: one offset, or the range of the medians from 5 ms apart.
func TestAheadBy(t *testing.T) {
	ages := func(medians ...float64) []*analysis.TopicAge {
		var out []*analysis.TopicAge
		for _, m := range medians {
			out = append(out, &analysis.TopicAge{MedianS: m})
		}
		return out
	}
	for _, tc := range []struct {
		ags  []*analysis.TopicAge
		want string
	}{
		{ages(-0.3), "300.0 ms"},
		{ages(-0.3, -0.3049), "300.0 ms"},
		{ages(-0.31, -0.3, -0.305), "300.0 ms to 310.0 ms"},
		{ages(-1e-06, -0.005001), "0.0 ms to 5.0 ms"}, // exactly 5 ms apart in float64
	} {
		if got := aheadBy(tc.ags); got != tc.want {
			t.Errorf("aheadBy %v: %q, want %q", tc.ags, got, tc.want)
		}
	}
}

// TestAheadDropsThreshold: the drops are blamed on the clock ahead only
// when the messages are ahead of tf by at least half the offset (tf on
// the recorder's time); a topic not ahead is left to the other wording, and
// so is a path whose own tf link is stamped ahead of the recorder too.
func TestAheadDropsThreshold(t *testing.T) {
	for _, tc := range []struct {
		topic     string
		diffS     float64
		linkAhead float64 // how far the path's link is ahead (0: not)
		want      bool
	}{
		{"/scan", 0.35, 0, true},
		{"/scan", 0.3499, 0, false},
		{"/scan", -0.7, 0, false},
		{"/imu", 0.7, 0, false},
		{"/scan", 0.5, 0.1, false},
	} {
		ages := []analysis.TopicAge{{Topic: "/scan", Kind: analysis.AgeAhead, MedianS: -0.7}, {Topic: "/imu", Kind: analysis.AgeOK}}
		if tc.linkAhead > 0 {
			ages = append(ages, analysis.TopicAge{Topic: "/tf", Link: "odom->base_link", Parent: "odom", Child: "base_link", Kind: analysis.AgeAhead, MedianS: -tc.linkAhead})
		}
		r := &analysis.Report{Ages: ages,
			Pairs: []analysis.PairSummary{{Topic: tc.topic, Type: "sensor_msgs/msg/LaserScan", Classes: map[string]int{}, Filter: map[string]int{"dropped_queue_full": 4, "passed": 1}}}}
		stalest(&r.Pairs[0], "odom", "base_link", "/tf")
		var v draft
		d := deciderFor(r)
		if got := d.aheadDropsVerdict(&v, d.pairs()[0], "scans", tc.diffS); got != tc.want {
			t.Errorf("%s at %.4f s, link ahead %.2f s: %v, want %v", tc.topic, tc.diffS, tc.linkAhead, got, tc.want)
		}
		if tc.want && (v.Class != string(analysis.ClockSkew) || !strings.HasPrefix(v.head.String(), "4 scans were dropped because /scan is stamped 700.0 ms ahead")) {
			t.Errorf("verdict %s %q", v.Class, v.head)
		}
	}
}
