package analysis

// ROS 1 bags through the report and through the real ROS 1 filter: bags
// written by Debian's python3-rosbag (internal/ros1peer) are analysed, and
// the same bags, read back by rosbag itself, are fed to mforacle (the real
// tf2_ros::MessageFilter of Debian geometry2 0.7.6, internal/mforacle). A
// ROS 1 bag's report must give every scan the outcome and the reason the
// real filter gives it: no difference is excused.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/mforacle"
)

// ros1Events reads a bag with Debian's rosbag (the peer's dump) and writes
// mforacle's input: every transform of /tf and /tf_static and every /scan
// header in file order, with a noetic TransformListener's reset before a
// tf message that finds ROS time (the last /clock) below its value at the
// previous tf message (transform_listener.cpp subscription_callback_impl:
// clear, then skip that message's transforms stamped after now). It
// returns the events and the number of scans.
func ros1Events(t *testing.T, bag string) ([]byte, int) {
	t.Helper()
	script, _ := filepath.Abs("../internal/ros1peer/rosbag_peer.py")
	out, err := exec.Command("/usr/bin/python3", script, "dump", bag).Output()
	if err != nil {
		t.Fatalf("rosbag dump: %v", err)
	}
	var ev bytes.Buffer
	var now, lastUpdate int64
	scans := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m struct {
			Topic   string            `json:"topic"`
			Stamps  []json.RawMessage `json:"stamps"`
			Summary bool              `json:"summary"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		switch m.Topic {
		case "/clock":
			var v []int64
			json.Unmarshal(m.Stamps[0], &v)
			now = v[0]
		case "/tf", "/tf_static":
			reset := now < lastUpdate
			if reset {
				ev.WriteString(`{"op":"clear"}` + "\n")
			}
			lastUpdate = now
			for _, raw := range m.Stamps {
				var s []any
				json.Unmarshal(raw, &s)
				stamp := int64(s[0].(float64))
				if reset && stamp > now {
					continue
				}
				fmt.Fprintf(&ev, `{"op":"tf","parent":%q,"child":%q,"stamp_ns":%d,"static":%v}`+"\n",
					s[1], s[2], stamp, m.Topic == "/tf_static")
			}
		case "/scan":
			var s []any
			json.Unmarshal(m.Stamps[0], &s)
			fmt.Fprintf(&ev, `{"op":"scan","frame":%q,"stamp_ns":%d,"index":%d}`+"\n", s[1], int64(s[0].(float64)), scans)
			scans++
		}
	}
	return ev.Bytes(), scans
}

// ros1Verdict is the peer's decision on one scan in the report's words.
type ros1Verdict struct{ outcome, reason string }

func runOracle(t *testing.T, bin string, events []byte, queue int, cacheS float64) map[uint64]ros1Verdict {
	t.Helper()
	cmd := exec.Command(bin, "--target", "odom", "--queue", strconv.Itoa(queue), "--cache", strconv.FormatFloat(cacheS, 'f', -1, 64))
	cmd.Stdin = bytes.NewReader(events)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mforacle: %v", err)
	}
	res := map[uint64]ros1Verdict{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var o struct {
			Index   uint64 `json:"index"`
			Outcome string `json:"outcome"`
			Reason  string `json:"ros1_reason"`
		}
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		// The peer's names for the report's outcomes.
		switch o.Outcome {
		case "dropped_retest_unknown":
			o.Outcome = "dropped_unknown"
		case "unrepresentable_stamp":
			o.Outcome = "rejected_negative_stamp"
		}
		res[o.Index] = ros1Verdict{o.Outcome, o.Reason}
	}
	return res
}

// TestROS1BagsAgainstFilterOracle: the clock cases as ROS 1 bags (a
// healthy bag, a laser on system time against sim-time tf, scans ahead of
// tf, stamp 0, /clock going back, several connections per topic, the
// legacy tf/tfMessage) under RViz's queue and cache, a queue of 1 and an
// unbounded queue with a 1 s cache.
func TestROS1BagsAgainstFilterOracle(t *testing.T) {
	bin := mforacle.Build(t)
	configs := []struct {
		queue  int
		cacheS float64
	}{{10, 10}, {1, 10}, {0, 1}}
	total, bags := 0, 0
	outcomes := map[ros1Verdict]int{}
	for _, sc := range []struct{ comp, scenario string }{
		{"none", "healthy"}, {"bz2", "scan_on_system_time"}, {"lz4", "skew"}, {"none", "zero_stamps"},
		{"lz4", "clock_back"}, {"none", "several_connections"}, {"none", "legacy_tf"},
	} {
		path := ros1Bag(t, sc.comp, sc.scenario)
		events, scans := ros1Events(t, path)
		bags++
		for _, c := range configs {
			name := fmt.Sprintf("%s-%s-queue%d-cache%gs", sc.comp, sc.scenario, c.queue, c.cacheS)
			peer := runOracle(t, bin, events, c.queue, c.cacheS)
			bag, err := bagread.Open(path, bagread.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ours := map[uint64]ros1Verdict{}
			_, err = analyzeFinished(bag, Config{TargetFrames: []string{"odom"}, QueueSize: c.queue, SetQueueSize: true,
				CacheTimeS: c.cacheS, SetCacheTime: true}, func(r *ScanRow) error {
				ours[r.ScanIndex] = ros1Verdict{r.FilterOutcome, r.FilterReason}
				return nil
			})
			bag.Close()
			if err != nil {
				t.Fatal(err)
			}
			if len(peer) != scans || len(ours) != scans {
				t.Errorf("%s: %d scans, ROS 1 decided %d, the report %d", name, scans, len(peer), len(ours))
			}
			bad := 0
			for i := uint64(0); i < uint64(scans); i++ {
				outcomes[peer[i]]++
				if ours[i] != peer[i] {
					if bad++; bad <= 3 {
						t.Errorf("%s scan %d: report %+v, ROS 1 %+v", name, i, ours[i], peer[i])
					}
				}
			}
			total += scans
		}
	}
	t.Logf("%d ROS 1 bags x %d configurations, %d scans compared; ROS 1 outcomes: %v", bags, len(configs), total, outcomes)
	// The cases must reach the filter's drops, or the comparison proves little.
	for _, v := range []ros1Verdict{{"passed", ""}, {"passed_after_wait", ""}, {"dropped_queue_full", "Unknown"}} {
		if outcomes[v] == 0 {
			t.Errorf("no scan got %+v", v)
		}
	}
}
