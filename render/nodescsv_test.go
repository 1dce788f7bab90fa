package render

import (
	"bytes"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

func TestNodesCSV(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes []analysis.NodeClock
		want  string
	}{
		{"none", nil, "node,use_sim_time,use_sim_time_at_s,stamp_clock,parameter_events,rosout_lines,publishes\n"},
		{"announced and logger", []analysis.NodeClock{
			{Node: "/laser_driver", UseSimTime: "false", UseSimTimeAtS: 0.4, StampClock: "system", ParameterEvents: 2},
			{Node: "=cmd|rviz2", StampClock: "sim", RosoutLines: 3},
		}, "node,use_sim_time,use_sim_time_at_s,stamp_clock,parameter_events,rosout_lines,publishes\n" +
			"/laser_driver,false,0.400,system,2,0,\n" +
			"'=cmd|rviz2,,,sim,0,3,\n"},
		{"ROS 1 publisher", []analysis.NodeClock{
			{Node: "/hokuyo_node", Publishes: []string{"/scan", "=cmd"}},
		}, "node,use_sim_time,use_sim_time_at_s,stamp_clock,parameter_events,rosout_lines,publishes\n" +
			"/hokuyo_node,,,,0,0,/scan =cmd\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := NodesCSV(&b, &analysis.Report{Nodes: tc.nodes}); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}
