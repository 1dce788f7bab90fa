package bagread

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// An MCAP file's bytes come from the file on disk, opened anew by every
// reader that needs its own position, or from memory (memFile): the fuzz
// targets hand the reader their input without a round trip through the
// file system, which cost more than reading the input.

// memFile is a storage file not on the local file system: its name (for
// messages) and its bytes in memory, or, when ra is set, a random-access
// reader of size bytes (an object in a store, OpenSources).
type memFile struct {
	name string
	data []byte
	ra   io.ReaderAt
	size int64
	fail *failReader // ra's guard, when ra is set
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

// source opens the handle's bytes for random access and gives their size
// and what to close when done.
func (h *mcapHandle) source() (io.ReaderAt, int64, io.Closer, error) {
	if h.mem != nil && h.mem.ra != nil {
		return h.mem.ra, h.mem.size, nopCloser{}, nil
	}
	if h.mem != nil {
		return bytes.NewReader(h.mem.data), int64(len(h.mem.data)), nopCloser{}, nil
	}
	f, err := openRegular(h.path)
	if err != nil {
		return nil, 0, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	return f, st.Size(), f, nil
}

// openMemMCAP opens an MCAP file (plain or FILE-mode zstd) held in memory
// as a one-file bag, exactly as Open would open it from disk. data must
// not change while the bag is open.
func openMemMCAP(name string, data []byte, opts Options) (*Bag, error) {
	b := &Bag{Path: name, opts: opts}
	storage, compressed, err := sniffFrom(name, bytes.NewReader(data), b.limit())
	if err == nil && storage != StorageMCAP {
		err = fmt.Errorf("not an MCAP file")
	}
	if err != nil {
		return nil, &FileError{Path: name, Offset: 0, Op: "identify storage", Err: err}
	}
	o, err := b.openMCAPFrom(name, &memFile{name: name, data: data}, compressed)
	if err != nil {
		return nil, err
	}
	o.file.Size = int64(len(data))
	b.add(name, storage, compressed, o)
	b.finish()
	return b, nil
}

// failReader keeps the first error a source's reads returned other than
// the end of the file. A failed read of an object in a store (it changed,
// the store kept failing or stalling) is not damage in the file: the
// reader would otherwise report it as a cut file and go on, a report of
// part of the bag, so every stream of the file ends and reports it as
// its fatal error (mcapHandle.sourceErr). Safe for concurrent use.
type failReader struct {
	r     io.ReaderAt
	mu    sync.Mutex
	first error
}

func (f *failReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.r.ReadAt(p, off)
	f.note(err)
	return n, err
}

func (f *failReader) note(err error) {
	if err == nil || errors.Is(err, io.EOF) {
		return
	}
	f.mu.Lock()
	if f.first == nil {
		f.first = err
	}
	f.mu.Unlock()
}

func (f *failReader) err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.first
}

// Plan passes a read plan on to a RangeReader source, keeping watch over
// the reads of the reader it returns; nil when the source plans nothing.
func (f *failReader) Plan(ranges []Range) PlannedReader {
	rr, ok := f.r.(RangeReader)
	if !ok {
		return nil
	}
	p := rr.Plan(ranges)
	if p == nil {
		return nil
	}
	return &failPlanned{p: p, f: f}
}

type failPlanned struct {
	p PlannedReader
	f *failReader
}

func (w *failPlanned) ReadAt(b []byte, off int64) (int, error) {
	n, err := w.p.ReadAt(b, off)
	w.f.note(err)
	return n, err
}

func (w *failPlanned) Close() error { return w.p.Close() }

// sourceErr is the error that ended reading the file from its source, if
// any (failReader).
func (h *mcapHandle) sourceErr() error {
	if h.mem == nil || h.mem.fail == nil {
		return nil
	}
	return h.mem.fail.err()
}
