package bagread

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mattn/go-sqlite3"
)

// truncInfo describes a db3 cut short: its size on disk and what its
// header claims.
type truncInfo struct {
	size       int64 // bytes on disk
	headerSize int64 // in-header page count × page size
}

// isCorrupt reports whether err is SQLite's "database disk image is
// malformed" (SQLITE_CORRUPT) or "file is not a database" (SQLITE_NOTADB).
func isCorrupt(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB) {
		return true
	}
	return err != nil && strings.Contains(err.Error(), "malformed")
}

// sqliteHeader reads page size and in-header page count of a db3.
func sqliteHeader(path string) (pageSize, pages int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return 0, 0, fmt.Errorf("sqlite header: %w", err)
	}
	pageSize = int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize&(pageSize-1) != 0 {
		return 0, 0, fmt.Errorf("sqlite header: bad page size %d", pageSize)
	}
	return pageSize, int64(binary.BigEndian.Uint32(h[28:32])), nil
}

// truncatedCopy checks whether the db3 at path is shorter than its header
// says and, if so, writes a private copy cut to whole pages with the
// header's database size patched to match, so SQLite reads the pages that
// are there. ok is false when the file is not truncated or too short to
// hold even one page.
func (b *Bag) truncatedCopy(path string) (copyPath string, ti truncInfo, ok bool, err error) {
	pageSize, pages, err := sqliteHeader(path)
	if err != nil {
		return "", ti, false, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", ti, false, nil
	}
	ti = truncInfo{size: st.Size(), headerSize: pages * pageSize}
	keep := st.Size() / pageSize
	if st.Size() >= ti.headerSize || keep < 1 || keep > int64(^uint32(0)) {
		return "", ti, false, nil
	}
	dir, err := b.privateDir()
	if err != nil {
		return "", ti, false, err
	}
	copyPath = filepath.Join(dir, fmt.Sprintf("%d_truncated_%s", len(b.Files), filepath.Base(path)))
	if err := copyPrefix(path, copyPath, keep*pageSize); err != nil {
		return "", ti, false, fmt.Errorf("copy truncated db3 to a private dir: %w", err)
	}
	out, err := os.OpenFile(copyPath, os.O_WRONLY, 0)
	if err != nil {
		return "", ti, false, err
	}
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(keep))
	if _, err := out.WriteAt(n[:], 28); err != nil {
		out.Close()
		return "", ti, false, fmt.Errorf("patch private copy header: %w", err)
	}
	if err := out.Close(); err != nil {
		return "", ti, false, err
	}
	return copyPath, ti, true, nil
}

// copyPrefix copies the first n bytes of src to a new file dst.
func copyPrefix(src, dst string, n int64) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.CopyN(out, in, n); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// scanCount counts a damaged file by reading every row, data included, in
// rowid order, as the message stream reads it, until the first error. It
// returns the last rowid read (-1 if none) and the error that stopped it
// (nil when the whole table was read).
func (h *sqliteHandle) scanCount(byID map[int64]*storageTopic, f *File) (int64, error) {
	rows, err := h.db.Query("SELECT id, topic_id, timestamp, data FROM messages ORDER BY id")
	if err != nil {
		return -1, err
	}
	defer rows.Close()
	last := int64(-1)
	for rows.Next() {
		var id, topic, ts int64
		var data sql.RawBytes
		if err := rows.Scan(&id, &topic, &ts, &data); err != nil {
			return last, err
		}
		if t := byID[topic]; t != nil {
			t.Count++
		} else {
			f.OrphanMessages++
		}
		if f.MessageCount == 0 || ts < f.StartNS {
			f.StartNS = ts
		}
		if f.MessageCount == 0 || ts > f.EndNS {
			f.EndNS = ts
		}
		f.MessageCount++
		last = id
	}
	return last, rows.Err()
}
