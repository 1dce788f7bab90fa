package verdict

import (
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// timeLeadCommands are the commands that confirm the time finding that
// leads the verdict, in timeSentences' order (a clock step, a topic stuck
// at 0, a wall timer, stale data): the tf2_echo of a healthy sensor does
// not confirm any of them.
func (d decider) timeLeadCommands() []string {
	r := d.rep
	for _, st := range r.ClockSteps {
		if st.Confirmed {
			// The machine's time service logs when it stepped the clock.
			return []string{"chronyc tracking", "journalctl -b -u chrony -u chronyd -u systemd-timesyncd"}
		}
	}
	if len(r.StuckZero) > 0 {
		z := r.StuckZero[0]
		cmds := []string{"ros2 topic info /clock --verbose", "ros2 topic info " + z.Topic + " --verbose"}
		if len(z.Nodes) > 0 {
			cmds = append(cmds, "ros2 param get "+z.Nodes[0]+" use_sim_time")
		}
		return cmds
	}
	for _, t := range r.TimerClocks {
		if t.Flagged {
			// topic hz counts in wall time; /clock's rate against it is
			// the real-time factor.
			return []string{"ros2 topic hz " + t.Topic, "ros2 topic hz /clock", "ros2 topic info " + t.Topic + " --verbose"}
		}
	}
	for _, ag := range r.Ages {
		if ag.Kind == analysis.AgeAhead && ag.Link == "" {
			return []string{"chronyc tracking", "chronyc sources -v", "ros2 topic echo " + ag.Topic + " --field header.stamp --once"}
		}
		if ag.Kind == analysis.AgeAhead {
			return []string{"chronyc tracking", "chronyc sources -v", "ros2 run tf2_ros tf2_echo " + strings.Replace(ag.Link, "->", " ", 1)}
		}
		if ag.Kind == analysis.AgeStale {
			return []string{"ros2 topic delay " + ag.Topic, "ros2 topic info " + ag.Topic + " --verbose"}
		}
	}
	if lf := r.LagFloor; lf != nil && len(lf.OverMaxAge) > 0 {
		// On the robot, delay against its own clock; on both machines,
		// how far each clock is from the same server.
		return []string{"chronyc tracking", "ros2 topic delay " + lf.OverMaxAge[0]}
	}
	return nil
}
