package cdr

import (
	"reflect"
	"strings"
	"testing"
)

// TestSplitDefinition: a delimiter is a line of at least three '='
// followed by "MSG: ", "IDL: " or "SRV: " and a name.
func TestSplitDefinition(t *testing.T) {
	tests := []struct {
		name string
		def  string
		want []defBlock
	}{
		{"three '='", "a\n===\nMSG: p/T\nb", []defBlock{{text: "a"}, {kind: "MSG", name: "p/T", text: "b"}}},
		{"two '=' is text", "a\n==\nMSG: p/T\nb", []defBlock{{text: "a\n==\nMSG: p/T\nb"}}},
		{"'=' on the last line", "a\n====", []defBlock{{text: "a\n===="}}},
		{"service", "===\nSRV: p/S\nx", []defBlock{{}, {kind: "SRV", name: "p/S", text: "x"}}},
		{"IDL", "===\r\nIDL: p/msg/T\r\nx", []defBlock{{}, {kind: "IDL", name: "p/msg/T", text: "x"}}},
		{"unknown kind is text", "===\nFOO: p/S\nx", []defBlock{{text: "===\nFOO: p/S\nx"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := splitDefinition(tt.def); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestFirstFieldMsg: the first field of a .msg text, exactly, or the parse
// error with its line number; lines after the first field are not parsed.
func TestFirstFieldMsg(t *testing.T) {
	const (
		delim   = "\n" + "================================================================================" + "\n"
		notROS2 = "its std_msgs/Header is not ROS 2's `builtin_interfaces/Time stamp`, `string frame_id`"
	)
	long60 := "int8 1" + strings.Repeat("x", 54)
	tests := []struct {
		name string
		def  string
		want FirstField
		err  string
	}{
		{"bounded string", "string<=10 name", FirstField{Type: "string<=10", Name: "name"}, ""},
		{"bounded wstring", "wstring<=5 w", FirstField{Type: "wstring<=5", Name: "w"}, ""},
		{"bounded int", "int32<=5 x", FirstField{}, `definition does not parse: line 1 "int32<=5 x" is not a field`},
		{"bound not a number", "string<=1a x", FirstField{}, `definition does not parse: line 1 "string<=1a x" is not a field`},
		{"identifier letters and digits", "az_AZ09/Type az_AZ09", FirstField{Type: "az_AZ09/Type", Name: "az_AZ09"}, ""},
		{"bounded array", "int8[<=3] a", FirstField{Type: "int8", Name: "a", Array: true}, ""},
		{"fixed array", "int8[12] a", FirstField{Type: "int8", Name: "a", Array: true}, ""},
		{"two bounds", "int8[1][2] a", FirstField{}, `definition does not parse: line 1 "int8[1][2] a" is not a field`},
		{"only the first field is parsed", "\n# c\nint8 a\nint8", FirstField{Type: "int8", Name: "a"}, ""},
		{"no name", "\n\nint8", FirstField{}, `definition does not parse: line 3 "int8" has a type but no name`},
		{"bad name", "\nint8 1x", FirstField{}, `definition does not parse: line 2 "int8 1x" is not a field`},
		{"60 characters quoted whole", long60, FirstField{}, `definition does not parse: line 1 "` + long60 + `" is not a field`},
		{"61 characters clipped", long60 + "x", FirstField{}, `definition does not parse: line 1 "` + long60[:57] + `..." is not a field`},
		{"header with msg/Time", "std_msgs/Header header" + delim + "MSG: std_msgs/Header\nbuiltin_interfaces/msg/Time stamp\nstring frame_id",
			FirstField{Type: "std_msgs/Header", Name: "header"}, ""},
		{"header with no fields", "std_msgs/Header header" + delim + "MSG: std_msgs/Header\n# nothing",
			FirstField{Type: "std_msgs/Header", Name: "header", HeaderProblem: notROS2}, ""},
		{"header with seq first", "std_msgs/Header header" + delim + "MSG: std_msgs/Header\nuint32 seq\nstring frame_id",
			FirstField{Type: "std_msgs/Header", Name: "header", HeaderProblem: notROS2 + " (ROS 1 layout: uint32 seq first)"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FirstFieldMsg(tt.def)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("err = %v\nwant  %s", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %+v, %v\nwant %+v", got, err, tt.want)
			}
		})
	}
}

// TestIDLTokens: identifiers (scoped names, numbers) stay whole, comments
// and preprocessor lines go, string literals keep their escapes, anything
// else is one token a character.
func TestIDLTokens(t *testing.T) {
	tests := []struct {
		text string
		want []string
		err  string
	}{
		{"a // c\nb", []string{"a", "b"}, ""},
		{"a // c", []string{"a"}, ""},
		{"#include <x.idl>\nb", []string{"b"}, ""},
		{"a\n#pragma x", []string{"a"}, ""},
		{"a /**/ b", []string{"a", "b"}, ""},
		{"a/* c */b", []string{"a", "b"}, ""},
		{"a /* c", nil, "definition does not parse: unterminated /* comment"},
		{`a "x\"y" b`, []string{"a", `"x\"y"`, "b"}, ""},
		{`a "x`, nil, "definition does not parse: unterminated string literal"},
		{"az za AZ ZA 09 90 _:.-", []string{"az", "za", "AZ", "ZA", "09", "90", "_:.-"}, ""},
		{"a`b{c@d[e/f;", []string{"a", "`", "b", "{", "c", "@", "d", "[", "e", "/", "f", ";"}, ""},
		{"a\tb\r\nc", []string{"a", "b", "c"}, ""},
	}
	for _, tt := range tests {
		got, err := idlTokens(tt.text)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: err = %v, want %s", tt.text, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %q, %v; want %q", tt.text, got, err, tt.want)
		}
	}
}

// TestFirstFieldIDL: the first member of the struct, exactly, or the
// parse error; members after the first are not parsed.
func TestFirstFieldIDL(t *testing.T) {
	tests := []struct {
		name string
		def  string
		want FirstField
		err  string
	}{
		{"only the first member is parsed", "struct X { int32 a; bogus; };", FirstField{Type: "int32", Name: "a"}, ""},
		{"comment in the struct", "struct X {\n  // note\n  int32 a;\n};", FirstField{Type: "int32", Name: "a"}, ""},
		{"array", "struct X { double d[3]; };", FirstField{Type: "double", Name: "d", Array: true}, ""},
		{"sequence", "struct X { sequence<int32, 4> s; };", FirstField{Type: "sequence < int32 , 4 >", Name: "s", Array: true}, ""},
		{"annotated", "struct X { @key @range (min=1, max=(2)) uint8 k; };", FirstField{Type: "uint8", Name: "k"}, ""},
		{"no struct", "module m { };", FirstField{}, "definition does not parse: no `struct X {`"},
		{"struct at the end", "struct X", FirstField{}, "definition does not parse: no `struct X {`"},
		{"annotation at the end", "struct X { @key", FirstField{}, "definition does not parse: struct X not closed"},
		{"bracket first", "struct X { [3]; };", FirstField{}, `definition does not parse: member "[ 3 ]" of struct X`},
		{"array without type", "struct X { a[3]; };", FirstField{}, `definition does not parse: member "a [ 3 ]" of struct X`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FirstFieldIDL(tt.def, "p/msg/X")
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("err = %v\nwant  %s", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %+v, %v\nwant %+v", got, err, tt.want)
			}
		})
	}
}
