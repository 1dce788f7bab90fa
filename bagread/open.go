package bagread

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// storageTopic is one topic as a single storage file holds it.
type storageTopic struct {
	Name, Type, Format, OfferedQoS, Hash string
	Count                                uint64
	// DefEncoding and Def: the file's message definition of Type, if any.
	DefEncoding, Def string
	// Conns are a ROS 1 file's connection records of the topic.
	Conns []Connection
}

// opened is what a backend returns for one file.
type opened struct {
	file   File
	handle fileHandle
	topics []storageTopic
	// messageMode is true when the file's messages are MESSAGE-mode zstd
	// frames (sniffed from the first message).
	messageMode bool
}

// Open opens a bag directory, a .db3, .mcap, .db3.zstd or .mcap.zstd file.
// The user's files are only ever read: WAL bags and compressed db3 files
// are copied or decompressed into a private temp dir removed by Close.
func Open(path string, opts Options) (*Bag, error) {
	st, err := os.Stat(path)
	if err != nil {
		// "PATH: no such file or directory", without Go's "stat" op.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b := &Bag{Path: path, opts: opts}
	if !st.IsDir() {
		if err := checkRegular(st); err != nil {
			return nil, &FileError{Path: path, Offset: -1, Op: "open", Err: err}
		}
		if err := b.addFile(path); err != nil {
			b.Close()
			return nil, err
		}
		b.finish()
		return b, nil
	}
	paths, err := b.resolveDir(path)
	if err == nil {
		for _, p := range paths {
			if err = b.addFile(p); err != nil {
				break
			}
		}
	}
	if err != nil {
		b.Close()
		return nil, err
	}
	b.finish()
	return b, nil
}

// Close releases files and removes temporary copies.
func (b *Bag) Close() error {
	var errs []error
	for _, h := range b.handles {
		errs = append(errs, h.close())
	}
	b.handles = nil
	if b.tempDir != "" {
		errs = append(errs, os.RemoveAll(b.tempDir))
		b.tempDir = ""
	}
	if b.release != nil {
		errs = append(errs, b.release())
		b.release = nil
	}
	return errors.Join(errs...)
}

func (b *Bag) limit() int64 {
	if b.opts.MaxRecordBytes > 0 {
		return b.opts.MaxRecordBytes
	}
	return DefaultMaxRecordBytes
}

// privateDir returns the bag's temp dir, creating it on first use.
func (b *Bag) privateDir() (string, error) {
	if b.tempDir == "" {
		d, err := os.MkdirTemp(b.opts.TempDir, "bagread-")
		if err != nil {
			return "", fmt.Errorf("cannot create a temporary directory for private copies: %w", err)
		}
		b.tempDir = d
	}
	return b.tempDir, nil
}

// resolveDir finds the storage files of a bag directory: from
// metadata.yaml when it is usable, else by rosbag2's file naming.
func (b *Bag) resolveDir(dir string) ([]string, error) {
	mdPath := filepath.Join(dir, "metadata.yaml")
	md, err := readMetadataFile(mdPath)
	switch {
	case errors.Is(err, os.ErrNotExist):
		b.reconstruct("there is no metadata.yaml in " + dir)
	case err != nil:
		b.reconstruct(err.Error()) // names metadata.yaml and what is wrong with it
	default:
		b.Metadata = md
		var found []string
		for _, rel := range md.RelativeFilePaths {
			if p := resolveListed(dir, rel, md.Version); p != "" {
				found = append(found, p)
			} else {
				b.Warnings = append(b.Warnings, fmt.Sprintf("%s: file %q listed in metadata.yaml not found", mdPath, rel))
			}
		}
		if len(found) > 0 {
			return found, nil
		}
		b.reconstruct("metadata.yaml lists no storage file that exists")
	}
	found, err := discoverFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%s: %w: no storage files (.db3, .mcap, .zstd) found, and %s", dir, ErrNotABag, b.MetadataProblem)
	}
	return found, nil
}

func (b *Bag) reconstruct(why string) {
	b.MetadataReconstructed = true
	b.MetadataProblem = why
}

// resolveListed applies rosbag2's rules for relative_file_paths: absolute
// as-is; v<4 relative to the parent; then as given and by basename inside
// the bag dir; a missing ".zstd" suffix is tried both ways.
func resolveListed(dir, rel string, version int) string {
	var cands []string
	if filepath.IsAbs(rel) {
		cands = append(cands, rel)
	} else {
		if version < 4 {
			cands = append(cands, filepath.Join(filepath.Dir(dir), rel))
		}
		cands = append(cands, filepath.Join(dir, rel), filepath.Join(dir, filepath.Base(rel)))
	}
	for _, c := range cands {
		if isFile(c) {
			return c
		}
	}
	for _, c := range cands {
		alt := c + ".zstd"
		if strings.HasSuffix(c, ".zstd") {
			alt = strings.TrimSuffix(c, ".zstd")
		}
		if isFile(alt) {
			return alt
		}
	}
	return ""
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// splitName is rosbag2's reindex pattern, extended to .zstd files.
var splitName = regexp.MustCompile(`^(.+)_(\d+)\.(db3|mcap)(\.zstd)?$`)

// discoverFiles lists a directory's storage files in split order.
func discoverFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type split struct {
		name  string
		index int
		zstd  bool
	}
	var splits []split
	var loose []string
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		n := e.Name()
		if m := splitName.FindStringSubmatch(n); m != nil {
			idx, err := strconv.Atoi(m[2])
			if err != nil {
				idx = math.MaxInt
			}
			splits = append(splits, split{n, idx, m[4] != ""})
			continue
		}
		if storageFromName(n) != "" {
			loose = append(loose, n)
		}
	}
	if len(splits) == 0 {
		if len(loose) > 1 {
			return nil, fmt.Errorf("%s: no metadata.yaml and %d unrelated storage files (%s): name one of them", dir, len(loose), strings.Join(loose, ", "))
		}
		var out []string
		for _, n := range loose {
			out = append(out, filepath.Join(dir, n))
		}
		return out, nil
	}
	sort.SliceStable(splits, func(i, j int) bool {
		if splits[i].index != splits[j].index {
			return splits[i].index < splits[j].index
		}
		if splits[i].zstd != splits[j].zstd {
			return !splits[i].zstd // the uncompressed copy first
		}
		return splits[i].name < splits[j].name
	})
	var out []string
	for i, s := range splits {
		if i > 0 && splits[i-1].index == s.index {
			prev := splits[i-1].name
			if strings.TrimSuffix(prev, ".zstd") == strings.TrimSuffix(s.name, ".zstd") {
				continue // same split as a .zstd and a plain file: keep one
			}
			// Two recordings in one directory: reading one would drop the
			// other without a word.
			return nil, fmt.Errorf("%s: no metadata.yaml and two storage files for split %d (%s, %s): name one of them", dir, s.index, prev, s.name)
		}
		out = append(out, filepath.Join(dir, s.name))
	}
	return out, nil
}

// storageFromName infers the storage from a file name ("" if unknown).
func storageFromName(name string) string {
	n := strings.TrimSuffix(name, ".zstd")
	switch {
	case strings.HasSuffix(n, ".db3"):
		return StorageSQLite3
	case strings.HasSuffix(n, ".mcap"):
		return StorageMCAP
	case strings.HasSuffix(name, ".bag"), strings.HasSuffix(name, ".bag.active"):
		return StorageROS1
	}
	return ""
}

var (
	sqliteMagic = []byte("SQLite format 3\x00")
	mcapMagic   = []byte{0x89, 'M', 'C', 'A', 'P', '0', '\r', '\n'}
)

// sniff identifies a file by its first bytes: storage and whether it is a
// FILE-mode zstd stream.
func sniff(path string, limit int64) (storage string, compressed bool, err error) {
	f, err := openRegular(path)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	return sniffFrom(path, f, limit)
}

// sniffFrom is sniff on an opened file (read from its start); path names
// it in errors.
func sniffFrom(path string, f io.ReadSeeker, limit int64) (storage string, compressed bool, err error) {
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if isZstdFrame(head) {
		compressed = true
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return "", true, err
		}
		dec, err := newStreamDecoder(f, limit)
		if err != nil {
			return "", true, err
		}
		defer dec.Close()
		head = make([]byte, 16)
		n, _ = io.ReadFull(dec, head)
		head = head[:n]
	}
	switch {
	case bytes.HasPrefix(head, sqliteMagic):
		return StorageSQLite3, compressed, nil
	case bytes.HasPrefix(head, mcapMagic):
		return StorageMCAP, compressed, nil
	case !compressed && bytes.HasPrefix(head, ros1Magic):
		return StorageROS1, false, nil
	}
	return "", compressed, notStorage(path, head)
}

// notStorage explains why a file is not a bag's storage file, in the
// user's words: empty, a bag's metadata.yaml (pass the directory), or
// something else.
func notStorage(path string, head []byte) error {
	switch {
	case len(head) == 0:
		return fmt.Errorf("%w: the file is empty (0 bytes), not a sqlite3 (.db3), MCAP or ROS 1 (.bag) file", ErrNotABag)
	case filepath.Base(path) == "metadata.yaml" || bytes.HasPrefix(head, []byte("rosbag2_bagfile")):
		return fmt.Errorf("%w: this is a bag's metadata.yaml; pass the directory that holds it (%s)", ErrNotABag, filepath.Dir(path))
	}
	return fmt.Errorf("%w: it is neither a sqlite3 (.db3), an MCAP nor a ROS 1 (.bag) file (it does not start with any of their signatures)", ErrNotABag)
}

// addFile opens one storage file and merges it into the bag.
func (b *Bag) addFile(path string) error {
	storage, compressed, err := sniff(path, b.limit())
	if err != nil {
		return &FileError{Path: path, Offset: -1, Err: err}
	}
	var o *opened
	switch storage {
	case StorageSQLite3:
		o, err = b.openSQLite(path, compressed)
	case StorageROS1:
		o, err = b.openROS1(path)
	default:
		o, err = b.openMCAP(path, compressed)
	}
	if err != nil {
		return err
	}
	if st, err := os.Stat(path); err == nil {
		o.file.Size = st.Size()
	}
	b.add(path, storage, compressed, o)
	return nil
}

// add merges an opened storage file into the bag.
func (b *Bag) add(path, storage string, compressed bool, o *opened) {
	o.file.Path = path
	o.file.Storage = storage
	if compressed {
		o.file.Compression = "zstd"
		if b.CompressionMode == "" {
			b.CompressionFormat, b.CompressionMode = "zstd", "FILE"
		}
	}
	if o.messageMode && b.CompressionMode == "" {
		b.CompressionFormat, b.CompressionMode = "zstd", "MESSAGE"
	}
	if b.Storage == "" {
		b.Storage = storage
	} else if b.Storage != storage {
		b.Warnings = append(b.Warnings, fmt.Sprintf("%s: storage %s differs from the bag's %s", path, storage, b.Storage))
	}
	b.Files = append(b.Files, o.file)
	b.handles = append(b.handles, o.handle)
	for _, t := range o.topics {
		bt := b.Topic(t.Name)
		if bt == nil {
			b.Topics = append(b.Topics, Topic{Name: t.Name, MetadataCount: -1})
			bt = &b.Topics[len(b.Topics)-1]
		}
		bt.MessageCount += t.Count
		if bt.Type == "" {
			bt.Type = t.Type
		}
		if bt.SerializationFormat == "" {
			bt.SerializationFormat = t.Format
		}
		if bt.OfferedQoS == "" && t.OfferedQoS != "" {
			bt.OfferedQoS = t.OfferedQoS
			bt.QoS = ParseQoS(t.OfferedQoS)
		}
		if bt.TypeDescriptionHash == "" {
			bt.TypeDescriptionHash = t.Hash
		}
		if bt.Definition == "" && t.Def != "" {
			bt.DefinitionEncoding, bt.Definition = t.DefEncoding, t.Def
		}
		bt.Connections = mergeConnections(bt.Connections, t.Conns)
	}
}

// finish computes bag totals and folds metadata.yaml's claims in.
func (b *Bag) finish() {
	b.settleTopicCounts()
	first := true
	for _, f := range b.Files {
		b.MessageCount += f.MessageCount
		b.OrphanMessages += f.OrphanMessages
		if f.MessageCount == 0 {
			continue
		}
		if first || f.StartNS < b.StartNS {
			b.StartNS = f.StartNS
		}
		if first || f.EndNS > b.EndNS {
			b.EndNS = f.EndNS
		}
		first = false
	}
	md := b.Metadata
	if md == nil {
		return
	}
	if md.CompressionMode != "" && md.CompressionMode != "NONE" {
		b.CompressionFormat, b.CompressionMode = md.CompressionFormat, md.CompressionMode
	}
	for _, mt := range md.Topics {
		bt := b.Topic(mt.Name)
		if bt == nil {
			b.Topics = append(b.Topics, Topic{Name: mt.Name, Type: mt.Type, SerializationFormat: mt.SerializationFormat,
				OfferedQoS: mt.OfferedQoS, QoS: mt.QoS, TypeDescriptionHash: mt.TypeDescriptionHash})
			bt = &b.Topics[len(b.Topics)-1]
			b.Warnings = append(b.Warnings, fmt.Sprintf("topic %s is in metadata.yaml but not in storage", mt.Name))
		}
		bt.MetadataCount = int64(mt.MessageCount)
		if bt.OfferedQoS == "" && mt.OfferedQoS != "" {
			bt.OfferedQoS, bt.QoS = mt.OfferedQoS, mt.QoS
		}
		if bt.Type == "" {
			bt.Type = mt.Type
		}
		if bt.MetadataCount != int64(bt.MessageCount) {
			b.Warnings = append(b.Warnings, fmt.Sprintf("topic %s: metadata.yaml says %d messages, storage has %d", bt.Name, bt.MetadataCount, bt.MessageCount))
		}
	}
	if md.MessageCount != b.MessageCount {
		b.Warnings = append(b.Warnings, fmt.Sprintf("metadata.yaml says %d messages, storage has %d", md.MessageCount, b.MessageCount))
	}
}

// settleTopicCounts resolves sqlite files whose per-topic counts were
// deferred (Options.MetadataTopicCounts): metadata.yaml's counts are taken
// when its total, the sum of its topic counts and its topic names all
// match storage; otherwise every deferred file is counted in storage.
func (b *Bag) settleTopicCounts() {
	var pending []int
	var total uint64
	for i, h := range b.handles {
		if sh, ok := h.(*sqliteHandle); ok && sh.pending {
			pending = append(pending, i)
		}
		total += b.Files[i].MessageCount
	}
	if len(pending) == 0 {
		return
	}
	if len(pending) == len(b.handles) && b.metadataCountsAgree(total) {
		for i := range b.Topics {
			for _, mt := range b.Metadata.Topics {
				if mt.Name == b.Topics[i].Name {
					b.Topics[i].MessageCount = mt.MessageCount
				}
			}
		}
		for _, i := range pending {
			b.handles[i].(*sqliteHandle).pending = false
		}
		b.TopicCountsFromMetadata = true
		return
	}
	for _, i := range pending {
		f := &b.Files[i]
		got := File{SchemaVersion: f.SchemaVersion, ROSDistro: f.ROSDistro}
		counts := b.handles[i].(*sqliteHandle).countTopics(&got)
		f.MessageCount, f.StartNS, f.EndNS, f.OrphanMessages = got.MessageCount, got.StartNS, got.EndNS, got.OrphanMessages
		if got.Recovery != nil {
			f.Recovery = got.Recovery
		}
		for j := range b.Topics {
			b.Topics[j].MessageCount += counts[b.Topics[j].Name]
		}
	}
}

// metadataCountsAgree reports whether metadata.yaml's counts can stand in
// for storage's: same total, topic counts that add up to it, and exactly
// the topics storage holds.
func (b *Bag) metadataCountsAgree(storageTotal uint64) bool {
	md := b.Metadata
	if md == nil || md.MessageCount != storageTotal || len(md.Topics) != len(b.Topics) {
		return false
	}
	var sum uint64
	names := map[string]bool{}
	for _, mt := range md.Topics {
		if names[mt.Name] {
			return false
		}
		names[mt.Name] = true
		sum += mt.MessageCount
	}
	if sum != storageTotal {
		return false
	}
	for _, t := range b.Topics {
		if !names[t.Name] {
			return false
		}
	}
	return true
}
