// Package bagwrite writes rosbag2 bags from raw CDR bytes, the way
// rosbag2's recorder lays them out on disk: a bag directory with
// <dir>_N.mcap (through the mcap library's Writer, profile "ros2") or
// <dir>_N.db3 (sqlite with rosbag2's schema 3 or 4), metadata.yaml
// (version 5 or 9), split files, FILE and MESSAGE zstd compression, and
// on request the leftovers of a crashed recorder (no metadata.yaml, no MCAP
// summary, a cut file, a -wal file holding the last messages).
//
// It exists for tests and the test-bag generator; it is not a recorder.
package bagwrite

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Storage identifiers, as in metadata.yaml.
const (
	StorageMCAP    = "mcap"
	StorageSQLite3 = "sqlite3"
)

// rosbag2 compression modes, written upper case in metadata.yaml.
const (
	CompressionModeNone    = ""
	CompressionModeFile    = "FILE"
	CompressionModeMessage = "MESSAGE"
)

// Options says how to write a bag. The zero value writes a Jazzy-style
// MCAP bag: metadata v9, uncompressed chunks, full summary, one file.
type Options struct {
	// Storage is StorageMCAP ("" means MCAP) or StorageSQLite3.
	Storage string
	// Compression is rosbag2's compression format: "" (none) or "zstd".
	Compression string
	// CompressionMode is CompressionModeFile or CompressionModeMessage;
	// "" with Compression "zstd" means FILE. MESSAGE needs sqlite3 storage
	// (rosbag2's MCAP plugin refuses it).
	CompressionMode string
	// ChunkCompression is the MCAP chunk compression: "" or "none",
	// "zstd", "lz4".
	ChunkCompression string
	// ChunkSize is the MCAP chunk size in bytes; 0 means 768 KiB, the
	// libmcap default rosbag2 records with.
	ChunkSize int64
	// NoChunking writes MCAP messages straight into the data section, with
	// no chunk or message indexes (rosbag2's "fastwrite" preset).
	NoChunking bool
	// NoSummary writes an MCAP file that ends cleanly (DataEnd, Footer,
	// magic) but has an empty summary section: no statistics, no
	// channel/schema copies, no chunk index.
	NoSummary bool
	// Crash leaves what a killed recorder leaves: no metadata.yaml; MCAP
	// files lack the unflushed last chunk, DataEnd, summary, footer and
	// trailing magic; sqlite files lack the closing metadata row.
	Crash bool
	// TruncateTail cuts this many bytes off the end of the last storage
	// file after writing (a torn record), 0 for none.
	TruncateTail int64
	// WALTail leaves the last WALTail messages of the last sqlite file only
	// in a leftover <file>.db3-wal (with its -shm), as a crash in WAL
	// journal mode does. 0 writes with rosbag2's default journal_mode=MEMORY.
	WALTail int
	// SplitEvery starts a new storage file when a message's record time is
	// more than this past the current file's first message
	// (--max-bag-duration); 0 never splits.
	SplitEvery time.Duration
	// MetadataVersion is 5 (Humble) or 9 (Jazzy); 0 means 9. Version 5 bags
	// also get Humble's storage details: sqlite schema 3, MCAP
	// publish_time = log_time, QoS as integers.
	MetadataVersion int
	// SQLiteSchema is the db3 schema version, 3 or 4; 0 picks 3 for
	// metadata version 5 and 4 otherwise.
	SQLiteSchema int
	// ROSDistro is written to metadata and storage; "" picks "humble" or
	// "jazzy" to match MetadataVersion.
	ROSDistro string
}

// Topic describes a topic for AddTopicWith.
type Topic struct {
	Name string
	Type string // e.g. "sensor_msgs/msg/LaserScan"
	// QoS lists the offered profiles; nil means one zero-value QoS.
	QoS []QoS
	// TypeDescriptionHash is written where rosbag2 writes it (v9); may be "".
	TypeDescriptionHash string
	// Definition, when set, is the ros2msg text stored for Type instead of
	// the package's own (to write a bag whose definition is broken).
	Definition string
}

// definition is the ros2msg text stored for the topic's type.
func (t Topic) definition() (string, bool) {
	if t.Definition != "" {
		return t.Definition, true
	}
	return MessageDefinition(t.Type)
}

// Writer writes one bag. It is not safe for concurrent use.
type Writer struct {
	dir  string
	base string
	opts Options

	topics []*topic
	byName map[string]*topic

	cur      storageFile
	curInfo  *fileRecord
	files    []*fileRecord
	msgCount uint64
	startNS  int64
	durNS    int64

	msgEncoder *zstd.Encoder
	scratch    []byte
	closed     bool
}

type topic struct {
	Topic
	count uint64
}

// fileRecord tracks one storage file while it is written.
type fileRecord struct {
	name     string // storage file name before FILE compression
	relPath  string // name as listed in relative_file_paths
	count    uint64
	startNS  int64
	durNS    int64
	fullPath string
}

// storageFile is one open .mcap or .db3 file.
type storageFile interface {
	addTopic(t *topic) error
	write(t *topic, logNS, pubNS int64, data []byte) error
	// finish closes the file cleanly; meta is the final bag metadata for the
	// copies rosbag2 embeds in storage.
	finish(meta *bagMetadata) error
	// abandon closes the file the way a killed process leaves it.
	abandon() error
}

// Create makes the bag directory dir (which must not exist, or be empty)
// and opens its first storage file.
func Create(dir string, opts Options) (*Writer, error) {
	if err := opts.normalize(); err != nil {
		return nil, err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("bagwrite: bag directory %s already exists and is not empty", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bagwrite: %w", err)
	}
	w := &Writer{
		dir:     dir,
		base:    filepath.Base(filepath.Clean(dir)),
		opts:    opts,
		byName:  map[string]*topic{},
		startNS: math.MaxInt64,
	}
	if opts.CompressionMode == CompressionModeMessage {
		// ZSTD_compressCCtx at level 1 in rosbag2: one frame per message,
		// with its content size in the frame header (libzstd makes small
		// frames single-segment, which always stores the size; the
		// reference decompressor requires it).
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderConcurrency(1), zstd.WithSingleSegment(true))
		if err != nil {
			return nil, fmt.Errorf("bagwrite: zstd encoder: %w", err)
		}
		w.msgEncoder = enc
	}
	if err := w.openFile(); err != nil {
		return nil, err
	}
	return w, nil
}

func (o *Options) normalize() error {
	switch o.Storage {
	case "":
		o.Storage = StorageMCAP
	case StorageMCAP, StorageSQLite3:
	default:
		return fmt.Errorf("bagwrite: unknown storage %q (want mcap or sqlite3)", o.Storage)
	}
	switch o.Compression {
	case "":
		if o.CompressionMode != "" {
			return fmt.Errorf("bagwrite: compression mode %q needs Compression \"zstd\"", o.CompressionMode)
		}
	case "zstd":
		if o.CompressionMode == "" {
			o.CompressionMode = CompressionModeFile
		}
	default:
		return fmt.Errorf("bagwrite: unknown compression format %q (want zstd)", o.Compression)
	}
	switch o.CompressionMode {
	case CompressionModeNone, CompressionModeFile:
	case CompressionModeMessage:
		if o.Storage == StorageMCAP {
			return errors.New("bagwrite: MESSAGE compression is not supported with mcap storage (use ChunkCompression)")
		}
	default:
		return fmt.Errorf("bagwrite: unknown compression mode %q (want FILE or MESSAGE)", o.CompressionMode)
	}
	switch o.ChunkCompression {
	case "", "none", "zstd", "lz4":
	default:
		return fmt.Errorf("bagwrite: unknown chunk compression %q (want none, zstd or lz4)", o.ChunkCompression)
	}
	if o.ChunkCompression == "none" {
		o.ChunkCompression = ""
	}
	if o.ChunkSize == 0 {
		o.ChunkSize = 768 * 1024
	}
	switch o.MetadataVersion {
	case 0:
		o.MetadataVersion = 9
	case 5, 9:
	default:
		return fmt.Errorf("bagwrite: metadata version %d not supported (want 5 or 9)", o.MetadataVersion)
	}
	switch o.SQLiteSchema {
	case 0:
		o.SQLiteSchema = 4
		if o.MetadataVersion < 9 {
			o.SQLiteSchema = 3
		}
	case 3, 4:
	default:
		return fmt.Errorf("bagwrite: sqlite schema %d not supported (want 3 or 4)", o.SQLiteSchema)
	}
	if o.ROSDistro == "" {
		o.ROSDistro = "jazzy"
		if o.MetadataVersion < 9 {
			o.ROSDistro = "humble"
		}
	}
	if o.WALTail < 0 || o.TruncateTail < 0 || o.SplitEvery < 0 || o.ChunkSize < 0 {
		return errors.New("bagwrite: negative WALTail, TruncateTail, SplitEvery or ChunkSize")
	}
	if o.WALTail > 0 && o.Storage != StorageSQLite3 {
		return errors.New("bagwrite: WALTail needs sqlite3 storage")
	}
	return nil
}

// AddTopic registers a topic with default QoS (transient_local for
// /tf_static, as tf2's static broadcaster offers). Topics must be added
// before their first Write.
func (w *Writer) AddTopic(name, typ string) error {
	q := QoS{}
	if name == "/tf_static" {
		q.Durability = "transient_local"
	}
	return w.AddTopicWith(Topic{Name: name, Type: typ, QoS: []QoS{q}})
}

// AddTopicWith registers a topic with explicit QoS and type hash.
func (w *Writer) AddTopicWith(t Topic) error {
	if w.closed {
		return errors.New("bagwrite: AddTopic after Close")
	}
	if t.Name == "" || t.Type == "" {
		return fmt.Errorf("bagwrite: topic needs a name and a type (got %q, %q)", t.Name, t.Type)
	}
	if _, dup := w.byName[t.Name]; dup {
		return fmt.Errorf("bagwrite: topic %s added twice", t.Name)
	}
	if t.QoS == nil {
		t.QoS = []QoS{{}}
	}
	tp := &topic{Topic: t}
	w.topics = append(w.topics, tp)
	w.byName[t.Name] = tp
	if err := w.cur.addTopic(tp); err != nil {
		return fmt.Errorf("bagwrite: adding topic %s to %s: %w", t.Name, w.curInfo.name, err)
	}
	return nil
}

// Write appends one message: logTimeNS is the record (receive) time,
// publishTimeNS the send time (MCAP publish_time; ignored by sqlite, and
// replaced by logTimeNS for metadata version 5 bags, as Humble does). data
// is the serialized message, 4-byte CDR encapsulation header included.
func (w *Writer) Write(topicName string, logTimeNS, publishTimeNS int64, data []byte) error {
	if w.closed {
		return errors.New("bagwrite: Write after Close")
	}
	t, ok := w.byName[topicName]
	if !ok {
		return fmt.Errorf("bagwrite: Write on unknown topic %s (AddTopic first)", topicName)
	}
	if w.opts.SplitEvery > 0 && w.curInfo.count > 0 && logTimeNS-w.curInfo.startNS > int64(w.opts.SplitEvery) {
		if err := w.split(); err != nil {
			return err
		}
	}
	if w.opts.MetadataVersion < 9 {
		publishTimeNS = logTimeNS
	}
	if w.msgEncoder != nil {
		w.scratch = w.msgEncoder.EncodeAll(data, w.scratch[:0])
		data = w.scratch
	}
	if err := w.cur.write(t, logTimeNS, publishTimeNS, data); err != nil {
		return fmt.Errorf("bagwrite: writing %s message to %s: %w", topicName, w.curInfo.name, err)
	}
	t.count++
	w.msgCount++
	updateRange(&w.startNS, &w.durNS, logTimeNS)
	w.curInfo.count++
	updateRange(&w.curInfo.startNS, &w.curInfo.durNS, logTimeNS)
	return nil
}

// updateRange follows SequentialWriter::write: the start is the minimum
// time seen, the duration max(duration, t - start) at each message.
func updateRange(start, dur *int64, t int64) {
	if t < *start {
		*start = t
	}
	if d := t - *start; d > *dur {
		*dur = d
	}
}

// Close finishes the bag: closes the last file, compresses files in FILE
// mode and writes metadata.yaml (all skipped or damaged as Options.Crash,
// TruncateTail and WALTail ask).
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.msgEncoder != nil {
		defer w.msgEncoder.Close()
	}
	if err := w.closeFile(true); err != nil {
		return err
	}
	if w.opts.TruncateTail > 0 {
		last := w.files[len(w.files)-1]
		p := filepath.Join(w.dir, last.relPath)
		st, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("bagwrite: %w", err)
		}
		if err := os.Truncate(p, max(0, st.Size()-w.opts.TruncateTail)); err != nil {
			return fmt.Errorf("bagwrite: cutting %s: %w", p, err)
		}
	}
	if w.opts.Crash {
		return nil
	}
	text, err := w.metadata().yamlText(true)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(w.dir, "metadata.yaml"), text, 0o644); err != nil {
		return fmt.Errorf("bagwrite: writing metadata.yaml: %w", err)
	}
	return nil
}

// Files returns the paths of the storage files written so far, as they are
// on disk (with .zstd after FILE compression).
func (w *Writer) Files() []string {
	out := make([]string, len(w.files))
	for i, f := range w.files {
		out[i] = filepath.Join(w.dir, f.relPath)
	}
	return out
}

func (w *Writer) openFile() error {
	ext := ".mcap"
	if w.opts.Storage == StorageSQLite3 {
		ext = ".db3"
	}
	name := fmt.Sprintf("%s_%d%s", w.base, len(w.files), ext)
	rec := &fileRecord{name: name, relPath: name, startNS: math.MaxInt64, fullPath: filepath.Join(w.dir, name)}
	w.files = append(w.files, rec)
	w.curInfo = rec
	initial := w.metadata()
	var (
		f   storageFile
		err error
	)
	if w.opts.Storage == StorageSQLite3 {
		f, err = newSQLiteFile(rec.fullPath, &w.opts, initial)
	} else {
		f, err = newMCAPFile(rec.fullPath, &w.opts, initial)
	}
	if err != nil {
		return fmt.Errorf("bagwrite: creating %s: %w", rec.fullPath, err)
	}
	w.cur = f
	// Every split file is self-contained: topics are re-created in each.
	for _, t := range w.topics {
		if err := f.addTopic(t); err != nil {
			return fmt.Errorf("bagwrite: adding topic %s to %s: %w", t.Name, name, err)
		}
	}
	return nil
}

func (w *Writer) split() error {
	if err := w.closeFile(false); err != nil {
		return err
	}
	return w.openFile()
}

// closeFile closes the current file; last says it is the bag's final file,
// the only one a crash leaves unfinished.
func (w *Writer) closeFile(last bool) error {
	rec := w.curInfo
	var err error
	if last && w.opts.Crash {
		err = w.cur.abandon()
	} else {
		err = w.cur.finish(w.metadata())
	}
	if err != nil {
		return fmt.Errorf("bagwrite: closing %s: %w", rec.fullPath, err)
	}
	// FILE compression happens when a file is closed; a crash leaves the
	// last file uncompressed. Empty files are not compressed.
	if w.opts.CompressionMode == CompressionModeFile && !(last && w.opts.Crash) && rec.count > 0 {
		if err := compressFile(rec.fullPath); err != nil {
			return err
		}
		rec.relPath = rec.name + ".zstd"
	}
	return nil
}

// metadata snapshots the bag's metadata as rosbag2 would write it now.
func (w *Writer) metadata() *bagMetadata {
	m := &bagMetadata{
		version:           w.opts.MetadataVersion,
		storage:           w.opts.Storage,
		startNS:           w.startNS,
		durationNS:        w.durNS,
		messageCount:      w.msgCount,
		compressionFormat: w.opts.Compression,
		compressionMode:   w.opts.CompressionMode,
		rosDistro:         w.opts.ROSDistro,
	}
	for _, t := range w.topics {
		m.topics = append(m.topics, topicInfo{name: t.Name, typ: t.Type, format: "cdr", qos: t.QoS, typeHash: t.TypeDescriptionHash, count: t.count})
	}
	for _, f := range w.files {
		m.relativePaths = append(m.relativePaths, f.relPath)
		// files[].path keeps the uncompressed name: the compression writer
		// only rewrites relative_file_paths (bag-formats.md §2.4).
		start := f.startNS
		if f.count == 0 {
			start = 0
		}
		m.files = append(m.files, fileInfo{path: f.name, startNS: start, durationNS: f.durNS, messageCount: f.count})
	}
	return m
}
