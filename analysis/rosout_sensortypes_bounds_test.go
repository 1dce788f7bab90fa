package analysis

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/bagclock/bagclock/analysis/msgfilter"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// Boundary tests of rosout.go, sensortypes.go and topicstate.go (issue
// 15): the kept /rosout lines and their matching window, the sensor
// types' presets, and the topic table's switch to a map.

func rosoutBoundsMsg(msg string, logNS int64) *bagread.Message {
	l := cdr.Log{Name: "n", Level: 30, Msg: msg}
	return &bagread.Message{Topic: "/rosout", LogTimeNS: logNS, Data: cdr.AppendLog(nil, &l, binary.LittleEndian)}
}

// TestRosoutJumpBackWindow: a jump-back line matches a backward /clock
// jump within 2 s of record time either side, not 1 ns more, nor a
// forward jump.
func TestRosoutJumpBackWindow(t *testing.T) {
	const at = int64(100e9)
	for _, tc := range []struct {
		name   string
		jumpAt int64
		kind   string
		want   bool
	}{
		{"same time", at, "backward", true},
		{"2 s before", at - 2e9, "backward", true},
		{"2 s after", at + 2e9, "backward", true},
		{"2 s + 1 ns before", at - 2e9 - 1, "backward", false},
		{"2 s + 1 ns after", at + 2e9 + 1, "backward", false},
		{"forward jump", at, "forward", false},
	} {
		a := &analyzer{skipped: map[string]*Skipped{}, rows: &rowsState{predicted: map[string]bool{}}}
		a.rep.ClockJumps = []ClockJump{{Kind: "forward", LogTimeNS: at + 50e9}, {Kind: tc.kind, LogTimeNS: tc.jumpAt}}
		c := &rosoutCheck{}
		c.onRaw(a, rosoutBoundsMsg("Detected jump back in time. Clearing TF buffer.", at))
		c.finish(a)
		if len(a.rep.Rosout) != 1 || a.rep.Rosout[0].Kind != "jump_back" || a.rep.Rosout[0].Matched != tc.want {
			t.Errorf("%s: rosout %+v, want one jump_back line matched=%v", tc.name, a.rep.Rosout, tc.want)
		}
	}
}

// TestRosoutKeptAndCounted: lines of neither kind are left out; all kept
// kinds are counted, the first maxRosoutKept listed; matched drops are
// counted.
func TestRosoutKeptAndCounted(t *testing.T) {
	a := &analyzer{skipped: map[string]*Skipped{}, bag: &bagread.Bag{}, rows: &rowsState{predicted: map[string]bool{}}}
	c := &rosoutCheck{}
	c.onRaw(a, rosoutBoundsMsg("hello", 1))
	c.onRaw(a, &bagread.Message{Topic: "/rosout", FileIndex: -1, Data: []byte{1}})
	for i := range maxRosoutKept + 1 {
		c.onRaw(a, rosoutBoundsMsg(fmt.Sprintf("Message Filter dropping message: frame 'laser' at time %d.000 for reason 'x'", i), int64(i)))
	}
	c.finish(a)
	if len(a.rep.Rosout) != maxRosoutKept || a.rep.Counts.RosoutLines != maxRosoutKept+1 || a.rep.Rosout[0].Kind != "filter_drop" {
		t.Errorf("%d lines listed, %d counted; want %d, %d", len(a.rep.Rosout), a.rep.Counts.RosoutLines, maxRosoutKept, maxRosoutKept+1)
	}
	if s := a.skipped["/rosout"]; s == nil || s.Count != 1 {
		t.Errorf("skipped %+v, want 1", s)
	}
	// Matching: the drop key of two lines predicted.
	var keys []string
	for _, l := range a.rep.Rosout[:2] {
		k := dropKey(l.Text)
		if k == "" {
			t.Fatalf("no drop key in %q", l.Text)
		}
		keys = append(keys, k)
	}
	a.rows.predicted[keys[0]] = true
	a.rows.predicted[keys[1]] = true
	a.rows.predicted[""] = true // a line without a key never matches
	c.lines = append(c.lines, RosoutLine{Kind: "filter_drop", Text: "Message Filter dropping message"})
	c.finish(a)
	if a.rep.Counts.MatchedDrops != 2 || !a.rep.Rosout[0].Matched || a.rep.Rosout[2].Matched || a.rep.Rosout[len(a.rep.Rosout)-1].Matched {
		t.Errorf("matched drops %d, want 2 (the first two lines)", a.rep.Counts.MatchedDrops)
	}
}

// TestSensorTypesPresets: each family's preset for each consumer.
func TestSensorTypesPresets(t *testing.T) {
	rviz := msgfilter.Presets["rviz-laserscan"]
	nav2 := msgfilter.Presets["nav2-obstacle-layer"]
	slam := msgfilter.Presets["slam_toolbox"]
	for _, tc := range []struct {
		consumer string
		laser    msgfilter.Preset
		typ      string
		want     string
	}{
		{"rviz", rviz, "sensor_msgs/msg/LaserScan", rviz.Name},
		{"nav2", nav2, "sensor_msgs/LaserScan", nav2.Name},
		{"nav2", nav2, "sensor_msgs/msg/PointCloud2", "nav2-obstacle-layer-pointcloud"},
		{"", nav2, "sensor_msgs/msg/PointCloud2", "nav2-obstacle-layer-pointcloud"},
		{"rviz", rviz, "sensor_msgs/msg/PointCloud2", "rviz-display"},
		{"slam_toolbox", slam, "sensor_msgs/msg/PointCloud2", "rviz-display"},
		{"nav2", nav2, "sensor_msgs/msg/Image", "rviz-camera"},
		{"rviz", rviz, "stereo_msgs/msg/DisparityImage", "rviz-camera"},
		{"nav2", nav2, "sensor_msgs/msg/Imu", "rviz-display"},
		{"nav2", nav2, "my_msgs/msg/Thing", "rviz-display"},
	} {
		if got := presetFor(tc.consumer, tc.laser, tc.typ); got.Name != tc.want {
			t.Errorf("presetFor(%q, %s, %s) = %s, want %s", tc.consumer, tc.laser.Name, tc.typ, got.Name, tc.want)
		}
	}
	for _, tc := range []struct{ typ, norm, noun string }{
		{"sensor_msgs/msg/Imu", "sensor_msgs/Imu", "IMU driver"},
		{"sensor_msgs/Imu", "sensor_msgs/Imu", "IMU driver"},
		{"a/msg/b/c", "a/msg/b/c", "publisher"},
		{"my_msgs/msg/Thing", "my_msgs/Thing", "publisher"},
	} {
		if got := normType(tc.typ); got != tc.norm {
			t.Errorf("normType(%s) = %s, want %s", tc.typ, got, tc.norm)
		}
		if got := PublisherNoun(tc.typ); got != tc.noun {
			t.Errorf("publisherNoun(%s) = %s, want %s", tc.typ, got, tc.noun)
		}
		if got, want := isSensorType(tc.typ), tc.noun != "publisher"; got != want {
			t.Errorf("isSensorType(%s) = %v, want %v", tc.typ, got, want)
		}
	}
}

// TestTopicTableLinearBoundary: up to topicTableLinear topics are found
// by a scan, from one more on by a map; find works either way.
func TestTopicTableLinearBoundary(t *testing.T) {
	var tt topicTable
	for i := range topicTableLinear {
		tt.add(&topicState{name: fmt.Sprintf("/t%d", i), id: i, role: roleStamped})
	}
	if tt.byName != nil {
		t.Errorf("%d topics: map built", topicTableLinear)
	}
	if ts := tt.find("/t3"); ts == nil || ts.id != 3 || tt.find("/none") != nil {
		t.Errorf("linear find: %+v", ts)
	}
	tt.add(&topicState{name: "/clock", id: topicTableLinear, role: roleClock})
	tt.add(&topicState{name: "/last", id: topicTableLinear + 1, role: roleStamped})
	if len(tt.byName) != topicTableLinear+2 {
		t.Errorf("%d topics: map of %d", topicTableLinear+2, len(tt.byName))
	}
	for i, name := range []string{"/t0", "/t7", "/clock", "/last"} {
		if ts := tt.find(name); ts == nil || ts.name != name {
			t.Errorf("map find %d %s: %+v", i, name, ts)
		}
	}
	if tt.find("/none") != nil {
		t.Errorf("map find of an unknown topic")
	}
	if got := tt.analysed(); len(got) != topicTableLinear+1 || got[0].name != "/t0" || got[len(got)-1].name != "/last" {
		t.Errorf("analysed: %d topics", len(got))
	}
}
