package bagread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A record-order read of a db3 spends most of its time in SQLite: stepping
// the statement, decoding each record, copying each blob. The messages
// table is a plain rowid b-tree, and its file format is public
// (https://www.sqlite.org/fileformat2.html), so a healthy file is walked
// here in Go instead: leaf pages and their overflow chains are read with
// large sequential preads, and a row's payload is handed out as a slice of
// the read buffer when it lies on one page. SQLite still opens the file,
// reads schema, topics and counts, and reads every file the walker is not
// sure of; when the walk meets anything it does not expect, the stream
// goes on from that row through SQLite (db3stream.go), which then reports
// the damage as it always did.

// errWalk marks a page or record the walker does not read: the stream
// falls back to SQLite from the row it stood on.
var errWalk = errors.New("db3 walk")

func walkErr(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errWalk}, a...)...)
}

// Limits of the walk. SQLite's own b-tree depth limit is 20
// (BTCURSOR_MAX_DEPTH in btreeInt.h, 3.45); a deeper tree is corrupt.
const (
	db3MaxDepth = 20
	// db3BlockMax bounds the sequential read of leaf and overflow pages: a
	// block starts at the page asked for (one page) and doubles while the
	// walk keeps reading on past it.
	db3BlockMax = 1 << 20
)

// db3Geom is what the walk takes from the 100-byte database header.
type db3Geom struct {
	pageSize int    // 512..65536
	usable   int    // pageSize minus the reserved bytes at the end of each page
	pages    uint32 // pages in the file
}

// parseDB3Header checks the header of a file of size bytes and returns its
// geometry; an error means the walker does not read the file.
func parseDB3Header(h []byte, size int64) (db3Geom, error) {
	var g db3Geom
	if len(h) < 100 || string(h[:16]) != "SQLite format 3\x00" {
		return g, walkErr("not an SQLite 3 header")
	}
	ps := int(binary.BigEndian.Uint16(h[16:]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		return g, walkErr("page size %d", ps)
	}
	// File format versions at 18/19: 1 legacy, 2 WAL. A WAL-mode file may
	// have committed pages in its -wal, which the caller rules out.
	if h[18] > 2 || h[19] > 2 || h[18] == 0 || h[19] == 0 {
		return g, walkErr("file format versions %d/%d", h[18], h[19])
	}
	// Payload fractions at 21..23 are fixed at 64, 32, 32.
	if h[21] != 64 || h[22] != 32 || h[23] != 32 {
		return g, walkErr("payload fractions %d/%d/%d", h[21], h[22], h[23])
	}
	usable := ps - int(h[20])
	if usable < 480 {
		return g, walkErr("usable page size %d", usable)
	}
	if size%int64(ps) != 0 || size/int64(ps) > 1<<31 {
		return g, walkErr("file of %d bytes is not a whole number of %d-byte pages", size, ps)
	}
	pages := uint32(size / int64(ps))
	// The in-header page count is valid when the change counter (24) equals
	// version-valid-for (92); SQLite then trusts it over the file size.
	if n := binary.BigEndian.Uint32(h[28:]); n != 0 && binary.BigEndian.Uint32(h[24:]) == binary.BigEndian.Uint32(h[92:]) && n != pages {
		return g, walkErr("header says %d pages, file has %d", n, pages)
	}
	return db3Geom{pageSize: ps, usable: usable, pages: pages}, nil
}

// maxLocal is how many bytes of a P-byte payload a table leaf cell keeps
// on its page (the rest goes to overflow pages), per the file format.
func (g db3Geom) maxLocal(p int64) int {
	u := int64(g.usable)
	x := u - 35
	if p <= x {
		return int(p)
	}
	m := ((u-12)*32/255 - 23)
	k := m + (p-m)%(u-4)
	if k <= x {
		return int(k)
	}
	return int(m)
}

// pageReader serves pages of the file: leaf and overflow pages from a
// block read ahead sequentially, interior pages by single preads.
type pageReader struct {
	r     io.ReaderAt
	g     db3Geom
	buf   []byte // the block: pages first..first+n-1
	first uint32
	n     uint32
	block int // bytes of the next block read
	// maxBlock bounds block; one page reads only the pages needed.
	maxBlock int
	reads    int // preads, for tests and benchmarks
}

func newPageReader(r io.ReaderAt, g db3Geom) *pageReader {
	return &pageReader{r: r, g: g, block: g.pageSize, maxBlock: max(db3BlockMax, g.pageSize)}
}

func (pr *pageReader) check(p uint32) error {
	if p < 2 || p > pr.g.pages {
		return walkErr("page %d out of range (file has %d)", p, pr.g.pages)
	}
	return nil
}

// page returns page p from the block, reading a new block starting at p
// when p is not in it. The slice is valid until the next call.
func (pr *pageReader) page(p uint32) ([]byte, error) {
	if p-pr.first < pr.n && p >= pr.first {
		off := int(p-pr.first) * pr.g.pageSize
		return pr.buf[off : off+pr.g.pageSize : off+pr.g.pageSize], nil
	}
	if err := pr.check(p); err != nil {
		return nil, err
	}
	// Reading on just past the block: the walk is sequential, read more at
	// once; just before it (a leaf's first overflow pages): as much again;
	// a jump (a prefix read over long overflow chains): one page, so that
	// only the pages needed are read.
	switch {
	case pr.n == 0:
	case p >= pr.first+pr.n && p < pr.first+2*pr.n:
		pr.block = min(2*pr.block, pr.maxBlock)
	case p < pr.first && p+pr.n >= pr.first:
	default:
		pr.block = pr.g.pageSize
	}
	n := uint32(pr.block / pr.g.pageSize)
	// The block starts a little before p: SQLite allocates a row's
	// overflow pages before the leaf page a split adds for it, so a leaf's
	// first rows point a few pages back.
	first := max(p-min(p-2, n/8), 2)
	n = min(n, pr.g.pages-first+1)
	need := int(n) * pr.g.pageSize
	if cap(pr.buf) < need {
		pr.buf = make([]byte, need, max(need, db3BlockMax))
	}
	pr.buf = pr.buf[:need]
	pr.n = 0
	pr.reads++
	if _, err := pr.r.ReadAt(pr.buf, int64(first-1)*int64(pr.g.pageSize)); err != nil {
		return nil, fmt.Errorf("%w: read page %d: %w", errWalk, p, err)
	}
	pr.first, pr.n = first, n
	off := int(p-first) * pr.g.pageSize
	return pr.buf[off : off+pr.g.pageSize : off+pr.g.pageSize], nil
}

// peek returns page p from the block when it is there, else reads it
// alone into tmp: interior pages are read outside the block so that the
// walk's sequential block stays. The slice is valid until the next call.
func (pr *pageReader) peek(p uint32, tmp []byte) ([]byte, error) {
	if err := pr.check(p); err != nil {
		return nil, err
	}
	if p-pr.first < pr.n && p >= pr.first {
		off := int(p-pr.first) * pr.g.pageSize
		return pr.buf[off : off+pr.g.pageSize : off+pr.g.pageSize], nil
	}
	if pr.n > 0 && p >= pr.first+pr.n && p < pr.first+2*pr.n {
		// Just past the block (a whole read's next leaf): read on.
		return pr.page(p)
	}
	pr.reads++
	if _, err := pr.r.ReadAt(tmp[:pr.g.pageSize], int64(p-1)*int64(pr.g.pageSize)); err != nil {
		return nil, fmt.Errorf("%w: read page %d: %w", errWalk, p, err)
	}
	return tmp[:pr.g.pageSize], nil
}

// uvarint decodes SQLite's big-endian varint (1..9 bytes, the ninth
// byte whole); n is 0 when b is too short.
func uvarint(b []byte) (v uint64, n int) {
	for i := 0; i < 8; i++ {
		if i >= len(b) {
			return 0, 0
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}

// walkFrame is one interior page on the walk's path: its children in key
// order and the next one to visit.
type walkFrame struct {
	page     uint32
	children []uint32
	next     int
}

// tableWalk visits the cells of a table b-tree in rowid order.
type tableWalk struct {
	pr    *pageReader
	g     db3Geom
	stack []walkFrame
	tmp   []byte // an interior page being parsed, or a leaf read alone
	// The leaf being read and the next cell on it.
	leaf      uint32
	ncell     int
	cell      int
	leafInTmp bool // the leaf page is in tmp, not in the reader's block
	hdr       int  // offset of the leaf's b-tree header (100 on page 1)
	lastRow   int64
	started   bool
	overflow  []byte // payloads assembled across overflow pages
	visited   int    // pages of the tree entered, to bound a walk of a cyclic tree
}

func newTableWalk(pr *pageReader, root uint32) (*tableWalk, error) {
	w := &tableWalk{pr: pr, g: pr.g, tmp: make([]byte, pr.g.pageSize)}
	if err := w.descend(root); err != nil {
		return nil, err
	}
	return w, nil
}

// descend enters page p: pushes it when interior, down its first child,
// until a leaf.
func (w *tableWalk) descend(p uint32) error {
	for {
		w.visited++
		if w.visited > int(w.g.pages) {
			return walkErr("more tree pages visited than the file has: a cycle")
		}
		pg, err := w.pr.peek(p, w.tmp)
		if err != nil {
			return err
		}
		pg = pg[:w.g.usable]
		switch pg[0] {
		case 0x0d:
			ncell := int(binary.BigEndian.Uint16(pg[3:]))
			if 8+2*ncell > w.g.usable {
				return walkErr("leaf page %d: %d cells", p, ncell)
			}
			w.leaf, w.ncell, w.cell, w.hdr = p, ncell, 0, 0
			// A leaf read alone stays in tmp until the next descend: a
			// prefix read, which jumps over overflow pages from leaf to
			// leaf, then reads each leaf once.
			w.leafInTmp = len(pg) > 0 && len(w.tmp) > 0 && &pg[0] == &w.tmp[0]
			return nil
		case 0x05:
			if len(w.stack) >= db3MaxDepth {
				return walkErr("b-tree deeper than %d pages at page %d", db3MaxDepth, p)
			}
			ncell := int(binary.BigEndian.Uint16(pg[3:]))
			if 12+2*ncell > w.g.usable {
				return walkErr("interior page %d: %d cells", p, ncell)
			}
			f := walkFrame{page: p}
			if k := len(w.stack); k < cap(w.stack) {
				f.children = w.stack[:k+1][k].children[:0] // reuse the slot's slice
			}
			for i := range ncell {
				off := int(binary.BigEndian.Uint16(pg[12+2*i:]))
				if off < 12+2*ncell || off+4 > w.g.usable {
					return walkErr("interior page %d: cell %d at offset %d", p, i, off)
				}
				f.children = append(f.children, binary.BigEndian.Uint32(pg[off:]))
			}
			f.children = append(f.children, binary.BigEndian.Uint32(pg[8:]))
			f.next = 1
			w.stack = append(w.stack, f)
			p = f.children[0]
		default:
			return walkErr("page %d of type %#x in the table b-tree", p, pg[0])
		}
	}
}

// db3Cell is one table leaf cell: rowid, payload size, the payload bytes on
// the leaf (valid until the walk moves) and the first overflow page.
type db3Cell struct {
	rowid    int64
	size     int64
	local    []byte
	overflow uint32
}

// next returns the next cell in rowid order; ok false at the end.
func (w *tableWalk) next() (c db3Cell, ok bool, err error) {
	for w.cell >= w.ncell {
		// Up to the nearest frame with a child left, then down it.
		for len(w.stack) > 0 && w.stack[len(w.stack)-1].next >= len(w.stack[len(w.stack)-1].children) {
			w.stack = w.stack[:len(w.stack)-1]
		}
		if len(w.stack) == 0 {
			w.ncell, w.cell = 0, 0
			return c, false, nil
		}
		f := &w.stack[len(w.stack)-1]
		child := f.children[f.next]
		f.next++
		if err := w.descend(child); err != nil {
			return c, false, err
		}
	}
	pg := w.tmp
	if !w.leafInTmp {
		var err error
		if pg, err = w.pr.page(w.leaf); err != nil {
			return c, false, err
		}
	}
	u := w.g.usable
	pg = pg[:u]
	i := w.cell
	off := int(binary.BigEndian.Uint16(pg[w.hdr+8+2*i:]))
	if off < w.hdr+8+2*w.ncell || off >= u {
		return c, false, walkErr("leaf page %d: cell %d at offset %d", w.leaf, i, off)
	}
	cell := pg[off:]
	p, n := uvarint(cell)
	if n == 0 {
		return c, false, walkErr("leaf page %d: cell %d: payload size", w.leaf, i)
	}
	cell = cell[n:]
	rowid, n := uvarint(cell)
	if n == 0 {
		return c, false, walkErr("leaf page %d: cell %d: rowid", w.leaf, i)
	}
	cell = cell[n:]
	// A payload larger than the file is corrupt; it also bounds memory.
	if p > uint64(w.g.pages)*uint64(w.g.usable) {
		return c, false, walkErr("leaf page %d: cell %d: payload of %d bytes", w.leaf, i, p)
	}
	local := w.g.maxLocal(int64(p))
	need := local
	if int64(local) < int64(p) {
		need += 4
	}
	if need > len(cell) {
		return c, false, walkErr("leaf page %d: cell %d runs past the page", w.leaf, i)
	}
	c = db3Cell{rowid: int64(rowid), size: int64(p), local: cell[:local:local]}
	if int64(local) < int64(p) {
		c.overflow = binary.BigEndian.Uint32(cell[local:])
	}
	if w.started && c.rowid <= w.lastRow {
		return c, false, walkErr("leaf page %d: rowid %d after %d", w.leaf, c.rowid, w.lastRow)
	}
	w.started, w.lastRow = true, c.rowid
	w.cell++
	return c, true, nil
}

// payload returns bytes [from, to) of c's payload: a slice of the page
// when they are local, else assembled from the overflow chain into the
// walk's buffer (valid until the next call). The chain is followed only as
// far as to needs.
func (w *tableWalk) payload(c *db3Cell, from, to int64) ([]byte, error) {
	if from < 0 || to < from || to > c.size {
		return nil, walkErr("payload range %d..%d of %d bytes", from, to, c.size)
	}
	nl := int64(len(c.local))
	if to <= nl {
		return c.local[from:to], nil
	}
	out := w.overflow[:0]
	if from < nl {
		out = append(out, c.local[from:]...)
	}
	if cap(out) < int(to-from) {
		out = make([]byte, len(out), int(to-from))
		if from < nl {
			copy(out, c.local[from:])
		}
	}
	per := int64(w.g.usable - 4)
	p := c.overflow
	pos := nl // payload offset of the current overflow page's first byte
	left := (c.size - nl + per - 1) / per
	for pos < to {
		if left == 0 || p == 0 {
			return nil, walkErr("row %d: overflow chain ends at byte %d of %d", c.rowid, pos, c.size)
		}
		left--
		pg, err := w.pr.page(p)
		if err != nil {
			return nil, err
		}
		end := min(pos+per, c.size)
		if end > from {
			a, b := max(from, pos)-pos, min(to, end)-pos
			out = append(out, pg[4+a:4+b]...)
		}
		pos = end
		p = binary.BigEndian.Uint32(pg)
	}
	w.overflow = out[:0]
	return out, nil
}

// db3Record is a messages row decoded from its cell: each column's SQLite
// type, the two integer columns, and where data lies in the payload.
type db3Record struct {
	types            [4]uint8
	topicID, ts      int64
	dataOff, dataLen int64
}

// serialInt reads an integer of serial type t (1..6, 8, 9) from b.
func serialInt(t uint64, b []byte) (v int64, n int, ok bool) {
	switch t {
	case 8:
		return 0, 0, true
	case 9:
		return 1, 0, true
	case 1:
		n = 1
	case 2:
		n = 2
	case 3:
		n = 3
	case 4:
		n = 4
	case 5:
		n = 6
	case 6:
		n = 8
	default:
		return 0, 0, false
	}
	if len(b) < n {
		return 0, 0, false
	}
	// Big-endian two's complement, sign-extended from n bytes.
	var u uint64
	for _, x := range b[:n] {
		u = u<<8 | uint64(x)
	}
	shift := 64 - 8*uint(n)
	return int64(u<<shift) >> shift, n, true
}

// serialSize is the length of a value of serial type t, and its SQLite type.
func serialSize(t uint64) (n int64, typ uint8, ok bool) {
	switch {
	case t == 0:
		return 0, sqliteNull, true
	case t <= 6:
		return [...]int64{0, 1, 2, 3, 4, 6, 8}[t], sqliteInteger, true
	case t == 7:
		return 8, sqliteFloat, true
	case t == 8 || t == 9:
		return 0, sqliteInteger, true
	case t >= 12 && t%2 == 0:
		return int64(t-12) / 2, sqliteBlob, true
	case t >= 13:
		return int64(t-13) / 2, sqliteText, true
	}
	return 0, 0, false // 10, 11: reserved
}

// record decodes the messages row of cell c (columns id, topic_id,
// timestamp, data: id is the rowid, stored as NULL). Any record the walker
// cannot be sure to read as SQLite would is errWalk.
func (w *tableWalk) record(c *db3Cell) (db3Record, error) {
	var r db3Record
	b := c.local
	hs, n := uvarint(b)
	if n == 0 || hs > uint64(len(b)) || hs < uint64(n) {
		return r, walkErr("row %d: record header of %d bytes", c.rowid, hs)
	}
	hdr, body := b[n:hs], int64(hs)
	var st [4]uint64
	for k := range 4 {
		t, n := uvarint(hdr)
		if n == 0 {
			return r, walkErr("row %d: record of %d columns", c.rowid, k)
		}
		st[k], hdr = t, hdr[n:]
	}
	if len(hdr) != 0 {
		return r, walkErr("row %d: record of more than 4 columns", c.rowid)
	}
	if st[0] != 0 {
		return r, walkErr("row %d: id stored as serial type %d", c.rowid, st[0])
	}
	r.types[0] = sqliteInteger
	pos := body
	for k := 1; k < 4; k++ {
		size, typ, ok := serialSize(st[k])
		if !ok {
			return r, walkErr("row %d: serial type %d", c.rowid, st[k])
		}
		r.types[k] = typ
		if k < 3 && typ == sqliteInteger {
			if pos+size > int64(len(b)) {
				return r, walkErr("row %d: integer column past the local payload", c.rowid)
			}
			v, _, _ := serialInt(st[k], b[pos:])
			if k == 1 {
				r.topicID = v
			} else {
				r.ts = v
			}
		}
		if k == 3 {
			r.dataOff, r.dataLen = pos, size
		}
		pos += size
	}
	if pos != c.size {
		return r, walkErr("row %d: record of %d bytes in a payload of %d", c.rowid, pos, c.size)
	}
	return r, nil
}
