package verdict

import (
	"reflect"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestNameNodesBoundary: when the headline asks for use_sim_time:=true,
// three nodes with use_sim_time=false are named, a fourth counted; one
// node with true is named, more counted; the commands get at most three
// nodes, first. A headline that suspects use_sim_time:=true without
// /clock does not name the nodes with false, and one that asks nothing
// lists the nodes as evidence. What the headline asks is its data, not
// its words: the sentence here says nothing of use_sim_time.
func TestNameNodesBoundary(t *testing.T) {
	nodes := func(val string, names ...string) []analysis.NodeClock {
		var out []analysis.NodeClock
		for i, n := range names {
			out = append(out, analysis.NodeClock{Node: n, UseSimTime: val, UseSimTimeAtS: float64(i) + 0.25})
		}
		return out
	}
	const headline = "The headline."
	const cannotTell = "The bag cannot tell which node this is: no node in its /parameter_events announces use_sim_time=false (a node announces its parameters when it starts, so nodes started before the recording are not in it)."
	const listed = "Nodes and their clocks: /a has use_sim_time=false (parameter event at +0.2 s) while /t have true. Their topics are not the ones analysed here, or their stamps agree anyway."
	others := []string{"ros2 topic echo /clock --once"}
	for _, tc := range []struct {
		name     string
		ask      ask
		nodes    []analysis.NodeClock
		params   bool
		addition string   // to the sentence
		evidence string   // the one evidence line
		commands []string // nil: unchanged
	}{
		{"one off, one on", askSimTimeTrue, append(nodes("false", "/a"), nodes("true", "/t")...), true,
			" The bag names it: /a has use_sim_time=false (parameter event at +0.2 s) while /t have true.", "",
			[]string{"ros2 param get /a use_sim_time", "ros2 topic echo /clock --once"}},
		{"one off alone", askSimTimeTrue, nodes("false", "/a"), true,
			" The bag names it: /a has use_sim_time=false (parameter event at +0.2 s).", "",
			[]string{"ros2 param get /a use_sim_time", "ros2 topic echo /clock --once"}},
		{"three off, two on", askSimTimeTrue, append(nodes("false", "/a", "/b", "/c"), nodes("true", "/t", "/u")...), true,
			" The bag names it: /a has use_sim_time=false (parameter event at +0.2 s); /b has use_sim_time=false (parameter event at +1.2 s); /c has use_sim_time=false (parameter event at +2.2 s) while /t and the other 1 nodes that announce it have true.", "",
			[]string{"ros2 param get /a use_sim_time", "ros2 param get /b use_sim_time", "ros2 param get /c use_sim_time", "ros2 topic echo /clock --once"}},
		{"five off, three on", askSimTimeTrue, append(nodes("false", "/a", "/b", "/c", "/d", "/e"), nodes("true", "/t", "/u", "/v")...), true,
			" The bag names it: /a has use_sim_time=false (parameter event at +0.2 s); /b has use_sim_time=false (parameter event at +1.2 s); /c has use_sim_time=false (parameter event at +2.2 s); 2 more while /t and the other 2 nodes that announce it have true.", "",
			[]string{"ros2 param get /a use_sim_time", "ros2 param get /b use_sim_time", "ros2 param get /c use_sim_time", "ros2 topic echo /clock --once"}},
		{"asks, only true", askSimTimeTrue, nodes("true", "/t"), true, "", cannotTell, nil},
		{"asks, no events", askSimTimeTrue, nil, false, "", "The bag cannot tell which node this is: it has no /parameter_events.", nil},
		{"unknown values", askSimTimeTrue, nodes("", "/x"), true, "", cannotTell, nil},
		{"does not ask", askNothing, append(nodes("false", "/a"), nodes("true", "/t")...), true, "", listed, nil},
		{"does not ask, off only", askNothing, nodes("false", "/a"), true, "", "", nil},
		{"does not ask, on only", askNothing, nodes("true", "/t"), true, "", "", nil},
		{"does not ask, no events", askNothing, nil, false, "", "", nil},
		// Stamps of 0 without /clock: the node to find has
		// use_sim_time:=true, so one with false is not named as it.
		{"suspects, no events", suspectSimTimeWithoutClock, nil, false, "", "The bag cannot tell which node this is: it has no /parameter_events.", nil},
		{"suspects, off and on", suspectSimTimeWithoutClock, append(nodes("false", "/a"), nodes("true", "/t")...), true, "", listed, nil},
		{"suspects, only true", suspectSimTimeWithoutClock, nodes("true", "/t"), true, "", "", nil},
	} {
		rep := &analysis.Report{Nodes: tc.nodes, Pass: analysis.PassFacts{ParamEvents: tc.params}}
		v := draftSaying(headline)
		v.head.ask = tc.ask
		v.cmds = []command{echo("/clock", "")}
		nameNodes(&v, rep)
		if got := v.head.String(); got != headline+tc.addition {
			t.Errorf("%s: sentence %q, want %q", tc.name, got, headline+tc.addition)
		}
		var wantEv []string
		if tc.evidence != "" {
			wantEv = []string{tc.evidence}
		}
		if !reflect.DeepEqual(v.Evidence, wantEv) {
			t.Errorf("%s: evidence %q, want %q", tc.name, v.Evidence, wantEv)
		}
		wantCmds := tc.commands
		if wantCmds == nil {
			wantCmds = others
		}
		if got := lines(v.cmds); !reflect.DeepEqual(got, wantCmds) {
			t.Errorf("%s: commands %q, want %q", tc.name, got, wantCmds)
		}
	}
}
