package bagread

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"reflect"
	"testing"
)

// A split db3 read (C-level batch stepping into reused arenas) yields what
// the driver yields on one query, row by row: blobs larger than a batch's
// arena, blobs that fill and grow it, empty blobs, and rows with columns
// of the wrong type (the same message error, naming the driver's Go
// types); a table whose timestamp column is declared TIMESTAMP (which the
// driver turns into time.Time) is read through the driver. Prefix reads
// too: the worker reads prefixes through blob I/O on its own connection,
// and leaves a MESSAGE-mode zstd frame (read whole) to the reader's blob
// reader. Rows of the
// wrong type make Open's count fail and the file count as damaged (never
// split), so the streams are compared here with that flag cleared, as a
// file whose counts came from metadata.yaml would have it.
func TestSQLiteSplitMatchesDriver(t *testing.T) {
	defer func(n int64) { sqliteRangeRows = n }(sqliteRangeRows)
	type row struct {
		topic string
		ts    int64
		pos   int64
		size  int64
		sum   [32]byte
		err   string
	}
	read := func(t *testing.T, path string, driver bool, px *prefixSpec) []row {
		// Every connection, statement and blob handle of the read is
		// closed with it: a zombie connection keeps its file open.
		defer checkFDs(t, openFDs())
		h, _, err := openInspect(path, path, true, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		defer h.close()
		h.damaged, h.sequential, h.limit = false, driver, 1<<20
		s, err := h.openPrefix(0, nil, RecordOrder, px)
		if err != nil {
			t.Fatal(err)
		}
		defer s.close()
		var out []row
		for s.next() {
			m := s.message()
			r := row{topic: m.topic, ts: m.logTime, pos: m.pos, size: m.size, sum: sha256.Sum256(m.data)}
			if m.err != nil {
				r.err = m.err.Error()
			}
			out = append(out, r)
		}
		if len(s.problems()) > 0 {
			t.Fatalf("read: %v", s.problems())
		}
		return out
	}
	big := bytes.Repeat([]byte{7}, 200<<10) // over sqliteArenaMin
	frame := append(append([]byte(nil), zstdMagic...), bytes.Repeat([]byte{3}, 100)...)
	mid := bytes.Repeat([]byte{9}, 40<<10) // two fill an arena of sqliteArenaMin
	rows := []struct {
		topic, ts, data any
		wantErr         string // the message error, "" for none
	}{
		{1, int64(10), []byte{0, 1, 0, 0, 1}, ""},
		{1, int64(11), big, ""},
		{2, int64(12), []byte{}, ""},
		{1, int64(13), mid, ""},
		{1, int64(14), mid, ""},
		{1, int64(15), mid, ""},
		{2, "x16", []byte{0, 1, 0, 0}, "row has topic_id int64, timestamp string, data []uint8; want integer, integer, blob"},
		{2, int64(17), nil, "row has topic_id int64, timestamp int64, data <nil>; want integer, integer, blob"},
		{2.5, int64(18), []byte{0, 1, 0, 0}, "row has topic_id float64, timestamp int64, data []uint8; want integer, integer, blob"},
		{1, int64(19), int64(5 << 20), "row of 5242880 bytes: " + ErrTooLarge.Error() + " (decode budget 1048576 bytes)"},
		{1, int64(20), big, ""},
		{3, int64(21), []byte{0, 1, 0, 0, 2}, ErrOrphanMessage.Error() + ": topic_id 3"},
		{1, int64(22), frame, ""},
		{2, int64(23), big, ""},
	}
	for _, tsType := range []string{"INTEGER", "TIMESTAMP"} {
		t.Run(tsType, func(t *testing.T) {
			path := tempPath(t, "odd.db3")
			db, err := sql.Open("sqlite3", path)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{
				"CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT, type TEXT, serialization_format TEXT)",
				"INSERT INTO topics VALUES (1, '/a', 'std_msgs/msg/String', 'cdr'), (2, '/b', 'std_msgs/msg/String', 'cdr')",
				"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER, timestamp " + tsType + ", data BLOB)",
			} {
				if _, err := db.Exec(s); err != nil {
					t.Fatal(err)
				}
			}
			for _, r := range rows {
				if _, err := db.Exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (?, ?, ?)", r.topic, r.ts, r.data); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()

			want := read(t, path, true, nil)
			if len(want) != len(rows) {
				t.Fatalf("driver read %d rows, wrote %d", len(want), len(rows))
			}
			if tsType == "INTEGER" {
				for i, r := range rows {
					if want[i].err != r.wantErr {
						t.Errorf("row %d: error %q, want %q", i, want[i].err, r.wantErr)
					}
				}
			}
			for _, px := range []*prefixSpec{
				nil,
				{topics: map[string]bool{"/a": true}, n: 16, none: map[string]bool{"/b": true}},
				{topics: map[string]bool{"/a": true, "/b": true}, n: 3}, // under the 4 bytes of a zstd magic
			} {
				sqliteRangeRows = 1 << 62
				want := read(t, path, true, px)
				for _, span := range []int64{1, 3, 5} {
					sqliteRangeRows = span
					if got := read(t, path, false, px); !reflect.DeepEqual(got, want) {
						t.Errorf("prefix %v, ranges of %d rowids:\n got %v\nwant %v", px, span, fmt.Sprint(got), fmt.Sprint(want))
					}
				}
			}
		})
	}
}
