package verdict

import "github.com/bagclock/bagclock/analysis"

// timeLeadCommands are the commands that confirm the time finding that
// leads the verdict, in timeSentences' order (a clock step, a topic stuck
// at 0, a wall timer, stale data): the tf2_echo of a healthy sensor does
// not confirm any of them.
func (d decider) timeLeadCommands() []command {
	r := d.rep
	for _, st := range r.ClockSteps {
		if st.Confirmed {
			// The machine's time service logs when it stepped the clock.
			return []command{shell("chronyc tracking"), shell("journalctl -b -u chrony -u chronyd -u systemd-timesyncd")}
		}
	}
	if len(r.StuckZero) > 0 {
		z := r.StuckZero[0]
		cmds := []command{topicVerb("info", "/clock", true), topicVerb("info", z.Topic, true)}
		if len(z.Nodes) > 0 {
			cmds = append(cmds, paramSimTime(z.Nodes[0]))
		}
		return cmds
	}
	for _, t := range r.TimerClocks {
		if t.Flagged {
			// topic hz counts in wall time; /clock's rate against it is
			// the real-time factor.
			return []command{topicVerb("hz", t.Topic, false), topicVerb("hz", "/clock", false), topicVerb("info", t.Topic, true)}
		}
	}
	for _, ag := range r.Ages {
		if ag.Kind == analysis.AgeAhead && ag.Link == "" {
			return []command{shell("chronyc tracking"), shell("chronyc sources -v"), echo(ag.Topic, "header.stamp")}
		}
		if ag.Kind == analysis.AgeAhead {
			return []command{shell("chronyc tracking"), shell("chronyc sources -v"), tfEcho(ag.Parent, ag.Child, false)}
		}
		if ag.Kind == analysis.AgeStale {
			return []command{topicVerb("delay", ag.Topic, false), topicVerb("info", ag.Topic, true)}
		}
	}
	if lf := r.LagFloor; lf != nil && len(lf.OverMaxAge) > 0 {
		// On the robot, delay against its own clock; on both machines,
		// how far each clock is from the same server.
		return []command{shell("chronyc tracking"), topicVerb("delay", lf.OverMaxAge[0], false)}
	}
	return nil
}
