package analysis

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// Boundary tests of nodeclocks.go (issue 15): the node table's cap, the
// clock family of a node's stamps, how use_sim_time is read, and how many
// nodes the verdict names.

// nodeClocksParamMsg is a /parameter_events message of node with the
// given stamp, recorded at logNS, announcing params.
func nodeClocksParamMsg(node string, stampNS, logNS int64, changed bool, params ...cdr.Parameter) *bagread.Message {
	ev := cdr.ParameterEvent{Stamp: cdr.Time{Sec: int32(stampNS / 1e9), Nanosec: uint32(stampNS % 1e9)}, Node: node}
	if changed {
		ev.ChangedParameters = params
	} else {
		ev.NewParameters = params
	}
	return &bagread.Message{Topic: "/parameter_events", LogTimeNS: logNS, Data: cdr.AppendParameterEvent(nil, &ev, binary.LittleEndian)}
}

func nodeClocksSim(v bool) cdr.Parameter {
	return cdr.Parameter{Name: "use_sim_time", Value: cdr.ParameterValue{Type: cdr.ParameterBool, BoolValue: v}}
}

func nodeClocksLogMsg(name string, stampNS int64) *bagread.Message {
	l := cdr.Log{Stamp: cdr.Time{Sec: int32(stampNS / 1e9), Nanosec: uint32(stampNS % 1e9)}, Name: name, Msg: "hello"}
	return &bagread.Message{Topic: "/rosout", Data: cdr.AppendLog(nil, &l, binary.LittleEndian)}
}

// TestNodeClocksStampFamily: a node's stamps are zero, sim (below
// EpochThresholdNS) or system (from it on); two families are "mixed".
func TestNodeClocksStampFamily(t *testing.T) {
	epoch := EpochThresholdNS // a whole number of seconds
	for _, tc := range []struct {
		name   string
		stamps []int64
		want   string
	}{
		{"zero", []int64{0, 0}, "zero"},
		{"sim", []int64{1, 5e9}, "sim"},
		{"just below the epoch threshold", []int64{epoch - 1}, "sim"},
		{"at the epoch threshold", []int64{epoch}, "system"},
		{"system", []int64{epoch + 3e9}, "system"},
		{"sim and zero", []int64{0, 5e9}, "mixed"},
		{"system and zero", []int64{epoch, 0}, "mixed"},
		{"sim and system", []int64{5e9, epoch}, "mixed"},
	} {
		a := &analyzer{skipped: map[string]*Skipped{}}
		c := &nodeClockCheck{nodes: map[string]*nodeEntry{}}
		for i, s := range tc.stamps {
			c.onRaw(a, nodeClocksParamMsg("/n", s, int64(i), false))
		}
		c.finish(a)
		if len(a.rep.Nodes) != 1 || a.rep.Nodes[0].StampClock != tc.want || a.rep.Nodes[0].ParameterEvents != len(tc.stamps) {
			t.Errorf("%s: nodes %+v, want one with stamp clock %s and %d events", tc.name, a.rep.Nodes, tc.want, len(tc.stamps))
		}
	}
	// The cut stamp arithmetic of the test itself: just below the
	// threshold is a sim stamp of 99999999.999999999 s.
	if got := (cdr.Time{Sec: int32((epoch - 1) / 1e9), Nanosec: uint32((epoch - 1) % 1e9)}).Nanoseconds(); got != epoch-1 {
		t.Fatalf("stamp encoding: %d, want %d", got, epoch-1)
	}
}

// TestNodeClocksUseSimTime: the last bool use_sim_time, new or changed,
// wins, with its record time; other parameters and types are ignored; a
// bad message is skipped.
func TestNodeClocksUseSimTime(t *testing.T) {
	a := &analyzer{skipped: map[string]*Skipped{}, bag: &bagread.Bag{}}
	c := &nodeClockCheck{nodes: map[string]*nodeEntry{}}
	a.msgs = 1
	c.onRaw(a, nodeClocksParamMsg("/a", 0, 10e9, false, nodeClocksSim(true)))
	a.msgs = 2
	c.onRaw(a, nodeClocksParamMsg("/a", 0, 12.5e9, true, nodeClocksSim(false)))
	c.onRaw(a, nodeClocksParamMsg("/a", 0, 13e9, false,
		cdr.Parameter{Name: "use_sim_time", Value: cdr.ParameterValue{Type: cdr.ParameterString, StringValue: "true"}},
		cdr.Parameter{Name: "other", Value: cdr.ParameterValue{Type: cdr.ParameterBool, BoolValue: true}}))
	c.onRaw(a, nodeClocksParamMsg("/b", 0, 14e9, false))
	c.onRaw(a, &bagread.Message{Topic: "/parameter_events", FileIndex: -1, Data: []byte{0, 1, 0, 0, 9}})
	c.finish(a)
	want := []NodeClock{
		{Node: "/a", UseSimTime: "false", UseSimTimeAtS: 2.5, StampClock: "zero", ParameterEvents: 3},
		{Node: "/b", StampClock: "zero", ParameterEvents: 1},
	}
	if !reflect.DeepEqual(a.rep.Nodes, want) {
		t.Errorf("nodes %+v, want %+v", a.rep.Nodes, want)
	}
	if c.events != 4 || a.skipped["/parameter_events"] == nil || a.skipped["/parameter_events"].Count != 1 {
		t.Errorf("events %d, skipped %+v; want 4 events and 1 skipped", c.events, a.skipped["/parameter_events"])
	}
}

// TestNodeClocksCap: the table keeps maxNodesKept nodes; later ones
// (from /parameter_events or /rosout) are counted as events only.
func TestNodeClocksCap(t *testing.T) {
	a := &analyzer{skipped: map[string]*Skipped{}}
	c := &nodeClockCheck{nodes: map[string]*nodeEntry{}}
	r := &rosoutNodes{c}
	for i := range maxNodesKept - 1 {
		c.onRaw(a, nodeClocksParamMsg(fmt.Sprintf("/n%03d", i), 0, 0, false))
	}
	r.onRaw(a, nodeClocksLogMsg("last", 0)) // the 256th node
	c.onRaw(a, nodeClocksParamMsg("/over", 0, 0, false))
	r.onRaw(a, nodeClocksLogMsg("over", 0))
	c.onRaw(a, nodeClocksParamMsg("/n000", 0, 0, false)) // known: still counted
	c.finish(a)
	if len(a.rep.Nodes) != maxNodesKept || c.events != maxNodesKept+1 {
		t.Fatalf("%d nodes, %d events; want %d, %d", len(a.rep.Nodes), c.events, maxNodesKept, maxNodesKept+1)
	}
	if n := a.rep.Nodes[0]; n.Node != "/n000" || n.ParameterEvents != 2 {
		t.Errorf("first node %+v, want /n000 with 2 events", n)
	}
	for _, n := range a.rep.Nodes {
		if strings.Contains(n.Node, "over") {
			t.Errorf("node over the cap kept: %+v", n)
		}
	}
	if c.node("/n001") == nil || c.node("/another") != nil {
		t.Errorf("node(): a known node must be found and a new one refused at the cap")
	}
}

// TestRosoutNodesJoin: a logger name joins the node /parameter_events
// names with a leading slash; an unknown one is its own node; the table
// is sorted by name.
func TestRosoutNodesJoin(t *testing.T) {
	a := &analyzer{skipped: map[string]*Skipped{}}
	c := &nodeClockCheck{nodes: map[string]*nodeEntry{}}
	r := &rosoutNodes{c}
	c.onRaw(a, nodeClocksParamMsg("/z", 5e9, 0, false))
	r.onRaw(a, nodeClocksLogMsg("z", EpochThresholdNS))
	r.onRaw(a, nodeClocksLogMsg("m", 0))
	r.onRaw(a, nodeClocksLogMsg("m", 0))
	r.onRaw(a, &bagread.Message{Topic: "/rosout", Data: []byte{1}}) // bad: ignored here
	c.finish(a)
	want := []NodeClock{
		{Node: "/z", StampClock: "mixed", ParameterEvents: 1, RosoutLines: 1},
		{Node: "m", StampClock: "zero", RosoutLines: 2},
	}
	if !reflect.DeepEqual(a.rep.Nodes, want) {
		t.Errorf("nodes %+v, want %+v", a.rep.Nodes, want)
	}
	if len(a.skipped) != 0 {
		t.Errorf("rosoutNodes skipped %v: the rosout check counts it", a.skipped)
	}
}

// TestTopicTableRoles: hasRole needs messages; byRole takes the first
// topic of the role, messages or not.
func TestTopicTableRoles(t *testing.T) {
	var tt topicTable
	tt.add(&topicState{name: "/clock0", role: roleClock})
	tt.add(&topicState{name: "/clock1", role: roleClock, messages: 1})
	tt.add(&topicState{name: "/rosout", role: roleRosout})
	if !tt.hasRole(roleClock) || tt.hasRole(roleRosout) || tt.hasRole(roleTF) {
		t.Errorf("hasRole: clock %v rosout %v tf %v; want true false false", tt.hasRole(roleClock), tt.hasRole(roleRosout), tt.hasRole(roleTF))
	}
	if ts := tt.byRole(roleClock); ts == nil || ts.name != "/clock0" {
		t.Errorf("byRole(clock) = %+v, want /clock0", ts)
	}
	if ts := tt.byRole(roleTF); ts != nil {
		t.Errorf("byRole(tf) = %+v, want nil", ts)
	}
}
