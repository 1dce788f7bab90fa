package analysis

import "testing"

// TestJoinNames: up to four names in full; past four, the rest counted as
// topics and tf links apart (an ahead headline lists both).
func TestJoinNames(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"/a"}, "/a"},
		{[]string{"/a", "/b"}, "/a and /b"},
		{[]string{"/a", "/b", "/c", "/d"}, "/a, /b, /c and /d"},
		{[]string{"/a", "/b", "/c", "/d", "/e"}, "/a, /b, /c and 2 other topics"},
		{[]string{"/a", "/b", "/c", "/d", "odom->base_link on /tf"}, "/a, /b, /c and 1 other topic and 1 tf link"},
		{[]string{"/a", "/b", "/c", "map->odom on /tf", "odom->base_link on /tf"}, "/a, /b, /c and 2 tf links"},
	} {
		if got := JoinNames(tc.names); got != tc.want {
			t.Errorf("JoinNames(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}
