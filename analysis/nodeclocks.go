package analysis

import (
	"fmt"
	"sort"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// NodeClock is one node the bag names, with what it says about its clock.
type NodeClock struct {
	// Node is the fully qualified name from /parameter_events, or the
	// logger name from /rosout (no leading slash there).
	Node string `json:"node"`
	// UseSimTime is "true", "false" or "" (never announced in the bag).
	UseSimTime string `json:"use_sim_time"`
	// UseSimTimeAtS is when the last use_sim_time value was seen (record
	// time, seconds since the bag start).
	UseSimTimeAtS float64 `json:"use_sim_time_at_s"`
	// StampClock is the clock family of the node's own stamps on
	// /parameter_events and /rosout: "sim", "system", "zero" or "mixed".
	StampClock string `json:"stamp_clock"`
	// ParameterEvents and RosoutLines count the node's messages.
	ParameterEvents int `json:"parameter_events"`
	RosoutLines     int `json:"rosout_lines"`
	// Publishes lists the topics a ROS 1 bag's connection records name
	// this node (callerid) as the publisher of (ROS 2 bags do not say).
	// A node known only from them has StampClock "".
	Publishes []string `json:"publishes,omitempty"`
}

// maxNodesKept bounds the node table; a bag names few nodes.
const maxNodesKept = 256

const rankNodeClocks = 600

type nodeEntry struct {
	NodeClock
	sim, system, zero int
}

// nodeClockCheck reads /parameter_events (use_sim_time of each node and
// the clock of its stamps) and, through rosoutNodes, /rosout logger names.
type nodeClockCheck struct {
	nodes  map[string]*nodeEntry
	order  []string
	events int
}

func init() {
	registerCheck(rankNodeClocks, "node-clocks", func(*analyzer) check { return &nodeClockCheck{nodes: map[string]*nodeEntry{}} })
	registerCheck(rankNodeClocks+1, "node-clocks-rosout", func(a *analyzer) check {
		for _, c := range a.checks {
			if n, ok := c.(*nodeClockCheck); ok {
				return &rosoutNodes{n}
			}
		}
		return nil
	})
}

func (*nodeClockCheck) role() topicRole { return roleParamEvents }

func (c *nodeClockCheck) node(name string) *nodeEntry {
	if e, ok := c.nodes[name]; ok {
		return e
	}
	if len(c.nodes) >= maxNodesKept {
		return nil
	}
	e := &nodeEntry{NodeClock: NodeClock{Node: name}}
	c.nodes[name] = e
	c.order = append(c.order, name)
	return e
}

func (e *nodeEntry) stamp(ns int64) {
	switch {
	case ns == 0:
		e.zero++
	case ns >= EpochThresholdNS:
		e.system++
	default:
		e.sim++
	}
}

func (c *nodeClockCheck) onRaw(a *analyzer, m *bagread.Message) {
	ev, err := cdr.DecodeParameterEvent(m.Data)
	if err != nil {
		a.skip(m, err)
		return
	}
	c.events++
	e := c.node(ev.Node)
	if e == nil {
		return
	}
	e.ParameterEvents++
	e.stamp(ev.Stamp.Nanoseconds())
	for _, list := range [][]cdr.Parameter{ev.NewParameters, ev.ChangedParameters} {
		for _, p := range list {
			if p.Name == "use_sim_time" && p.Value.Type == cdr.ParameterBool {
				e.UseSimTime = fmt.Sprint(p.Value.BoolValue)
				e.UseSimTimeAtS = a.x(m.LogTimeNS)
			}
		}
	}
}

// rosoutNodes adds the logger names of /rosout to the node table.
type rosoutNodes struct{ c *nodeClockCheck }

func (*rosoutNodes) role() topicRole { return roleRosout }

func (r *rosoutNodes) onRaw(a *analyzer, m *bagread.Message) {
	l, err := a.wire.Log(m.Data)
	if err != nil {
		return // the rosout check counts it as skipped
	}
	name := l.Name
	// A logger is named after its node without the leading slash; join it
	// with the node /parameter_events names, if any.
	if e, ok := r.c.nodes["/"+name]; ok {
		name = e.Node
	}
	if e := r.c.node(name); e != nil {
		e.RosoutLines++
		e.stamp(l.Stamp.Nanoseconds())
	}
}

func (*rosoutNodes) finish(*analyzer) {}

func (c *nodeClockCheck) finish(a *analyzer) {
	r := &a.rep
	r.Nodes = []NodeClock{}
	for _, name := range c.order {
		e := c.nodes[name]
		n := e.NodeClock
		switch kinds := btoi(e.sim > 0) + btoi(e.system > 0) + btoi(e.zero > 0); {
		case kinds > 1:
			n.StampClock = "mixed"
		case e.sim > 0:
			n.StampClock = "sim"
		case e.system > 0:
			n.StampClock = "system"
		default: // every entry has a stamp: zero ones only
			n.StampClock = "zero"
		}
		r.Nodes = append(r.Nodes, n)
	}
	sort.SliceStable(r.Nodes, func(i, j int) bool { return r.Nodes[i].Node < r.Nodes[j].Node })
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hasRole reports whether any topic of the bag has role and messages.
func (t *topicTable) hasRole(role topicRole) bool {
	for _, ts := range t.list {
		if ts.role == role && ts.messages > 0 {
			return true
		}
	}
	return false
}

// byRole returns the first topic of the bag with role, or nil.
func (t *topicTable) byRole(role topicRole) *topicState {
	for _, ts := range t.list {
		if ts.role == role {
			return ts
		}
	}
	return nil
}
