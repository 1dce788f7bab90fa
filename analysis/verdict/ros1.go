package verdict

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/bagclock/bagclock/analysis"
)

// ros1Wording rewords v for a ROS 1 bag where ROS 1 differs:
//
//   - use_sim_time is one global parameter, /use_sim_time, that roscpp
//     reads once, when a node starts (ros_comm clients/roscpp/src/libros/
//     init.cpp, start(): param::param("/use_sim_time", ...), then the
//     /clock subscription); rospy does the same at init_node. A node
//     started before the parameter was set stays on system time until it
//     is restarted, so the advice is to set the parameter and restart the
//     node, and the check is `rosparam get /use_sim_time`.
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
func ros1Wording(v *analysis.Verdict, rep *analysis.Report, guessed string) {
	// The headline guessed guessed's publisher from its type ("the laser
	// driver"); a ROS 1 bag names it.
	if who := strings.Join(rep.Pass.Publishers[guessed], " or "); guessed != "" && who != "" {
		noun := analysis.PublisherNoun(topicType(rep, guessed))
		for _, art := range []string{"The ", "the "} {
			v.Sentence = strings.ReplaceAll(v.Sentence, art+noun+" ", who+" ")
		}
		v.Sentence = strings.Replace(v.Sentence, "set use_sim_time:=true on the node publishing "+guessed+".",
			"in ROS 1, set the global parameter /use_sim_time to true and restart "+who+" (a ROS 1 node reads /use_sim_time once, when it starts).", 1)
	}
	v.Sentence = strings.Replace(v.Sentence, "set use_sim_time:=true on the node publishing",
		"in ROS 1, set the global parameter /use_sim_time to true and restart the node publishing", 1)
	v.Sentence = strings.Replace(v.Sentence,
		`tf2_ros::MessageFilter drops every one ("Message Filter dropping message: frame '' at time … for reason 'the frame id of the message is empty'")`,
		"ROS 1's tf2_ros::MessageFilter drops every one with reason EmptyFrameID and logs nothing", 1)
	for i, e := range v.Evidence {
		e = strings.ReplaceAll(e, "QoS or ROS_DOMAIN_ID", "or ROS_MASTER_URI")
		e = strings.Replace(e, `the filter drops it when the queue is full ("discarding message because the queue is full")`,
			`ROS 1's filter drops it when the queue is full, with reason Unknown and no log line; RViz's display status then shows the tf error ("For frame […]: No transform to fixed frame […]")`, 1)
		e = strings.Replace(e, `dropped at once as "earlier than all the data in the transform cache"`,
			`dropped at once as OutTheBack; RViz's display status shows "Message removed because it is too old (frame=[…], stamp=[…])"`, 1)
		v.Evidence[i] = e
	}
	if v.Class == analysis.VerdictFrameNotInTree {
		if first := ros1FirstSplit(rep); first != "" {
			v.Sentence += " This file is a later split of a rosbag record --split recording: ROS 1's recorder writes a latched topic such as /tf_static only into the first file (" + first + ") unless it runs with --repeat-latched, so the static transforms are there; record with --repeat-latched to repeat them at the start of every split."
		}
	}
	v.Commands = ros1Commands(v.Commands)
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

// topicType is topic's message type in the report's topic table.
func topicType(rep *analysis.Report, topic string) string {
	for _, t := range rep.Topics {
		if t.Topic == topic {
			return t.Type
		}
	}
	return ""
}

// ros1Commands rewrites the ROS 2 commands of a verdict into their ROS 1
// equivalents, each once.
func ros1Commands(cmds []string) []string {
	out := make([]string, 0, len(cmds))
	for _, c := range cmds {
		r := ros1Command(c)
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func ros1Command(c string) string {
	f := strings.Fields(c)
	switch {
	case c == listUseSimTimeCmd, len(f) >= 4 && f[0] == "ros2" && f[1] == "param" && f[2] == "get":
		return "rosparam get /use_sim_time"
	case len(f) >= 4 && f[0] == "ros2" && f[1] == "topic" && f[2] == "echo":
		topic := f[3]
		if i := indexOf(f, "--field"); i > 0 && i+1 < len(f) {
			topic += "/" + strings.ReplaceAll(f[i+1], ".", "/")
		}
		return "rostopic echo -n 1 " + topic
	case len(f) >= 4 && f[0] == "ros2" && f[1] == "topic" && (f[2] == "info" || f[2] == "hz" || f[2] == "delay"):
		return "rostopic " + f[2] + " " + f[3]
	case len(f) >= 6 && f[0] == "ros2" && f[2] == "tf2_ros" && f[3] == "tf2_echo":
		return "rosrun tf tf_echo " + f[4] + " " + f[5]
	case c == "ros2 run tf2_tools view_frames":
		return "rosrun tf2_tools view_frames.py"
	case strings.HasPrefix(c, "ros2 "):
		return "" // no ROS 1 equivalent worth guessing
	}
	return c
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}
