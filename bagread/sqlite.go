package bagread

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// sqliteTopic is one topics row.
type sqliteTopic struct{ name, typ string }

// sqliteHandle is an opened db3 file (or its private copy).
type sqliteHandle struct {
	path string // the user's file, for messages
	dsn  string // of the file actually opened (original or private copy)
	// file is that file's path and immutable how it was opened (a file
	// with a leftover -wal is not): the walker reads only such files.
	file      string
	immutable bool
	// walk is what the walker needs of the file, worked out once
	// (db3stream.go); walkChecked says it was.
	walk        *db3WalkInfo
	walkChecked bool
	// walkFallbacks counts walks handed over to SQLite part way (tests).
	walkFallbacks int
	db            *sql.DB
	topics        map[int64]sqliteTopic
	// trunc is set when dsn is a patched private copy of a file cut
	// short; damaged when counting had to stop at an SQLite error. Such
	// files are read in rowid order only (see open).
	trunc   *truncInfo
	damaged bool
	// deferCounts asks inspect to read only totals; pending is then set
	// until Bag.finish takes counts from metadata or calls countTopics.
	deferCounts, pending bool
	// sequential: Options.Sequential, read with no worker goroutine.
	// driverOnly: the messages columns are declared with types the driver
	// converts (errDriverTypes), so reads are never split either.
	sequential, driverOnly bool
	// limit is Options.MaxRecordBytes in effect (prefix reads check it).
	limit int64
	// topicIDInt: messages.topic_id has INTEGER affinity (rosbag2
	// declares it INTEGER), so a stored value equals a topic's id only
	// when it is that integer (see sqliteStream.unfiltered).
	topicIDInt bool
}

// openSQLite opens a db3 read-only. A leftover -wal holds committed
// messages, and SQLite rewrites -shm even on a read-only open, so such a
// file is copied with its -wal/-shm into the bag's private dir first;
// otherwise the file is opened immutable, which never writes.
func (b *Bag) openSQLite(path string, compressed bool) (*opened, error) {
	fail := func(op string, err error) (*opened, error) {
		return nil, &FileError{Path: path, Offset: -1, Op: op, Err: err}
	}
	openPath, immutable, private := path, true, false
	if compressed {
		dir, err := b.privateDir()
		if err != nil {
			return nil, err
		}
		openPath = filepath.Join(dir, fmt.Sprintf("%d_%s", len(b.Files), strings.TrimSuffix(filepath.Base(path), ".zstd")))
		if err := decompressFile(path, openPath, b.limit()); err != nil {
			return fail("decompress FILE-mode zstd", err)
		}
	} else if st, err := os.Stat(path + "-wal"); err == nil && st.Size() > 0 {
		dir, err := b.privateDir()
		if err != nil {
			return nil, err
		}
		openPath = filepath.Join(dir, fmt.Sprintf("%d_%s", len(b.Files), filepath.Base(path)))
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if err := copyFile(path+suffix, openPath+suffix); err != nil && !(suffix == "-shm" && errors.Is(err, os.ErrNotExist)) {
				return fail("copy WAL bag to a private dir", err)
			}
		}
		immutable, private = false, true
	}
	// Counts may be deferred only for a plain file of a bag whose
	// metadata.yaml lists topic counts to check them against.
	deferCounts := b.opts.MetadataTopicCounts && !compressed && !private && b.Metadata != nil && len(b.Metadata.Topics) > 0
	_, o, err := openInspect(path, openPath, immutable, nil, deferCounts)
	if err != nil && !compressed && !private && isCorrupt(err) {
		// A db3 cut short (recorder killed, disk full, partial copy):
		// retry on a private copy whose header matches what is there.
		cp, ti, ok, cerr := b.truncatedCopy(path)
		if cerr != nil {
			return fail("recover truncated db3", cerr)
		}
		if ok {
			h2, o2, err2 := openInspect(path, cp, true, &ti, false)
			if err2 == nil && o2.file.MessageCount > 0 {
				o, err = o2, nil
			} else {
				if err2 == nil {
					h2.close() // a copy that opens but holds no message
				}
				// Nothing readable: the original error, with what was tried.
				err = fmt.Errorf("%w (file truncated at byte %d, header says %d bytes; no message readable from a repaired private copy)", err, ti.size, ti.headerSize)
			}
		}
	}
	if err != nil {
		return fail("read sqlite schema", err)
	}
	o.handle.(*sqliteHandle).sequential = b.opts.Sequential
	o.handle.(*sqliteHandle).limit = b.limit()
	o.file.PrivateCopy = private
	if st, err := os.Stat(path + "-wal"); err == nil {
		o.file.WALBytes = st.Size()
	}
	if private {
		// Messages only in the WAL: what the main file alone holds, read
		// immutable, subtracted from the total.
		if n, err := countImmutable(path); err == nil && n <= o.file.MessageCount {
			o.file.Recovery = &Recovery{Reason: fmt.Sprintf("leftover -wal read from a private copy: %d messages only in the WAL", o.file.MessageCount-n),
				Offset: -1, Recovered: o.file.MessageCount, WALMessages: o.file.MessageCount - n}
		}
	}
	return o, nil
}

// openInspect opens openPath (the user's path, or a private copy of it)
// read-only and reads its schema; trunc marks a patched copy of a
// truncated file; deferCounts leaves per-topic counts to Bag.finish.
func openInspect(path, openPath string, immutable bool, trunc *truncInfo, deferCounts bool) (*sqliteHandle, *opened, error) {
	abs, err := filepath.Abs(openPath)
	if err != nil {
		return nil, nil, err
	}
	dsn := "file:" + (&url.URL{Path: abs}).EscapedPath() + "?mode=ro"
	if immutable {
		dsn += "&immutable=1"
	}
	// A small page cache: the schema, topic and count queries visit each
	// page once, and every page of a larger cache is fresh memory, faulted
	// in once per open (see sqliteReadCacheKiB).
	db, err := sql.Open("sqlite3", dsn+"&_cache_size=-"+strconv.Itoa(sqliteReadCacheKiB))
	if err != nil {
		return nil, nil, err
	}
	h := &sqliteHandle{path: path, dsn: dsn, file: abs, immutable: immutable, db: db, topics: map[int64]sqliteTopic{}, trunc: trunc, deferCounts: deferCounts}
	o, err := h.inspect()
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return h, o, nil
}

// countImmutable counts the messages of a db3 ignoring its WAL.
func countImmutable(path string) (uint64, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, err
	}
	db, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: abs}).EscapedPath()+"?mode=ro&immutable=1")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n uint64
	err = db.QueryRow("SELECT COUNT(*) FROM messages").Scan(&n)
	return n, err
}

// inspect reads schema version, topics and per-topic counts; columns are
// found by name since every rosbag2 era has a different set.
func (h *sqliteHandle) inspect() (*opened, error) {
	tables, err := h.names("SELECT name FROM sqlite_master WHERE type = 'table'")
	if err != nil {
		return nil, err
	}
	if !tables["messages"] || !tables["topics"] {
		return nil, fmt.Errorf("no messages/topics tables (has %v)", keys(tables))
	}
	tcols, err := h.names("SELECT name FROM pragma_table_info('topics')")
	if err != nil {
		return nil, err
	}
	mcols, err := h.names("SELECT name FROM pragma_table_info('messages')")
	if err != nil {
		return nil, err
	}
	for _, c := range []string{"id", "topic_id", "timestamp", "data"} {
		if !mcols[c] {
			return nil, fmt.Errorf("messages table has no %s column", c)
		}
	}
	var decl sql.NullString
	if err := h.db.QueryRow("SELECT type FROM pragma_table_info('messages') WHERE name = 'topic_id'").Scan(&decl); err == nil {
		// SQLite's first affinity rule: a declared type containing INT.
		h.topicIDInt = strings.Contains(strings.ToUpper(decl.String), "INT")
	}
	o := &opened{handle: h}
	f := &o.file
	switch {
	case tables["schema"]:
		var distro sql.NullString
		if err := h.db.QueryRow("SELECT schema_version, ros_distro FROM schema LIMIT 1").Scan(&f.SchemaVersion, &distro); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("schema table: %w", err)
		}
		f.ROSDistro = distro.String
	case tcols["offered_qos_profiles"]:
		f.SchemaVersion = 2
	default:
		f.SchemaVersion = 1
	}
	col := func(name string) string {
		if tcols[name] {
			return "COALESCE(" + name + ", '')"
		}
		return "''"
	}
	rows, err := h.db.Query("SELECT id, COALESCE(name, ''), COALESCE(type, ''), " + col("serialization_format") + ", " +
		col("offered_qos_profiles") + ", " + col("type_description_hash") + " FROM topics ORDER BY id")
	if err != nil {
		return nil, err
	}
	var order []int64
	byID := map[int64]*storageTopic{}
	for rows.Next() {
		var id int64
		var t storageTopic
		if err := rows.Scan(&id, &t.Name, &t.Type, &t.Format, &t.OfferedQoS, &t.Hash); err != nil {
			rows.Close()
			return nil, err
		}
		h.topics[id] = sqliteTopic{t.Name, t.Type}
		byID[id] = &t
		order = append(order, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if h.deferCounts && h.trunc == nil {
		// Per-topic counts may come from metadata.yaml (Bag.finish decides);
		// the totals come from storage, cheaply, through the timestamp index.
		if err := h.totals(f); err == nil {
			h.pending = true
		}
	}
	if !h.pending {
		h.countMessages(byID, f)
	}
	defs := h.definitions(tables)
	for _, id := range order {
		t := byID[id]
		if d, ok := defs[t.Type]; ok {
			t.DefEncoding, t.Def = d[0], d[1]
		}
		o.topics = append(o.topics, *t)
	}
	var head []byte
	if err := h.db.QueryRow("SELECT substr(data, 1, 4) FROM messages LIMIT 1").Scan(&head); err == nil {
		o.messageMode = isZstdFrame(head)
	}
	return o, nil
}

// countMessages fills per-topic counts, the file's totals and, for a
// damaged file, its Recovery.
func (h *sqliteHandle) countMessages(byID map[int64]*storageTopic, f *File) {
	var countErr error
	if h.trunc == nil {
		countErr = h.count("SELECT topic_id, COUNT(*), MIN(timestamp), MAX(timestamp) FROM messages GROUP BY topic_id", byID, f)
	}
	if h.trunc != nil || countErr != nil {
		// A damaged file: count what is readable in rowid order, data
		// included, as the message stream will read it, and say where it
		// stopped.
		for _, t := range byID {
			t.Count = 0
		}
		*f = File{SchemaVersion: f.SchemaVersion, ROSDistro: f.ROSDistro}
		last, scanErr := h.scanCount(byID, f)
		switch {
		case h.trunc != nil:
			h.damaged = true
			why := "read to the end of the remaining pages"
			if scanErr != nil {
				why = fmt.Sprintf("stopped at rowid %d: %v", last, scanErr)
			}
			f.Recovery = &Recovery{Reason: fmt.Sprintf("db3 truncated at byte %d (header says %d bytes): recovered %d messages, %s",
				h.trunc.size, h.trunc.headerSize, f.MessageCount, why), Offset: h.trunc.size, Recovered: f.MessageCount}
		default:
			h.damaged = true
			if scanErr == nil {
				scanErr = countErr
			}
			f.Recovery = &Recovery{Reason: fmt.Sprintf("sqlite file damaged: %d messages readable before: %v", f.MessageCount, scanErr),
				Offset: -1, Recovered: f.MessageCount}
		}
	}
}

// totals reads the file's row count and record-time range without a full
// scan where the timestamp index allows it.
func (h *sqliteHandle) totals(f *File) error {
	var n uint64
	var lo, hi sql.NullInt64
	err := h.db.QueryRow("SELECT (SELECT COUNT(*) FROM messages), (SELECT MIN(timestamp) FROM messages), (SELECT MAX(timestamp) FROM messages)").Scan(&n, &lo, &hi)
	if err != nil {
		return err
	}
	f.MessageCount, f.StartNS, f.EndNS = n, lo.Int64, hi.Int64
	return nil
}

// countTopics counts a file whose per-topic counts were deferred, exactly
// as Open would have, into f (holding only schema facts); it returns the
// counts by topic name.
func (h *sqliteHandle) countTopics(f *File) map[string]uint64 {
	byID := map[int64]*storageTopic{}
	for id, t := range h.topics {
		byID[id] = &storageTopic{Name: t.name, Type: t.typ}
	}
	h.countMessages(byID, f)
	h.pending = false
	out := map[string]uint64{}
	for _, t := range byID {
		out[t.Name] += t.Count
	}
	return out
}

// count adds up rows of (topic_id, count, min, max) into the topics and
// the file; rows read before an error stay counted.
func (h *sqliteHandle) count(q string, byID map[int64]*storageTopic, f *File) error {
	rows, err := h.db.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	first := f.MessageCount == 0
	for rows.Next() {
		var id, lo, hi int64
		var n uint64
		if err := rows.Scan(&id, &n, &lo, &hi); err != nil {
			return err
		}
		if t := byID[id]; t != nil {
			t.Count += n
		} else {
			f.OrphanMessages += n
		}
		f.MessageCount += n
		if first || lo < f.StartNS {
			f.StartNS = lo
		}
		if first || hi > f.EndNS {
			f.EndNS = hi
		}
		first = false
	}
	return rows.Err()
}

func (h *sqliteHandle) names(q string) (map[string]bool, error) {
	rows, err := h.db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out[n] = true
	}
	return out, rows.Err()
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func (h *sqliteHandle) close() error { return h.db.Close() }

// copyFile copies src to dst (private copies of WAL bags).
func copyFile(src, dst string) error {
	in, err := openRegular(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
