package bagread

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// openPrefix reads the prefix topics' rows without their data column and
// fetches the first bytes of each through incremental blob I/O. A damaged
// file is read whole (and cut in Iterator.fill), so its problems are the
// same as without prefixes.
func (h *sqliteHandle) openPrefix(fileIndex int, sel selection, order Order, px *prefixSpec) (stream, error) {
	if h.damaged || h.trunc != nil || len(h.prefixIDs(px)) == 0 {
		return h.open(fileIndex, sel, order)
	}
	return h.openRead(fileIndex, sel, order, px)
}

// prefixIDs are the topic ids of the prefix topics, sorted.
func (h *sqliteHandle) prefixIDs(px *prefixSpec) []string {
	var ids []string
	for id, t := range h.topics {
		if px.has(t.name) {
			ids = append(ids, strconv.FormatInt(id, 10))
		}
	}
	sort.Strings(ids)
	return ids
}

// dataColumn is the fourth column of the messages query: data, or its
// length for the prefix topics and for any row longer than the decode
// budget. SQLite takes the length from the record header without loading
// the cell's overflow pages (substr(data, 1, n) would load all of them:
// measured, it reads the whole blob), so a row of gigabytes costs nothing
// until it is asked for: a prefix topic's through incremental blob I/O,
// any other is a message error (next).
func (h *sqliteHandle) dataColumn(px *prefixSpec) string {
	var whens []string
	if ids := h.prefixIDs(px); len(ids) > 0 {
		if len(ids) == 1 {
			whens = append(whens, "WHEN topic_id = "+ids[0]+" THEN length(data)") // a little cheaper than IN
		} else {
			whens = append(whens, "WHEN topic_id IN ("+strings.Join(ids, ",")+") THEN length(data)")
		}
	}
	if h.limit > 0 {
		whens = append(whens, "WHEN length(data) > "+strconv.FormatInt(h.limit, 10)+" THEN length(data)")
	}
	if len(whens) == 0 {
		return "data"
	}
	return "CASE " + strings.Join(whens, " ") + " ELSE data END"
}

// readPrefix reads the first px.n bytes of row id's data and its full
// length (size 0 when the whole cell was read). A MESSAGE-mode zstd frame
// is read whole, as only a whole frame decodes.
func (s *sqliteStream) readPrefix(id int64) (data []byte, size int64, err error) {
	if s.blob == nil {
		b, err := openBlobReader(s.h.dsn)
		if err != nil {
			return nil, 0, err
		}
		s.blob = b
	}
	full, err := s.blob.seek(id)
	if err != nil {
		return nil, 0, err
	}
	n := min(full, int64(max(s.px.n, len(zstdMagic))))
	s.buf = growLen(s.buf, int(n))
	if err := s.blob.read(s.buf); err != nil {
		return nil, 0, err
	}
	if n < full && isZstdFrame(s.buf) {
		if s.h.limit > 0 && full > s.h.limit {
			return nil, 0, fmt.Errorf("MESSAGE-mode frame of %d bytes: %w (%d)", full, ErrTooLarge, s.h.limit)
		}
		s.buf = growLen(s.buf, int(full))
		if err := s.blob.read(s.buf); err != nil {
			return nil, 0, err
		}
		n = full
	}
	if n == full {
		return s.buf, 0, nil
	}
	return s.buf, full, nil
}
