package sync

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis/topics"
	"github.com/bagclock/bagclock/analysis/wire"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/bagclock/bagclock/internal/testenv"
)

// Real stamp streams through the oracle: every eligible pair of topics in
// every bag under ../shared/bags and in the generated sync cases (both
// storages), each under ApproximateTime (queue 10, and queue 5 with a
// 20 ms max interval) and ExactTime (queue 10), fed in record order with
// their header stamps as the analysis feeds them. Eligible: two stamped
// topics of a sensor type (the types the analysis reads by default), each
// with at least one message that decodes; a bag's first maxPairsPerBag
// such pairs, and at most maxStreamMessages messages per topic (the
// earliest), so the oracle run stays short.
const (
	maxPairsPerBag    = 12
	maxStreamMessages = 4000
)

// pairTypes are the stamped sensor types whose topics make pairs.
var pairTypes = map[string]bool{
	"sensor_msgs/LaserScan": true, "sensor_msgs/PointCloud2": true, "sensor_msgs/Image": true,
	"sensor_msgs/CompressedImage": true, "sensor_msgs/CameraInfo": true, "sensor_msgs/Imu": true,
	"nav_msgs/Odometry": true, "sensor_msgs/Range": true, "sensor_msgs/NavSatFix": true,
	"sensor_msgs/MagneticField": true, "stereo_msgs/DisparityImage": true, "sensor_msgs/MultiEchoLaserScan": true,
	"sensor_msgs/PointCloud": true,
}

func normalType(t string) string {
	if p, rest, ok := strings.Cut(t, "/msg/"); ok && !strings.Contains(rest, "/") {
		return p + "/" + rest
	}
	return t
}

// bagStreams reads every eligible topic's header stamps in record order:
// per topic its messages, and the merged receive order.
func bagStreams(t *testing.T, path string) (names []string, order []recv, skipped int) {
	t.Helper()
	bag, err := bagread.Open(path, bagread.Options{TempDir: t.TempDir()})
	if err != nil {
		return nil, nil, 0 // a bag that does not open has no streams (TestVerdictRegression covers it)
	}
	defer bag.Close()
	typ := map[string]string{}
	for _, ti := range topics.Classify(bag) {
		if ti.Role == topics.Stamped && pairTypes[normalType(ti.Type)] {
			names = append(names, ti.Name)
			typ[ti.Name] = ti.Type
		}
	}
	sort.Strings(names)
	if len(names) < 2 {
		return nil, nil, 0
	}
	idx := map[string]int{}
	for i, n := range names {
		idx[n] = i
	}
	dec := wire.Decoder{ROS1: bag.Storage == bagread.StorageROS1}
	var h cdr.Header
	count := make([]int64, len(names))
	it := bag.Messages(bagread.ReadOptions{Topics: names, Order: bagread.RecordOrder, PrefixTopics: names, PrefixBytes: 480})
	for it.Next() {
		m := it.Message()
		i, ok := idx[m.Topic]
		if !ok || m.Err != nil {
			skipped++
			continue
		}
		if err := dec.Header(&h, m.Data, typ[m.Topic]); err != nil {
			skipped++
			continue
		}
		if count[i] >= maxStreamMessages {
			continue
		}
		order = append(order, recv{topic: i, stamp: h.Stamp.Nanoseconds(), recv: m.LogTimeNS, index: count[i]})
		count[i]++
	}
	return names, order, skipped
}

type recv struct {
	topic       int
	stamp, recv int64
	index       int64
}

// pairCases makes the oracle cases of one bag's streams.
func pairCases(label string, names []string, order []recv) []oCase {
	n := make([]int, len(names))
	for _, r := range order {
		n[r.topic]++
	}
	var out []oCase
	pairs := 0
	for a := 0; a < len(names) && pairs < maxPairsPerBag; a++ {
		for b := a + 1; b < len(names) && pairs < maxPairsPerBag; b++ {
			if n[a] == 0 || n[b] == 0 {
				continue
			}
			pairs++
			var msgs []Message
			for _, r := range order {
				switch r.topic {
				case a:
					msgs = append(msgs, Message{Topic: 0, StampNS: r.stamp, RecvNS: r.recv, Index: r.index})
				case b:
					msgs = append(msgs, Message{Topic: 1, StampNS: r.stamp, RecvNS: r.recv, Index: r.index})
				}
			}
			lim := NewConfig(Approximate, 2, 5)
			lim.MaxIntervalNS = 20 * msNS
			for _, cfg := range []Config{NewConfig(Approximate, 2, 10), lim, NewConfig(Exact, 2, 10)} {
				out = append(out, oCase{name: fmt.Sprintf("%s %s+%s %s", label, names[a], names[b], configLine(cfg)), cfg: cfg, msgs: msgs})
			}
		}
	}
	// Three or four topics together (the oracle takes up to four), as
	// depth_image_proc's depth + colour + camera_info synchronizer.
	if k := len(names); k >= 3 && k <= 4 && !slices.Contains(n, 0) {
		var msgs []Message
		for _, r := range order {
			msgs = append(msgs, Message{Topic: r.topic, StampNS: r.stamp, RecvNS: r.recv, Index: r.index})
		}
		for _, cfg := range []Config{NewConfig(Approximate, k, 5), NewConfig(Exact, k, 10)} {
			out = append(out, oCase{name: fmt.Sprintf("%s all %d topics %s", label, k, configLine(cfg)), cfg: cfg, msgs: msgs})
		}
	}
	return out
}

// TestSyncOracleBags: the shared bags' and the generated sync cases' pairs
// give the same sets, drops and pending messages as the real ROS 1
// message_filters; ROS 2 (what the analysis runs) gives the same sets as
// ROS 1 on all of them but the cases the README's differences explain.
func TestSyncOracleBags(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the ROS 1 oracle on every pair of the shared bags")
	}
	bin := buildSyncOracle(t)
	var cases []oCase
	bagsWithPairs := 0
	root := filepath.Join(testenv.SharedDir(t), "bags")
	for _, db := range bagread.Discover(root).Bags {
		names, order, _ := bagStreams(t, db.Path)
		c := pairCases(db.Rel, names, order)
		if len(c) > 0 {
			bagsWithPairs++
		}
		cases = append(cases, c...)
	}
	shared := len(cases)
	for _, name := range scenario.SyncNames() {
		for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
			spec, err := scenario.Get(name)
			if err != nil {
				t.Fatal(err)
			}
			dir, err := scenario.Write(filepath.Join(t.TempDir(), "bag"), spec, bagwrite.Options{Storage: storage})
			if err != nil {
				t.Fatal(err)
			}
			names, order, _ := bagStreams(t, dir)
			c := pairCases(name+"/"+storage, names, order)
			if len(c) == 0 {
				t.Errorf("%s/%s: no pair to check", name, storage)
			}
			cases = append(cases, c...)
		}
	}
	if bagsWithPairs < 5 {
		t.Errorf("only %d shared bags have a pair of sensor topics: the walk lost its bags", bagsWithPairs)
	}
	peer := runOracle(t, bin, cases)
	bad, sets, withSets, ros2diff := 0, 0, 0, 0
	for i, c := range cases {
		ros1 := runOurs(c, FlavorROS1, nil)
		if d := diff(ros1, peer[i]); d != "" {
			bad++
			if bad <= 5 {
				t.Errorf("%s: ROS 1 emulation against the oracle: %s", c.name, d)
			}
			continue
		}
		sets += len(peer[i].sets)
		if len(peer[i].sets) > 0 {
			withSets++
		}
		ros2 := runOurs(c, FlavorROS2, nil)
		if ros1.err == "" && !sameSets(ros1, ros2) {
			// Only the age-penalty rounding (difference 2) may change them.
			ros1r := runOurs(c, FlavorROS1, func(s *Sync) { s.ar.rounding = FlavorROS2 })
			if !sameSets(ros1r, ros2) {
				t.Errorf("%s: ROS 2 sets differ from ROS 1 with rclcpp's rounding", c.name)
			}
			ros2diff++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d streams differ from the oracle", bad, len(cases))
	}
	if withSets == 0 {
		t.Error("no stream formed a set: the streams lost their power")
	}
	t.Logf("%d shared-bag streams (%d bags with pairs), %d generated; %d sets equal to the oracle, %d streams with sets; %d where ROS 2's rounding changes the sets",
		shared, bagsWithPairs, len(cases)-shared, sets, withSets, ros2diff)
}

func sameSets(a, b oResult) bool {
	if len(a.sets) != len(b.sets) {
		return false
	}
	for i := range a.sets {
		if !slices.Equal(a.sets[i].stamps, b.sets[i].stamps) || !slices.Equal(a.sets[i].indices, b.sets[i].indices) {
			return false
		}
	}
	return true
}
