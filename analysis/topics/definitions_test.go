package topics

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/testenv"
)

// defCount is what one shared storage file's own definitions decide:
// types with a definition, and how many of them are header-first.
type defCount struct{ types, stamped int }

// wantDefs lists every storage file in ../shared/bags that carries message
// definitions (MCAP schemas; sqlite schema-4 message_definitions), with
// the decisions its definitions give. A file missing here, or a count that
// moves, fails the test.
var wantDefs = map[string]defCount{
	"evo-nav2-turtlebot-mcap/nav2_turtlebot.mcap":                                                                            {3, 2},
	"evo-tf-example/tf_example.db3":                                                                                          {1, 0},
	"jazzy-v9-mcap-chatter/my_bag_0.mcap":                                                                                    {1, 0},
	"rerun-rosbag2-humble-mcap/rosbag2_2025_09_10-13_03_56_0.mcap":                                                           {29, 20},
	"rosbag2-head/rosbag2_cpp/test/rosbag2_cpp/bags/only_services.mcap":                                                      {1, 0},
	"rosbag2-head/rosbag2_cpp/test/rosbag2_cpp/bags/only_topics.mcap":                                                        {3, 0},
	"rosbag2-head/rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.db3":                                                 {3, 0},
	"rosbag2-head/rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.mcap":                                                {4, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/convert_a/rewriter_a_0.mcap":                                                {1, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/convert_b/rewriter_b_0.mcap":                                                {1, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/reindex_test_bags/multiple_files/multiple_files_0.mcap":                     {1, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/reindex_test_bags/multiple_files/multiple_files_1.mcap":                     {1, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/reindex_test_bags/multiple_files/multiple_files_2.mcap":                     {1, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/talker/talker.mcap":                                                         {3, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/wbag/wbag_0.mcap":                                                           {1, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/wbag/wbag_1.mcap":                                                           {1, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/wbag/wbag_2.mcap":                                                           {1, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/wbag/wbag_3.mcap":                                                           {1, 0},
	"rosbag2-head/rosbag2_py/test/resources/mcap/wbag/wbag_4.mcap":                                                           {1, 0},
	"rosbag2-head/rosbag2_py/test/resources/sqlite3/talker/talker.db3":                                                       {3, 0},
	"rosbag2-head/rosbag2_tests/resources/mcap/bag_with_topics_and_service_events/bag_with_topics_and_service_events.mcap":   {3, 0},
	"rosbag2-head/rosbag2_tests/resources/mcap/cdr_test/cdr_test_0.mcap":                                                     {2, 0},
	"rosbag2-head/rosbag2_tests/resources/mcap/wrong_rmw_test/wrong_rmw_test_0.mcap":                                         {2, 0},
	"rosbag2-head/rosbag2_tests/resources/sqlite3/bag_with_topics_and_service_events/bag_with_topics_and_service_events.db3": {2, 0},
	"rosbag2-head/rosbag2_tests/resources/sqlite3/cdr_test/cdr_test_0.db3":                                                   {2, 0},
	"rosbag2-head/rosbag2_transport/test/resources/mcap/rewriter_a/rewriter_a_0.mcap":                                        {1, 0},
	"rosbag2-head/rosbag2_transport/test/resources/mcap/rewriter_b/rewriter_b_0.mcap":                                        {1, 0},
	"rosbag2-head/rosbag2_transport/test/resources/mcap/test_bag_for_seek/test_bag_for_seek_0.mcap":                          {1, 0},
	"rosbags-rs-test-bags/test_bag_mcap/test_bag_mcap.mcap":                                                                  {93, 39},
	"rosbags-rs-test-bags/test_bag_sqlite3/test_bag_sqlite3.db3":                                                             {93, 39},
	"uts-pfms-quiz5/ros2.db3": {4, 3},
}

// TestDefinitionsOfSharedBags parses the definition of every type in every
// shared bag that carries definitions, with the bag's text alone (no
// built-in table): it must parse, and where the built-in table knows the
// type both must agree, which checks the table against the definitions
// the recorders wrote.
func TestDefinitionsOfSharedBags(t *testing.T) {
	root := filepath.Join(testenv.SharedDir(t), "bags")
	got := map[string]defCount{}
	agreed, fromDefOnly := 0, map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !strings.HasSuffix(p, ".mcap") && !strings.HasSuffix(p, ".db3") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		b, err := bagread.Open(p, bagread.Options{})
		if err != nil {
			return nil // damaged test files are bagread's business
		}
		defer b.Close()
		seen := map[string]bool{}
		var lines []string
		for _, tp := range b.Topics {
			if tp.Definition == "" || seen[tp.Type] {
				continue
			}
			seen[tp.Type] = true
			c := got[rel]
			c.types++
			si := cdr.StampedFromDefinition(tp.Type, tp.DefinitionEncoding, tp.Definition)
			if !si.Known {
				t.Errorf("%s: %s (%s): not decided: %s", rel, tp.Type, tp.DefinitionEncoding, si.Reason)
			}
			if si.Stamped {
				c.stamped++
			}
			got[rel] = c
			tab := cdr.LookupStamped(tp.Type, "", "")
			switch {
			case tab.Known && tab.Stamped != si.Stamped:
				t.Errorf("%s: %s: definition says stamped=%v (%s), built-in table %v", rel, tp.Type, si.Stamped, si.Reason, tab.Stamped)
			case tab.Known:
				agreed++
			default:
				fromDefOnly[tp.Type] = si.Stamped
			}
			lines = append(lines, tp.Type+" stamped="+map[bool]string{true: "yes", false: "no"}[si.Stamped])
		}
		if len(lines) > 0 {
			sort.Strings(lines)
			t.Logf("%s: %s", rel, strings.Join(lines, ", "))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for f, c := range got {
		if w, ok := wantDefs[f]; !ok || w != c {
			t.Errorf("%s: %d types with definitions, %d stamped; want %+v (listed: %v)", f, c.types, c.stamped, w, ok)
		}
	}
	for f := range wantDefs {
		if _, ok := got[f]; !ok {
			t.Errorf("%s: listed but has no definitions", f)
		}
	}
	t.Logf("%d files with definitions; %d type decisions agree with the built-in table; decided only from definitions: %v",
		len(got), agreed, fromDefOnly)
	if agreed < 100 {
		t.Errorf("only %d definitions checked against the built-in table", agreed)
	}
}
