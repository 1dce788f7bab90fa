package analysis

import "testing"

// TestJoinNames: up to four names in full; past four, the rest counted as
// topics and tf links apart (an ahead headline lists both), by the links
// given as data: a name with an arrow in it is not a link unless listed.
func TestJoinNames(t *testing.T) {
	const tfLink, mapOdom = "odom->base_link on /tf", "map->odom on /tf"
	for _, tc := range []struct {
		names, links []string
		want         string
	}{
		{[]string{"/a"}, nil, "/a"},
		{[]string{"/a", "/b"}, nil, "/a and /b"},
		{[]string{"/a", "/b", "/c", "/d"}, nil, "/a, /b, /c and /d"},
		{[]string{"/a", "/b", "/c", "/d", "/e"}, nil, "/a, /b, /c and 2 other topics"},
		{[]string{"/a", "/b", "/c", "/d", tfLink}, []string{tfLink}, "/a, /b, /c and 1 other topic and 1 tf link"},
		{[]string{"/a", "/b", "/c", mapOdom, tfLink}, []string{mapOdom, tfLink}, "/a, /b, /c and 2 tf links"},
		{[]string{tfLink, "/b", "/c", "/d", "/e"}, []string{tfLink}, tfLink + ", /b, /c and 2 other topics"},
		{[]string{"/a", "/b", "/c", "/d", "/x->y"}, nil, "/a, /b, /c and 2 other topics"},
	} {
		if got := JoinSeries(tc.names, tc.links); got != tc.want {
			t.Errorf("JoinSeries(%q, %q) = %q, want %q", tc.names, tc.links, got, tc.want)
		}
		if tc.links == nil {
			if got := JoinNames(tc.names); got != tc.want {
				t.Errorf("JoinNames(%q) = %q, want %q", tc.names, got, tc.want)
			}
		}
	}
}
