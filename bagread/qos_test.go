package bagread

import (
	"fmt"
	"reflect"
	"testing"
)

// TestParseQoSValues: numeric policies map to rmw's names (out of range:
// "unknown"), names pass through, and durations give nanoseconds, with
// rmw's and the Foxy-era vendors' infinities as -1.
func TestParseQoSValues(t *testing.T) {
	for _, c := range []struct {
		policy, dur string
		want        QoSProfile
	}{
		{"history: 0\n  reliability: 4\n  durability: best_effort", "{sec: 0, nsec: 0}",
			QoSProfile{History: "system_default", Reliability: "best_available", Durability: "best_effort", DeadlineNS: 0}},
		{"history: 3\n  reliability: 5\n  durability: -1", "{sec: 1, nsec: 500}",
			QoSProfile{History: "unknown", Reliability: "unknown", Durability: "unknown", DeadlineNS: 1_000_000_500}},
		{"liveliness: 5", "{sec: 9223372035, nsec: 5}", QoSProfile{Liveliness: "best_available", DeadlineNS: 9_223_372_035_000_000_005}},
		{"liveliness: 6", "{sec: 9223372036, nsec: 0}", QoSProfile{Liveliness: "unknown", DeadlineNS: -1}},
		{"depth: 10", "{sec: 9223372036, nsec: 854775807}", QoSProfile{Depth: 10, DeadlineNS: -1}},
		{"depth: 0", "{sec: 2147483647, nsec: 4294967295}", QoSProfile{DeadlineNS: -1}},
		{"depth: 1", "{sec: 2147483647, nsec: 2147483647}", QoSProfile{Depth: 1, DeadlineNS: -1}},
		{"depth: 2", "{sec: 2147483647, nsec: 0}", QoSProfile{Depth: 2, DeadlineNS: 2_147_483_647_000_000_000}},
		{"depth: 3", "{sec: 0, nsec: 9223372036854775807}", QoSProfile{Depth: 3, DeadlineNS: -1}},
		{"depth: 4", "{sec: -1, nsec: 0}", QoSProfile{Depth: 4, DeadlineNS: -1}},
		{"avoid_ros_namespace_conventions: true", "{sec: 0, nsec: 7}", QoSProfile{AvoidROSNamespaceConventions: true, DeadlineNS: 7}},
	} {
		text := fmt.Sprintf("- %s\n  deadline: %s\n", c.policy, c.dur)
		c.want.LifespanNS, c.want.LivelinessLeaseDurationNS = -1, -1
		if got := ParseQoS(text); !reflect.DeepEqual(got, []QoSProfile{c.want}) {
			t.Errorf("ParseQoS(%q) =\n%+v, want\n%+v", text, got, c.want)
		}
	}
	for _, text := range []string{"", "  \n", "history: 1", "- 3", "[unclosed"} {
		if got := ParseQoS(text); len(got) != 0 {
			t.Errorf("ParseQoS(%q) = %+v, want none", text, got)
		}
	}
}
