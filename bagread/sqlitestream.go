package bagread

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/mattn/go-sqlite3"
)

// A db3 read is mostly sqlite3_step and the copy of each row, so
// a record-order read is split into consecutive rowid ranges that two
// workers, each on its own connection, query in turns: the caller reads
// range 0 from worker 0, range 1 from worker 1, and so on, so rows still
// arrive in rowid order. Each worker hands rows over in batches bounded by
// count and bytes, a few in flight, so memory stays bounded by
// sqliteBatchBytes per worker, not by the bag. Time order, damaged files,
// small files and Sequential reads use one query on the caller's goroutine.
const (
	sqliteBatchRows  = 512
	sqliteBatchBytes = 2 << 20
	sqliteBatches    = 3 // per worker
	sqliteWorkers    = 2
)

// sqliteRangeRows is the rowid span of one range (a variable for tests).
var sqliteRangeRows int64 = 4096

// sqliteRow is one row of id, topic_id, timestamp, data. data is a blob
// (valid until the stream moves past the row) or nil; n is its length, or
// the column's value when it is an integer (see dataColumn).
type sqliteRow struct {
	id, topicID, ts, n int64
	data               []byte
	types              [4]uint8 // SQLite's type of each column
	// odd is set when a column has a type the row cannot be read with: the
	// message error, naming the types as the driver returned them.
	odd string
}

// goTypeNames are the driver's Go types of SQLite's fundamental types, as
// %T prints them.
var goTypeNames = [...]string{sqliteInteger: "int64", sqliteFloat: "float64", sqliteText: "string", sqliteBlob: "[]uint8", sqliteNull: "<nil>"}

// readable: topic_id and timestamp are integers, data a blob, an integer
// or a prefix.
func (r *sqliteRow) readable() bool {
	d := r.types[3]
	return r.types[1] == sqliteInteger && r.types[2] == sqliteInteger && (d == sqliteBlob || d == sqliteInteger || d == sqlitePrefix)
}

// oddRow is the message error of an unreadable row, given the Go types of
// its topic_id, timestamp and data.
func oddRow(topic, ts, data string) string {
	return fmt.Sprintf("row has topic_id %s, timestamp %s, data %s; want integer, integer, blob", topic, ts, data)
}

// fromDriver makes a row of the driver's values (the unsplit read).
func fromDriver(v []driver.Value) sqliteRow {
	var r sqliteRow
	for i, x := range v[:4] {
		switch x := x.(type) {
		case int64:
			r.types[i] = sqliteInteger
			switch i {
			case 0:
				r.id = x
			case 1:
				r.topicID = x
			case 2:
				r.ts = x
			case 3:
				r.n = x
			}
		case []byte:
			r.types[i] = sqliteBlob
			if i == 3 {
				r.data, r.n = x, int64(len(x))
			}
		}
	}
	if !r.readable() {
		r.odd = oddRow(fmt.Sprintf("%T", v[1]), fmt.Sprintf("%T", v[2]), fmt.Sprintf("%T", v[3]))
	}
	return r
}

type sqliteBatch struct {
	rows     []sqliteRow
	arena    []byte // the rows' data
	rangeEnd bool   // the last batch of its range
	err      error  // the query failed after these rows: the read ends
}

// sqliteWorker runs its range query on its own connection.
type sqliteWorker struct {
	q          *rangeQuery
	full, free chan *sqliteBatch
}

// sqliteStream walks the rows of one file: from one query on the caller's
// goroutine, or from range workers.
type sqliteStream struct {
	h         *sqliteHandle
	fileIndex int
	msg       rawMessage
	// byID holds h.topics by id when every id is below db3DenseTopics
	// (built on first use; see topic): a map lookup a row was a few
	// percent of the walk.
	byID      []denseTopic
	byIDBuilt bool
	n         uint64
	probs     []Problem
	done      bool

	// unfiltered: the query has no topic_id IN (...) because every topic
	// is selected (SQLite tests the IN list on every row: a sixth of the
	// query's time); next skips the rows the IN would have left out, those
	// whose topic_id is not a known topic's integer id.
	unfiltered bool

	// direct is the one query of an unsplit read, stepped by the caller.
	direct     driver.Rows
	directConn driver.Conn
	dest       []driver.Value
	one        sqliteRow

	workers []*sqliteWorker
	ranges  int // range r is read by workers[r%len(workers)]
	rng     int // range being consumed
	stop    chan struct{}
	cur     *sqliteBatch
	i       int

	// px, blob and buf serve prefix reads (sqliteprefix.go).
	px   *prefixSpec
	blob *blobReader
	buf  []byte

	// where and order make the query (startSQL).
	where []string
	order Order
	// walk reads the rows until it meets one it does not read; the SQLite
	// query then starts at that row (db3stream.go).
	walk *db3Walker
}

// open starts reading the file; the topic filter becomes WHERE topic_id
// IN (...).
func (h *sqliteHandle) open(fileIndex int, sel selection, order Order) (stream, error) {
	return h.openRead(fileIndex, sel, order, nil)
}

// openRead is open with, for px's topics, the data column replaced by its
// length (see openPrefix). A record-order read of a healthy file walks its
// b-tree in Go (db3stream.go); SQLite reads the rest, and the rows after
// any the walker does not read.
func (h *sqliteHandle) openRead(fileIndex int, sel selection, order Order, px *prefixSpec) (stream, error) {
	var where []string
	unfiltered := false
	var ids []int64
	if sel != nil {
		var names []string
		for id, t := range h.topics {
			if sel[t.name] {
				ids = append(ids, id)
				names = append(names, strconv.FormatInt(id, 10))
			}
		}
		if len(ids) == 0 {
			return &sqliteStream{done: true}, nil
		}
		if unfiltered = len(ids) == len(h.topics) && h.topicIDInt; !unfiltered {
			where = append(where, "topic_id IN ("+strings.Join(names, ",")+")")
		}
	}
	s := &sqliteStream{h: h, fileIndex: fileIndex, px: px, unfiltered: unfiltered, where: where, order: order}
	if order == RecordOrder {
		if wi := h.walkInfo(); wi != nil {
			if err := s.startWalk(wi, sel, ids); err == nil {
				return s, nil
			}
		}
	}
	if err := s.startSQL(false, 0); err != nil {
		return nil, err
	}
	return s, nil
}

// startSQL starts the query of the stream's rows, from rowid from on when
// resume is set (after the rows the walker read).
func (s *sqliteStream) startSQL(resume bool, from int64) error {
	h, order, px := s.h, s.order, s.px
	where := s.where
	if resume {
		where = append(append([]string{}, where...), "id >= "+strconv.FormatInt(from, 10))
	}
	query := func(extra ...string) string {
		w := append(append([]string{}, where...), extra...)
		q := "SELECT id, topic_id, timestamp, " + h.dataColumn(px) + " FROM messages"
		if len(w) > 0 {
			q += " WHERE " + strings.Join(w, " AND ")
		}
		// A damaged file is read in rowid order even for TimeOrder: sorting
		// by timestamp makes SQLite read the whole table before the first
		// row, so a missing page would yield nothing. rosbag2 writes rows
		// in arrival order, so rowid order is close to time order.
		if order == TimeOrder && !h.damaged {
			return q + " ORDER BY timestamp, id"
		}
		return q + " ORDER BY id"
	}
	workers := min(sqliteWorkers, runtime.GOMAXPROCS(0))
	lo, hi, split := int64(0), int64(0), false
	if !h.sequential && !h.driverOnly && order == RecordOrder && !h.damaged && h.trunc == nil && workers >= 2 {
		lo, hi, split = h.rowidSpan()
		if resume {
			lo = max(lo, from)
		}
		split = split && hi-lo >= 2*sqliteRangeRows
	}
	if !split {
		// One query, stepped on the caller's goroutine.
		conn, err := h.connect()
		if err != nil {
			return err
		}
		rows, err := conn.(*sqlite3.SQLiteConn).QueryContext(context.Background(), query(), nil)
		if err != nil {
			conn.Close()
			if resume {
				// The driver steps to the first row here: a damaged page
				// after the walked rows fails as a step would have.
				return err
			}
			return &FileError{Path: h.path, Offset: -1, Op: "query messages", Err: err}
		}
		s.direct, s.directConn, s.dest = rows, conn, make([]driver.Value, 4)
		return nil
	}
	q := query("id >= ?", "id < ?")
	var qs []*rangeQuery
	var pxIDs []int64
	pxN := 0
	if px != nil {
		for id, t := range h.topics {
			if px.has(t.name) && !px.timeOnly(t.name) {
				pxIDs = append(pxIDs, id)
			}
		}
		pxN = px.n
	}
	for range workers {
		rq, err := openRangeQuery(h.dsn, q, pxIDs, pxN)
		if err != nil {
			for _, rq := range qs {
				rq.close()
			}
			if errors.Is(err, errDriverTypes) {
				h.driverOnly = true
				return s.startSQL(resume, from)
			}
			return &FileError{Path: h.path, Offset: -1, Op: "prepare messages query", Err: err}
		}
		qs = append(qs, rq)
	}
	s.stop = make(chan struct{})
	s.ranges = int((hi-lo)/sqliteRangeRows) + 1
	for k, rq := range qs {
		w := &sqliteWorker{q: rq, full: make(chan *sqliteBatch, sqliteBatches), free: make(chan *sqliteBatch, sqliteBatches)}
		for range sqliteBatches {
			w.free <- &sqliteBatch{}
		}
		s.workers = append(s.workers, w)
		go w.run(s.stop, k, workers, s.ranges, lo)
	}
	return nil
}

// rowidSpan is the smallest and largest rowid (ok false when the table is
// empty or unreadable: then the read is not split). Each has a subquery of
// its own: SQLite finds a lone MIN or MAX at one end of the table's b-tree,
// but MIN(id), MAX(id) together scan the whole timestamp index (620 page
// reads on the 117 MB benchmark db3, before every split read).
func (h *sqliteHandle) rowidSpan() (lo, hi int64, ok bool) {
	var a, b sql.NullInt64
	if err := h.db.QueryRow("SELECT (SELECT MIN(id) FROM messages), (SELECT MAX(id) FROM messages)").Scan(&a, &b); err != nil || !a.Valid || !b.Valid {
		return 0, 0, false
	}
	return a.Int64, b.Int64, true
}

// sqliteReadCacheKiB is the page cache of a connection that reads
// messages (SQLite's default is 2000 KiB). A read visits each page once
// and needs only the b-tree's inner pages again; every page of a larger
// cache is fresh malloc'd memory, faulted in once per connection (about
// 1,000 page faults and 3 MiB of peak RSS of an analyze of the 117 MB
// benchmark db3, which opens six such connections).
const sqliteReadCacheKiB = 128

// connect opens a driver connection for reading messages. Rows are read
// from the driver directly: database/sql's per-column conversion costs
// more than the rest of bagread's work.
func (h *sqliteHandle) connect() (driver.Conn, error) {
	conn, err := (&sqlite3.SQLiteDriver{}).Open(h.dsn + "&_mutex=no&_cache_size=-" + strconv.Itoa(sqliteReadCacheKiB))
	if err != nil {
		return nil, &FileError{Path: h.path, Offset: -1, Op: "open sqlite", Err: err}
	}
	return conn, nil
}

// run queries ranges first, first+step, ... below n (range r starts at
// rowid lo + r*sqliteRangeRows) and hands their rows over, until they are
// done, a query fails or stop is closed. The hand-over channel is closed
// last; the connection stays open for close.
func (w *sqliteWorker) run(stop <-chan struct{}, first, step, n int, lo int64) {
	defer close(w.full)
	arenaSize := sqliteArenaMin
	get := func() *sqliteBatch {
		select {
		case b := <-w.free:
			if cap(b.arena) != arenaSize {
				b.arena = make([]byte, 0, arenaSize) // grown, or after a row of its own
			}
			clear(b.rows)
			b.rows, b.arena, b.rangeEnd, b.err = b.rows[:0], b.arena[:0], false, nil
			return b
		case <-stop:
			return nil
		}
	}
	send := func(b *sqliteBatch) bool {
		select {
		case w.full <- b:
			return true
		case <-stop:
			return false
		}
	}
	for r := first; r < n; r += step {
		b := get()
		if b == nil {
			return
		}
		from := lo + int64(r)*sqliteRangeRows
		if err := w.q.start(from, from+sqliteRangeRows); err != nil {
			b.err = err
			send(b)
			return
		}
		for {
			done, err := w.q.fill(b)
			if err != nil {
				b.err = err
				send(b)
				return
			}
			if done {
				break
			}
			if len(b.rows) < sqliteBatchRows && arenaSize < sqliteBatchBytes {
				arenaSize *= 2 // the arena was full: larger ones from now on
			}
			if !send(b) {
				return
			}
			if b = get(); b == nil {
				return
			}
		}
		b.rangeEnd = true
		if !send(b) {
			return
		}
	}
}

// row returns the next row in rowid (or query) order; nil at the end,
// after recording why the read stopped if a query failed.
func (s *sqliteStream) row() *sqliteRow {
	if s.walk != nil {
		if r := s.walkRow(); r != nil || s.walk != nil {
			return r
		}
	}
	if s.direct != nil {
		if err := s.direct.Next(s.dest); err != nil {
			if err != io.EOF {
				s.stopped(err)
			}
			return nil
		}
		s.one = fromDriver(s.dest)
		return &s.one
	}
	for s.cur == nil || s.i >= len(s.cur.rows) {
		if b := s.cur; b != nil {
			s.cur = nil
			if b.err != nil {
				s.stopped(b.err)
				return nil
			}
			w := s.workers[s.rng%len(s.workers)]
			if b.rangeEnd {
				s.rng++
			}
			w.free <- b // its own batch back: never blocks; b is the worker's again
		}
		if s.rng >= s.ranges {
			return nil
		}
		b, ok := <-s.workers[s.rng%len(s.workers)].full
		if !ok {
			return nil
		}
		s.cur, s.i = b, 0
	}
	s.i++
	return &s.cur.rows[s.i-1]
}

// denseTopic is one entry of sqliteStream.byID.
type denseTopic struct {
	t     sqliteTopic
	known bool
}

// topic returns h.topics[id] (the topics are read once, at open).
func (s *sqliteStream) topic(id int64) (sqliteTopic, bool) {
	if !s.byIDBuilt {
		s.byIDBuilt = true
		top := int64(-1)
		for id := range s.h.topics {
			if id < 0 || id >= db3DenseTopics {
				top = -2
				break
			}
			top = max(top, id)
		}
		if top >= -1 {
			s.byID = make([]denseTopic, top+1)
			for id, t := range s.h.topics {
				s.byID[id] = denseTopic{t, true}
			}
		}
	}
	if s.byID != nil {
		if uint64(id) < uint64(len(s.byID)) {
			return s.byID[id].t, s.byID[id].known
		}
		return sqliteTopic{}, false
	}
	t, ok := s.h.topics[id]
	return t, ok
}

// selected: the row's topic_id is a known topic's id, as topic_id IN
// (every id) tests it under INTEGER affinity (a stored value is an integer
// only when it is one; text, real, blob and NULL values match no id).
func (s *sqliteStream) selected(r *sqliteRow) bool {
	if r.types[1] != sqliteInteger {
		return false
	}
	_, ok := s.topic(r.topicID)
	return ok
}

// stopped records the query error that ended the read.
func (s *sqliteStream) stopped(err error) {
	off := int64(-1)
	if s.h.trunc != nil {
		off = s.h.trunc.size
	}
	s.probs = append(s.probs, Problem{FileIndex: s.fileIndex, File: s.h.path, Offset: off, Recovered: s.n,
		Err: fmt.Errorf("sqlite read stopped after %d messages: %w", s.n, err)})
}

func (s *sqliteStream) next() bool {
	if s.done {
		return false
	}
	r := s.row()
	for r != nil && s.unfiltered && !s.selected(r) {
		r = s.row()
	}
	if r == nil {
		s.done = true
		return false
	}
	m := &s.msg
	*m = rawMessage{fileIndex: s.fileIndex, rowid: true, chunkOff: -1}
	topicID, ts, data := r.topicID, r.ts, r.data
	m.pos = r.id
	if r.types[0] != sqliteInteger {
		m.pos = 0
	}
	s.n++
	if r.odd == "" && r.types[3] == sqlitePrefix {
		// Its prefix, read by the worker (sqlitebatch.go), as readPrefix would.
		m.size = r.n
		if int64(len(data)) == r.n {
			m.size = 0
		}
	} else if r.odd == "" && r.types[3] == sqliteInteger {
		length, id := r.n, m.pos
		// A prefix topic's row (read its prefix), or a row over the
		// decode budget (not read; see dataColumn).
		if t, ok := s.h.topics[topicID]; ok && s.px.timeOnly(t.name) {
			data, m.size = nil, length
		} else if ok && s.px.has(t.name) {
			data, m.size, m.err = s.readPrefix(id)
		} else {
			m.err = fmt.Errorf("row of %d bytes: %w (decode budget %d bytes)", length, ErrTooLarge, s.h.limit)
		}
	}
	if r.odd != "" {
		m.topic = "<unreadable row>"
		m.err = errors.New(r.odd)
		return true
	}
	t, ok := s.topic(topicID)
	if !ok {
		t = sqliteTopic{name: fmt.Sprintf("<topic_id %d>", topicID)}
		m.err = fmt.Errorf("%w: topic_id %d", ErrOrphanMessage, topicID)
	}
	m.topic, m.typ, m.logTime, m.data = t.name, t.typ, ts, data
	if m.err != nil {
		m.data, m.size = nil, 0
	}
	return true
}

func (s *sqliteStream) message() *rawMessage { return &s.msg }
func (s *sqliteStream) err() error           { return nil }
func (s *sqliteStream) problems() []Problem  { return s.probs }

// close stops the workers, waits for them and closes their connections.
func (s *sqliteStream) close() error {
	if s.walk != nil {
		s.walk.close()
		s.walk = nil
	}
	if s.blob != nil {
		s.blob.close()
		s.blob = nil
	}
	if s.direct != nil {
		err := s.direct.Close()
		s.direct = nil
		return errors.Join(err, s.directConn.Close())
	}
	if s.workers == nil {
		return nil
	}
	close(s.stop)
	var errs []error
	for _, w := range s.workers {
		for range w.full {
		}
		errs = append(errs, w.q.close())
	}
	s.workers = nil
	return errors.Join(errs...)
}
