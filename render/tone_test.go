package render

import "testing"

// TestTone: the banner is green only for a no_problem verdict without a
// finding; a headline the bag could not decide is not passed as healthy.
func TestTone(t *testing.T) {
	cases := []struct {
		findings []string
		class    string
		tone     string
		label    string
	}{
		{nil, "no_problem", "ok", "no clock problem found"},
		{nil, "", "ok", "no clock problem found"},
		{nil, "time", "warn", "no finding, but not everything could be checked: read the headline"},
		{nil, "empty_topic", "warn", "no finding, but not everything could be checked: read the headline"},
		{[]string{"drop"}, "same_clock_drops", "bad", "found: drop"},
		{[]string{"clock-step", "jump"}, "time", "warn", "found: clock-step, jump"},
	}
	for _, c := range cases {
		tn, label := tone(c.findings, c.class)
		if tn != c.tone || label != c.label {
			t.Errorf("tone(%v, %q) = %q, %q; want %q, %q", c.findings, c.class, tn, label, c.tone, c.label)
		}
	}
}
