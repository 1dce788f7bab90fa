package bagread

// A split db3 read (sqlitestream.go) steps its range queries through
// SQLite's C API instead of the driver: the driver boxes every integer
// column and copies every blob into an allocation of its own, one cgo call
// per row, and that allocation and its collection were a sixth of an
// analyze of a db3. Here one call steps up to a batch of rows and copies
// their data into the batch's arena, which the worker reuses.

/*
#include <stdlib.h>
#include <string.h>
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef struct sqlite3_blob sqlite3_blob;
typedef long long sqlite3_int64;
extern int sqlite3_prepare_v2(sqlite3 *db, const char *zSql, int nByte, sqlite3_stmt **ppStmt, const char **pzTail);
extern int sqlite3_step(sqlite3_stmt *);
extern int sqlite3_reset(sqlite3_stmt *);
extern int sqlite3_finalize(sqlite3_stmt *);
extern int sqlite3_bind_int64(sqlite3_stmt *, int, sqlite3_int64);
extern int sqlite3_column_type(sqlite3_stmt *, int iCol);
extern sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *, int iCol);
extern const void *sqlite3_column_blob(sqlite3_stmt *, int iCol);
extern int sqlite3_column_bytes(sqlite3_stmt *, int iCol);
extern const char *sqlite3_column_decltype(sqlite3_stmt *, int);
extern const char *sqlite3_errmsg(sqlite3 *);
extern int sqlite3_close_v2(sqlite3 *);
extern sqlite3 *sqlite3_db_handle(sqlite3_stmt *);
extern int sqlite3_blob_open(sqlite3 *, const char *zDb, const char *zTable, const char *zColumn, sqlite3_int64 iRow, int flags, sqlite3_blob **ppBlob);
extern int sqlite3_blob_reopen(sqlite3_blob *, sqlite3_int64);
extern int sqlite3_blob_close(sqlite3_blob *);
extern int sqlite3_blob_bytes(sqlite3_blob *);
extern int sqlite3_blob_read(sqlite3_blob *, void *Z, int N, int iOffset);

// One row of (id, topic_id, timestamp, data): n is data's length (a blob,
// copied to arena at off) or its value (an integer: see dataColumn). A
// prefix topic's row has type BAGREAD_PREFIX: plen bytes of its n are at
// off.
typedef struct {
	sqlite3_int64 id, topic, ts, n;
	int off, plen;
	unsigned char types[4]; // SQLite fundamental type of each column
} bagread_row;

enum { BAGREAD_INTEGER = 1, BAGREAD_BLOB = 4, BAGREAD_PREFIX = 64, BAGREAD_ROW = 100, BAGREAD_DONE = 101 };

// A prefix read: the topic's rows come with data's length, and the first
// bytes are read through blob I/O on the same connection, whose cache
// holds the row's leaf page the statement just read. Any failure, or a
// MESSAGE-mode zstd frame (read whole), is left to the reader's own blob
// reader (sqliteprefix.go), which reports it as before.
typedef struct {
	const sqlite3_int64 *topics; // the prefix topics' ids
	int ntopics, n;              // n: bytes wanted, at least 4
	sqlite3_blob *blob;
} bagread_prefix;

static int bagread_is_prefix(const bagread_prefix *px, sqlite3_int64 topic) {
	int i;
	for (i = 0; i < px->ntopics; i++) {
		if (px->topics[i] == topic) {
			return 1;
		}
	}
	return 0;
}

// bagread_read_prefix reads row's prefix into arena at u; 0 when it did,
// -1 when it is left to the reader, or the bytes it needs (more than
// room).
static int bagread_read_prefix(sqlite3_stmt *st, bagread_prefix *px, bagread_row *r, unsigned char *arena, int u, int room) {
	int rc, len, k;
	if (px->blob == 0) {
		rc = sqlite3_blob_open(sqlite3_db_handle(st), "main", "messages", "data", r->id, 0, &px->blob);
	} else {
		rc = sqlite3_blob_reopen(px->blob, r->id);
	}
	if (rc != 0) {
		if (px->blob != 0) {
			sqlite3_blob_close(px->blob); // a failed reopen leaves it aborted
			px->blob = 0;
		}
		return -1;
	}
	len = sqlite3_blob_bytes(px->blob);
	k = len < px->n ? len : px->n;
	if (k > room) {
		return k;
	}
	if (sqlite3_blob_read(px->blob, arena + u, k, 0) != 0) {
		return -1;
	}
	if (k < len && arena[u] == 0x28 && arena[u+1] == 0xb5 && arena[u+2] == 0x2f && arena[u+3] == 0xfd) {
		return -1;
	}
	r->types[3] = BAGREAD_PREFIX;
	r->n = len;
	r->plen = k;
	return 0;
}

// bagread_fill steps st and copies rows into rows[0..max) and their data
// into arena from byte *used on, until max rows are there (returns 0), the
// query ends (BAGREAD_DONE), a row's data does not fit in the rest of
// arena (BAGREAD_ROW: the statement stays on that row, pending, needing
// *need bytes) or a step fails (its error code). pending says the
// statement already stands on a row not yet copied. *used ends after the
// data copied.
static int bagread_fill(sqlite3_stmt *st, bagread_prefix *px, int pending, bagread_row *rows, int max,
		unsigned char *arena, int cap, int *nrows, int *used, int *need) {
	int n = 0, u = *used, rc = 0, i;
	for (; n < max; n++) {
		if (!pending) {
			rc = sqlite3_step(st);
			if (rc != BAGREAD_ROW) {
				break;
			}
		}
		pending = 0;
		bagread_row *r = &rows[n];
		for (i = 0; i < 4; i++) {
			r->types[i] = (unsigned char)sqlite3_column_type(st, i);
		}
		r->id = sqlite3_column_int64(st, 0);
		r->topic = sqlite3_column_int64(st, 1);
		r->ts = sqlite3_column_int64(st, 2);
		r->off = u;
		r->n = 0;
		r->plen = 0;
		if (r->types[3] == BAGREAD_INTEGER && r->types[1] == BAGREAD_INTEGER && r->types[2] == BAGREAD_INTEGER && bagread_is_prefix(px, r->topic)) {
			int got = bagread_read_prefix(st, px, r, arena, u, cap - u);
			if (got > 0) {
				*need = got;
				rc = BAGREAD_ROW;
				break;
			}
			if (got < 0) {
				r->n = sqlite3_column_int64(st, 3);
			}
			u += r->plen;
		} else if (r->types[3] == BAGREAD_BLOB) {
			const void *p = sqlite3_column_blob(st, 3);
			int len = sqlite3_column_bytes(st, 3);
			if (len > cap - u) {
				*need = len;
				rc = BAGREAD_ROW;
				break;
			}
			if (len > 0) {
				memcpy(arena + u, p, len);
			}
			r->n = len;
			u += len;
		} else {
			r->n = sqlite3_column_int64(st, 3);
		}
	}
	if (n == max) {
		rc = 0;
	}
	*nrows = n;
	*used = u;
	return rc;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"
)

// SQLite's fundamental types (sqlite3.h).
const (
	sqliteInteger = 1
	sqliteFloat   = 2
	sqliteText    = 3
	sqliteBlob    = 4
	sqliteNull    = 5
	// sqlitePrefix marks a prefix topic's row whose data holds its prefix.
	sqlitePrefix = C.BAGREAD_PREFIX
)

// sqliteArenaMin is the smallest arena of a batch; it doubles, up to
// sqliteBatchBytes, each time rows fill it.
const sqliteArenaMin = 64 << 10

// rangeQuery is one worker's connection and its prepared range query
// (two parameters: the first rowid and the one after the last). One
// goroutine at a time.
type rangeQuery struct {
	db      *C.sqlite3
	stmt    *C.sqlite3_stmt
	pending bool // the statement stands on a row that fill has not copied
	crows   []C.bagread_row
	px      *C.bagread_prefix // C memory: it holds the blob handle
	pxIDs   *C.sqlite3_int64
}

// errDriverTypes: a column is declared with a type the driver converts
// (to time.Time or bool), so the read goes through the driver instead.
var errDriverTypes = errors.New("messages columns declared with types the driver converts")

// openRangeQuery prepares query on a connection of its own; the rows of
// the topics pxIDs (whose data column query reads as its length) come with
// the first pxN bytes of their data.
func openRangeQuery(dsn, query string, pxIDs []int64, pxN int) (*rangeQuery, error) {
	db, err := openCConn(dsn)
	if err != nil {
		return nil, err
	}
	cq := C.CString(query)
	defer C.free(unsafe.Pointer(cq))
	q := &rangeQuery{db: db, crows: make([]C.bagread_row, sqliteBatchRows)}
	q.px = (*C.bagread_prefix)(C.calloc(1, C.size_t(unsafe.Sizeof(C.bagread_prefix{}))))
	if len(pxIDs) > 0 {
		q.pxIDs = (*C.sqlite3_int64)(C.malloc(C.size_t(len(pxIDs) * 8)))
		ids := unsafe.Slice(q.pxIDs, len(pxIDs))
		for i, id := range pxIDs {
			ids[i] = C.sqlite3_int64(id)
		}
		q.px.topics, q.px.ntopics, q.px.n = q.pxIDs, C.int(len(pxIDs)), C.int(max(pxN, len(zstdMagic)))
	}
	if rc := C.sqlite3_prepare_v2(db, cq, -1, &q.stmt, nil); rc != 0 {
		err := q.errorf("prepare", rc)
		q.close()
		return nil, err
	}
	for i := range 4 {
		switch strings.ToLower(C.GoString(C.sqlite3_column_decltype(q.stmt, C.int(i)))) {
		case "timestamp", "datetime", "date", "boolean":
			q.close()
			return nil, errDriverTypes
		}
	}
	return q, nil
}

func (q *rangeQuery) errorf(op string, rc C.int) error {
	return fmt.Errorf("%s: %s (code %d)", op, C.GoString(C.sqlite3_errmsg(q.db)), int(rc))
}

// start runs the query over rowids [from, to).
func (q *rangeQuery) start(from, to int64) error {
	q.pending = false
	C.sqlite3_reset(q.stmt) // its code repeats the last step's error, already reported
	if rc := C.sqlite3_bind_int64(q.stmt, 1, C.sqlite3_int64(from)); rc != 0 {
		return q.errorf("bind", rc)
	}
	if rc := C.sqlite3_bind_int64(q.stmt, 2, C.sqlite3_int64(to)); rc != 0 {
		return q.errorf("bind", rc)
	}
	return nil
}

// fill appends rows of the running query to b until b holds
// sqliteBatchRows rows or its arena is full (done false: call again with
// another batch) or the query ends (done true). A row larger than an
// empty batch's arena gets an arena of its own size.
func (q *rangeQuery) fill(b *sqliteBatch) (done bool, err error) {
	for {
		room := sqliteBatchRows - len(b.rows)
		if room == 0 {
			return false, nil
		}
		var nrows, need C.int
		used := C.int(len(b.arena))
		pending := C.int(0)
		if q.pending {
			pending = 1
		}
		rc := C.bagread_fill(q.stmt, q.px, pending, &q.crows[0], C.int(room),
			(*C.uchar)(unsafe.SliceData(b.arena[:cap(b.arena)])), C.int(cap(b.arena)), &nrows, &used, &need)
		b.arena = b.arena[:int(used)]
		for i := range int(nrows) {
			r := &q.crows[i]
			row := sqliteRow{id: int64(r.id), topicID: int64(r.topic), ts: int64(r.ts), n: int64(r.n)}
			for k := range row.types {
				row.types[k] = uint8(r.types[k])
			}
			switch row.types[3] {
			case sqliteBlob:
				off, end := int(r.off), int(r.off)+int(r.n)
				row.data = b.arena[off:end:end]
			case sqlitePrefix:
				off, end := int(r.off), int(r.off)+int(r.plen)
				row.data = b.arena[off:end:end]
			}
			if !row.readable() {
				row.odd = oddRow(goTypeNames[row.types[1]], goTypeNames[row.types[2]], goTypeNames[row.types[3]])
			}
			b.rows = append(b.rows, row)
		}
		q.pending = rc == C.BAGREAD_ROW
		switch rc {
		case 0:
			return false, nil
		case C.BAGREAD_DONE:
			return true, nil
		case C.BAGREAD_ROW:
			if len(b.rows) > 0 {
				return false, nil // the row waits for the next batch
			}
			// Alone in its batch: an arena of the row's size (its rows
			// hold no slices of the old one yet).
			b.arena = make([]byte, 0, int(need))
		default:
			return false, q.errorf("step", rc)
		}
	}
}

func (q *rangeQuery) close() error {
	var err error
	if q.px != nil {
		if q.px.blob != nil {
			C.sqlite3_blob_close(q.px.blob)
		}
		C.free(unsafe.Pointer(q.px))
		C.free(unsafe.Pointer(q.pxIDs))
		q.px, q.pxIDs = nil, nil
	}
	if q.stmt != nil {
		C.sqlite3_finalize(q.stmt)
		q.stmt = nil
	}
	if q.db != nil {
		if rc := C.sqlite3_close_v2(q.db); rc != 0 {
			err = errors.New("sqlite3_close_v2 failed")
		}
		q.db = nil
	}
	return err
}
