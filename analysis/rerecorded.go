package analysis

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// A lag of days to a year of every stamp behind record time has two
// causes the bag may tell apart: a bag re-recorded while `ros2 bag play`
// ran without --clock (old stamps published now), or every publisher on
// a machine whose clock is that far behind (a board without a real-time
// clock or NTP). /rosout lines of rosbag2_player say replay; so do send
// times (MCAP publish_time, the publisher's clock) on the recorder's
// clock, while send times that lag with the stamps say machine.
type LagCause int

const (
	lagUnknown    LagCause = iota
	lagReplay              // rosbag2_player in /rosout or /parameter_events
	lagReplaySend          // publish times on the recorder's clock
	lagMachine             // publish times lag with the stamps
)

// LagSample is one topic's or link's median age (record time − stamp) and
// median publish time − stamp, when the bag has publish times.
type LagSample struct {
	Age, Pub float64
	HasPub   bool
}

// IsYearLag: the lag a replay of an older recording (or a clock never
// set since a shutdown) produces, days to a year.
func IsYearLag(lagS float64) bool { return lagS >= 86400 && lagS <= 366*86400 }

// LagCauseOf decides from the bag's evidence: replayer says /rosout or
// /parameter_events name rosbag2_player. Publish times equal to record
// time (rosbag2 before Jazzy copies the receive time) tell nothing.
func LagCauseOf(replayer bool, samples []LagSample) LagCause {
	if replayer {
		return lagReplay
	}
	send, lagging := 0, 0
	for _, s := range samples {
		// Near is within 1% of the lag (a link stamped 100 s old by its
		// publisher still sends on its machine's clock).
		near := math.Max(1, 0.01*math.Abs(s.Age))
		switch d := math.Abs(s.Pub - s.Age); {
		case !s.HasPub || d < 1e-6:
		case d < near:
			send++
		case math.Abs(s.Pub) < near:
			lagging++
		default:
			return lagUnknown
		}
	}
	switch {
	case send > 0 && lagging == 0:
		return lagReplaySend
	case lagging > 0 && send == 0:
		return lagMachine
	}
	return lagUnknown
}

// LagSentence words a days-to-a-year lag of what (e.g. "every stamp",
// "every tf stamp") behind record time, with the dates of stamps and
// recording (the bag starts at record time startNS), as the cause found.
func LagSentence(startNS int64, what string, lagS float64, cause LagCause) string {
	day := func(ns int64) string { return time.Unix(0, ns).UTC().Format("2006-01-02 15:04 UTC") }
	stamped, recorded := day(startNS-int64(lagS*1e9)), day(startNS)
	d := FmtDur(lagS)
	switch cause {
	case lagReplay:
		return fmt.Sprintf("%s lags record time by the same %s and /rosout has rosbag2_player lines: this bag was re-recorded while `ros2 bag play` ran without --clock; the offset is the age of the replayed recording (made around %s), not clock skew. Replay with --clock (and use_sim_time:=true on the recorder) to keep the original time.", what, d, stamped)
	case lagReplaySend:
		return fmt.Sprintf("%s lags record time by the same %s (stamped around %s, recorded %s) while the messages were sent on the recorder's clock (publish_time close to record time): old stamps published now, so this bag was re-recorded while `ros2 bag play` ran without --clock; the offset is the age of the original recording, not clock skew. Replay with --clock (and use_sim_time:=true on the recorder) to keep the original time.", what, d, stamped, recorded)
	case lagMachine:
		return fmt.Sprintf("%s lags record time by the same %s (stamped around %s, recorded %s), and so do the publishers' own send times (publish_time): their machine's clock is %s behind the recorder's, not a replay; set it (chrony/NTP; a board without a real-time clock boots at the time it last saved).", what, d, stamped, recorded, d)
	}
	return fmt.Sprintf("%s lags record time by the same %s: stamped around %s, recorded %s. With no rosbag2_player line in /rosout and no publish times that differ from record time, the bag cannot tell which of two causes it is: a bag re-recorded while `ros2 bag play` ran without --clock (the original recording then starts around %s: check with `ros2 bag info` on it), or every publisher on one machine whose clock is %s behind the recorder's (run `date` on it; chrony/NTP).", what, d, stamped, recorded, stamped, d)
}

// sawReplayer reports whether /rosout or /parameter_events name
// rosbag2_player: the recording was made while a bag was replayed.
func (a *analyzer) sawReplayer() bool {
	for _, c := range a.checks {
		if n, ok := c.(*nodeClockCheck); ok {
			for _, name := range n.order {
				if IsReplayer(name) {
					return true
				}
			}
		}
	}
	return false
}

// IsReplayer reports whether a node name is rosbag2's player.
func IsReplayer(node string) bool { return strings.Contains(node, "rosbag2_player") }
