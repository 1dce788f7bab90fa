package render

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// NodesCSVHeader is the header of the "Nodes and their clocks" table.
var NodesCSVHeader = []string{"node", "use_sim_time", "use_sim_time_at_s", "stamp_clock", "parameter_events", "rosout_lines", "publishes"}

// NodesCSV writes the report's node table (Report.Nodes): one row per node
// the bag names, use_sim_time "true", "false" or "" (never announced), the
// record time it was announced (seconds since the bag start, empty when
// never), the clock of the node's own stamps, its message counts, and
// the topics a ROS 1 bag names it the publisher of (space-separated). Text
// cells are spreadsheet-safe.
func NodesCSV(w io.Writer, rep *analysis.Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(NodesCSVHeader); err != nil {
		return err
	}
	for _, n := range rep.Nodes {
		at := ""
		if n.UseSimTime != "" {
			at = strconv.FormatFloat(n.UseSimTimeAtS, 'f', 3, 64)
		}
		if err := cw.Write([]string{SafeCSVCell(n.Node), n.UseSimTime, at, n.StampClock,
			strconv.Itoa(n.ParameterEvents), strconv.Itoa(n.RosoutLines), SafeCSVCell(strings.Join(n.Publishes, " "))}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
