package verdict

import (
	"reflect"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestNameNodesBoundary: three nodes with use_sim_time=false are named,
// a fourth counted; one node with true is named, more counted; the
// commands get at most three nodes.
func TestNameNodesBoundary(t *testing.T) {
	nodes := func(val string, names ...string) []analysis.NodeClock {
		var out []analysis.NodeClock
		for i, n := range names {
			out = append(out, analysis.NodeClock{Node: n, UseSimTime: val, UseSimTimeAtS: float64(i) + 0.25})
		}
		return out
	}
	const ask = "Set use_sim_time:=true on the node."
	placeholder := []string{"ros2 param get /<node> use_sim_time", "ros2 topic echo /clock"}
	for _, tc := range []struct {
		name     string
		sentence string
		nodes    []analysis.NodeClock
		params   bool
		addition string   // to the sentence
		evidence string   // the one evidence line
		commands []string // nil: unchanged
	}{
		{"one off, one on", ask, append(nodes("false", "/a"), nodes("true", "/t")...), true,
			" The bag names it: /a has use_sim_time=false (parameter event at +0.2 s) while /t have true.", "",
			[]string{"ros2 param get /a use_sim_time", "ros2 topic echo /clock"}},
		{"one off alone", ask, nodes("false", "/a"), true,
			" The bag names it: /a has use_sim_time=false (parameter event at +0.2 s).", "",
			[]string{"ros2 param get /a use_sim_time", "ros2 topic echo /clock"}},
		{"three off, two on", ask, append(nodes("false", "/a", "/b", "/c"), nodes("true", "/t", "/u")...), true,
			" The bag names it: /a has use_sim_time=false (parameter event at +0.2 s); /b has use_sim_time=false (parameter event at +1.2 s); /c has use_sim_time=false (parameter event at +2.2 s) while /t and the other 1 nodes that announce it have true.", "",
			[]string{"ros2 param get /a use_sim_time", "ros2 param get /b use_sim_time", "ros2 param get /c use_sim_time", "ros2 topic echo /clock"}},
		{"five off, three on", ask, append(nodes("false", "/a", "/b", "/c", "/d", "/e"), nodes("true", "/t", "/u", "/v")...), true,
			" The bag names it: /a has use_sim_time=false (parameter event at +0.2 s); /b has use_sim_time=false (parameter event at +1.2 s); /c has use_sim_time=false (parameter event at +2.2 s); 2 more while /t and the other 2 nodes that announce it have true.", "",
			[]string{"ros2 param get /a use_sim_time", "ros2 param get /b use_sim_time", "ros2 param get /c use_sim_time", "ros2 topic echo /clock"}},
		{"asks, only true", ask, nodes("true", "/t"), true, "",
			"The bag cannot tell which node this is: no node in its /parameter_events announces use_sim_time=false (a node announces its parameters when it starts, so nodes started before the recording are not in it).", nil},
		{"asks, no events", ask, nil, false, "", "The bag cannot tell which node this is: it has no /parameter_events.", nil},
		{"does not ask", "All good.", append(nodes("false", "/a"), nodes("true", "/t")...), true, "",
			"Nodes and their clocks: /a has use_sim_time=false (parameter event at +0.2 s) while /t have true. Their topics are not the ones analysed here, or their stamps agree anyway.", nil},
		{"does not ask, off only", "All good.", nodes("false", "/a"), true, "", "", nil},
		{"does not ask, on only", "All good.", nodes("true", "/t"), true, "", "", nil},
		{"unknown values", ask, nodes("", "/x"), true, "",
			"The bag cannot tell which node this is: no node in its /parameter_events announces use_sim_time=false (a node announces its parameters when it starts, so nodes started before the recording are not in it).", nil},
	} {
		rep := &analysis.Report{Nodes: tc.nodes, Pass: analysis.PassFacts{ParamEvents: tc.params}}
		rep.Verdict.Sentence = tc.sentence
		rep.Verdict.Commands = append([]string{}, placeholder...)
		nameNodes(&rep.Verdict, rep)
		if rep.Verdict.Sentence != tc.sentence+tc.addition {
			t.Errorf("%s: sentence %q, want %q", tc.name, rep.Verdict.Sentence, tc.sentence+tc.addition)
		}
		var wantEv []string
		if tc.evidence != "" {
			wantEv = []string{tc.evidence}
		}
		if !reflect.DeepEqual(rep.Verdict.Evidence, wantEv) {
			t.Errorf("%s: evidence %q, want %q", tc.name, rep.Verdict.Evidence, wantEv)
		}
		wantCmds := tc.commands
		if wantCmds == nil {
			wantCmds = placeholder
		}
		if !reflect.DeepEqual(rep.Verdict.Commands, wantCmds) {
			t.Errorf("%s: commands %q, want %q", tc.name, rep.Verdict.Commands, wantCmds)
		}
	}
}

// TestReplacePlaceholders: the first placeholder becomes the real
// commands, later ones go; without one, the real commands come first.
func TestReplacePlaceholders(t *testing.T) {
	real := []string{"ros2 param get /a use_sim_time"}
	for _, tc := range []struct {
		cmds, want []string
	}{
		{[]string{"x", "ros2 param get /<n> use_sim_time", "y", "ros2 param get /<m> use_sim_time"}, []string{"x", real[0], "y"}},
		{[]string{"x", "ros2 param get /n use_sim_time"}, []string{real[0], "x", "ros2 param get /n use_sim_time"}},
		{[]string{"echo /<n>"}, []string{real[0], "echo /<n>"}},
		{nil, real},
	} {
		if got := replacePlaceholders(tc.cmds, real); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("replacePlaceholders(%q) = %q, want %q", tc.cmds, got, tc.want)
		}
	}
}
