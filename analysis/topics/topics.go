// Package topics tells what each topic of a bag is for bagclock: the tf
// and static tf streams, /clock, /rosout, /parameter_events, stamped
// topics (their messages start with std_msgs/Header) and the rest. Roles
// come from the message type first and the usual names second, so "tf"
// without a slash and "/robot1/tf" under a namespace are found too.
package topics

import (
	"strings"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/ros1msg"
)

// Role is what a topic is for bagclock.
type Role string

// Roles. A topic has exactly one.
const (
	TF              Role = "tf"               // tf2_msgs/TFMessage, dynamic
	TFStatic        Role = "tf_static"        // tf2_msgs/TFMessage on a name ending in tf_static
	Clock           Role = "clock"            // rosgraph_msgs/Clock
	Rosout          Role = "rosout"           // rcl_interfaces/Log
	ParameterEvents Role = "parameter_events" // rcl_interfaces/ParameterEvent
	Stamped         Role = "stamped"          // first field is std_msgs/Header
	Unstamped       Role = "unstamped"        // known or defined type without a header
	NotAnalysed     Role = "not_analysed"     // cannot tell: see TopicInfo.Stamp.Reason
)

// TopicInfo is one topic of a bag with its role.
type TopicInfo struct {
	Name string
	Type string
	Role Role
	// Usual: the name's last segment is the usual one for the role
	// ("tf", "tf_static", "clock", "rosout", "parameter_events"), so a
	// caller choosing among several topics of a role prefers it.
	Usual bool
	// Stamp says whether (and why) messages start with a header; its
	// Reason explains a NotAnalysed role.
	Stamp cdr.StampInfo
}

// usualNames maps the special roles to their usual last name segment.
var usualNames = map[Role]string{TF: "tf", TFStatic: "tf_static", Clock: "clock", Rosout: "rosout", ParameterEvents: "parameter_events"}

// Classify returns every topic of bag with its role, in the bag's order.
func Classify(bag *bagread.Bag) []TopicInfo {
	out := make([]TopicInfo, 0, len(bag.Topics))
	for _, t := range bag.Topics {
		out = append(out, Of(t.Name, t.Type, t.DefinitionEncoding, t.Definition))
	}
	return out
}

// Of classifies one topic from its name, type and the bag's definition of
// the type (defEncoding/def may be empty).
func Of(name, typ, defEncoding, def string) TopicInfo {
	st := cdr.LookupStamped(typ, defEncoding, def)
	if defEncoding == bagread.DefinitionROS1 && strings.TrimSpace(def) != "" {
		// A ROS 1 connection always carries its full definition, and the
		// ROS 1 header (with seq) is not ROS 2's: decide from it alone.
		s1 := ros1msg.StampedFromDefinition(typ, def)
		st = cdr.StampInfo{Stamped: s1.Stamped, Known: s1.Known, Reason: s1.Reason}
	}
	ti := TopicInfo{Name: name, Type: typ, Stamp: st}
	switch normType(typ) {
	case "tf2_msgs/TFMessage", ros1msg.TypeTFLegacy:
		ti.Role = TF
		if strings.HasSuffix(name, "tf_static") {
			ti.Role = TFStatic
		}
	case "rosgraph_msgs/Clock":
		ti.Role = Clock
	case "rcl_interfaces/Log", ros1msg.TypeLog:
		ti.Role = Rosout
	case "rcl_interfaces/ParameterEvent":
		ti.Role = ParameterEvents
	default:
		switch {
		case st.Stamped:
			ti.Role = Stamped
		case st.Known:
			ti.Role = Unstamped
		default:
			ti.Role = NotAnalysed
		}
	}
	if u, ok := usualNames[ti.Role]; ok {
		ti.Usual = LastSegment(name) == u
	}
	return ti
}

// normType turns "pkg/msg/Type" into "pkg/Type" (the older spelling).
func normType(typ string) string {
	if p, rest, ok := strings.Cut(typ, "/msg/"); ok && !strings.Contains(rest, "/") {
		return p + "/" + rest
	}
	return typ
}

// LastSegment returns the part of a topic name after its last '/'
// ("/robot1/tf" → "tf", "tf" → "tf").
func LastSegment(name string) string {
	return name[strings.LastIndexByte(name, '/')+1:]
}

// WithRole returns the topics of infos that have role, usual names first
// (stable otherwise).
func WithRole(infos []TopicInfo, role Role) []TopicInfo {
	var usual, other []TopicInfo
	for _, ti := range infos {
		if ti.Role != role {
			continue
		}
		if ti.Usual {
			usual = append(usual, ti)
		} else {
			other = append(other, ti)
		}
	}
	return append(usual, other...)
}
