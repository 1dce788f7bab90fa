package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestHTMLByTopic: every analysed topic gets its row in the "By topic"
// table, a topic's targets side by side, and the topics left out are named
// with the reason.
func TestHTMLByTopic(t *testing.T) {
	r := &analysis.Report{
		Pairs: []analysis.PairSummary{
			{Topic: "/scan", Type: "sensor_msgs/msg/LaserScan", Consumer: "rviz-laserscan", TargetFrame: "odom", FrameID: "laser",
				Classes: map[string]int{"same_clock": 40}, Filter: map[string]int{"passed": 39, "pending_at_end": 1}, MedianDiffS: 0.016, MaxDiffS: 0.02},
			{Topic: "/imu", Type: "sensor_msgs/msg/Imu", Consumer: "rviz-display", TargetFrame: "odom", FrameID: "imu_link",
				Classes: map[string]int{"same_clock": 1000, "no_transform": 6}, Filter: map[string]int{"passed": 1000, "dropped_queue_full": 6}, StartupDrops: 6},
			{Topic: "/scan", Type: "sensor_msgs/msg/LaserScan", Consumer: "rviz-laserscan", TargetFrame: "map", FrameID: "laser",
				Classes: map[string]int{"no_transform": 40}, Filter: map[string]int{"pending_at_end": 40}},
		},
		Topics: []analysis.TopicSummary{
			{Topic: "/joint_states", Type: "sensor_msgs/msg/JointState", Role: analysis.TopicNotAnalysed, Reason: "stamped, but not a sensor type"},
			{Topic: "/scan", Type: "sensor_msgs/msg/LaserScan", Role: analysis.TopicAnalysed},
		},
	}
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	i := strings.Index(page, "<h2>By topic</h2>")
	if i < 0 {
		t.Fatal("no By topic section")
	}
	sec := page[i:]
	sec = sec[:strings.Index(sec, "</section>")]
	imu, scanOdom, scanMap := strings.Index(sec, "imu_link → odom"), strings.Index(sec, "laser → odom"), strings.Index(sec, "laser → map")
	if imu < 0 || scanOdom < 0 || scanMap < 0 || !(imu < scanOdom && scanOdom < scanMap) {
		t.Errorf("rows not grouped by topic (imu %d, scan→odom %d, scan→map %d):\n%s", imu, scanOdom, scanMap, sec)
	}
	for _, want := range []string{"rviz-display", "same_clock 1000, no_transform 6", "passed 1000, dropped_queue_full 6",
		"/joint_states</span> (sensor_msgs/msg/JointState: stamped, but not a sensor type)"} {
		if !strings.Contains(sec, want) {
			t.Errorf("section lacks %q:\n%s", want, sec)
		}
	}
}
