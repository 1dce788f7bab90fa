package bagcopy

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/bagclock/bagclock/bagread"
	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
)

// chunkSize is the MCAP chunk size: rosbag2's default (4 MiB), a chunk
// index entry per few hundred laser scans.
const chunkSize = 4 << 20

// mcapFile writes one .mcap file.
type mcapFile struct {
	f        *os.File
	bw       *bufio.Writer
	w        *mcap.Writer
	channels map[string]uint16 // topic → channel id
	// seq numbers each channel's messages from 1 in write order: bagread
	// does not give the input's sequence, and all zeros says nothing.
	seq map[uint16]uint32
	msg mcap.Message
}

// mcapSource is what an input MCAP file holds besides messages.
type mcapSource struct {
	header      *mcap.Header
	schemas     []*mcap.Schema
	channels    []*mcap.Channel
	metadata    []*mcap.Metadata
	attachments []mcap.AttachmentIndex
	compression string
}

// readMCAPSource reads an input file's summary: schemas, channels,
// metadata records and attachment indexes. A file without a usable
// summary (cut short) gives nil: its topics are rebuilt from bagread's.
func readMCAPSource(path string) *mcapSource {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	r, err := mcap.NewReader(f)
	if err != nil {
		return nil
	}
	defer r.Close()
	info, err := r.Info()
	if err != nil || info == nil {
		return nil
	}
	src := &mcapSource{header: info.Header}
	for _, s := range info.Schemas {
		src.schemas = append(src.schemas, s)
	}
	sort.Slice(src.schemas, func(i, j int) bool { return src.schemas[i].ID < src.schemas[j].ID })
	for _, c := range info.Channels {
		src.channels = append(src.channels, c)
	}
	sort.Slice(src.channels, func(i, j int) bool { return src.channels[i].ID < src.channels[j].ID })
	for _, mi := range info.MetadataIndexes {
		if md, err := r.GetMetadata(mi.Offset); err == nil {
			src.metadata = append(src.metadata, md)
		}
	}
	for _, ai := range info.AttachmentIndexes {
		src.attachments = append(src.attachments, *ai)
	}
	if len(info.ChunkIndexes) > 0 {
		src.compression = string(info.ChunkIndexes[0].Compression)
		if src.compression == "" {
			src.compression = "none"
		}
	}
	return src
}

func newMCAPFile(path string, in *bagread.Bag, idx int, opts *Options) (_ *mcapFile, err error) {
	inFile := in.Files[idx]
	var src *mcapSource
	if inFile.Storage == bagread.StorageMCAP && inFile.Compression == "" {
		src = readMCAPSource(inFile.Path)
	}
	comp := opts.Compression
	if comp == "" && src != nil {
		comp = src.compression
	}
	if comp == "" {
		comp = "zstd"
	}
	wo := &mcap.WriterOptions{Chunked: true, ChunkSize: chunkSize, IncludeCRC: true, OverrideLibrary: true}
	switch comp {
	case "zstd":
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("zstd encoder: %w", err)
		}
		wo.Compressor = mcap.NewCustomCompressor(mcap.CompressionZSTD, enc)
	case "lz4":
		wo.Compression = mcap.CompressionLZ4
	case "none":
		wo.Compression = mcap.CompressionNone
	default:
		return nil, fmt.Errorf("MCAP compression %q: want zstd, lz4 or none", comp)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	w, err := mcap.NewWriter(bw, wo)
	if err != nil {
		return nil, err
	}
	m := &mcapFile{f: f, bw: bw, w: w, channels: map[string]uint16{}, seq: map[uint16]uint32{}}
	hdr := &mcap.Header{Profile: "ros2", Library: opts.Library}
	if src != nil && src.header != nil {
		hdr.Profile = src.header.Profile
	}
	if err := w.WriteHeader(hdr); err != nil {
		return nil, err
	}
	if src != nil {
		if err := m.copySource(src, inFile.Path); err != nil {
			return nil, err
		}
	}
	// Topics the input file's summary does not name (a db3 input, a cut
	// MCAP, a topic bagread merged from several files) get a schema and
	// channel from bagread's topic.
	nextSchema, nextChannel := uint16(1), uint16(0)
	for _, s := range srcSchemas(src) {
		nextSchema = max(nextSchema, s.ID+1)
	}
	for _, c := range srcChannels(src) {
		nextChannel = max(nextChannel, c.ID+1)
	}
	schemas := map[string]uint16{}
	for _, t := range in.Topics {
		if _, ok := m.channels[t.Name]; ok {
			continue
		}
		sid, ok := schemas[t.Type]
		if !ok {
			sid = nextSchema
			nextSchema++
			enc := t.DefinitionEncoding
			if enc == "" || enc == "unknown" {
				enc = "ros2msg"
			}
			if err := w.WriteSchema(&mcap.Schema{ID: sid, Name: t.Type, Encoding: enc, Data: []byte(t.Definition)}); err != nil {
				return nil, err
			}
			schemas[t.Type] = sid
		}
		md := map[string]string{"offered_qos_profiles": t.OfferedQoS}
		if t.TypeDescriptionHash != "" {
			md["topic_type_hash"] = t.TypeDescriptionHash
		}
		format := t.SerializationFormat
		if format == "" {
			format = "cdr"
		}
		if err := w.WriteChannel(&mcap.Channel{ID: nextChannel, SchemaID: sid, Topic: t.Name, MessageEncoding: format, Metadata: md}); err != nil {
			return nil, err
		}
		m.channels[t.Name] = nextChannel
		nextChannel++
	}
	return m, nil
}

func srcSchemas(s *mcapSource) []*mcap.Schema {
	if s == nil {
		return nil
	}
	return s.schemas
}

func srcChannels(s *mcapSource) []*mcap.Channel {
	if s == nil {
		return nil
	}
	return s.channels
}

// copySource writes the input file's schemas, channels (same ids and
// metadata), metadata records and attachments.
func (m *mcapFile) copySource(src *mcapSource, path string) error {
	for _, s := range src.schemas {
		if err := m.w.WriteSchema(s); err != nil {
			return err
		}
	}
	for _, c := range src.channels {
		if err := m.w.WriteChannel(c); err != nil {
			return err
		}
		if _, dup := m.channels[c.Topic]; !dup {
			m.channels[c.Topic] = c.ID
		}
	}
	for _, md := range src.metadata {
		if err := m.w.WriteMetadata(md); err != nil {
			return err
		}
	}
	if len(src.attachments) == 0 {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := mcap.NewReader(f)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, ai := range src.attachments {
		ar, err := r.GetAttachmentReader(ai.Offset)
		if err != nil {
			return fmt.Errorf("attachment %q: %w", ai.Name, err)
		}
		if err := m.w.WriteAttachment(&mcap.Attachment{LogTime: ar.LogTime, CreateTime: ar.CreateTime, Name: ar.Name,
			MediaType: ar.MediaType, DataSize: ar.DataSize, Data: io.LimitReader(ar.Data(), int64(ar.DataSize))}); err != nil {
			return fmt.Errorf("attachment %q: %w", ai.Name, err)
		}
	}
	return nil
}

func (m *mcapFile) write(msg *bagread.Message, data []byte, logNS int64) error {
	id, ok := m.channels[msg.Topic]
	if !ok {
		return fmt.Errorf("no channel for topic %s", msg.Topic)
	}
	pub := msg.PublishTimeNS
	if !msg.HasPublishTime {
		pub = msg.LogTimeNS // rosbag2's db3 has none; its MCAP writer uses the receive time
	}
	m.seq[id]++
	m.msg = mcap.Message{ChannelID: id, Sequence: m.seq[id], LogTime: uint64(logNS), PublishTime: uint64(pub), Data: data}
	return m.w.WriteMessage(&m.msg)
}

func (m *mcapFile) close() error {
	err := m.w.Close()
	if ferr := m.bw.Flush(); err == nil {
		err = ferr
	}
	if cerr := m.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (m *mcapFile) abandon() { m.f.Close() }
