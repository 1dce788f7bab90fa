package analysis

import (
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// writeWithParams writes a sample-size clock case with /parameter_events:
// each node of simTime announces use_sim_time at start-up (on system time,
// as a node does before it has /clock). bad adds an event that does not
// decode.
func writeWithParams(t *testing.T, name, storage string, simTime map[string]bool, bad bool) string {
	t.Helper()
	spec, err := scenario.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	spec = spec.Sample()
	dir := filepath.Join(t.TempDir(), "bag")
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: storage})
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range spec.Topics() {
		if err := w.AddTopic(tp[0], tp[1]); err != nil {
			t.Fatal(err)
		}
	}
	if simTime != nil {
		if err := w.AddTopic("/parameter_events", cdr.TypeParameterEvent); err != nil {
			t.Fatal(err)
		}
	}
	first := true
	err = scenario.Generate(spec, func(r *scenario.Record) error {
		if first && simTime != nil {
			first = false
			i := int64(0)
			for _, node := range sortedKeys(simTime) {
				i++
				ev := cdr.ParameterEvent{Stamp: cdr.Time{Sec: int32(spec.SystemStartNS / 1e9)}, Node: node,
					NewParameters: []cdr.Parameter{{Name: "use_sim_time", Value: cdr.ParameterValue{Type: cdr.ParameterBool, BoolValue: simTime[node]}}}}
				if err := w.Write("/parameter_events", r.LogTimeNS-1000+i, r.LogTimeNS-1000+i, cdr.AppendParameterEvent(nil, &ev, binary.LittleEndian)); err != nil {
					return err
				}
			}
			if bad {
				if err := w.Write("/parameter_events", r.LogTimeNS-1, r.LogTimeNS-1, []byte{0, 1, 0, 0, 9}); err != nil {
					return err
				}
			}
		}
		return w.Write(r.Topic, r.LogTimeNS, r.PublishTimeNS, r.Data)
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestNodeClocks: the verdict names the node /parameter_events shows on
// system time, the commands use its name, and a bag without the events
// says it cannot tell.
func TestNodeClocks(t *testing.T) {
	nodes := map[string]bool{"/laser_driver": false, "/robot_state_publisher": true, "/odometry": true}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		t.Run(storage, func(t *testing.T) {
			t.Run("one node on system time", func(t *testing.T) {
				rep := analyseDir(t, writeWithParams(t, scenario.LaserSystemTFSim, storage, nodes, true))
				// The three announced nodes, and rviz2 from /rosout (the
				// consumer's drop lines, stamped in sim time).
				if len(rep.Nodes) != 4 || rep.Nodes[3].Node != "rviz2" || rep.Nodes[3].RosoutLines == 0 || rep.Nodes[3].UseSimTime != "" || rep.Nodes[3].StampClock != "sim" {
					t.Fatalf("nodes %+v", rep.Nodes)
				}
				for _, n := range rep.Nodes[:3] {
					if want := map[bool]string{true: "true", false: "false"}[nodes[n.Node]]; n.UseSimTime != want || n.ParameterEvents != 1 || n.StampClock != "system" {
						t.Errorf("node %+v, want use_sim_time %s", n, want)
					}
				}
				want := "The bag names it: /laser_driver has use_sim_time=false (parameter event at +0.0 s) while /odometry and the other 1 nodes that announce it have true."
				if !strings.HasSuffix(rep.Verdict.Sentence, want) || rep.Summary.Verdict != rep.Verdict.Sentence {
					t.Errorf("verdict %q, want it to end %q", rep.Verdict.Sentence, want)
				}
				if !contains(rep.Verdict.Commands, "ros2 param get /laser_driver use_sim_time") || containsSub(rep.Verdict.Commands, "/<") {
					t.Errorf("commands %q", rep.Verdict.Commands)
				}
				skipped := 0
				for _, s := range rep.Skipped {
					if s.Topic == "/parameter_events" {
						skipped = s.Count
					}
				}
				if skipped != 1 {
					t.Errorf("skipped %+v, want the bad ParameterEvent counted", rep.Skipped)
				}
			})
			t.Run("no parameter events", func(t *testing.T) {
				rep := analyseDir(t, writeWithParams(t, scenario.LaserSystemTFSim, storage, nil, false))
				if !containsSub(rep.Verdict.Evidence, "The bag cannot tell which node this is: it has no /parameter_events.") {
					t.Errorf("evidence %q", rep.Verdict.Evidence)
				}
				if len(rep.Nodes) != 1 || rep.Nodes[0].Node != "rviz2" {
					t.Errorf("nodes %+v", rep.Nodes)
				}
			})
			t.Run("healthy bag, every node on sim time", func(t *testing.T) {
				all := map[string]bool{"/laser_driver": true, "/robot_state_publisher": true}
				rep := analyseDir(t, writeWithParams(t, scenario.BothSim, storage, all, false))
				if strings.Contains(rep.Verdict.Sentence, "use_sim_time") || containsSub(rep.Verdict.Evidence, "use_sim_time") {
					t.Errorf("verdict %+v", rep.Verdict)
				}
			})
		})
	}
}
