package msgfilter

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/scenario"
)

// sensorTopicEvents is scenarioEvents for one topic of a Sensors spec:
// every transform, a clear where /clock steps back, and the headers of
// topic's messages (analysis gives each topic its own filter).
func sensorTopicEvents(t *testing.T, s scenario.Spec, topic string) []mfEvent {
	t.Helper()
	gen := func(emit func(*scenario.Record) error) error { return scenario.Generate(s, emit) }
	return topicEvents(t, gen, s.TopicName(scenario.TopicTF), s.TopicName(scenario.TopicTFStatic), topic)
}

// topicEvents turns the messages gen produces into mforacle events: the
// transforms of tfTopic and staticTopic (one robot's tree), a clear where
// /clock steps back, and the headers of topic's messages.
func topicEvents(t *testing.T, gen func(func(*scenario.Record) error) error, tfTopic, staticTopic, topic string) []mfEvent {
	t.Helper()
	var events []mfEvent
	var lastClock int64 = -1
	n := 0
	var msg cdr.TFMessage
	err := gen(func(r *scenario.Record) error {
		switch r.Topic {
		case tfTopic, staticTopic:
			if _, err := cdr.DecodeTFMessageInto(&msg, r.Data); err != nil {
				return err
			}
			for _, tr := range msg.Transforms {
				events = append(events, mfEvent{op: "tf", parent: tr.Header.FrameID, child: tr.ChildFrameID,
					stampNS: tr.Header.Stamp.Nanoseconds(), static: r.Topic == staticTopic, arrivalNS: r.LogTimeNS})
			}
		case topic:
			h, err := cdr.DecodeHeader(r.Data, r.Type)
			if err != nil {
				return fmt.Errorf("%s: %w", topic, err)
			}
			events = append(events, mfEvent{op: "scan", frame: h.FrameID, stampNS: h.Stamp.Nanoseconds(), index: n, arrivalNS: r.LogTimeNS})
			n++
		case scenario.TopicClock:
			c, err := cdr.DecodeClock(r.Data)
			if err != nil {
				return err
			}
			if v := c.Clock.Nanoseconds(); lastClock >= 0 && v < lastClock {
				events = append(events, mfEvent{op: "clear", arrivalNS: r.LogTimeNS})
			}
			lastClock = c.Clock.Nanoseconds()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// presetConfigs are the distinct (queue, tolerance, cache) settings of the
// consumer presets, with the presets that use each. ROS 1's filter has no
// buffer_timeout (a ROS 2 addition): a preset with one is compared on its
// queue and tolerance alone; the timeout has its own tests.
func presetConfigs(target string) ([]mfConfig, map[mfConfig][]string) {
	users := map[mfConfig][]string{}
	for name, p := range Presets {
		c := mfConfig{target: target, queue: p.Params.QueueSize, cacheNS: p.CacheTimeNS, tolNS: p.Params.ToleranceNS}
		users[c] = append(users[c], name)
	}
	var out []mfConfig
	for c := range users {
		sort.Strings(users[c])
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, users
}

// TestMessageFilterOracleSensorScenarios runs every generated clock case
// with a PointCloud2 lidar, an Imu and a camera Image beside the laser
// through both filters, one topic at a time, under the settings of every
// consumer preset (RViz displays and camera, slam_toolbox, AMCL, Nav2
// obstacle layer for scans and point clouds). Every message must agree,
// or be explained by a documented ROS 1/ROS 2 difference (counted and
// logged); none may disagree otherwise.
func TestMessageFilterOracleSensorScenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the ROS 1 oracle on every sensor scenario")
	}
	bin := buildMFOracle(t)
	count := map[string]int{}
	for _, name := range scenario.Names() {
		spec, err := scenario.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		spec.Duration = 10 * time.Second
		spec.Sensors = true
		configs, users := presetConfigs(spec.OdomFrame)
		for _, base := range []string{scenario.TopicScan, scenario.TopicPoints, scenario.TopicImu, scenario.TopicImage} {
			events := sensorTopicEvents(t, spec, spec.TopicName(base))
			idx := scanIndices(events)
			if len(idx) == 0 {
				t.Fatalf("%s %s: no messages generated", name, base)
			}
			compareConfigs(t, bin, name+" "+base, events, idx, configs, users, count)
		}
	}
	logCounts(t, count)
	// The scenarios must reach the outcomes the clock cases are about.
	for _, k := range []string{"passed", "passed_after_wait", "dropped_queue_full", "dropped_out_the_back"} {
		if count["ros1 "+k] == 0 {
			t.Errorf("no sensor scenario produced ROS 1 outcome %s", k)
		}
	}
	if count["agreed"] < count["messages"]*9/10 {
		t.Errorf("only %d of %d messages agree", count["agreed"], count["messages"])
	}
}

// compareConfigs runs one topic's events through both filters under each
// configuration and adds to count: messages, agreed ones, those difference
// 5 explains, streams agreeing to the end or diverging by a documented
// difference, and ROS 1's outcomes. A disagreement no documented
// difference explains fails the test.
func compareConfigs(t *testing.T, bin, label string, events []mfEvent, idx []int, configs []mfConfig, users map[mfConfig][]string, count map[string]int) {
	t.Helper()
	for _, c := range configs {
		peer := runMFOracle(t, bin, c, events)
		r := compareStream(events, idx, emulate(c, events, 0), peer, c.tolNS != 0)
		count["messages"] += len(idx)
		count["streams"]++
		count["agreed"] += r.agreed
		count["explained by difference 5"] += r.bug5
		switch {
		case r.unexplained != "":
			t.Errorf("%s %s (%v): %s", label, c, users[c], r.unexplained)
		case r.difference != 0:
			count[fmt.Sprintf("streams diverging by difference %d", r.difference)]++
			t.Logf("%s %s (%v): %d of %d agree, then difference %d", label, c, users[c], r.agreed, len(idx), r.difference)
		case r.agreed+r.bug5 != len(idx):
			t.Errorf("%s %s (%v): %d of %d agree, %d by difference 5", label, c, users[c], r.agreed, len(idx), r.bug5)
		default:
			count["streams agreeing"]++
		}
		for _, d := range peer {
			count["ros1 "+d.ros1Outcome]++
		}
	}
}

func logCounts(t *testing.T, count map[string]int) {
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%s: %d", k, count[k])
	}
}
