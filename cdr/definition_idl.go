package cdr

import (
	"fmt"
	"strings"
)

// FirstFieldIDL finds the first member of struct typ in a ros2idl
// definition: the file whose "IDL: name" line equals typ (in either type
// spelling), or the whole text when it has no delimiters. Comments,
// typedefs, modules and annotations are skipped. Errors wrap
// ErrDefinition.
func FirstFieldIDL(def, typ string) (FirstField, error) {
	blocks := splitDefinition(def)
	text := ""
	found := false
	for _, b := range blocks {
		if b.kind == "IDL" && tableKey(b.name) == tableKey(typ) {
			text, found = b.text, true
			break
		}
	}
	if !found {
		if len(blocks) > 1 || strings.TrimSpace(blocks[0].text) == "" {
			return FirstField{}, fmt.Errorf("%w: no IDL block for %s", ErrDefinition, typ)
		}
		text = blocks[0].text
	}
	ms, err := idlMembers(text, shortName(typ), 1)
	if err != nil {
		return FirstField{}, err
	}
	if len(ms) == 0 {
		return FirstField{}, nil
	}
	f := ms[0]
	if f.IsHeader() && !f.Array {
		f.HeaderProblem = checkIDLHeader(blocks)
	}
	return f, nil
}

// checkIDLHeader validates a std_msgs/msg/Header IDL block when the text
// carries one.
func checkIDLHeader(blocks []defBlock) string {
	for _, b := range blocks {
		if b.kind != "IDL" || tableKey(b.name) != "std_msgs/Header" {
			continue
		}
		ms, err := idlMembers(b.text, "Header", 2)
		if err != nil {
			return "its std_msgs/Header definition does not parse (" + err.Error() + ")"
		}
		if len(ms) < 2 || ms[0].Name != "stamp" || strings.TrimPrefix(ms[0].Type, "::") != "builtin_interfaces::msg::Time" ||
			ms[1].Name != "frame_id" || ms[1].Type != "string" {
			return "its std_msgs/Header is not ROS 2's `builtin_interfaces::msg::Time stamp`, `string frame_id`"
		}
	}
	return ""
}

// idlTokens splits IDL text into tokens: identifiers (scoped names kept
// whole), string literals, numbers and single punctuation characters.
// Comments are dropped; string literals may contain "//" or "/*".
func idlTokens(text string) ([]string, error) {
	var toks []string
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(text[i:], "//") || c == '#': // a comment, a preprocessor line (#include)
			_, rest, ok := strings.Cut(text[i:], "\n")
			if !ok {
				return toks, nil
			}
			i = len(text) - len(rest)
		case strings.HasPrefix(text[i:], "/*"):
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				return nil, fmt.Errorf("%w: unterminated /* comment", ErrDefinition)
			}
			i += j + 4
		case c == '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return nil, fmt.Errorf("%w: unterminated string literal", ErrDefinition)
			}
			toks = append(toks, text[i:j+1])
			i = j + 1
		case c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-':
			j := i
			for j < len(text) {
				d := text[j]
				if d == '_' || d == ':' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9' || d == '.' || d == '-' {
					j++
					continue
				}
				break
			}
			toks = append(toks, text[i:j])
			i = j
		default:
			toks = append(toks, text[i:i+1])
			i++
		}
	}
	return toks, nil
}

// idlMembers returns up to max members of `struct name { ... }`.
func idlMembers(text, name string, max int) ([]FirstField, error) {
	toks, err := idlTokens(text)
	if err != nil {
		return nil, err
	}
	start, ok := structBody(toks, name)
	if !ok {
		return nil, fmt.Errorf("%w: no `struct %s {`", ErrDefinition, name)
	}
	var out []FirstField
	for i := start; i < len(toks) && len(out) < max; {
		switch {
		case toks[i] == "}":
			return out, nil
		case toks[i] == "@":
			// annotation: @name, optionally (arguments)
			i += 2
			if i < len(toks) && toks[i] == "(" {
				depth := 0
				for ; i < len(toks); i++ {
					if toks[i] == "(" {
						depth++
					} else if toks[i] == ")" {
						depth--
						if depth == 0 {
							i++
							break
						}
					}
				}
			}
			continue
		}
		// a member: tokens up to ';'
		j := i
		for j < len(toks) && toks[j] != ";" && toks[j] != "}" {
			j++
		}
		if j >= len(toks) || toks[j] != ";" {
			return out, fmt.Errorf("%w: member of struct %s not terminated by ';'", ErrDefinition, name)
		}
		decl := toks[i:j]
		i = j + 1
		f, ok := idlMember(decl)
		if !ok {
			return out, fmt.Errorf("%w: member %q of struct %s", ErrDefinition, clip(strings.Join(decl, " ")), name)
		}
		out = append(out, f)
	}
	if len(out) < max {
		return out, fmt.Errorf("%w: struct %s not closed", ErrDefinition, name)
	}
	return out, nil
}

// structBody returns the index of the token after `struct name {`.
func structBody(toks []string, name string) (int, bool) {
	for i := 0; i+2 < len(toks); i++ {
		if toks[i] == "struct" && toks[i+1] == name && toks[i+2] == "{" {
			return i + 3, true
		}
	}
	return 0, false
}

// idlMember parses `type name;`, `type name[N];`, `sequence<T> name;`.
func idlMember(decl []string) (FirstField, bool) {
	if len(decl) < 2 {
		return FirstField{}, false
	}
	arr := false
	if decl[len(decl)-1] == "]" {
		k := 0 // the last '[' after the first token
		for i := 1; i < len(decl); i++ {
			if decl[i] == "[" {
				k = i
			}
		}
		if k == 0 {
			return FirstField{}, false
		}
		decl, arr = decl[:k], true
	}
	name := decl[len(decl)-1]
	typ := decl[:len(decl)-1]
	if !validIdent(name) || len(typ) == 0 {
		return FirstField{}, false
	}
	if typ[0] == "sequence" {
		arr = true
	}
	return FirstField{Type: strings.Join(typ, " "), Name: name, Array: arr}, true
}
