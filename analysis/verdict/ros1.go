package verdict

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// The verdict words a ROS 1 bag in ROS 1's terms where ROS 1 differs,
// when it writes each sentence (d.ros1()):
//
//   - use_sim_time is one global parameter, /use_sim_time, that roscpp
//     reads once, when a node starts (ros_comm clients/roscpp/src/libros/
//     init.cpp, start(): param::param("/use_sim_time", ...), then the
//     /clock subscription); rospy does the same at init_node. A node
//     started before the parameter was set stays on system time until it
//     is restarted, so the advice is to set the parameter and restart the
//     node (simTimeFix), and the check is `rosparam get /use_sim_time`.
//   - a ROS 1 bag names every publisher (Pass.Publishers): the headline
//     names the node where ROS 2's guesses it from the type (publisherOf).
//   - the command-line tools are rostopic and rosparam; view_frames is
//     tf2_tools' view_frames.py and tf2_echo is tf's tf_echo.
//   - noetic's tf2_ros::MessageFilter signals the reasons Unknown,
//     OutTheBack and EmptyFrameID and logs no line of its own (see
//     analysis/msgfilter/filter_ros1.go): the ROS 2 reason strings and the
//     "Message Filter dropping message" line are not what a ROS 1 consumer
//     shows. RViz (ros-visualization/rviz noetic-devel, src/rviz/
//     frame_manager.cpp, discoverFailureReason) sets the display's
//     "Transform [sender=…]" status instead: "Message removed because it is
//     too old (frame=[…], stamp=[…])" for OutTheBack, else the tf error of
//     a fresh canTransform ("For frame [laser]: No transform to fixed frame
//     [odom].  TF error: […]").

// ros1 reports whether the bag is a ROS 1 bag, whose verdict is worded in
// ROS 1's terms.
func (d decider) ros1() bool { return d.rep.Bag.Storage == analysis.StorageROS1 }

// ros1Note says why a ROS 1 node is restarted after /use_sim_time is set.
const ros1Note = " (a ROS 1 node reads /use_sim_time once, when it starts)"

// publishers are the callerids a ROS 1 bag records for topic, "" for none
// (or a ROS 2 bag).
func (d decider) publishers(topic string) string {
	if !d.ros1() {
		return ""
	}
	return strings.Join(d.rep.Pass.Publishers[topic], " or ")
}

// publisherOf names p's publisher as the subject of a sentence: the
// callerids of a ROS 1 bag, else "the" and the noun p's type suggests
// ("the laser driver"), capitalised at the start of a sentence.
func (d decider) publisherOf(p *analysis.PairSummary, start bool) string {
	if who := d.publishers(p.Topic); who != "" {
		return who
	}
	if start {
		return "The " + analysis.PublisherNoun(p.Type)
	}
	return "the " + analysis.PublisherNoun(p.Type)
}

// simTimeFix is the advice to put the node publishing what (one topic or
// tf link), or the nodes publishing several topics, on sim time: ROS 2's
// per-node parameter, or ROS 1's global /use_sim_time and a restart of
// the nodes the bag names.
func (d decider) simTimeFix(what ...string) string {
	if !d.ros1() {
		if len(what) == 1 {
			return "set use_sim_time:=true on the node publishing " + what[0]
		}
		return "set use_sim_time:=true on the nodes publishing them"
	}
	const set = "in ROS 1, set the global parameter /use_sim_time to true and restart "
	if len(what) == 1 {
		if who := d.publishers(what[0]); who != "" {
			return set + who + ros1Note
		}
		return set + "the node publishing " + what[0]
	}
	var who []string
	for _, t := range what {
		pubs := d.rep.Pass.Publishers[t]
		if len(pubs) == 0 {
			return set + "the nodes publishing them" + ros1Note
		}
		for _, n := range pubs {
			if !slices.Contains(who, n) {
				who = append(who, n)
			}
		}
	}
	return set + examples(who) + ros1Note
}

// ros1Wording adds to a ROS 1 bag's verdict what only ROS 1 has to say: a
// later split without /tf_static. (Its commands are ROS 1's when Decide
// renders them.)
func ros1Wording(v *draft, rep *analysis.Report) {
	if v.Class == analysis.VerdictFrameNotInTree {
		if first := ros1FirstSplit(rep); first != "" {
			v.head.add(" This file is a later split of a rosbag record --split recording: ROS 1's recorder writes a latched topic such as /tf_static only into the first file (" + first + ") unless it runs with --repeat-latched, so the static transforms are there; record with --repeat-latched to repeat them at the start of every split.")
		}
	}
}

// splitName matches the file name rosbag record --split gives a split
// (ros_comm noetic-devel tools/rosbag/src/recorder.cpp, updateFilenames:
// PREFIX_N.bag, N counting from 0; .bag.active while it is written).
var splitName = regexp.MustCompile(`^(.*)_([0-9]+)\.bag(\.active)?$`)

// ros1FirstSplit returns the first split's file name when the report is of
// a later split (N >= 1) with no /tf_static message: Recorder::doQueue
// keeps latched messages for the next file only under --repeat-latched
// (startWriting then writes copies, stamped with the split's start, before
// anything else), so a latched topic published once is in split 0 alone.
func ros1FirstSplit(rep *analysis.Report) string {
	m := splitName.FindStringSubmatch(filepath.Base(rep.Bag.Path))
	if m == nil || strings.TrimLeft(m[2], "0") == "" {
		return ""
	}
	for _, t := range rep.Topics {
		if t.Role == "tf_static" && t.Messages > 0 {
			return ""
		}
	}
	return m[1] + "_0.bag"
}
