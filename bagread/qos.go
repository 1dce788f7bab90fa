package bagread

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// rmw enum values (rmw/types.h) to the names rmw's string conversions use.
var (
	historyNames     = []string{"system_default", "keep_last", "keep_all", "unknown"}
	reliabilityNames = []string{"system_default", "reliable", "best_effort", "unknown", "best_available"}
	durabilityNames  = []string{"system_default", "transient_local", "volatile", "unknown", "best_available"}
	livelinessNames  = []string{"system_default", "automatic", "manual_by_node", "manual_by_topic", "unknown", "best_available"}
)

// qosFromNode reads offered_qos_profiles in either encoding: a string
// holding YAML (metadata v4-v8, storage) or a real YAML list (v9). It
// returns the raw text and the profiles it could parse.
func qosFromNode(n *yaml.Node) (string, []QoSProfile) {
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Value, ParseQoS(n.Value)
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return "", nil
		}
		out, err := yaml.Marshal(n)
		if err != nil {
			return "", nil
		}
		return string(out), qosFromList(n)
	}
	return "", nil
}

// ParseQoS parses offered_qos_profiles text leniently: numeric policies
// (v<=8) and policy names (v9) are both accepted; unparsable text yields nil.
func ParseQoS(text string) []QoSProfile {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil || len(n.Content) == 0 {
		return nil
	}
	if n.Content[0].Kind != yaml.SequenceNode {
		return nil
	}
	return qosFromList(n.Content[0])
}

func qosFromList(seq *yaml.Node) []QoSProfile {
	var out []QoSProfile
	for _, item := range seq.Content {
		if item.Kind != yaml.MappingNode {
			continue
		}
		p := QoSProfile{DeadlineNS: -1, LifespanNS: -1, LivelinessLeaseDurationNS: -1}
		for i := 0; i+1 < len(item.Content); i += 2 {
			key, val := item.Content[i].Value, item.Content[i+1]
			switch key {
			case "history":
				p.History = policyName(val.Value, historyNames)
			case "depth":
				p.Depth, _ = strconv.Atoi(val.Value)
			case "reliability":
				p.Reliability = policyName(val.Value, reliabilityNames)
			case "durability":
				p.Durability = policyName(val.Value, durabilityNames)
			case "liveliness":
				p.Liveliness = policyName(val.Value, livelinessNames)
			case "deadline":
				p.DeadlineNS = qosDuration(val)
			case "lifespan":
				p.LifespanNS = qosDuration(val)
			case "liveliness_lease_duration":
				p.LivelinessLeaseDurationNS = qosDuration(val)
			case "avoid_ros_namespace_conventions":
				p.AvoidROSNamespaceConventions = val.Value == "true"
			}
		}
		out = append(out, p)
	}
	return out
}

// policyName maps an integer policy to its rmw name and passes names
// through, as rosbag2's decoder auto-detects.
func policyName(v string, names []string) string {
	if i, err := strconv.Atoi(v); err == nil {
		if i >= 0 && i < len(names) {
			return names[i]
		}
		return "unknown"
	}
	return v
}

// qosDuration reads {sec, nsec}; the rmw infinity and the Foxy-era vendor
// infinities (Fast-RTPS, Connext, Cyclone) become -1.
func qosDuration(n *yaml.Node) int64 {
	var sec, nsec int64
	for i := 0; i+1 < len(n.Content); i += 2 {
		v, _ := strconv.ParseInt(n.Content[i+1].Value, 10, 64)
		switch n.Content[i].Value {
		case "sec":
			sec = v
		case "nsec":
			nsec = v
		}
	}
	switch {
	case sec == 9223372036 && nsec == 854775807,
		sec == 2147483647 && (nsec == 4294967295 || nsec == 2147483647),
		sec == 0 && nsec == 0x7FFFFFFFFFFFFFFF:
		return -1
	}
	if sec > 9223372035 || sec < 0 {
		return -1
	}
	return sec*1_000_000_000 + nsec
}
