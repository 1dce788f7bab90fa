// Package bagcopy writes a copy of a rosbag2 bag opened by bagread, message
// by message, to MCAP or sqlite3 storage: one output file per input file
// (split boundaries kept), messages in log-time order within each, the
// input's schemas, channels, MCAP metadata records and attachments, and a
// metadata.yaml that keeps the input's version, ros_distro and custom_data.
// The caller decides each message's bytes; bagcopy changes none.
//
// It writes into a directory the caller names (fix writes a temporary one
// beside its output and renames it on success) and never touches the
// input.
package bagcopy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bagclock/bagclock/bagread"
)

// Storage identifiers, as in metadata.yaml.
const (
	StorageMCAP    = bagread.StorageMCAP
	StorageSQLite3 = bagread.StorageSQLite3
)

// Options controls the copy.
type Options struct {
	// Storage is StorageMCAP (the default) or StorageSQLite3.
	Storage string
	// Compression is the MCAP chunk compression: "zstd", "lz4" or "none";
	// "" means the input's (zstd for a db3 input).
	Compression string
	// CustomData is added to metadata.yaml's custom_data (the input's
	// entries are kept unless named here).
	CustomData map[string]string
	// Library is written in each MCAP Header's library field.
	Library string
}

// Writer copies messages into the output files.
type Writer struct {
	in    *bagread.Bag
	dir   string
	opts  Options
	files []storageFile
	stats []fileStats
	// topicCounts counts written messages per topic name.
	topicCounts map[string]uint64
	closed      bool
}

// fileStats is what metadata.yaml says of one output file.
type fileStats struct {
	name           string
	count          uint64
	startNS, endNS int64
	lastLog        int64
}

type storageFile interface {
	write(m *bagread.Message, data []byte, logNS int64) error
	close() error
	abandon()
}

// Create makes dir (which must not exist) and opens one output file per
// input file.
func Create(dir string, in *bagread.Bag, opts Options) (*Writer, error) {
	if opts.Storage == "" {
		opts.Storage = StorageMCAP
	}
	if opts.Storage != StorageMCAP && opts.Storage != StorageSQLite3 {
		return nil, fmt.Errorf("storage %q: want mcap or sqlite3", opts.Storage)
	}
	if len(in.Files) == 0 {
		return nil, errors.New("the input has no storage files")
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	w := &Writer{in: in, dir: dir, opts: opts, topicCounts: map[string]uint64{}}
	base := filepath.Base(strings.TrimSuffix(dir, string(filepath.Separator)))
	base = strings.TrimPrefix(base, ".")
	if i := strings.Index(base, ".fix-tmp"); i > 0 {
		base = base[:i]
	}
	ext := ".mcap"
	if opts.Storage == StorageSQLite3 {
		ext = ".db3"
	}
	for i := range in.Files {
		name := fmt.Sprintf("%s_%d%s", base, i, ext)
		path := filepath.Join(dir, name)
		var f storageFile
		var err error
		if opts.Storage == StorageMCAP {
			f, err = newMCAPFile(path, in, i, &opts)
		} else {
			f, err = newSQLiteFile(path, in, i)
		}
		if err != nil {
			w.Abort()
			return nil, fmt.Errorf("creating %s: %w", path, err)
		}
		w.files = append(w.files, f)
		w.stats = append(w.stats, fileStats{name: name})
	}
	return w, nil
}

// ErrOutOfOrder is returned for a message older than the last one written
// to its file: the caller must deliver log-time order.
var ErrOutOfOrder = errors.New("message out of log-time order")

// Write copies message m with payload data (m.Data or a patched copy) and
// record time logNS into the output file of m's input file.
func (w *Writer) Write(m *bagread.Message, data []byte, logNS int64) error {
	if m.FileIndex < 0 || m.FileIndex >= len(w.files) {
		return fmt.Errorf("message of %s: file index %d out of range", m.Topic, m.FileIndex)
	}
	st := &w.stats[m.FileIndex]
	if st.count > 0 && logNS < st.lastLog {
		return fmt.Errorf("%s message %d at %d after %d: %w", m.Topic, m.Index, logNS, st.lastLog, ErrOutOfOrder)
	}
	if err := w.files[m.FileIndex].write(m, data, logNS); err != nil {
		return fmt.Errorf("writing %s message %d to %s: %w", m.Topic, m.Index, st.name, err)
	}
	if st.count == 0 || logNS < st.startNS {
		st.startNS = logNS
	}
	st.endNS = max(st.endNS, logNS)
	st.lastLog = logNS
	st.count++
	w.topicCounts[m.Topic]++
	return nil
}

// SetCustomData adds (or replaces) one custom_data entry of the output's
// metadata.yaml; entries set before Close are written. It lets a caller
// name facts it learns while the copy runs (fix: the input's hash).
func (w *Writer) SetCustomData(key, value string) {
	if w.opts.CustomData == nil {
		w.opts.CustomData = map[string]string{}
	}
	w.opts.CustomData[key] = value
}

// Close finishes every file and writes metadata.yaml.
func (w *Writer) Close() error {
	if w.closed {
		return errors.New("bagcopy: closed twice")
	}
	w.closed = true
	// The metadata goes into each db3 before it closes, as rosbag2 does.
	first := w.finishMetadata()
	for i, f := range w.files {
		if err := f.close(); err != nil && first == nil {
			first = fmt.Errorf("closing %s: %w", w.stats[i].name, err)
		}
	}
	return first
}

// Abort closes what is open and removes the directory.
func (w *Writer) Abort() {
	if !w.closed {
		for _, f := range w.files {
			f.abandon()
		}
		w.closed = true
	}
	os.RemoveAll(w.dir)
}

// Files are the output storage files' paths.
func (w *Writer) Files() []string {
	out := make([]string, len(w.stats))
	for i, s := range w.stats {
		out[i] = filepath.Join(w.dir, s.name)
	}
	return out
}
