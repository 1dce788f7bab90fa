package verdict

import (
	"slices"
	"strings"
)

// command is a command the verdict gives, as data: what it runs and on
// what. Decide renders the list once for the bag's ROS (renderCommands):
// ROS 2's ros2 CLI, or ROS 1's rostopic, rosparam and rosrun.
type command struct {
	kind cmdKind
	// topic is what echo and the topic verbs read; field the message
	// field echo prints ("header.stamp"), "" for the whole message.
	topic, field string
	// verb is topicVerb's: info, hz or delay; verbose adds ros2's
	// --verbose (ROS 1's rostopic info always says as much).
	verb    string
	verbose bool
	// node is paramSimTime's node.
	node string
	// parent and child are tfEcho's frames (target, then source); note
	// adds tf2EchoNote to ROS 2's line.
	parent, child string
	note          bool
	// line is a shell command the same on both (chronyc, timedatectl),
	// or a ros2 one ROS 1 has no match for (ros2Only).
	line string
}

// cmdKind is what a command does.
type cmdKind uint8

const (
	cmdShell        cmdKind = iota // line, in either ROS
	cmdROS2Only                    // line in ROS 2; left out in ROS 1
	cmdEcho                        // one message (or one field) of a topic
	cmdTopicVerb                   // topic info, hz or delay
	cmdParamSimTime                // one node's use_sim_time
	cmdListSimTime                 // every running node's use_sim_time
	cmdTFEcho                      // the transform between two frames
	cmdViewFrames                  // the tf tree as a drawing
)

func shell(line string) command    { return command{kind: cmdShell, line: line} }
func ros2Only(line string) command { return command{kind: cmdROS2Only, line: line} }
func echo(topic, field string) command {
	return command{kind: cmdEcho, topic: topic, field: field}
}
func topicVerb(verb, topic string, verbose bool) command {
	return command{kind: cmdTopicVerb, verb: verb, topic: topic, verbose: verbose}
}
func paramSimTime(node string) command { return command{kind: cmdParamSimTime, node: node} }
func listSimTime() command             { return command{kind: cmdListSimTime} }
func tfEcho(parent, child string, note bool) command {
	return command{kind: cmdTFEcho, parent: parent, child: child, note: note}
}
func viewFrames() command { return command{kind: cmdViewFrames} }

// listUseSimTimeCmd prints use_sim_time of every running node: the
// command the verdict gives when the bag does not name the node.
const listUseSimTimeCmd = `for n in $(ros2 node list); do echo "$n: $(ros2 param get $n use_sim_time)"; done`

// ros2 is the command line in ROS 2.
func (c command) ros2() string {
	switch c.kind {
	case cmdEcho:
		if c.field != "" {
			return "ros2 topic echo " + c.topic + " --field " + c.field + " --once"
		}
		return "ros2 topic echo " + c.topic + " --once"
	case cmdTopicVerb:
		if c.verbose {
			return "ros2 topic " + c.verb + " " + c.topic + " --verbose"
		}
		return "ros2 topic " + c.verb + " " + c.topic
	case cmdParamSimTime:
		return "ros2 param get " + c.node + " use_sim_time"
	case cmdListSimTime:
		return listUseSimTimeCmd
	case cmdTFEcho:
		if c.note {
			return "ros2 run tf2_ros tf2_echo " + c.parent + " " + c.child + "  " + tf2EchoNote
		}
		return "ros2 run tf2_ros tf2_echo " + c.parent + " " + c.child
	case cmdViewFrames:
		return "ros2 run tf2_tools view_frames"
	}
	return c.line
}

// ros1 is the command line in ROS 1, "" for none worth guessing: one
// global /use_sim_time (rosparam), rostopic's echo -n 1 with the field as
// a path, tf's tf_echo, tf2_tools' view_frames.py.
func (c command) ros1() string {
	switch c.kind {
	case cmdEcho:
		if c.field != "" {
			return "rostopic echo -n 1 " + c.topic + "/" + strings.ReplaceAll(c.field, ".", "/")
		}
		return "rostopic echo -n 1 " + c.topic
	case cmdTopicVerb:
		return "rostopic " + c.verb + " " + c.topic
	case cmdParamSimTime, cmdListSimTime:
		return "rosparam get /use_sim_time"
	case cmdTFEcho:
		return "rosrun tf tf_echo " + c.parent + " " + c.child
	case cmdViewFrames:
		return "rosrun tf2_tools view_frames.py"
	case cmdROS2Only:
		return ""
	}
	return c.line
}

// renderCommands is the verdict's commands as lines: ROS 2's in order, or
// ROS 1's, each once (several nodes' use_sim_time are one parameter
// there).
func renderCommands(cmds []command, ros1 bool) []string {
	out := make([]string, 0, len(cmds))
	for _, c := range cmds {
		if !ros1 {
			out = append(out, c.ros2())
			continue
		}
		if l := c.ros1(); l != "" && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}
