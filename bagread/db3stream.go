package bagread

import (
	"database/sql"
	"math"
	"os"
	"strings"
)

// db3WalkInfo is what the walker needs of a file SQLite has opened.
type db3WalkInfo struct {
	geom db3Geom
	root uint32
}

// walkInfo says whether record-order reads of the file may walk its
// messages b-tree, and with what; nil sends them to SQLite. The walker
// reads only what it can read exactly as SQLite would: a file SQLite
// opened immutable (no -wal with pages, no rollback journal whose pages
// belong in it), not damaged or truncated, whose messages table is
// rosbag2's: a rowid table of (id INTEGER PRIMARY KEY, topic_id INTEGER,
// timestamp, data), in that order, with no type the driver converts.
//
// The walker takes no lock of its own: SQLite takes none either on an
// immutable open (a promise that nothing writes the file), which is how
// every file it reads is opened; a bag still being written has a -wal or
// a journal and is left to SQLite.
func (h *sqliteHandle) walkInfo() *db3WalkInfo {
	if h.walkChecked {
		return h.walk
	}
	h.walkChecked = true
	if !h.immutable || h.damaged || h.trunc != nil || h.driverOnly || !h.topicIDInt || h.file == "" {
		return nil
	}
	for _, suffix := range []string{"-wal", "-journal"} {
		if st, err := os.Stat(h.file + suffix); err == nil && st.Size() > 0 {
			return nil
		}
	}
	if !h.messagesIsRosbag2() {
		return nil
	}
	var root sql.NullInt64
	if err := h.db.QueryRow("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'messages'").Scan(&root); err != nil || !root.Valid || root.Int64 < 2 || root.Int64 > math.MaxUint32 {
		return nil
	}
	f, err := openRegular(h.file)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil
	}
	var hdr [100]byte
	if _, err := f.ReadAt(hdr[:], 0); err != nil {
		return nil
	}
	g, err := parseDB3Header(hdr[:], st.Size())
	if err != nil || uint32(root.Int64) > g.pages {
		return nil
	}
	h.walk = &db3WalkInfo{geom: g, root: uint32(root.Int64)}
	return h.walk
}

// messagesIsRosbag2: the messages table's columns are id, topic_id,
// timestamp, data in that order, id an INTEGER PRIMARY KEY that is the
// rowid (no index of origin pk: a WITHOUT ROWID table or a DESC key has
// one), and no column declared with a type the driver converts.
func (h *sqliteHandle) messagesIsRosbag2() bool {
	rows, err := h.db.Query("SELECT cid, name, type, pk FROM pragma_table_info('messages') ORDER BY cid")
	if err != nil {
		return false
	}
	defer rows.Close()
	want := []string{"id", "topic_id", "timestamp", "data"}
	n := 0
	for rows.Next() {
		var cid, pk int
		var name, typ string
		if err := rows.Scan(&cid, &name, &typ, &pk); err != nil || cid != n || n >= len(want) || name != want[n] {
			return false
		}
		typ = strings.ToLower(typ)
		switch typ {
		case "timestamp", "datetime", "date", "boolean":
			return false
		}
		if (n == 0) != (pk == 1) || pk > 1 || n == 0 && typ != "integer" {
			return false
		}
		n++
	}
	if rows.Err() != nil || n != len(want) {
		return false
	}
	var pkIndexes int
	if err := h.db.QueryRow("SELECT COUNT(*) FROM pragma_index_list('messages') WHERE origin = 'pk'").Scan(&pkIndexes); err != nil || pkIndexes != 0 {
		return false
	}
	return true
}

// db3Walker is a stream's walk of the messages b-tree: the file, its
// pages, and what the query would select and how it would read data.
type db3Walker struct {
	f    *os.File
	pr   *pageReader
	w    *tableWalk
	all  bool           // no topic filter: every row, as the query without WHERE
	sel  map[int64]bool // else the selected topic ids
	row  sqliteRow
	last int64 // rowid of the last row handed out
	any  bool  // one was
	// The stream's data column (dataColumn): prefix topics' ids with the
	// bytes wanted, topics read for their length only, the decode budget.
	prefix, lengthOnly map[int64]bool
	prefixN            int64
	limit              int64
	// dense holds the three maps' answers by topic id when every id they
	// know is below db3DenseTopics (rosbag2 numbers topics from 1): three
	// map lookups a row were a tenth of the walk's time.
	dense []walkFlags
}

// walkFlags is what db3Walker knows of one topic id.
type walkFlags uint8

const (
	walkSel walkFlags = 1 << iota
	walkPrefix
	walkLengthOnly
)

// db3DenseTopics bounds db3Walker.dense.
const db3DenseTopics = 4096

// flags returns what the walker knows of topic id.
func (w *db3Walker) flags(id int64) walkFlags {
	if w.dense != nil {
		if uint64(id) < uint64(len(w.dense)) {
			return w.dense[id]
		}
		return 0 // no map holds an id beyond dense
	}
	return w.mapFlags(id)
}

func (w *db3Walker) mapFlags(id int64) walkFlags {
	var f walkFlags
	if w.sel[id] {
		f |= walkSel
	}
	if w.prefix[id] {
		f |= walkPrefix
	}
	if w.lengthOnly[id] {
		f |= walkLengthOnly
	}
	return f
}

// makeDense fills dense from the maps when their ids fit.
func (w *db3Walker) makeDense() {
	top := int64(-1)
	for _, m := range []map[int64]bool{w.sel, w.prefix, w.lengthOnly} {
		for id := range m {
			if id < 0 || id >= db3DenseTopics {
				return
			}
			top = max(top, id)
		}
	}
	dense := make([]walkFlags, top+1)
	for id := range dense {
		dense[id] = w.mapFlags(int64(id))
	}
	w.dense = dense
}

// startWalk sets the stream up to walk the file; an error leaves it to
// SQLite.
func (s *sqliteStream) startWalk(wi *db3WalkInfo, sel selection, ids []int64) error {
	f, err := openRegular(s.h.file)
	if err != nil {
		return err
	}
	pr := newPageReader(f, wi.geom)
	tw, err := newTableWalk(pr, wi.root)
	if err != nil {
		f.Close()
		// A first page the walker cannot read: SQLite reads them all.
		return err
	}
	w := &db3Walker{f: f, pr: pr, w: tw, all: sel == nil, limit: s.h.limit}
	if sel != nil {
		w.sel = make(map[int64]bool, len(ids))
		for _, id := range ids {
			w.sel[id] = true
		}
	}
	if px := s.px; px != nil {
		w.prefix, w.lengthOnly = map[int64]bool{}, map[int64]bool{}
		w.prefixN = int64(max(px.n, len(zstdMagic)))
		for id, t := range s.h.topics {
			if px.has(t.name) {
				w.lengthOnly[id] = true
				if !px.timeOnly(t.name) {
					w.prefix[id] = true
				}
			}
		}
	}
	w.makeDense()
	s.walk = w
	return nil
}

func (w *db3Walker) close() {
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
}

// walkRow returns the next selected row of the walk; nil at its end (then
// s.walk is still set) or when the walk met a row it does not read (then
// s.walk is nil and the SQLite query stands on that row: the caller reads
// on from it).
func (s *sqliteStream) walkRow() *sqliteRow {
	w := s.walk
	for {
		r, err := w.next()
		if err == nil {
			if r != nil {
				w.last, w.any = r.id, true
			}
			return r
		}
		// Hand over to SQLite from the row after the last one handed out.
		from, resume := int64(math.MinInt64), false
		if w.any {
			if w.last == math.MaxInt64 {
				return nil // nothing can follow it; s.walk stays, at its end
			}
			from, resume = w.last+1, true
		}
		w.close()
		s.walk = nil
		s.h.walkFallbacks++
		if err := s.startSQL(resume, from); err != nil {
			s.stopped(err)
		}
		return nil
	}
}

// next returns the next row the query would select, as the query's data
// column would have it (dataColumn, and the prefix reads of
// bagread_fill); nil at the end; errWalk for a row to leave to SQLite.
func (w *db3Walker) next() (*sqliteRow, error) {
	for {
		c, ok, err := w.w.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil
		}
		rec, err := w.w.record(&c)
		if err != nil {
			return nil, err
		}
		fl := w.flags(rec.topicID)
		if !w.all && (rec.types[1] != sqliteInteger || fl&walkSel == 0) {
			continue // WHERE topic_id IN (...) leaves it out
		}
		if rec.types[1] != sqliteInteger || rec.types[2] != sqliteInteger || rec.types[3] != sqliteBlob {
			return nil, walkErr("row %d: column types %v", c.rowid, rec.types)
		}
		r := &w.row
		// Field by field: see rawMessage.setMCAP.
		r.id, r.topicID, r.ts, r.types = c.rowid, rec.topicID, rec.ts, rec.types
		r.n, r.data, r.odd = 0, nil, ""
		n := rec.dataLen
		switch {
		case fl&walkPrefix != 0:
			k := min(n, w.prefixN)
			d, err := w.w.payload(&c, rec.dataOff, rec.dataOff+k)
			if err != nil {
				return nil, err
			}
			if k < n && isZstdFrame(d) {
				// A MESSAGE-mode frame is read whole, by readPrefix.
				r.types[3], r.n = sqliteInteger, n
				return r, nil
			}
			r.types[3], r.n, r.data = sqlitePrefix, n, d
		case fl&walkLengthOnly != 0 || w.limit > 0 && n > w.limit:
			r.types[3], r.n = sqliteInteger, n
		default:
			d, err := w.w.payload(&c, rec.dataOff, rec.dataOff+n)
			if err != nil {
				return nil, err
			}
			r.n, r.data = n, d
		}
		return r, nil
	}
}
