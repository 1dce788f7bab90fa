package bagread

import "testing"

// The walker's dense topic table answers as its maps do, for ids inside,
// beyond and below it, and is left out when an id does not fit.
func TestDB3WalkerFlagsMatchMaps(t *testing.T) {
	for _, tc := range []struct {
		name      string
		sel       map[int64]bool
		prefix    map[int64]bool
		length    map[int64]bool
		wantDense bool
	}{
		{"small ids", map[int64]bool{1: true, 3: true}, map[int64]bool{3: true}, map[int64]bool{3: true, 5: true}, true},
		{"no filter", nil, map[int64]bool{2: true}, map[int64]bool{2: true}, true},
		{"nothing", nil, nil, nil, true},
		{"false entries", map[int64]bool{1: false, 2: true}, nil, nil, true},
		{"large id", map[int64]bool{1: true, db3DenseTopics: true}, nil, nil, false},
		{"negative id", map[int64]bool{-4: true, 2: true}, map[int64]bool{-4: true}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &db3Walker{sel: tc.sel, prefix: tc.prefix, lengthOnly: tc.length}
			w.makeDense()
			if (w.dense != nil) != tc.wantDense {
				t.Fatalf("dense table built: %v, want %v", w.dense != nil, tc.wantDense)
			}
			for _, id := range []int64{-4, -1, 0, 1, 2, 3, 4, 5, 6, 100, db3DenseTopics - 1, db3DenseTopics, 1 << 40} {
				if got, want := w.flags(id), w.mapFlags(id); got != want {
					t.Errorf("flags(%d) = %03b, maps say %03b", id, got, want)
				}
			}
		})
	}
}

// sqliteStream.topic answers as the handle's topic map does.
func TestSQLiteStreamTopicMatchesMap(t *testing.T) {
	for _, tc := range []struct {
		name   string
		topics map[int64]sqliteTopic
	}{
		{"rosbag2 ids", map[int64]sqliteTopic{1: {"/scan", "sensor_msgs/msg/LaserScan"}, 2: {"/tf", "tf2_msgs/msg/TFMessage"}, 4: {"/clock", "rosgraph_msgs/msg/Clock"}}},
		{"none", map[int64]sqliteTopic{}},
		{"large id", map[int64]sqliteTopic{1: {"/a", "x/msg/A"}, 1 << 33: {"/b", "x/msg/B"}}},
		{"negative id", map[int64]sqliteTopic{-3: {"/a", "x/msg/A"}, 0: {"/b", "x/msg/B"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &sqliteStream{h: &sqliteHandle{topics: tc.topics}}
			for _, id := range []int64{-3, -1, 0, 1, 2, 3, 4, 5, db3DenseTopics, 1 << 33} {
				got, gotOK := s.topic(id)
				want, wantOK := tc.topics[id]
				if got != want || gotOK != wantOK {
					t.Errorf("topic(%d) = %v %v, map says %v %v", id, got, gotOK, want, wantOK)
				}
			}
		})
	}
}
