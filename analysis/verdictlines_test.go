package analysis

import (
	"strings"
	"testing"
)

// Every verdict sentence and the evidence lines around it, on generated
// bags built for each: forward jumps, the /clock rate on both sides of
// 0.9x and 1.1x, no /clock, static-only and missing paths, a topic already
// in the target frame, several topics on one class (and more than four),
// tf on system time with a static link on the other clock, no sensor.
func TestVerdictLines(t *testing.T) {
	dyn := []genLink{{parent: "odom", child: "base_link", ageNS: 10e6}, {parent: "base_link", child: "laser", static: true}}
	sys := func(_, _, s int64) int64 { return s }
	zero := func(_, _, _ int64) int64 { return 0 }
	scan := []genScan{{"/scan", "laser", simStamp}}
	rate := func(stepNS int64) func(i, sim int64) (int64, bool) {
		return func(i, _ int64) (int64, bool) { return simStartNS + i*stepNS, true }
	}
	exact := []genLink{{parent: "odom", child: "base_link", everyTicks: 1}, {parent: "base_link", child: "laser", static: true}}
	mapSystem := append([]genLink{{parent: "map", child: "odom", ageNS: simStartNS - sysStartNS}}, dyn...)
	mapSentence := "The tf tree is on two clocks, which tf2 cannot look up across: odom->base_link on /tf (1 dynamic link, near 123.970 s) on sim time, map->odom on /tf (1 dynamic link, near 1.79e+09 s) on system time. /clock runs sim time, so the system-time side is wrong: set use_sim_time:=true on the node publishing map->odom on /tf."
	same := "/scan and tf are on the same clock (median 10.0 ms apart) and no scan is dropped by the rviz-laserscan filter: no clock problem in this bag."
	const rateLine = "/clock runs at"
	for _, tc := range []struct {
		name     string
		links    []genLink
		scans    []genScan
		clock    func(i, sim int64) (int64, bool)
		cfg      Config
		sentence string
		evidence []string // lines that must be there, word for word
		absent   []string // substrings no evidence line may hold
	}{
		{"forward jump", dyn, scan, func(i, sim int64) (int64, bool) {
			if i >= 200 {
				return sim + 5e9, true
			}
			return sim, true
		}, Config{}, strings.TrimSuffix(same, ": no clock problem in this bag.") + "; but the bag's time jumps 1 time (see the evidence).",
			[]string{"/clock jumps forward 1 time."}, []string{"jumps back", rateLine}},
		{"rate exactly 0.9x", dyn, scan, rate(9e6), Config{}, same, nil, []string{rateLine, "jumps"}},
		{"rate 0.89x", dyn, scan, rate(8.9e6), Config{}, same, []string{"/clock runs at 0.89x record time."}, nil},
		{"rate exactly 1.1x", dyn, scan, rate(11e6), Config{}, same, nil, []string{rateLine, "jumps"}},
		{"rate 1.11x", dyn, scan, rate(11.1e6), Config{}, same, []string{"/clock runs at 1.11x record time."}, nil},
		{"no /clock", dyn, scan, nil, Config{}, same,
			[]string{"Stamps of every stamped topic and tf link are 1.79e+09 s behind record time and the bag has no /clock: it was recorded without /clock (sim time, or a publishing machine whose clock was never set). A replay cannot restore that clock: `ros2 bag play --clock` publishes record time (wall time here), so nodes on sim time see every stamp that far in the past; record /clock with the bag."}, []string{rateLine, "different_clock"}},
		{"static only", dyn, scan, simClock, Config{TargetFrames: []string{"base_link"}},
			"Only static transforms link 'laser' to 'base_link': a clock mismatch is invisible on this path; choose a target across a dynamic link (e.g. --target-frame odom).",
			[]string{"/scan → base_link: 80 of 80 scans are static_only (no dynamic transform on the path to compare stamps with)."}, []string{"median diff", "latest )"}},
		{"no transform", dyn, []genScan{{"/scan", "camera", simStamp}}, simClock, Config{},
			"No transform in this bag names /scan's frame 'camera' (the tf tree has base_link, laser, odom): its clock cannot be checked against tf; record the transform that places 'camera' (usually a static one from robot_state_publisher), or fix the frame_id.",
			[]string{"rviz-laserscan filter (queue 10, cache 10 s): 70 dropped_queue_full, 10 pending_at_end."}, []string{"no /tf or /tf_static"}},
		{"no transform, no tf at all", nil, []genScan{{"/scan", "camera", simStamp}}, simClock, Config{},
			"This bag has no /tf or /tf_static: the clocks of /scan cannot be checked against transforms; record tf with the sensors (ros2 bag record /tf /tf_static ...).",
			[]string{"Without transforms no consumer can place these messages in a fixed frame, and no clock mismatch between sensors and tf can show; the message stamps can only be compared with record time (skew table)."}, []string{"odom", "median diff", "dropped_queue_full"}},
		{"already in the target frame", dyn, []genScan{{"/odom_scan", "odom", simStamp}}, simClock, Config{},
			"/odom_scan is in the target frame 'odom' already (frame_id 'odom'): no transform was looked up, so no clock was checked; check against a frame across a dynamic link instead, e.g. --target-frame base_link.", nil, nil},
		{"two topics on system time", dyn, []genScan{{"/a", "laser", sys}, {"/b", "laser", sys}}, simClock, Config{},
			"The drivers of /a and /b publish with system time while tf follows /clock: set use_sim_time:=true on the nodes publishing them.",
			[]string{"/a → odom: 80 of 80 scans are laser_on_system_clock; median diff (scan stamp − latest odom->base_link on /tf) 1.79e+09 s, range 1.79e+09 s .. 1.79e+09 s."}, nil},
		{"five topics on system time", dyn, []genScan{{"/a", "laser", sys}, {"/b", "laser", sys}, {"/c", "laser", sys}, {"/d", "laser", sys}, {"/e", "laser", sys}}, simClock, Config{},
			"The drivers of /a, /b, /c and 2 other topics publish with system time while tf follows /clock: set use_sim_time:=true on the nodes publishing them.", nil, nil},
		{"one of two topics on system time", dyn, []genScan{{"/a", "laser", simStamp}, {"/b", "laser", sys}}, simClock, Config{},
			"The laser driver publishes /b with system time while tf follows /clock: set use_sim_time:=true on the node publishing /b.", nil, nil},
		{"two topics stamped 0", dyn, []genScan{{"/a", "laser", zero}, {"/b", "laser", zero}}, simClock, Config{},
			"/a and /b are stamped 0 (160 messages): their drivers use sim time but never received /clock; tf2 pairs those messages with the latest pose.",
			[]string{"None of them arrived before the first recorded /clock: /clock was published, yet the driver never received it (its /clock subscription, QoS or ROS_DOMAIN_ID differs, or it ignores sim time for stamps).", "Cost (pose at the real time vs latest pose) over 160 messages: median 0.000 m / 0.00°, max 0.000 m / 0.00°."}, nil},
		{"two topics on one clock", dyn, []genScan{{"/a", "laser", simStamp}, {"/b", "laser", simStamp}}, simClock, Config{},
			"/a, /b and tf are on the same clock (median 10.0 ms apart) and no scan is dropped by the rviz-laserscan filter: no clock problem in this bag.", nil, nil},
		{"five topics on one clock", dyn, []genScan{{"/a", "laser", simStamp}, {"/b", "laser", simStamp}, {"/c", "laser", simStamp}, {"/d", "laser", simStamp}, {"/e", "laser", simStamp}}, simClock, Config{},
			"/a, /b, /c and 2 other topics and tf are on the same clock (median 10.0 ms apart) and no scan is dropped by the rviz-laserscan filter: no clock problem in this bag.", nil, nil},
		{"tf on system time, static link on sim time", []genLink{{parent: "odom", child: "base_link", ageNS: simStartNS - sysStartNS}, {parent: "base_link", child: "laser", static: true}}, scan, simClock, Config{},
			"A tf publisher stamps odom->base_link with system time while /scan follows /clock: set use_sim_time:=true on the node publishing odom->base_link (robot_state_publisher or the odometry node).",
			[]string{
				"A scan ~1.79e9 s behind tf is more than the cache time (10 s) older than the latest transform: dropped at once as \"earlier than all the data in the transform cache\".",
				"Static link base_link->laser on /tf_static is stamped 120.000 s while dynamic tf is near 1.79e+09 s: its publisher runs on another clock (use_sim_time not set); tf2 ignores static stamps, so it does no harm here.",
			}, nil},
		{"static link on the dynamic links' clock", dyn, scan, simClock, Config{}, same, nil, []string{"Static link"}},
		{"no sensor topic", dyn, nil, simClock, Config{},
			"No sensor messages (LaserScan, PointCloud2, Image, Imu, Range, Odometry, ...) in this bag: there is nothing to check per message.", nil, nil},
		// tf at every tick with no lag: the diff is the scans' offset exactly.
		{"skew exactly the cache time behind", exact, []genScan{{"/scan", "laser", func(_, sim, _ int64) int64 { return sim - 10e9 }}}, simClock, Config{},
			"/scan and tf (odom->base_link) are -10.000 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).",
			[]string{"Within the cache time (10 s) tf2 still finds a transform for scans that lag tf; scans ahead of tf wait."}, []string{"matters"}},
		{"skew 1 ms more than the cache time behind", exact, []genScan{{"/scan", "laser", func(_, sim, _ int64) int64 { return sim - 10e9 - 1e6 }}}, simClock, Config{},
			"/scan and tf (odom->base_link) are -10.001 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).",
			[]string{"The offset matters to tf2: the cache is 10 s; scans behind by more than that are dropped at once, scans ahead wait and overflow the queue."}, []string{"Within"}},
		// No /clock; scans 2.5 s and tf 3 s behind the recorder's clock:
		// constant offsets, and the scans wait for tf half a second ahead.
		// tf's offset from the recorder is a clock fault: it leads, and the
		// drops it causes are its evidence.
		{"constant offsets, drops on the same clock", []genLink{{parent: "odom", child: "base_link", ageNS: simStartNS - sysStartNS + 3e9}, {parent: "base_link", child: "laser", static: true}},
			[]genScan{{"/scan", "laser", func(_, _, sys int64) int64 { return sys - 2.5e9 }}}, nil, Config{},
			"Every tf stamp is 3.001 s behind the recorder's clock (constant): the clocks of the machine publishing tf and the recording machine are out of sync; synchronise them (chrony/NTP).",
			[]string{
				"Sensor topics: /scan and tf are on the same clock (median 500.0 ms apart), yet 35 scans were dropped: not a clock problem; the stalest link on their path is mostly odom->base_link on /tf: check its publisher's rate and gaps, then the queue size.",
				"Record time − stamp is a constant offset on 2 topics or links (/scan (2.501 s) and odom->base_link on /tf (3.001 s)): the recorder's clock and the publishers' differ (check chrony).",
			}, nil},
		{"skew ahead without drops (queue 100)", exact, []genScan{{"/scan", "laser", func(_, sim, _ int64) int64 { return sim + 1.5e9 }}}, simClock, Config{QueueSize: 100, SetQueueSize: true},
			"/scan and tf (odom->base_link) are 1.500 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).",
			[]string{"rviz-laserscan filter (queue 100, cache 10 s): 290 passed_after_wait, 30 pending_at_end.", "Within the cache time (10 s) tf2 still finds a transform for scans that lag tf; scans ahead of tf wait."}, []string{"matters"}},
		// Two scans in three 2 s behind tf, one 1.5 s ahead: the median is
		// behind and within the cache, yet the scans ahead overflow the
		// queue, and the evidence must say so.
		{"skew mostly behind, some ahead and dropped", exact, []genScan{{"/scan", "laser", func(i, sim, _ int64) int64 {
			if i%3 == 0 {
				return sim + 1.5e9
			}
			return sim - 2e9
		}}}, simClock, Config{},
			"/scan and tf (odom->base_link) are -2.000 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).",
			[]string{"The offset matters to tf2: the cache is 10 s; scans behind by more than that are dropped at once, scans ahead wait and overflow the queue."}, []string{"Within"}},
		// map->odom on system time, off the scans' path to odom: the tf
		// tree's finding leads when the rows are healthy, and is evidence
		// when they are not.
		{"tf tree finding leads healthy rows", mapSystem, scan, simClock, Config{}, mapSentence,
			[]string{"Sensor topics: " + strings.TrimSuffix(same, ": no clock problem in this bag.") + ".", "map->odom on /tf: 200 transforms stamped 1.79e+09 s .. 1.79e+09 s."}, nil},
		{"tf tree finding beside skewed rows", mapSystem, []genScan{{"/scan", "laser", func(_, sim, _ int64) int64 { return sim + 2.5e9 }}}, simClock, Config{},
			"/scan and tf (odom->base_link) are 2.510 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).",
			[]string{"tf tree: " + mapSentence}, []string{"Sensor topics"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := int64(400)
			if strings.HasPrefix(tc.name, "skew") {
				n = 1600 // 16 s: tf older than the 10 s cache exists
			}
			rep, _ := analyzeGen(t, genBag(t, tc.links, tc.scans, tc.clock, n), tc.cfg)
			v := rep.Verdict
			if v.Sentence != tc.sentence {
				t.Errorf("verdict\n got %q\nwant %q", v.Sentence, tc.sentence)
			}
			for _, want := range tc.evidence {
				found := false
				for _, e := range v.Evidence {
					found = found || e == want
				}
				if !found {
					t.Errorf("no evidence line %q in\n%s", want, strings.Join(v.Evidence, "\n"))
				}
			}
			for _, bad := range append(tc.absent, "/rosout recorded") { // no /rosout in these bags
				for _, e := range v.Evidence {
					if strings.Contains(e, bad) {
						t.Errorf("evidence line %q holds %q", e, bad)
					}
				}
			}
		})
	}
}
