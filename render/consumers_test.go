package render

import (
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestConsumersText: the page names every preset the pairs ran with, once
// and in order, so a bag of scans and cameras does not read as emulated
// by the laser preset alone.
func TestConsumersText(t *testing.T) {
	tests := []struct {
		name    string
		setting string
		pairs   []string
		want    string
	}{
		{"no pairs, default", "", nil, "rviz"},
		{"no pairs, chosen", "nav2", nil, "nav2"},
		{"one preset", "", []string{"rviz-laserscan", "rviz-laserscan"}, "rviz-laserscan"},
		{"scans and cameras", "", []string{"rviz-laserscan", "rviz-camera", "rviz-laserscan"}, "rviz-laserscan, rviz-camera"},
		{"a pair without a preset", "slam_toolbox", []string{"", "slam_toolbox"}, "slam_toolbox"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &analysis.Report{Settings: analysis.Settings{Consumer: tc.setting}}
			for _, c := range tc.pairs {
				r.Pairs = append(r.Pairs, analysis.PairSummary{Consumer: c})
			}
			if got := consumersText(r); got != tc.want {
				t.Errorf("consumersText = %q, want %q", got, tc.want)
			}
		})
	}
}
