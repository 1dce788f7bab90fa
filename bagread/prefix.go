package bagread

// Prefix reads: an analysis that needs only the start of large messages
// (the std_msgs/Header of an Image or PointCloud2, say) asks for the first
// ReadOptions.PrefixBytes bytes of the payloads of ReadOptions.PrefixTopics.
// Where the storage allows it the rest is never read:
//
//   - db3: the row's data column is not selected for those topics (its
//     length comes from the record header, so SQLite leaves the overflow
//     pages alone) and the first bytes are read through SQLite's
//     incremental blob I/O, which touches only the pages holding them.
//   - MCAP: a chunk larger than prefixStreamChunk, and a top-level message
//     record larger than prefixStreamRecord, is parsed record by record
//     from the file instead of being read whole: payload bytes past the
//     prefix are seeked over (uncompressed chunks) or decompressed into a
//     small scratch buffer and dropped (zstd and lz4 chunks: a compressed
//     stream cannot be skipped, but it need not be held).
//
// Everything else (small chunks, time-order reads that merge or sort,
// files that were damaged or had no usable summary, chunks the read-ahead
// already decompressed, MESSAGE-mode zstd messages) is read as without the
// option and the payload is cut to the prefix afterwards, so Data, Size
// and Prefix are the same whichever way a message was read.
//
// What was not read cannot be checked: damage inside a skipped range (a
// bad overflow page, a corrupt payload tail) goes unnoticed by a prefix
// read, and the CRC of an uncompressed chunk parsed record by record is
// not checked (its skipped bytes were never read). A compressed chunk is
// decoded in full, so its CRC is checked at its end, after its messages
// were delivered (see mcapcrc.go). A damaged db3 or MCAP
// file (one Open had to recover) is always read whole, so its problems are
// reported exactly as without prefixes.

// prefixStreamChunk is the chunk record size above which a prefix read
// parses a chunk record by record instead of reading it whole. rosbag2
// closes a chunk once it passes 768 KiB, so a larger chunk holds a large
// message; smaller ones are cheaper to read in one go.
const prefixStreamChunk = 1 << 20

// prefixStreamRecord is the top-level message record size above which
// the payload past the prefix is skipped rather than read.
const prefixStreamRecord = 64 << 10

// prefixSpec is what a read wants cut: which topics, how many bytes; and
// which topics are wanted without any payload byte (ReadOptions.TimeOnlyTopics).
type prefixSpec struct {
	topics map[string]bool
	n      int
	none   map[string]bool
}

func newPrefixSpec(o ReadOptions) *prefixSpec {
	if (o.PrefixBytes <= 0 || len(o.PrefixTopics) == 0) && len(o.TimeOnlyTopics) == 0 {
		return nil
	}
	p := &prefixSpec{topics: map[string]bool{}, n: max(o.PrefixBytes, 0), none: map[string]bool{}}
	if o.PrefixBytes > 0 {
		for _, t := range o.PrefixTopics {
			p.topics[t] = true
		}
	}
	for _, t := range o.TimeOnlyTopics {
		p.none[t] = true
	}
	return p
}

// has says whether topic is read as a prefix, time-only included.
func (p *prefixSpec) has(topic string) bool { return p != nil && (p.topics[topic] || p.none[topic]) }

// timeOnly says whether no payload byte of topic is wanted.
func (p *prefixSpec) timeOnly(topic string) bool { return p != nil && p.none[topic] }

// prefixOpener is a file handle that can read payload prefixes itself.
// Handles that cannot are opened as usual and their payloads are cut in
// Iterator.fill.
type prefixOpener interface {
	openPrefix(fileIndex int, sel selection, order Order, px *prefixSpec) (stream, error)
}

// cutPrefix applies the prefix to a message whose payload was read whole
// (or is already a prefix of r.size bytes).
func (it *Iterator) cutPrefix(m *Message, r *rawMessage) {
	if it.lastTimeOnly && m.Err == nil {
		// Set before any MESSAGE-mode frame is undone (fill).
		return
	}
	if r.size > int64(len(r.data)) && m.Err == nil {
		m.Size, m.Prefix = r.size, true
	}
	if n := it.px.n; it.lastPrefix && len(m.Data) > n {
		m.Data, m.Prefix = m.Data[:n], true
	}
}

// fillTimeOnly gives a time-only topic's message its record without the
// payload: the stored length, whichever way the storage read it.
func (it *Iterator) fillTimeOnly(m *Message, r *rawMessage) {
	size := max(r.size, int64(len(r.data)))
	m.Data, m.Size, m.Prefix = r.data[:0], size, size > 0
}
