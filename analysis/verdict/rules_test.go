package verdict

import (
	"slices"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// Tests of the rules as a whole (issue 22 item 2): Decide on reports built
// by hand, one case per rule of the lead, of folding and of what the bag
// cannot tell. Each asserts the headline and the lines that carry the
// rule, not only that there are some.

// sensorReport is a finished report of a bag with /clock whose analysed
// LaserScan topics are the pairs' (one message per row, every row with a
// dynamic link, odom->laser on /tf the stalest), each median apart from
// tf as given in medians (seconds; 2 ms when left out).
func sensorReport(pairs []analysis.PairSummary, medians ...float64) *analysis.Report {
	r := &analysis.Report{Pairs: pairs, TFTree: []analysis.TFLink{{Parent: "odom", Child: "laser", Topic: "/tf"}}}
	r.Settings.CacheTimeS = 10
	r.Pass.HasClock = true
	for i := range r.Pairs {
		p := &r.Pairs[i]
		p.Type, p.Consumer, p.QueueSize = "sensor_msgs/msg/LaserScan", "rviz", 5
		stalest(p, "odom", "laser", "/tf")
		p.MedianDiffS = 0.002
		if i < len(medians) {
			p.MedianDiffS = medians[i]
		}
		p.MinDiffS, p.MaxDiffS = p.MedianDiffS, p.MedianDiffS
		n := p.Rows()
		p.DiffRows = n
		r.Summary.Scans += n
		r.Topics = append(r.Topics, analysis.TopicSummary{Topic: p.Topic, Type: p.Type, Role: analysis.TopicAnalysed, Messages: n})
	}
	return r
}

// pairs is a list of pair summaries, for the tables.
func pairs(ps ...analysis.PairSummary) []analysis.PairSummary { return ps }

func TestRules(t *testing.T) {
	healthy := func() *analysis.Report {
		return sensorReport(pairs(pairWith("/a", analysis.SameClock, 10, 0), pairWith("/b", analysis.SameClock, 10, 0)))
	}
	const healthyHeadline = "/a, /b and tf are on the same clock (median 2.0 ms apart) and no scan is dropped by the rviz filter: no clock problem in this bag."
	for _, tc := range []struct {
		name     string
		rep      func() *analysis.Report
		class    string
		sentence string   // the whole headline
		evidence []string // lines the evidence holds, in this order
		not      []string // parts no evidence line holds
	}{
		// The lead: a class earlier in the order (a clock on the wrong
		// time before one out of sync) wins, once it describes a tenth of
		// a pair's rows; of one class, the pair with more rows of it.
		{"an earlier class leads though rarer", func() *analysis.Report {
			return sensorReport(pairs(pairWith("/scan", analysis.LaserOnSystemClock, 9, 1), pairWith("/imu", analysis.ClockSkew, 0, 10)), 1.79e9, 1)
		}, string(analysis.LaserOnSystemClock),
			"The laser driver publishes /scan with system time while tf follows /clock: set use_sim_time:=true on the node publishing /scan.",
			[]string{"/scan → odom: 1 of 10 scans are laser_on_system_clock; median diff (scan stamp − latest odom->laser on /tf) 1.79e+09 s, range 1.79e+09 s .. 1.79e+09 s.", `A scan stamped ~1.79e9 s ahead of tf waits for a transform that never comes; the filter drops it when the queue is full ("discarding message because the queue is full").`}, []string{"/imu"}},
		{"under a tenth of its rows a class does not lead", func() *analysis.Report {
			return sensorReport(pairs(pairWith("/scan", analysis.LaserOnSystemClock, 10, 1), pairWith("/imu", analysis.ClockSkew, 0, 10)), 1.79e9, 1)
		}, string(analysis.ClockSkew),
			"/imu and tf (odom->laser) are 1.000 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).",
			[]string{"/imu → odom: 10 of 10 scans are clock_skew; median diff (scan stamp − latest odom->laser on /tf) 1.000 s, range 1.000 s .. 1.000 s."}, []string{"laser_on_system_clock"}},
		{"of one class the pair with more rows leads", func() *analysis.Report {
			return sensorReport(pairs(pairWith("/a", analysis.ClockSkew, 0, 3), pairWith("/b", analysis.ClockSkew, 0, 5)), 0.5, 2)
		}, string(analysis.ClockSkew),
			"/b and tf (odom->laser) are 2.000 s apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).",
			[]string{"/b → odom: 5 of 5 scans are clock_skew; median diff (scan stamp − latest odom->laser on /tf) 2.000 s, range 2.000 s .. 2.000 s."}, []string{"/a → odom"}},
		{"a tie keeps the first pair", func() *analysis.Report {
			return sensorReport(pairs(pairWith("/a", analysis.ClockSkew, 0, 5), pairWith("/b", analysis.ClockSkew, 0, 5)), 0.5, 2)
		}, string(analysis.ClockSkew),
			"/a and tf (odom->laser) are 500.0 ms apart on the same clock: the machines' clocks are out of sync; synchronise them (chrony/NTP).",
			[]string{"/a → odom: 5 of 5 scans are clock_skew; median diff (scan stamp − latest odom->laser on /tf) 500.0 ms, range 500.0 ms .. 500.0 ms."}, []string{"/b → odom"}},
		{"a confirmed clock step leads a healthy headline", func() *analysis.Report {
			r := healthy()
			r.ClockSteps = []analysis.ClockStep{{Confirmed: true, Sentence: "The system clock stepped back by 1.000 s at +5.0 s."}}
			return r
		}, analysis.VerdictTime,
			"The system clock stepped back by 1.000 s at +5.0 s.",
			[]string{"Sensor topics and tf: /a, /b and tf are on the same clock (median 2.0 ms apart) and no scan is dropped by the rviz filter."}, []string{"no clock problem"}},
		{"a fault in the rows keeps the lead over stale data", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/scan", analysis.LaserOnSystemClock, 0, 10)), 1.79e9)
			r.Ages = []analysis.TopicAge{{Topic: "/scan", Kind: analysis.AgeStale, Sentence: "/scan is often stale."}}
			return r
		}, string(analysis.LaserOnSystemClock),
			"The laser driver publishes /scan with system time while tf follows /clock: set use_sim_time:=true on the node publishing /scan.",
			[]string{`A scan stamped ~1.79e9 s ahead of tf waits for a transform that never comes; the filter drops it when the queue is full ("discarding message because the queue is full").`, "/scan is often stale."}, nil},
		// Folding: one headline for the topics that share a diagnosis.
		{"two drivers on system time, one headline", func() *analysis.Report {
			return sensorReport(pairs(pairWith("/a", analysis.LaserOnSystemClock, 0, 10), pairWith("/b", analysis.LaserOnSystemClock, 0, 10)), 1.79e9, 1.79e9)
		}, string(analysis.LaserOnSystemClock),
			"The drivers of /a and /b publish with system time while tf follows /clock: set use_sim_time:=true on the nodes publishing them.",
			[]string{"/a → odom: 10 of 10 scans are laser_on_system_clock; median diff (scan stamp − latest odom->laser on /tf) 1.79e+09 s, range 1.79e+09 s .. 1.79e+09 s."}, nil},
		{"healthy topics, one headline", healthy, analysis.VerdictNoProblem, healthyHeadline,
			[]string{"/a → odom: 10 of 10 scans are same_clock; median diff (scan stamp − latest odom->laser on /tf) 2.0 ms, range 2.0 ms .. 2.0 ms."}, []string{"/b → odom"}},
		{"two topics stamped 0, one headline", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/a", analysis.ZeroStamp, 0, 10), pairWith("/b", analysis.ZeroStamp, 0, 10)), -100, -100)
			r.Pass.HasClock = false
			r.ZeroStamp.Count = 20
			return r
		}, string(analysis.ZeroStamp),
			"/a and /b have messages stamped 0 (20 messages) and the bag has no /clock: their publishers' clocks read 0 (use_sim_time:=true with no /clock publisher) or they never fill in header.stamp; tf2 pairs such messages with the latest transform.",
			[]string{"/a → odom: 10 of 10 scans are zero_stamp; median diff (scan stamp − latest odom->laser on /tf) -100.000 s, range -100.000 s .. -100.000 s."}, nil},
		// What the bag cannot tell.
		{"a timer at a constant real-time factor", func() *analysis.Report {
			r := healthy()
			r.TimerClocks = []analysis.TimerClock{{Topic: "/cmd", Clock: analysis.TimerUndetermined, Sentence: "At a constant real-time factor a wall and a sim timer look alike."}}
			return r
		}, analysis.VerdictNoProblem,
			strings.TrimSuffix(healthyHeadline, ".") + ", though the bag cannot tell whether /cmd follows a wall or a sim timer (see the evidence).",
			[]string{"At a constant real-time factor a wall and a sim timer look alike."}, nil},
		{"a timer that leans to wall time too little to flag", func() *analysis.Report {
			r := healthy()
			r.TimerClocks = []analysis.TimerClock{{Topic: "/odom", Clock: analysis.TimerWall, Confidence: 0.67, Sentence: "/odom may come from a wall timer."},
				{Topic: "/imu", Clock: analysis.TimerWall, Confidence: 0.5}}
			return r
		}, analysis.VerdictNoProblem,
			strings.TrimSuffix(healthyHeadline, ".") + ", though the bag cannot tell whether /odom follows a wall or a sim timer (see the evidence).",
			[]string{"/odom may come from a wall timer."}, []string{"/imu"}},
		{"a lag floor: delay or a clock behind", func() *analysis.Report {
			r := healthy()
			r.LagFloor = &analysis.LagFloor{FloorS: 0.05, Sentence: "Every series lags by at least 50.0 ms.", Series: []analysis.LagSeries{{Name: "/a"}}}
			r.Ages = []analysis.TopicAge{{Topic: "/a", Kind: analysis.AgeConstantOffset, MedianS: 0.055, Sentence: "/a is 55.0 ms old."}}
			return r
		}, analysis.VerdictNoProblem,
			healthyHeadline,
			[]string{"Every series lags by at least 50.0 ms."}, []string{"/a is 55.0 ms old."}},
		{"a lag floor over the max age", func() *analysis.Report {
			r := healthy()
			r.LagFloor = &analysis.LagFloor{FloorS: 0.5, Sentence: "Every series lags by at least 500.0 ms.", OverMaxAge: []string{"/a"}}
			return r
		}, analysis.VerdictTime,
			"Every series lags by at least 500.0 ms.",
			[]string{"Sensor topics and tf: /a, /b and tf are on the same clock (median 2.0 ms apart) and no scan is dropped by the rviz filter."}, nil},
		{"an empty sensor topic beside healthy ones", func() *analysis.Report {
			r := healthy()
			r.Topics = append(r.Topics, analysis.TopicSummary{Topic: "/empty", Role: analysis.TopicAnalysed})
			return r
		}, analysis.VerdictEmptyTopic,
			"/empty was recorded without a single message (often a QoS mismatch while recording), so its clock cannot be checked. " + strings.TrimSuffix(healthyHeadline, ": no clock problem in this bag.") + ".",
			nil, []string{"No messages on /empty"}},
		{"an empty sensor topic beside a fault", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/scan", analysis.LaserOnSystemClock, 0, 10)), 1.79e9)
			r.Topics = append(r.Topics, analysis.TopicSummary{Topic: "/empty", Role: analysis.TopicAnalysed})
			return r
		}, string(analysis.LaserOnSystemClock),
			"The laser driver publishes /scan with system time while tf follows /clock: set use_sim_time:=true on the node publishing /scan.",
			[]string{`A scan stamped ~1.79e9 s ahead of tf waits for a transform that never comes; the filter drops it when the queue is full ("discarding message because the queue is full").`, "No messages on /empty (often a QoS mismatch while recording)."}, nil},
		{"an empty sensor topic beside drops on one clock", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/imu", analysis.SameClock, 10, 0)))
			r.Pairs[0].Filter = map[string]int{"passed": 7, "dropped_queue_full": 3}
			r.Topics = append(r.Topics, analysis.TopicSummary{Topic: "/empty", Role: analysis.TopicAnalysed})
			return r
		}, analysis.VerdictSameClockDrops,
			"/imu and tf are on the same clock (median 2.0 ms apart), yet 3 scans were dropped: not a clock problem; the stalest link on their path is mostly odom->laser on /tf: check its publisher's rate and gaps, then the queue size. And /empty was recorded without a single message (often a QoS mismatch while recording), so its clock cannot be checked.",
			nil, []string{"No messages on /empty"}},
		// AMCL dates map->odom ahead by its transform_tolerance: the
		// "apart" figure says why it is far below 0 on one clock.
		{"map->odom dated ahead by design", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/odom", analysis.SameClock, 10, 0)), -0.916)
			stalest(&r.Pairs[0], "map", "odom", "/tf")
			r.Pairs[0].Filter = map[string]int{"passed": 8, "dropped_queue_full": 2}
			return r
		}, analysis.VerdictSameClockDrops,
			"/odom and tf are on the same clock (median -916.0 ms apart: map->odom is dated ahead on purpose, by the localiser's transform_tolerance), yet 2 scans were dropped: not a clock problem; the stalest link on their path is mostly map->odom on /tf: check its publisher's rate and gaps, then the queue size.",
			nil, nil},
		{"an ahead median on another link is not explained", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/odom", analysis.SameClock, 10, 0)), -0.916)
			r.Pairs[0].Filter = map[string]int{"passed": 8, "dropped_queue_full": 2}
			return r
		}, analysis.VerdictSameClockDrops,
			"/odom and tf are on the same clock (median -916.0 ms apart), yet 2 scans were dropped: not a clock problem; the stalest link on their path is mostly odom->laser on /tf: check its publisher's rate and gaps, then the queue size.",
			nil, nil},
		// Drops on one clock: the pair that drops is the headline's,
		// though another is closer to tf, and a finding about time or
		// tf's timing outranks them ("not a clock problem").
		{"drops on a pair other than the closest", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/scan", analysis.SameClock, 10, 0), pairWith("/imu", analysis.SameClock, 10, 0)), 0.001, 0.030)
			r.Pairs[1].Filter = map[string]int{"passed": 6, "dropped_queue_full": 4}
			return r
		}, analysis.VerdictSameClockDrops,
			"/imu and tf are on the same clock (median 30.0 ms apart), yet 4 scans were dropped: not a clock problem; the stalest link on their path is mostly odom->laser on /tf: check its publisher's rate and gaps, then the queue size.",
			[]string{"/imu → odom: 10 of 10 scans are same_clock; median diff (scan stamp − latest odom->laser on /tf) 30.0 ms, range 30.0 ms .. 30.0 ms.", "rviz filter (queue 5, cache 10 s): 6 passed, 4 dropped_queue_full."}, []string{"no scan is dropped"}},
		{"start-up drops alone keep the healthy headline", func() *analysis.Report {
			r := healthy()
			r.Pairs[1].Filter = map[string]int{"passed": 6, "dropped_queue_full": 4}
			r.Pairs[1].StartupDrops = 4
			return r
		}, analysis.VerdictNoProblem, healthyHeadline, nil, nil},
		{"stale data outranks drops on one clock", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/imu", analysis.SameClock, 10, 0)))
			r.Pairs[0].Filter = map[string]int{"passed": 7, "dropped_queue_full": 3}
			r.Ages = []analysis.TopicAge{{Topic: "/imu", Kind: analysis.AgeStale, Sentence: "/imu is often stale."}}
			return r
		}, analysis.VerdictTime, "/imu is often stale.",
			[]string{"Sensor topics and tf: /imu and tf are on the same clock (median 2.0 ms apart), yet 3 scans were dropped: not a clock problem; the stalest link on their path is mostly odom->laser on /tf: check its publisher's rate and gaps, then the queue size."}, nil},
		// A clock ahead explains drops only when tf is not ahead with the
		// messages (the medians here are small: the drops stay on one
		// clock and the ahead finding leads).
		{"drops under a clock ahead that tf does not share: its consequence", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/imu", analysis.SameClock, 10, 0)))
			r.Pairs[0].Filter = map[string]int{"passed": 7, "dropped_queue_full": 3}
			r.Ages = []analysis.TopicAge{{Topic: "/odom", Kind: analysis.AgeAhead, MedianS: -0.04, Sentence: "/odom is stamped ahead."}}
			return r
		}, analysis.VerdictTime, "/odom is stamped ahead.",
			[]string{"Sensor topics and tf: /imu and tf are on the same clock (median 2.0 ms apart), yet 3 scans were dropped: the headline's clock fault makes them wait for tf until the filter drops them."}, nil},
		{"drops under a clock ahead that the path's tf link shares: not its consequence", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/imu", analysis.SameClock, 10, 0)))
			r.Pairs[0].Filter = map[string]int{"passed": 7, "dropped_queue_full": 3}
			r.Ages = []analysis.TopicAge{{Topic: "/tf", Link: "odom->laser", Parent: "odom", Child: "laser", Kind: analysis.AgeAhead, MedianS: -0.04, Sentence: "odom->laser on /tf is stamped ahead."}}
			return r
		}, analysis.VerdictTime, "odom->laser on /tf is stamped ahead.",
			[]string{"Sensor topics and tf: /imu and tf are on the same clock (median 2.0 ms apart), yet 3 scans were dropped: not a clock problem; the stalest link on their path is mostly odom->laser on /tf: check its publisher's rate and gaps, then the queue size."}, nil},
		{"tf's offset from the recorder outranks drops on one clock", func() *analysis.Report {
			r := sensorReport(pairs(pairWith("/imu", analysis.SameClock, 10, 0)))
			r.Pairs[0].Filter = map[string]int{"passed": 7, "dropped_queue_full": 3}
			r.TFFindings = []analysis.TFFinding{{Kind: analysis.TFOffsetFromRecorder, Rank: analysis.RankTFOffset, Sentence: "Every tf stamp lags record time by 4.8 days."}}
			return r
		}, analysis.VerdictTFTree + analysis.TFOffsetFromRecorder, "Every tf stamp lags record time by 4.8 days.",
			[]string{"Sensor topics: /imu and tf are on the same clock (median 2.0 ms apart), yet 3 scans were dropped: not a clock problem; the stalest link on their path is mostly odom->laser on /tf: check its publisher's rate and gaps, then the queue size."}, nil},
		{"the topic asked for has no message", func() *analysis.Report {
			r := &analysis.Report{}
			r.Settings.ScanTopics = []string{"/scan"}
			return r
		}, analysis.VerdictEmptyTopic,
			"The topic /scan has no messages with a frame id in this bag (often a QoS mismatch while recording): there is nothing to check per message.",
			nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Decide(tc.rep())
			if v.Class != tc.class || v.Sentence != tc.sentence {
				t.Errorf("verdict %s %q\nwant    %s %q", v.Class, v.Sentence, tc.class, tc.sentence)
			}
			at := 0 // the wanted lines appear in order
			for _, want := range tc.evidence {
				i := slices.Index(v.Evidence[at:], want)
				if i < 0 {
					t.Errorf("evidence %q lacks, after line %d, %q", v.Evidence, at, want)
					continue
				}
				at += i + 1
			}
			for _, not := range tc.not {
				if containsSub(v.Evidence, not) {
					t.Errorf("evidence %q holds %q", v.Evidence, not)
				}
			}
		})
	}
}
