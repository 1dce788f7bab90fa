package bagread

import (
	"fmt"
	"io"
	"strings"
)

// Source is one storage file of a bag that is not read from a local
// directory by path: an object in a store, read in place by random access
// (plain MCAP), or already copied to a private local file (db3,
// file-compressed bags), which is then opened as Open would open it.
type Source struct {
	// Name is what Files and error messages call the file (a URL).
	Name string
	// Size is the file's length in bytes.
	Size int64
	// ReaderAt reads the file in place; it must fail, not change, when the
	// underlying object changes. Nil when LocalPath is set.
	ReaderAt io.ReaderAt
	// LocalPath is a private local copy of the file.
	LocalPath string
}

// OpenSources opens a bag whose storage files are sources rather than the
// files of a local directory: name is the bag's name (its URL), metadata
// the bytes of its metadata.yaml (nil if it has none; then files are in
// split order already). The bag is read exactly as Open reads one, with
// the same checks, recoveries and errors, naming each file by its Name.
// release, when not nil, is called once by Close (or here, on an error):
// it removes the private copies.
func OpenSources(name string, metadata []byte, files []Source, opts Options, release func() error) (*Bag, error) {
	b := &Bag{Path: name, opts: opts, release: release, sourced: true}
	if metadata != nil {
		md, err := ParseMetadata(metadata)
		if err != nil {
			b.reconstruct(fmt.Sprintf("%s/metadata.yaml: %v", name, err))
		} else {
			b.Metadata = md
		}
	} else if len(files) > 1 || (len(files) == 1 && files[0].Name != name) {
		b.reconstruct("there is no metadata.yaml in " + name)
	}
	if len(files) == 0 {
		b.Close()
		return nil, fmt.Errorf("%s: %w: no storage files (.db3, .mcap, .zstd) found", name, ErrNotABag)
	}
	for _, f := range files {
		if err := b.addSource(f); err != nil {
			b.Close()
			return nil, err
		}
	}
	b.finish()
	return b, nil
}

// addSource opens one source and merges it into the bag.
func (b *Bag) addSource(f Source) error {
	if f.ReaderAt == nil {
		n := len(b.Files)
		if err := b.addFile(f.LocalPath); err != nil {
			// Named as the same file on disk would be: by its Name.
			return &renamedError{err: err, text: strings.ReplaceAll(err.Error(), f.LocalPath, f.Name)}
		}
		b.Files[n].Path = f.Name
		return nil
	}
	storage, compressed, err := sniffFrom(f.Name, io.NewSectionReader(f.ReaderAt, 0, f.Size), b.limit())
	if err != nil {
		// Worded as Open words the same file on disk.
		return &FileError{Path: f.Name, Offset: -1, Err: err}
	}
	if storage != StorageMCAP || compressed {
		return &FileError{Path: f.Name, Offset: 0, Op: "identify storage", Err: fmt.Errorf("not a plain MCAP file: read it from a local copy")}
	}
	fr := &failReader{r: f.ReaderAt}
	o, err := b.openMCAPFrom(f.Name, &memFile{name: f.Name, ra: fr, size: f.Size, fail: fr}, false)
	if err != nil {
		return err
	}
	o.file.Size = f.Size
	b.add(f.Name, storage, false, o)
	return nil
}

// renamedError is an error about a private copy, its text naming the
// source instead; errors.Is/As still see the cause.
type renamedError struct {
	err  error
	text string
}

func (e *renamedError) Error() string { return e.text }
func (e *renamedError) Unwrap() error { return e.err }
