package verdict

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// missingLinkReport is the report of a tree holding odom->base_link and,
// apart from it, laser_mount->laser, with one analysed topic /scanN per
// pair, each a pair of frame laser against odom (never connected: the
// frame's root is laser_mount) with rows rows, all dropped by the filter.
func missingLinkReport(n, rows int) *analysis.Report {
	r := &analysis.Report{TFTree: []analysis.TFLink{{Parent: "odom", Child: "base_link", Topic: "/tf_static", Static: true},
		{Parent: "laser_mount", Child: "laser", Topic: "/tf_static", Static: true}}}
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("/scan%d", i)
		r.Topics = append(r.Topics, analysis.TopicSummary{Topic: name, Role: analysis.TopicAnalysed})
		r.Pairs = append(r.Pairs, analysis.PairSummary{Topic: name, FrameID: "laser", TargetFrame: "odom", Type: "sensor_msgs/msg/LaserScan",
			Classes: map[string]int{string(analysis.NoTransform): rows}, Filter: map[string]int{"dropped_no_transform": rows}, FrameRoot: "laser_mount"})
	}
	return r
}

// TestMissingLinkEvidenceBoundary: besides the leading pair, up to three
// never-connected pairs get an evidence line each, in order.
func TestMissingLinkEvidenceBoundary(t *testing.T) {
	for _, tc := range []struct {
		pairs int
		want  []string // topics named, in order
	}{
		{1, nil},
		{2, []string{"/scan2"}},
		{4, []string{"/scan2", "/scan3", "/scan4"}},
		{5, []string{"/scan2", "/scan3", "/scan4"}},
		{6, []string{"/scan2", "/scan3", "/scan4"}},
	} {
		var v draft
		d := deciderFor(missingLinkReport(tc.pairs, 7))
		d.missingLinkEvidence(&v, d.pairs()[0])
		if len(v.Evidence) != len(tc.want) {
			t.Fatalf("%d pairs: %d evidence lines, want %d: %q", tc.pairs, len(v.Evidence), len(tc.want), v.Evidence)
		}
		for i, topic := range tc.want {
			want := fmt.Sprintf("Frame 'laser' is never connected to 'odom' in this bag's tf ('laser' hangs under 'laser_mount', in a tree without 'odom'): a missing static transform or URDF link, not a clock problem; a consumer with fixed frame 'odom' drops every one of %s's 7 scans.", topic)
			if !strings.HasPrefix(v.Evidence[i], want) {
				t.Errorf("%d pairs: evidence %d = %q, want it to start %q", tc.pairs, i, v.Evidence[i], want)
			}
		}
	}
}
