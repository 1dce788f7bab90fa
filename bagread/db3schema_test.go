package bagread

import (
	"database/sql"
	"path/filepath"
	"testing"
)

// TestDB3Tables: a db3 without rosbag2's tables or message columns is
// refused with what it lacks.
func TestDB3Tables(t *testing.T) {
	for _, c := range []struct {
		name string
		ddl  []string
		want string // after "PATH: read sqlite schema: "
	}{
		{"no topics table", []string{"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER, timestamp INTEGER, data BLOB)"},
			"no messages/topics tables (has [messages])"},
		{"no data column", []string{"CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT, type TEXT, serialization_format TEXT)",
			"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER, timestamp INTEGER)"},
			"messages table has no data column"},
		{"no timestamp column", []string{"CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT, type TEXT, serialization_format TEXT)",
			"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER, data BLOB)"},
			"messages table has no timestamp column"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "b.db3")
			db, err := sql.Open("sqlite3", p)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.ddl {
				if _, err := db.Exec(s); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()
			b, err := Open(p, Options{TempDir: t.TempDir()})
			if err == nil {
				b.Close()
			}
			if want := p + ": read sqlite schema: " + c.want; err == nil || err.Error() != want {
				t.Errorf("Open: %v, want %q", err, want)
			}
		})
	}
}
