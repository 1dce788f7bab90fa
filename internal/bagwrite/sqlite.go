package bagwrite

import (
	"database/sql"
	"errors"
	"fmt"
	"os"

	// Registers the "sqlite3" database/sql driver.
	_ "github.com/mattn/go-sqlite3"
)

// Schema statements of rosbag2's sqlite plugin (bag-formats.md §4.1).
const (
	ddlSchema   = "CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL);"
	ddlMetadata = "CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL);"
	ddlTopics3  = "CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL);"
	ddlTopics4  = "CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL,type_description_hash TEXT NOT NULL);"
	ddlMsgDefs  = "CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT NULL,encoded_message_definition TEXT NOT NULL,type_description_hash TEXT NOT NULL);"
	ddlMessages = "CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL,data BLOB NOT NULL);"
	ddlTimeIdx  = "CREATE INDEX timestamp_idx ON messages (timestamp ASC);"
)

// batchSize is how many messages go into one transaction, like the
// recorder's cache flushes.
const batchSize = 1000

type pendingMsg struct {
	topicID int64
	logNS   int64
	data    []byte
}

// sqliteFile writes one .db3 file.
type sqliteFile struct {
	path    string
	db      *sql.DB
	opts    *Options
	tx      *sql.Tx
	insert  *sql.Stmt
	inTx    int
	ids     map[*topic]int64
	defined map[string]bool
	// tail holds the last WALTail messages, written only at the end so
	// they land in the -wal file alone.
	tail []pendingMsg
}

func newSQLiteFile(path string, opts *Options, initial *bagMetadata) (*sqliteFile, error) {
	if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("%s already exists", path)
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=rwc")
	if err != nil {
		return nil, err
	}
	// One connection: pragmas are per connection, and WAL handling below
	// needs to know exactly which connection holds the file.
	db.SetMaxOpenConns(1)
	s := &sqliteFile{path: path, db: db, opts: opts, ids: map[*topic]int64{}, defined: map[string]bool{}}
	pragmas := []string{"PRAGMA journal_mode=MEMORY;", "PRAGMA synchronous=OFF;"}
	if opts.WALTail > 0 {
		// The "resilient" preset, with checkpoints left to us.
		pragmas = []string{"PRAGMA journal_mode=WAL;", "PRAGMA synchronous=NORMAL;", "PRAGMA wal_autocheckpoint=0;"}
	}
	stmts := append(pragmas, ddlSchema, ddlMetadata)
	if opts.SQLiteSchema >= 4 {
		stmts = append(stmts, ddlTopics4, ddlMsgDefs)
	} else {
		stmts = append(stmts, ddlTopics3)
	}
	stmts = append(stmts, ddlMessages, ddlTimeIdx)
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, fmt.Errorf("%s: %w", q, err)
		}
	}
	if _, err := db.Exec("INSERT INTO schema (schema_version, ros_distro) VALUES (?, ?)", opts.SQLiteSchema, opts.ROSDistro); err != nil {
		db.Close()
		return nil, fmt.Errorf("schema row: %w", err)
	}
	if err := s.insertMetadata(initial); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// insertMetadata adds a metadata row. Humble's plugin (schema 3) creates
// the table but never writes to it; Iron and later write one row when the
// file opens and one when it closes (bag-formats.md §4.2).
func (s *sqliteFile) insertMetadata(meta *bagMetadata) error {
	if s.opts.SQLiteSchema < 4 {
		return nil
	}
	text, err := meta.yamlText(false)
	if err != nil {
		return err
	}
	if err := s.endTx(); err != nil {
		return err
	}
	if _, err := s.db.Exec("INSERT INTO metadata (metadata_version, metadata) VALUES (?, ?)", meta.version, string(text)); err != nil {
		return fmt.Errorf("metadata row: %w", err)
	}
	return nil
}

func (s *sqliteFile) addTopic(t *topic) error {
	if err := s.endTx(); err != nil {
		return err
	}
	qos := qosString(t.QoS, s.opts.MetadataVersion)
	var res sql.Result
	var err error
	if s.opts.SQLiteSchema >= 4 {
		res, err = s.db.Exec("INSERT INTO topics (name, type, serialization_format, offered_qos_profiles, type_description_hash) VALUES (?, ?, ?, ?, ?)",
			t.Name, t.Type, "cdr", qos, t.TypeDescriptionHash)
	} else {
		res, err = s.db.Exec("INSERT INTO topics (name, type, serialization_format, offered_qos_profiles) VALUES (?, ?, ?, ?)",
			t.Name, t.Type, "cdr", qos)
	}
	if err != nil {
		return fmt.Errorf("topics row: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	s.ids[t] = id
	if s.opts.SQLiteSchema >= 4 && !s.defined[t.Type] {
		enc, def := "", ""
		if d, ok := t.definition(); ok {
			enc, def = "ros2msg", d
		}
		if _, err := s.db.Exec("INSERT INTO message_definitions (topic_type, encoding, encoded_message_definition, type_description_hash) VALUES (?, ?, ?, ?)",
			t.Type, enc, def, t.TypeDescriptionHash); err != nil {
			return fmt.Errorf("message_definitions row: %w", err)
		}
		s.defined[t.Type] = true
	}
	return nil
}

func (s *sqliteFile) write(t *topic, logNS, _ int64, data []byte) error {
	if s.opts.WALTail > 0 {
		s.tail = append(s.tail, pendingMsg{topicID: s.ids[t], logNS: logNS, data: append([]byte(nil), data...)})
		if len(s.tail) <= s.opts.WALTail {
			return nil
		}
		m := s.tail[0]
		s.tail = s.tail[1:]
		return s.insertMsg(m.topicID, m.logNS, m.data)
	}
	return s.insertMsg(s.ids[t], logNS, data)
}

func (s *sqliteFile) insertMsg(topicID, logNS int64, data []byte) error {
	if s.tx == nil {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		st, err := tx.Prepare("INSERT INTO messages (topic_id, timestamp, data) VALUES (?, ?, ?)")
		if err != nil {
			tx.Rollback()
			return err
		}
		s.tx, s.insert = tx, st
	}
	if _, err := s.insert.Exec(topicID, logNS, data); err != nil {
		return err
	}
	s.inTx++
	if s.inTx >= batchSize {
		return s.endTx()
	}
	return nil
}

func (s *sqliteFile) endTx() error {
	if s.tx == nil {
		return nil
	}
	s.insert.Close()
	err := s.tx.Commit()
	s.tx, s.insert, s.inTx = nil, nil, 0
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func (s *sqliteFile) finish(meta *bagMetadata) error {
	return s.close(meta)
}

func (s *sqliteFile) abandon() error {
	return s.close(nil)
}

// close writes what is pending and closes the database. meta == nil means
// a crash: no closing metadata row. With WALTail, the held-back messages
// are committed to the WAL only, and the files are left as a crash in WAL
// mode leaves them: a main file without those messages, and -wal/-shm
// files that hold them.
func (s *sqliteFile) close(meta *bagMetadata) (err error) {
	closed := false
	defer func() {
		if closed {
			return
		}
		if cerr := s.db.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	if err := s.endTx(); err != nil {
		return err
	}
	if s.opts.WALTail == 0 {
		if meta != nil {
			return s.insertMetadata(meta)
		}
		return nil
	}
	if _, err := s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE);"); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	mainSnapshot, err := os.ReadFile(s.path)
	if err != nil {
		return err
	}
	for _, m := range s.tail {
		if err := s.insertMsg(m.topicID, m.logNS, m.data); err != nil {
			return err
		}
	}
	if err := s.endTx(); err != nil {
		return err
	}
	if meta != nil {
		if err := s.insertMetadata(meta); err != nil {
			return err
		}
	}
	wal, err := os.ReadFile(s.path + "-wal")
	if err != nil {
		return fmt.Errorf("reading WAL: %w", err)
	}
	shm, err := os.ReadFile(s.path + "-shm")
	if err != nil {
		return fmt.Errorf("reading shm: %w", err)
	}
	// Closing the last connection checkpoints the WAL into the main file
	// and deletes it; put back the state a crash would have left.
	closed = true
	if err := s.db.Close(); err != nil {
		return err
	}
	for _, f := range []struct {
		path string
		data []byte
	}{{s.path, mainSnapshot}, {s.path + "-wal", wal}, {s.path + "-shm", shm}} {
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
			return fmt.Errorf("restoring crash state: %w", err)
		}
	}
	if len(wal) == 0 {
		return errors.New("WAL was empty: nothing left for the -wal file")
	}
	return nil
}
