// Package bagread opens rosbag2 recordings (sqlite3 and MCAP storage, split,
// compressed, crashed or cut off) and streams their raw messages.
//
// It never modifies the user's files and imports no other bagclock package.
//
// Open reads what a bag holds (files, topics with counts taken from the
// storage, metadata.yaml if usable, how a damaged file was recovered);
// Bag.Messages streams raw messages in record order or record-time order
// with the topic filter pushed down to storage. Damage is data, not an
// error: a file cut short ends in a Problem and File.Recovery, a message
// that cannot be recovered carries Message.Err, and the read goes on.
//
// Memory stays bounded by the largest chunk or message (for a db3 read by
// worker goroutines, by their hand-over batches: 2 MiB each, three per
// worker), with two documented exceptions for TimeOrder: an MCAP that mixes chunks and
// top-level messages, or a .mcap.zstd whose messages are out of order, is
// sorted in memory. Several iterators may read one Bag at a time; each
// Iterator is for one goroutine.
package bagread

// Storage identifiers as rosbag2 writes them in metadata.yaml.
const (
	StorageSQLite3 = "sqlite3"
	StorageMCAP    = "mcap"
)

// Options controls how a bag is opened. The zero value is ready to use.
type Options struct {
	// TempDir is where private copies (WAL bags) and decompressed
	// FILE-mode db3 files go; "" means os.TempDir(). Everything written
	// there is removed by Bag.Close.
	TempDir string
	// MaxRecordBytes is the decode budget: it bounds one MCAP record,
	// decompressed chunk or MESSAGE-mode frame, enforced while decoding
	// (see SizeError), and with FileModeRatio the output of a FILE-mode
	// .zstd file; 0 means DefaultMaxRecordBytes. Anything claiming or
	// decoding to more is skipped as damage instead of being allocated.
	MaxRecordBytes int64
	// MetadataTopicCounts lets Open take a sqlite3 bag's per-topic message
	// counts from metadata.yaml instead of counting them with a full scan
	// of every messages table (about half a millisecond per MB), but only
	// when metadata.yaml agrees with storage: its total equals the rows in
	// storage, its topic counts add up to that total, and it names exactly
	// the topics storage holds. Otherwise Open counts in storage as usual.
	// Bag.TopicCountsFromMetadata says which happened. For callers that
	// need counts only as hints (analyze); info leaves it off.
	MetadataTopicCounts bool
	// Sequential reads every file on the caller's goroutine. By default a
	// db3 that SQLite must read in record order (one the b-tree walker
	// leaves to it) is read by two worker goroutines (rowid ranges on two
	// connections, in turns), and the next chunk of a compressed,
	// indexed MCAP is decompressed on a second goroutine while the current
	// one is parsed; on a multi-core machine that nearly halves the time.
	// A caller that already keeps every core busy with one bag each
	// (scan -j) gains nothing from that and sets this.
	Sequential bool
}

// DefaultMaxRecordBytes is the record/chunk/message size cap used when
// Options.MaxRecordBytes is 0.
const DefaultMaxRecordBytes = 256 << 20

// Bag is an opened recording: its files, topics and how it was recovered.
// Metadata needs no further I/O; messages stream from Messages.
type Bag struct {
	// Path is the path the bag was opened from (directory or file).
	Path string
	// Storage is StorageSQLite3, StorageMCAP or StorageROS1.
	Storage string
	// Files are the storage files in timeline order (split index order).
	Files []File
	// Topics lists every topic found, with counts taken from the storage
	// itself (not from metadata.yaml, unless Options.MetadataTopicCounts
	// allowed it and metadata.yaml matched storage).
	Topics []Topic
	// Metadata is the parsed metadata.yaml, or nil when it was missing or
	// unparsable.
	Metadata *Metadata
	// MetadataReconstructed is true when metadata.yaml was missing or
	// unusable and files and topics were rebuilt from the storage.
	MetadataReconstructed bool
	// MetadataProblem says why metadata was reconstructed ("" otherwise).
	MetadataProblem string
	// CompressionFormat ("" or "zstd") and CompressionMode ("", "FILE",
	// "MESSAGE") as found in metadata or detected from the files.
	CompressionFormat string
	CompressionMode   string
	// MessageCount is the number of messages in storage, StartNS/EndNS the
	// record-time range (0, 0 for an empty bag).
	MessageCount uint64
	StartNS      int64
	EndNS        int64
	// OrphanMessages counts sqlite messages whose topic_id has no row in
	// the topics table (they are yielded with Message.Err set).
	OrphanMessages uint64
	// TopicCountsFromMetadata is true when Options.MetadataTopicCounts was
	// set and the sqlite per-topic counts were taken from metadata.yaml
	// after it matched storage's totals.
	TopicCountsFromMetadata bool
	// Warnings are non-fatal findings made while opening (a file listed in
	// metadata.yaml but missing, counts that disagree with metadata...).
	Warnings []string

	opts    Options
	handles []fileHandle
	tempDir string
	// release removes what OpenSources's caller made for the bag (private
	// copies of remote files); nil for a local bag.
	release func() error
	// sourced: opened by OpenSources (Path is not a local directory).
	sourced bool
}

// SizeBytes is the total on-disk size of the bag's storage files (as
// ros2 bag info counts it: without -wal/-shm files, see File.WALBytes).
func (b *Bag) SizeBytes() int64 {
	var n int64
	for _, f := range b.Files {
		n += f.Size
	}
	return n
}

// Topic returns the topic called name, or nil.
func (b *Bag) Topic(name string) *Topic {
	for i := range b.Topics {
		if b.Topics[i].Name == name {
			return &b.Topics[i]
		}
	}
	return nil
}

// File is one storage file of a bag.
type File struct {
	Path        string // as on disk (absolute or relative to cwd)
	Size        int64  // bytes on disk
	Storage     string // StorageSQLite3 or StorageMCAP
	Compression string // "" or "zstd" for FILE-mode compressed files
	// MessageCount, StartNS, EndNS as read from this file's storage.
	MessageCount uint64
	StartNS      int64
	EndNS        int64
	// Recovery says how much of a damaged file could be read; nil when
	// the file was intact.
	Recovery *Recovery
	// Library and Profile of an MCAP file's Header record.
	Library, Profile string
	// Indexed is true for an MCAP file whose summary (statistics, chunk
	// indexes) was used instead of a full scan.
	Indexed bool
	// SchemaVersion is the sqlite schema version (1..4, 0 for MCAP);
	// ROSDistro the sqlite schema table's ros_distro.
	SchemaVersion int
	ROSDistro     string
	// PrivateCopy is true when a sqlite file (and its -wal/-shm) was copied
	// to a temp dir so its WAL could be read without touching the original.
	PrivateCopy bool
	// WALBytes is the size of a leftover -wal file next to a db3 (0 if
	// none); Size does not include it.
	WALBytes int64
	// OrphanMessages as in Bag, for this file.
	OrphanMessages uint64
}

// Recovery describes a damaged file that was read as far as possible.
type Recovery struct {
	// Reason is a human-readable cause, e.g. "MCAP truncated at byte 1234:
	// record of 5678 bytes runs past end of file".
	Reason string
	// Offset is the byte offset where reading stopped.
	Offset int64
	// Recovered is the number of complete messages read before it.
	Recovered uint64
	// WALMessages counts messages found only in a leftover -wal file.
	WALMessages uint64
}

// WALOnly reports whether the recovery only notes a leftover -wal that was
// read whole (Offset -1): the file is complete as far as sqlite committed
// it, not cut.
func (r *Recovery) WALOnly() bool { return r != nil && r.Offset < 0 && r.WALMessages > 0 }

// Topic is one topic (MCAP channel / sqlite topics row), merged across files.
type Topic struct {
	Name                string
	Type                string // e.g. "sensor_msgs/msg/LaserScan"
	SerializationFormat string // "cdr"
	// OfferedQoS is the raw offered_qos_profiles text; QoS its parsed form.
	OfferedQoS          string
	QoS                 []QoSProfile
	TypeDescriptionHash string
	// MessageCount counts messages found in storage; MetadataCount is what
	// metadata.yaml claims (-1 when unknown).
	MessageCount  uint64
	MetadataCount int64
	// DefinitionEncoding and Definition are the bag's own message
	// definition of Type: an MCAP Schema's encoding and data, or a sqlite
	// schema-4 message_definitions row joined by type. DefinitionEncoding is
	// "ros2msg", "ros2idl", whatever else the writer put ("unknown"), or ""
	// with Definition "" when the bag has none (sqlite schema ≤ 3).
	DefinitionEncoding string
	Definition         string
	// Connections are a ROS 1 topic's publishers as its connection records
	// name them (callerid, latching, md5sum, message count), merged across
	// files by callerid and latching; nil for ROS 2 storage.
	Connections []Connection
}

// QoSProfile is one offered QoS profile, policy names normalised to rmw's
// strings ("keep_last", "reliable", ...).
type QoSProfile struct {
	History     string
	Depth       int
	Reliability string
	Durability  string
	Liveliness  string
	// Deadline, Lifespan and LivelinessLeaseDuration in nanoseconds; -1
	// means infinite (including the Foxy-era vendor infinity values).
	DeadlineNS, LifespanNS, LivelinessLeaseDurationNS int64
	AvoidROSNamespaceConventions                      bool
}

// Metadata is the subset of metadata.yaml bagclock uses (all fields
// optional; missing ones are zero).
type Metadata struct {
	Version           int
	StorageIdentifier string
	DurationNS        int64
	StartingTimeNS    int64
	MessageCount      uint64
	RelativeFilePaths []string
	CompressionFormat string
	CompressionMode   string
	ROSDistro         string
	// Files are the per-file entries (version >= 5), Topics the
	// topics_with_message_count entries.
	Files  []MetadataFile
	Topics []MetadataTopic
}

// MetadataFile is one files[] entry of metadata.yaml.
type MetadataFile struct {
	Path           string
	StartingTimeNS int64
	DurationNS     int64
	MessageCount   uint64
}

// MetadataTopic is one topics_with_message_count entry of metadata.yaml.
type MetadataTopic struct {
	Name, Type, SerializationFormat, OfferedQoS, TypeDescriptionHash string
	QoS                                                              []QoSProfile
	MessageCount                                                     uint64
}

// Order selects the order in which Messages yields messages.
type Order int

const (
	// RecordOrder is the order the recorder wrote: sqlite rowid, MCAP file
	// order, files in split order. Needed to see clock jumps as recorded.
	RecordOrder Order = iota
	// TimeOrder is ascending record time (sqlite timestamp, MCAP log_time),
	// ties by record order, merged across split files.
	TimeOrder
)

// ReadOptions selects what Messages yields.
type ReadOptions struct {
	// Topics restricts the read to these topic names; nil means all. The
	// filter is pushed down to storage (SQL WHERE / MCAP channel filter).
	Topics []string
	Order  Order
	// PrefixTopics names topics of which only the first PrefixBytes bytes
	// of each payload are wanted (a header, say, of megabyte images or
	// point clouds); they are read only if Topics selects them too. Where
	// the storage allows it the rest of such a payload is never read (see
	// prefix.go for where and how); Message.Size still gives the full
	// length and Message.Prefix says Data was cut. Payloads no longer than
	// PrefixBytes are delivered whole. PrefixBytes 0 (or no PrefixTopics)
	// reads every message whole. Damage inside a range that was not read
	// cannot be seen, so a prefix read may report fewer problems than a
	// whole one on a file whose damage Open did not notice.
	PrefixTopics []string
	PrefixBytes  int
	// TimeOnlyTopics names topics of which no payload byte is wanted, only
	// each message's record (times, position, size): a check of when a
	// topic was published reads no more. Data is empty, Size is the stored
	// payload length (a MESSAGE-mode zstd frame is not undone) and Prefix
	// is true unless the payload is empty. db3 rows are read without their
	// data column; MCAP payloads are skipped as for PrefixTopics. A topic
	// named here and in PrefixTopics is read time-only.
	TimeOnlyTopics []string
}

// Message is one raw message. Data aliases an internal buffer and is valid
// only until the next call to Iterator.Next.
type Message struct {
	Topic string
	Type  string
	// LogTimeNS is the record time: sqlite messages.timestamp / MCAP log_time.
	LogTimeNS int64
	// PublishTimeNS is MCAP publish_time when HasPublishTime is true.
	PublishTimeNS  int64
	HasPublishTime bool
	// FileIndex indexes Bag.Files; Position is the sqlite rowid or the MCAP
	// byte offset of the record (of its chunk for chunked files).
	FileIndex int
	Position  int64
	// ChunkOffset is the offset of the message record inside its
	// decompressed MCAP chunk, -1 for top-level MCAP messages and sqlite.
	ChunkOffset int64
	// Index counts messages yielded so far on this topic (0-based), so
	// errors can name "topic /scan, message 17".
	Index uint64
	// Data is the CDR payload, MESSAGE-mode zstd already undone, or its
	// first ReadOptions.PrefixBytes bytes when Prefix is true.
	Data []byte
	// Size is the full payload length in bytes (after MESSAGE-mode zstd
	// is undone): len(Data) unless Prefix.
	Size int64
	// Prefix is true when Data holds only the start of a longer payload,
	// as asked by ReadOptions.PrefixTopics.
	Prefix bool
	// Publisher is the callerid of a ROS 1 message's connection (the node
	// that published it, as rosbag record saw it); "" for ROS 2 storage.
	Publisher string
	// Err is non-nil when this message could not be recovered (e.g. a
	// corrupt MESSAGE-mode zstd frame); Data is then nil. Consumers count it
	// as skipped and go on.
	Err error
}
