package analysis

import (
	"github.com/bagclock/bagclock/analysis/msgfilter"
	"github.com/bagclock/bagclock/bagread"
)

// topicRole says what the replay does with a topic's messages.
type topicRole uint8

const (
	roleNone        topicRole = iota
	roleTF                    // tf2_msgs/TFMessage on tf: dynamic transforms
	roleTFStatic              // tf2_msgs/TFMessage on tf_static
	roleClock                 // rosgraph_msgs/Clock
	roleRosout                // rcl_interfaces/Log
	roleStamped               // an analysed topic: header decoded, rows made
	roleParamEvents           // rcl_interfaces/ParameterEvent
	// roleTimeOnly: any other topic (no header, or a stamped type that is
	// not analysed), read for its record times alone: when a topic is
	// published tells which clock its timer follows (walltimer.go).
	roleTimeOnly
)

// topicState is one topic the replay reads. Checks keep their per-topic
// state in slices indexed by id (the analysed topics are numbered 0..n-1
// in a.scanTopics order, the record-time-only topics after them), so the
// hot path never hashes a topic name.
type topicState struct {
	name, typ string
	role      topicRole
	id        int
	messages  uint64 // count from storage (0 when unknown or empty)
	// header: a record-time-only topic whose headers a check needs (a
	// synchronizer input): read as a header prefix and decoded.
	header bool
	// raw lists the raw hooks of this topic's role.
	raw []rawHook
	// tf is the tf namespace this topic feeds (tf topics) or is looked up
	// in (analysed topics); see tfspaces.go.
	tf *tfReplay
	// ros1: the topic's bag is a ROS 1 bag, its messages ROS 1 serialized.
	ros1 bool

	// Analysed topics: the consumer preset emulated and its parameters
	// (with the configured overrides); laser: a LaserScan (decoded and
	// checked whole, as before); anyFrame: a sensor type, whose messages
	// get rows even with an empty frame_id (a consumer drops them: that
	// is a finding), while other stamped types named by --topic get rows
	// only for messages with a frame id.
	preset   string
	params   msgfilter.Params
	laser    bool
	anyFrame bool
	noFrame  int // messages without a frame id and therefore without rows

	// Analysed topics: messages decoded so far, and the target frames,
	// decided at the first message (or fixed by Config.TargetFrames).
	count   int
	ready   bool
	targets []string
}

// stampedMsg is one decoded message of an analysed topic as the stamped
// hooks and the rows see it.
type stampedMsg struct {
	m     *bagread.Message
	topic *topicState
	stamp int64  // header.stamp in ns
	frame string // header.frame_id as recorded (may have a leading '/')
}

// topicTable finds a topic's state by name. Bags have a handful of read
// topics: a linear scan of string compares beats hashing the name for
// each message; many topics switch to a map.
type topicTable struct {
	list   []*topicState
	byName map[string]*topicState
}

const topicTableLinear = 8

func (t *topicTable) add(ts *topicState) {
	t.list = append(t.list, ts)
	if len(t.list) > topicTableLinear {
		if t.byName == nil {
			t.byName = map[string]*topicState{}
			for _, x := range t.list {
				t.byName[x.name] = x
			}
		}
		t.byName[ts.name] = ts
	}
}

// find returns the state of topic name, nil when the replay does not read
// it. Safe for concurrent use once every add is done.
func (t *topicTable) find(name string) *topicState {
	if t.byName != nil {
		return t.byName[name]
	}
	for _, ts := range t.list {
		if ts.name == name {
			return ts
		}
	}
	return nil
}

// analysed returns the analysed topics' states in id order.
func (t *topicTable) analysed() []*topicState {
	var out []*topicState
	for _, ts := range t.list {
		if ts.role == roleStamped {
			out = append(out, ts)
		}
	}
	return out
}
