package bagread

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDB3Walk walks the messages b-tree of arbitrary files: it must never
// panic, loop or allocate past the file's size, and whenever both the walk
// and SQLite's own full scan of the table read to the end, they must give
// the same rows.
func FuzzDB3Walk(f *testing.F) {
	for i, s := range []genDB3Spec{
		{pageSize: 512, topics: 2, rows: 40, maxSize: 1500},
		{pageSize: 512, reserved: 8, topics: 3, rows: 120, maxSize: 600, deletes: true},
		{pageSize: 1024, topics: 2, rows: 30, maxSize: 5000, odd: true},
	} {
		s.seed = uint64(i + 20)
		p := filepath.Join(f.TempDir(), "seed.db3")
		writeGenDB3(f, p, s)
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, messagesRoot(f, p))
	}
	f.Fuzz(func(t *testing.T, data []byte, root uint32) {
		if len(data) < 100 || len(data) > 1<<20 {
			return
		}
		g, err := parseDB3Header(data[:100], int64(len(data)))
		if err != nil {
			return
		}
		rows, walkErr := walkAll(t, data, g, root)
		if walkErr != nil {
			if !errors.Is(walkErr, errWalk) {
				t.Fatalf("walk error not marked errWalk: %v", walkErr)
			}
			return
		}
		// Both read to the end: the same rows.
		p := filepath.Join(t.TempDir(), "f.db3")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		want, ok := sqliteAll(p, root)
		if !ok {
			return
		}
		if len(want) != len(rows) {
			t.Fatalf("walk %d rows, SQLite %d", len(rows), len(want))
		}
		for i := range rows {
			if rows[i].id != want[i].id || rows[i].topic != want[i].topic || rows[i].ts != want[i].ts || !bytes.Equal(rows[i].data, want[i].data) {
				t.Fatalf("row %d: walk %d/%d/%d/%d bytes, SQLite %d/%d/%d/%d bytes", i,
					rows[i].id, rows[i].topic, rows[i].ts, len(rows[i].data), want[i].id, want[i].topic, want[i].ts, len(want[i].data))
			}
		}
	})
}

type fuzzRow struct {
	id, topic, ts int64
	data          []byte
}

// walkAll walks the table at root to its end, reading each row's data whole
// and as a 7-byte prefix.
func walkAll(t *testing.T, data []byte, g db3Geom, root uint32) ([]fuzzRow, error) {
	pr := newPageReader(newMemReaderAt(data), g)
	w, err := newTableWalk(pr, root)
	if err != nil {
		return nil, err
	}
	var out []fuzzRow
	// A walk that does not loop visits each cell at most once per visit of
	// its page, and pages at most once each.
	bound := int(g.pages) * (g.usable/2 + 1)
	for n := 0; ; n++ {
		if n > bound {
			t.Fatalf("more than %d cells: the walk loops", bound)
		}
		c, ok, err := w.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		if c.size > int64(len(data)) {
			t.Fatalf("payload of %d bytes in a file of %d", c.size, len(data))
		}
		r, err := w.record(&c)
		if err != nil {
			return nil, err
		}
		if r.types[1] != sqliteInteger || r.types[2] != sqliteInteger || r.types[3] != sqliteBlob {
			return nil, walkErr("types")
		}
		if _, err := w.payload(&c, r.dataOff, r.dataOff+min(7, r.dataLen)); err != nil {
			return nil, err
		}
		d, err := w.payload(&c, r.dataOff, r.dataOff+r.dataLen)
		if err != nil {
			return nil, err
		}
		out = append(out, fuzzRow{c.rowid, r.topicID, r.ts, append([]byte(nil), d...)})
	}
}

// sqliteAll reads the messages table of the file at p through SQLite, when
// its root page is root and SQLite reads it to the end with the types the
// walker reads.
func sqliteAll(p string, root uint32) ([]fuzzRow, bool) {
	db, err := sql.Open("sqlite3", "file:"+p+"?mode=ro&immutable=1")
	if err != nil {
		return nil, false
	}
	defer db.Close()
	var r uint32
	if err := db.QueryRow("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'messages'").Scan(&r); err != nil || r != root {
		return nil, false
	}
	rows, err := db.Query("SELECT id, topic_id, timestamp, data FROM messages ORDER BY id")
	if err != nil {
		return nil, false
	}
	defer rows.Close()
	var out []fuzzRow
	for rows.Next() {
		var x fuzzRow
		if err := rows.Scan(&x.id, &x.topic, &x.ts, &x.data); err != nil {
			return nil, false
		}
		if x.data == nil {
			x.data = []byte{}
		}
		out = append(out, x)
	}
	return out, rows.Err() == nil
}
