package msgfilter

import (
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// treeOracleCase is one generated bag of the tf-tree and topic-name
// scenarios of issue 9: one robot, or several in one bag (each topic then
// sees only its own robot's tf topics, as a namespaced consumer does).
type treeOracleCase struct {
	name    string
	specs   []scenario.Spec
	targets []string // besides each robot's odom frame
	// drops: a filter with a queue of 10 or more (RViz displays, Nav2
	// layers) drops messages in ROS 1 here (a robot's drivers on another
	// clock than its tf, a target behind a stale link); else it drops
	// none. A queue of 1 (slam_toolbox, AMCL) also drops on a healthy
	// system-time robot: a 100 Hz IMU message waiting for the next 50 Hz
	// transform is evicted by the following one.
	drops bool
}

func treeOracleCases(t *testing.T) []treeOracleCase {
	t.Helper()
	const dur = 10 * time.Second
	get := func(name string, edit func(*scenario.Spec)) []scenario.Spec {
		s, err := scenario.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		s.Duration, s.Sensors = dur, true
		if edit != nil {
			edit(&s)
		}
		return []scenario.Spec{s}
	}
	robots := func(cases ...string) []scenario.Spec {
		specs, err := scenario.RobotsOf(cases)
		if err != nil {
			t.Fatal(err)
		}
		for i := range specs {
			specs[i].Duration, specs[i].Sensors = dur, true
		}
		return specs
	}
	return []treeOracleCase{
		// A detector broadcasting object frames on system time into a tree
		// on /clock.
		{name: scenario.TFDetectorSystem, specs: get(scenario.TFDetectorSystem, nil)},
		// A robot 4.8 days behind the recorder; map->odom a further 100 s
		// stale, which a consumer with a map target (Nav2's global
		// costmap) waits on.
		{name: scenario.TFOffsetDays, specs: get(scenario.TFOffsetDays, nil), targets: []string{scenario.MapFrame}, drops: true},
		// A second static publisher moving the laser mount halfway through.
		{name: scenario.TFStaticConflict, specs: get(scenario.TFStaticConflict, nil)},
		{name: "tf_no_slash", specs: get(scenario.BothSim, func(s *scenario.Spec) { s.NoSlash = true })},
		{name: "robot1", specs: get(scenario.BothSim, func(s *scenario.Spec) { s.Namespace = "/robot1" })},
		// Two robots with the same frame names: healthy on /clock beside
		// one whose drivers are on system time (the committed sample), and
		// a sim robot beside a real one.
		{name: "robots sim+laser_system", specs: robots(scenario.BothSim, scenario.LaserSystemTFSim), drops: true},
		{name: "robots sim+system", specs: robots(scenario.BothSim, scenario.BothSystem)},
	}
}

// TestMessageFilterOracleTreeScenarios runs every sensor topic of the
// tf-tree scenarios (detector on system time, tree days behind the
// recorder, conflicting static publishers, tf without slash, namespaced
// robots, two robots in one bag) through both filters under the settings
// of every consumer preset, as TestMessageFilterOracleSensorScenarios does
// for the clock cases. Every message must agree, or be explained by a
// documented ROS 1/ROS 2 difference.
func TestMessageFilterOracleTreeScenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the ROS 1 oracle on every tf-tree scenario")
	}
	bin := buildMFOracle(t)
	count := map[string]int{}
	for _, tc := range treeOracleCases(t) {
		gen := func(emit func(*scenario.Record) error) error { return scenario.GenerateMulti(tc.specs, emit) }
		cc, queued := map[string]int{}, map[string]int{} // all configs; queues of 10 or more
		for _, s := range tc.specs {
			for _, target := range append([]string{s.OdomFrame}, tc.targets...) {
				configs, users := presetConfigs(target)
				for _, base := range []string{scenario.TopicScan, scenario.TopicPoints, scenario.TopicImu, scenario.TopicImage} {
					topic := s.TopicName(base)
					events := topicEvents(t, gen, s.TopicName(scenario.TopicTF), s.TopicName(scenario.TopicTFStatic), topic)
					idx := scanIndices(events)
					if len(idx) == 0 {
						t.Fatalf("%s %s: no messages generated", tc.name, topic)
					}
					var long, short []mfConfig
					for _, c := range configs {
						if c.queue == 0 || c.queue >= 10 {
							long = append(long, c)
						} else {
							short = append(short, c)
						}
					}
					label := tc.name + " " + topic + " -> " + target
					compareConfigs(t, bin, label, events, idx, long, users, queued)
					compareConfigs(t, bin, label, events, idx, short, users, cc)
				}
			}
		}
		queuedDrops, dropped := 0, 0
		for k, n := range queued {
			cc[k] += n
			if strings.HasPrefix(k, "ros1 dropped_") {
				queuedDrops += n
			}
		}
		for k, n := range cc {
			count[k] += n
			if strings.HasPrefix(k, "ros1 dropped_") {
				dropped += n
			}
		}
		if tc.drops != (queuedDrops > 0) {
			t.Errorf("%s: ROS 1 dropped %d messages with a queue of 10 or more, want drops: %v", tc.name, queuedDrops, tc.drops)
		}
		t.Logf("%s: %d messages in %d streams; ROS 1: %d passed, %d passed after wait, %d dropped, %d pending at the end",
			tc.name, cc["messages"], cc["streams"], cc["ros1 passed"], cc["ros1 passed_after_wait"], dropped, cc["ros1 pending_at_end"])
	}
	logCounts(t, count)
	// The scenarios must reach what they are about: messages passing on
	// the healthy trees, and waiting until the queue overflows for a
	// robot on system time beside /clock or a map->odom 100 s stale.
	for _, k := range []string{"passed", "passed_after_wait", "dropped_queue_full"} {
		if count["ros1 "+k] == 0 {
			t.Errorf("no tf-tree scenario produced ROS 1 outcome %s", k)
		}
	}
	if count["agreed"]+count["explained by difference 5"] < count["messages"]*9/10 {
		t.Errorf("only %d of %d messages agree", count["agreed"], count["messages"])
	}
}
