package ros1msg

import (
	"strings"
)

// StampInfo says whether messages of a type start with std_msgs/Header.
type StampInfo struct {
	// Stamped: the type's first field is a std_msgs/Header.
	Stamped bool
	// Known: the answer comes from the definition; false means not analysed.
	Known bool
	// Reason is a short sentence for reports.
	Reason string
}

// Reasons StampedFromDefinition gives.
const (
	ReasonDefStamped   = "ROS 1 definition in the bag starts with std_msgs/Header"
	ReasonDefUnstamped = "ROS 1 definition in the bag does not start with std_msgs/Header"
	ReasonNoDefinition = "no ROS 1 message_definition in the bag: not analysed"
)

// StampedFromDefinition decides from a connection's message_definition
// whether typ is header-first. The text is what genmsg's
// compute_full_text writes (rosbag stores it verbatim): the type's own
// .msg text, then for each type it uses a line of 80 '=' and "MSG:
// pkg/Type" before that type's text. In a .msg file a bare "Header" means
// std_msgs/Header (genmsg's one special case); constants ("byte DEBUG=1")
// and comments are not fields. When the definition carries the
// std_msgs/Header block, its fields must be the ROS 1 ones (uint32 seq,
// time stamp, string frame_id) for DecodeHeaderInto to read them.
func StampedFromDefinition(typ, def string) StampInfo {
	if strings.TrimSpace(def) == "" {
		return StampInfo{Reason: ReasonNoDefinition}
	}
	blocks := splitBlocks(def)
	fields := msgFields(blocks[""])
	if len(fields) == 0 {
		return StampInfo{Known: true, Reason: ReasonDefUnstamped + " (it has no fields)"}
	}
	f := fields[0]
	if f.typ != "Header" && f.typ != TypeHeader {
		return StampInfo{Known: true, Reason: ReasonDefUnstamped + " (first field: " + f.typ + f.array + " " + f.name + ")"}
	}
	if f.array != "" {
		return StampInfo{Known: true, Reason: ReasonDefUnstamped + " (first field is an array of headers: " + f.name + ")"}
	}
	if hb, ok := blocks[TypeHeader]; ok {
		want := []field{{typ: "uint32", name: "seq"}, {typ: "time", name: "stamp"}, {typ: "string", name: "frame_id"}}
		got := msgFields(hb)
		if len(got) < len(want) || [3]field(got[:3]) != [3]field(want) {
			return StampInfo{Reason: "ROS 1 definition starts with " + f.typ + " " + f.name +
				", but its std_msgs/Header is not uint32 seq, time stamp, string frame_id: not analysed"}
		}
	}
	return StampInfo{Stamped: true, Known: true, Reason: ReasonDefStamped}
}

type field struct{ typ, array, name string }

// splitBlocks cuts a full definition into its .msg texts by type name, ""
// for the top-level type.
func splitBlocks(def string) map[string]string {
	lines := strings.Split(strings.ReplaceAll(def, "\r\n", "\n"), "\n")
	blocks := map[string]string{}
	name, start := "", 0
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if len(l) < 3 || strings.Trim(l, "=") != "" || i+1 >= len(lines) {
			continue
		}
		next, ok := strings.CutPrefix(strings.TrimSpace(lines[i+1]), "MSG:")
		if !ok {
			continue
		}
		if _, dup := blocks[name]; !dup {
			blocks[name] = strings.Join(lines[start:i], "\n")
		}
		name, start = strings.TrimSpace(next), i+2
		i++
	}
	if _, dup := blocks[name]; !dup {
		blocks[name] = strings.Join(lines[start:], "\n")
	}
	return blocks
}

// msgFields lists the fields of one .msg text, constants and comments
// left out.
func msgFields(text string) []field {
	var out []field
	for _, l := range strings.Split(text, "\n") {
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		parts := strings.Fields(l)
		if len(parts) < 2 || strings.Contains(l, "=") {
			continue // blank, malformed, or a constant
		}
		typ, arr := parts[0], ""
		if i := strings.IndexByte(typ, '['); i >= 0 {
			typ, arr = typ[:i], typ[i:]
		}
		out = append(out, field{typ: typ, array: arr, name: parts[1]})
	}
	return out
}
