package analysis

import (
	"reflect"
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// checkOrderProbe is a check with every hook, named for the order test.
type checkOrderProbe struct{ name string }

func (*checkOrderProbe) finish(*analyzer)                                            {}
func (*checkOrderProbe) onClock(*analyzer, *bagread.Message, int64)                  {}
func (*checkOrderProbe) onLink(*analyzer, *bagread.Message, *linkStats, *tf.Stamped) {}
func (*checkOrderProbe) onTF(*analyzer, *bagread.Message, bool)                      {}
func (*checkOrderProbe) onStamped(*analyzer, *stampedMsg)                            {}
func (*checkOrderProbe) onRecord(*analyzer, *bagread.Message, *topicState)           {}
func (*checkOrderProbe) role() topicRole                                             { return roleRosout }
func (*checkOrderProbe) onRaw(*analyzer, *bagread.Message)                           {}

// checkOrderPlain is a check without hooks.
type checkOrderPlain struct{}

func (checkOrderPlain) finish(*analyzer) {}

// TestRegisterChecksOrder: checks run by rank, then by name, then in the
// order they registered; a maker that
// returns nil sits the bag out; each hook is filed, and raw hooks go to
// the topics of their role only.
func TestRegisterChecksOrder(t *testing.T) {
	saved := checkMakers
	defer func() { checkMakers = saved }()
	checkMakers = nil
	probe := func(name string) func(*analyzer) check {
		return func(*analyzer) check { return &checkOrderProbe{name} }
	}
	registerCheck(20, "b", probe("20b"))
	registerCheck(10, "z", probe("10z"))
	registerCheck(20, "a", probe("20a"))
	registerCheck(15, "out", func(*analyzer) check { return nil })
	registerCheck(5, "plain", func(*analyzer) check { return checkOrderPlain{} })
	registerCheck(30, "a", probe("30a"))
	// A full tie keeps the order of registration.
	registerCheck(40, "same", probe("40 first"))
	registerCheck(40, "same", probe("40 second"))

	a := &analyzer{}
	rosout, other := &topicState{name: "/rosout", role: roleRosout}, &topicState{name: "/scan", role: roleStamped}
	a.topics.list = []*topicState{rosout, other}
	a.registerChecks()
	names := func(n int, get func(i int) any) []string {
		var l []string
		for i := range n {
			if p, ok := get(i).(*checkOrderProbe); ok {
				l = append(l, p.name)
			} else {
				l = append(l, "plain")
			}
		}
		return l
	}
	want := []string{"10z", "20a", "20b", "30a", "40 first", "40 second"}
	for _, tc := range []struct {
		what string
		got  []string
		want []string
	}{
		{"checks", names(len(a.checks), func(i int) any { return a.checks[i] }), append([]string{"plain"}, want...)},
		{"clock hooks", names(len(a.clockHooks), func(i int) any { return a.clockHooks[i] }), want},
		{"link hooks", names(len(a.linkHooks), func(i int) any { return a.linkHooks[i] }), want},
		{"tf hooks", names(len(a.tfHooks), func(i int) any { return a.tfHooks[i] }), want},
		{"stamped hooks", names(len(a.stampedHooks), func(i int) any { return a.stampedHooks[i] }), want},
		{"record hooks", names(len(a.recordHooks), func(i int) any { return a.recordHooks[i] }), want},
		{"raw hooks of /rosout", names(len(rosout.raw), func(i int) any { return rosout.raw[i] }), want},
		{"raw hooks of /scan", names(len(other.raw), func(i int) any { return other.raw[i] }), nil},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.what, tc.got, tc.want)
		}
	}
}
