package bagcopy

import (
	"database/sql"
	"fmt"
	"os"

	"github.com/bagclock/bagclock/bagread"
	// Registers the "sqlite3" database/sql driver.
	_ "github.com/mattn/go-sqlite3"
)

// The tables of rosbag2's sqlite3 plugin at schema version 4 (Iron and
// later: rosbag2_storage_default_plugins/src/.../sqlite_storage.cpp).
var sqliteSchema = []string{
	"CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL);",
	"CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL);",
	"CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL,type_description_hash TEXT NOT NULL);",
	"CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT NULL,encoded_message_definition TEXT NOT NULL,type_description_hash TEXT NOT NULL);",
	"CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL,data BLOB NOT NULL);",
	"CREATE INDEX timestamp_idx ON messages (timestamp ASC);",
}

const sqliteSchemaVersion = 4

// sqliteBatch messages go into one transaction.
const sqliteBatch = 2000

// sqliteFile writes one .db3 file.
type sqliteFile struct {
	db     *sql.DB
	tx     *sql.Tx
	insert *sql.Stmt
	inTx   int
	ids    map[string]int64
}

func newSQLiteFile(path string, in *bagread.Bag, _ int) (_ *sqliteFile, err error) {
	if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("%s already exists", path)
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=rwc")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			db.Close()
		}
	}()
	db.SetMaxOpenConns(1)
	// rosbag2's default storage preset: journal in memory, no fsync.
	for _, q := range append([]string{"PRAGMA journal_mode=MEMORY;", "PRAGMA synchronous=OFF;"}, sqliteSchema...) {
		if _, err := db.Exec(q); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	distro := ""
	if in.Metadata != nil {
		distro = in.Metadata.ROSDistro
	}
	for _, f := range in.Files {
		if distro == "" {
			distro = f.ROSDistro
		}
	}
	if _, err := db.Exec("INSERT INTO schema (schema_version, ros_distro) VALUES (?, ?)", sqliteSchemaVersion, distro); err != nil {
		return nil, err
	}
	s := &sqliteFile{db: db, ids: map[string]int64{}}
	defined := map[string]bool{}
	for _, t := range in.Topics {
		format := t.SerializationFormat
		if format == "" {
			format = "cdr"
		}
		res, err := db.Exec("INSERT INTO topics (name, type, serialization_format, offered_qos_profiles, type_description_hash) VALUES (?, ?, ?, ?, ?)",
			t.Name, t.Type, format, t.OfferedQoS, t.TypeDescriptionHash)
		if err != nil {
			return nil, fmt.Errorf("topics row for %s: %w", t.Name, err)
		}
		if s.ids[t.Name], err = res.LastInsertId(); err != nil {
			return nil, err
		}
		if !defined[t.Type] {
			enc := t.DefinitionEncoding
			if t.Definition == "" {
				enc = ""
			}
			if _, err := db.Exec("INSERT INTO message_definitions (topic_type, encoding, encoded_message_definition, type_description_hash) VALUES (?, ?, ?, ?)",
				t.Type, enc, t.Definition, t.TypeDescriptionHash); err != nil {
				return nil, fmt.Errorf("message_definitions row for %s: %w", t.Type, err)
			}
			defined[t.Type] = true
		}
	}
	return s, nil
}

func (s *sqliteFile) write(m *bagread.Message, data []byte, logNS int64) error {
	id, ok := s.ids[m.Topic]
	if !ok {
		return fmt.Errorf("no topics row for %s", m.Topic)
	}
	if s.tx == nil {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		if s.insert, err = tx.Prepare("INSERT INTO messages (topic_id, timestamp, data) VALUES (?, ?, ?)"); err != nil {
			tx.Rollback()
			return err
		}
		s.tx = tx
	}
	if _, err := s.insert.Exec(id, logNS, data); err != nil {
		return err
	}
	s.inTx++
	if s.inTx >= sqliteBatch {
		return s.commit()
	}
	return nil
}

func (s *sqliteFile) commit() error {
	if s.tx == nil {
		return nil
	}
	s.insert.Close()
	err := s.tx.Commit()
	s.tx, s.insert, s.inTx = nil, nil, 0
	return err
}

// setMetadata stores the bag's metadata (bare BagMetadata YAML) as
// rosbag2 does when it closes a file.
func (s *sqliteFile) setMetadata(version int, text []byte) error {
	// One connection: the open batch must end first.
	if err := s.commit(); err != nil {
		return err
	}
	_, err := s.db.Exec("INSERT INTO metadata (metadata_version, metadata) VALUES (?, ?)", version, string(text))
	return err
}

func (s *sqliteFile) close() error {
	err := s.commit()
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *sqliteFile) abandon() {
	if s.tx != nil {
		s.tx.Rollback()
	}
	s.db.Close()
}
