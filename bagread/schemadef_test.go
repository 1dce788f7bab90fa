package bagread

import (
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// TestTopicDefinitions: the bag's own definitions reach Topic, from MCAP
// Schema records and from a sqlite schema-4 message_definitions table
// (joined by type, so two topics of one type share it); a schema-3 db3
// has none.
func TestTopicDefinitions(t *testing.T) {
	for _, tc := range []struct {
		bag, topic, enc, prefix string
	}{
		{"rerun-rosbag2-humble-mcap/rosbag2_2025_09_10-13_03_56_0.mcap", "/imu", "ros2msg", "# This is a message to hold data from an IMU"},
		{"rerun-rosbag2-humble-mcap/rosbag2_2025_09_10-13_03_56_0.mcap", "/parameter_events", "ros2msg", "# This message contains a parameter event."},
		{"evo-tf-example/tf_example.db3", "/tf", "ros2msg", "geometry_msgs/TransformStamped[] transforms"},
		{"evo-tf-example/tf_example.db3", "/tf_static", "ros2msg", "geometry_msgs/TransformStamped[] transforms"},
		{"tb3-walker-simstart", "/imu", "", ""},
	} {
		b, err := Open(testenv.SharedBag(t, tc.bag), Options{})
		if err != nil {
			t.Fatal(err)
		}
		tp := b.Topic(tc.topic)
		b.Close()
		if tp == nil {
			t.Fatalf("%s: no topic %s", tc.bag, tc.topic)
		}
		if tp.DefinitionEncoding != tc.enc || !strings.HasPrefix(tp.Definition, tc.prefix) || (tc.prefix == "") != (tp.Definition == "") {
			t.Errorf("%s %s: encoding %q, definition %.60q; want %q, %q...", tc.bag, tc.topic, tp.DefinitionEncoding, tp.Definition, tc.enc, tc.prefix)
		}
	}
}
