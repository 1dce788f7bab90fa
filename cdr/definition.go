package cdr

import (
	"errors"
	"fmt"
	"strings"
)

// ErrDefinition: a message definition text could not be parsed far enough
// to find its top-level type's first field.
var ErrDefinition = errors.New("definition does not parse")

// FirstField is the first field of a definition's top-level type, with
// the check of the std_msgs/Header definition the bag carries beside it.
type FirstField struct {
	// Type as written ("std_msgs/Header", "std_msgs::msg::Header",
	// "float64"), without array suffix; "" when the type has no fields.
	Type string
	// Name is the field's name.
	Name string
	// Array: the field is an array or sequence (its bytes start with a
	// count, not with a header).
	Array bool
	// HeaderProblem is why a Header-named first field cannot be read as
	// the ROS 2 std_msgs/Header ("" when it can, or when it is no header).
	HeaderProblem string
}

// IsHeader reports whether Type names std_msgs/Header in any spelling a
// bag uses (a bare ROS 1 style "Header" included).
func (f FirstField) IsHeader() bool {
	switch f.Type {
	case "std_msgs/Header", "std_msgs/msg/Header", "std_msgs::msg::Header", "::std_msgs::msg::Header", "Header":
		return true
	}
	return false
}

func (f FirstField) stampInfo() StampInfo {
	switch {
	case f.Type == "":
		return StampInfo{Known: true, Reason: ReasonDefUnstamped + " (it has no fields)"}
	case !f.IsHeader():
		arr := ""
		if f.Array {
			arr = "[]"
		}
		return StampInfo{Known: true, Reason: ReasonDefUnstamped + " (first field: " + f.Type + arr + " " + f.Name + ")"}
	case f.Array:
		return StampInfo{Known: true, Reason: ReasonDefUnstamped + " (first field is an array of headers: " + f.Name + ")"}
	case f.HeaderProblem != "":
		return StampInfo{Reason: "definition in the bag starts with " + f.Type + " " + f.Name + ", but " + f.HeaderProblem + ": not analysed"}
	}
	return StampInfo{Stamped: true, Known: true, Reason: ReasonDefStamped}
}

// defBlock is one file of a concatenated definition: "" name for the
// top-level text of ros2msg.
type defBlock struct {
	kind, name string // kind "MSG", "IDL", "SRV" or "" (top level)
	text       string
}

// splitDefinition cuts MCAP/rosbag2 definition text at delimiter lines
// (a line of only '=', 80 in rosbag2's writer) followed by "MSG: name",
// "IDL: name" or "SRV: name".
func splitDefinition(def string) []defBlock {
	def = strings.ReplaceAll(def, "\r\n", "\n")
	lines := strings.Split(def, "\n")
	blocks := []defBlock{{}}
	var cur []string
	flush := func() { blocks[len(blocks)-1].text = strings.Join(cur, "\n"); cur = cur[:0] }
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if len(l) >= 3 && strings.Trim(l, "=") == "" && i+1 < len(lines) {
			next := strings.TrimSpace(lines[i+1])
			if k, n, ok := strings.Cut(next, ":"); ok && (k == "MSG" || k == "IDL" || k == "SRV") {
				flush()
				blocks = append(blocks, defBlock{kind: k, name: strings.TrimSpace(n)})
				i++
				continue
			}
		}
		cur = append(cur, lines[i])
	}
	flush()
	return blocks
}

// msgField is one field line of a .msg text.
type msgField struct {
	typ, name string
	array     bool
}

// msgFields parses the field lines of one .msg text by the rules of
// rosidl_adapter's parse_message_string: '#' starts a comment, a line
// whose remainder holds '=' is a constant, anything after the field name
// is a default value. It returns at most max fields.
func msgFields(text string, max int) ([]msgField, error) {
	var out []msgField
	for i, raw := range strings.Split(text, "\n") {
		l := strings.ReplaceAll(raw, "\t", " ")
		if j := strings.IndexByte(l, '#'); j >= 0 {
			l = l[:j]
		}
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		typ, rest, ok := strings.Cut(l, " ")
		rest = strings.TrimLeft(rest, " ")
		if !ok || rest == "" {
			return out, fmt.Errorf("%w: line %d %q has a type but no name", ErrDefinition, i+1, clip(l))
		}
		if strings.Contains(rest, "=") {
			continue // constant
		}
		name, _, _ := strings.Cut(rest, " ")
		base, array, err := splitArray(typ)
		if err != nil || !validMsgType(base) || !validIdent(name) {
			return out, fmt.Errorf("%w: line %d %q is not a field", ErrDefinition, i+1, clip(l))
		}
		out = append(out, msgField{typ: base, name: name, array: array})
		if len(out) >= max {
			break
		}
	}
	return out, nil
}

// splitArray strips "[]", "[N]" or "[<=N]" from a .msg field type.
func splitArray(typ string) (string, bool, error) {
	base, bound, ok := strings.Cut(typ, "[")
	if !ok {
		return typ, false, nil
	}
	bound, ok = strings.CutSuffix(bound, "]")
	if !ok || strings.Trim(strings.TrimPrefix(bound, "<="), "0123456789") != "" {
		return typ, false, ErrDefinition
	}
	return base, true, nil
}

// validMsgType accepts "pkg/Type", "pkg/msg/Type", "Type" and bounded
// strings ("string<=10").
func validMsgType(t string) bool {
	if b, n, ok := strings.Cut(t, "<="); ok {
		if b != "string" && b != "wstring" || n == "" || strings.Trim(n, "0123456789") != "" {
			return false
		}
		return true
	}
	parts := strings.Split(t, "/")
	if len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if !validIdent(p) {
			return false
		}
	}
	return true
}

func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// FirstFieldMsg finds the first field of the top-level type of a ros2msg
// definition (MCAP Schema data / sqlite message_definitions text), and
// checks the std_msgs/Header and builtin_interfaces/Time definitions that
// follow it, when the text carries them. Errors wrap ErrDefinition.
func FirstFieldMsg(def string) (FirstField, error) {
	blocks := splitDefinition(def)
	fs, err := msgFields(blocks[0].text, 1)
	if err != nil {
		return FirstField{}, err
	}
	if len(fs) == 0 {
		return FirstField{}, nil
	}
	f := FirstField{Type: fs[0].typ, Name: fs[0].name, Array: fs[0].array}
	if f.IsHeader() && !f.Array {
		f.HeaderProblem = checkMsgHeader(blocks, f.Type == "Header")
	}
	return f, nil
}

// checkMsgHeader validates the Header definition carried in the text:
// ROS 2's is `builtin_interfaces/Time stamp`, `string frame_id` (ROS 1's
// starts with `uint32 seq`). A bare "Header" field is accepted only when
// the text carries a ROS 2 std_msgs/Header, since rosidl would resolve it
// to the message's own package.
func checkMsgHeader(blocks []defBlock, bare bool) string {
	var hdr, tm *defBlock
	for i := range blocks[1:] {
		b := &blocks[i+1]
		switch b.name {
		case "std_msgs/Header", "std_msgs/msg/Header":
			hdr = b
		case "builtin_interfaces/Time", "builtin_interfaces/msg/Time":
			tm = b
		}
	}
	if hdr == nil && bare {
		return "the bare type Header is not qualified and the definition carries no std_msgs/Header"
	}
	if hdr != nil {
		fs, err := msgFields(hdr.text, 2)
		if err != nil {
			return "its std_msgs/Header definition does not parse (" + err.Error() + ")"
		}
		if len(fs) < 2 || fs[0].name != "stamp" || fs[0].array || !isTimeType(fs[0].typ) ||
			fs[1].name != "frame_id" || fs[1].typ != "string" || fs[1].array {
			return "its std_msgs/Header is not ROS 2's `builtin_interfaces/Time stamp`, `string frame_id`" + ros1Hint(fs)
		}
	}
	if tm != nil {
		ts, err := msgFields(tm.text, 2)
		if err != nil || len(ts) < 2 || ts[0].typ != "int32" || ts[0].name != "sec" || ts[1].typ != "uint32" || ts[1].name != "nanosec" {
			return "its builtin_interfaces/Time is not `int32 sec`, `uint32 nanosec`"
		}
	}
	return ""
}

func isTimeType(t string) bool {
	return t == "builtin_interfaces/Time" || t == "builtin_interfaces/msg/Time"
}

func ros1Hint(fs []msgField) string {
	if len(fs) > 0 && fs[0].name == "seq" {
		return " (ROS 1 layout: uint32 seq first)"
	}
	return ""
}
