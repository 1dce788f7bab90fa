package bagread

import (
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// TestDB3AllTopicsSelected: a read that selects every topic runs without
// topic_id IN (...) and leaves out what the IN left out: a row whose
// topic_id names no topic, and rows whose topic_id is text, real or NULL
// (with INTEGER affinity no such value equals an id). Without a selection
// those rows are reported, as before. Split (two-row ranges, the C batch
// reader) and unsplit reads agree.
func TestDB3AllTopicsSelected(t *testing.T) {
	defer func(n int64) { sqliteRangeRows = n }(sqliteRangeRows)
	p := tempPath(t, "x_0.db3")
	want := writeDB3(t, p, 4, 40, true) // and an orphan, topic_id 9
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"'2'", "'two'", "2.5", "x'02'"} {
		if _, err := db.Exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (" + v + ", 7, x'00010000')"); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	for _, rows := range []int64{1 << 62, 2} {
		sqliteRangeRows = rows
		b, err := Open(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("ranges of %d rows", rows)
		got, _, errs := collect(t, b, ReadOptions{Topics: []string{"/scan", "/tf"}})
		// '2' is stored as the integer 2 (affinity), a /tf message.
		wantSel := append(append([]genMessage(nil), want...), genMessage{"/tf", 7, []byte{0, 1, 0, 0}})
		if !reflect.DeepEqual(got, wantSel) || len(errs) != 0 {
			t.Errorf("%s, every topic: %d messages (want %d), errors %v", name, len(got), len(wantSel), errs)
		}
		got, _, errs = collect(t, b, ReadOptions{})
		orphans := 0
		for _, e := range errs {
			if errors.Is(e, ErrOrphanMessage) {
				orphans++
			}
		}
		if len(got) != len(wantSel) || orphans != 1 || len(errs) != 4 {
			t.Errorf("%s, no selection: %d messages, errors %v; want %d messages, the orphan and 3 unreadable rows", name, len(got), errs, len(wantSel))
		}
		b.Close()
	}
}
