package bagread

// The driver (mattn/go-sqlite3 v1.14.53) has no incremental blob I/O, but
// it links SQLite into the binary, so its C API is callable here: a prefix
// read opens its own read-only connection for it (see prefix.go).

/*
#include <stdlib.h>
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_blob sqlite3_blob;
typedef long long sqlite3_int64;
extern int sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags, const char *zVfs);
extern int sqlite3_close_v2(sqlite3 *);
extern int sqlite3_blob_open(sqlite3 *, const char *zDb, const char *zTable, const char *zColumn, sqlite3_int64 iRow, int flags, sqlite3_blob **ppBlob);
extern int sqlite3_blob_reopen(sqlite3_blob *, sqlite3_int64);
extern int sqlite3_blob_close(sqlite3_blob *);
extern int sqlite3_blob_bytes(sqlite3_blob *);
extern int sqlite3_blob_read(sqlite3_blob *, void *Z, int N, int iOffset);
extern const char *sqlite3_errmsg(sqlite3 *);
extern int sqlite3_exec(sqlite3 *, const char *sql, void *callback, void *arg, char **errmsg);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// SQLite open flags (sqlite3.h): read-only, URI file names.
const (
	sqliteOpenReadOnly = 0x00000001
	sqliteOpenURI      = 0x00000040
	sqliteOpenNoMutex  = 0x00008000
)

// blobReader reads the start of messages.data cells by rowid through
// SQLite's incremental blob I/O, which loads only the pages that hold the
// bytes asked for. One goroutine at a time.
type blobReader struct {
	db   *C.sqlite3
	blob *C.sqlite3_blob
}

var cMain, cMessages, cData = C.CString("main"), C.CString("messages"), C.CString("data")

func openBlobReader(dsn string) (*blobReader, error) {
	db, err := openCConn(dsn)
	if err != nil {
		return nil, err
	}
	return &blobReader{db: db}, nil
}

// openCConn opens a read-only connection for reading messages (see
// sqliteReadCacheKiB), for use by one goroutine at a time.
func openCConn(dsn string) (*C.sqlite3, error) {
	cs := C.CString(dsn)
	defer C.free(unsafe.Pointer(cs))
	var db *C.sqlite3
	if rc := C.sqlite3_open_v2(cs, &db, sqliteOpenReadOnly|sqliteOpenURI|sqliteOpenNoMutex, nil); rc != 0 {
		err := fmt.Errorf("sqlite3_open_v2: code %d", int(rc))
		if db != nil {
			err = fmt.Errorf("sqlite3_open_v2: %s (code %d)", C.GoString(C.sqlite3_errmsg(db)), int(rc))
		}
		C.sqlite3_close_v2(db)
		return nil, err
	}
	pragma := C.CString(fmt.Sprintf("PRAGMA cache_size = -%d", sqliteReadCacheKiB))
	defer C.free(unsafe.Pointer(pragma))
	if rc := C.sqlite3_exec(db, pragma, nil, nil, nil); rc != 0 {
		err := fmt.Errorf("set cache size: %s (code %d)", C.GoString(C.sqlite3_errmsg(db)), int(rc))
		C.sqlite3_close_v2(db)
		return nil, err
	}
	return db, nil
}

// seek points the reader at row rowid and returns its data length.
func (b *blobReader) seek(rowid int64) (int64, error) {
	var rc C.int
	if b.blob == nil {
		rc = C.sqlite3_blob_open(b.db, cMain, cMessages, cData, C.sqlite3_int64(rowid), 0, &b.blob)
	} else {
		rc = C.sqlite3_blob_reopen(b.blob, C.sqlite3_int64(rowid))
	}
	if rc != 0 {
		err := fmt.Errorf("open blob of rowid %d: %s (code %d)", rowid, C.GoString(C.sqlite3_errmsg(b.db)), int(rc))
		if b.blob != nil {
			// A failed reopen leaves the handle aborted: start over next time.
			C.sqlite3_blob_close(b.blob)
			b.blob = nil
		}
		return 0, err
	}
	return int64(C.sqlite3_blob_bytes(b.blob)), nil
}

// read fills p from offset 0 of the current row's data.
func (b *blobReader) read(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if rc := C.sqlite3_blob_read(b.blob, unsafe.Pointer(&p[0]), C.int(len(p)), 0); rc != 0 {
		return fmt.Errorf("read blob: %s (code %d)", C.GoString(C.sqlite3_errmsg(b.db)), int(rc))
	}
	return nil
}

func (b *blobReader) close() {
	if b.blob != nil {
		C.sqlite3_blob_close(b.blob)
		b.blob = nil
	}
	C.sqlite3_close_v2(b.db)
	b.db = nil
}
