package bagwrite

import (
	"bufio"
	"fmt"
	"os"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
)

// mcapFile writes one .mcap storage file the way rosbag2's MCAP plugin
// does: profile "ros2", one schema per type (ros2msg), one channel per
// topic with offered_qos_profiles metadata, sequence 0, a "rosbag2"
// Metadata record.
type mcapFile struct {
	f        *os.File
	bw       *bufio.Writer
	w        *mcap.Writer
	opts     *Options
	schemas  map[string]uint16
	channels map[*topic]uint16
	msg      mcap.Message
}

func newMCAPFile(path string, opts *Options, initial *bagMetadata) (*mcapFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	wo := &mcap.WriterOptions{
		Chunked:   !opts.NoChunking,
		ChunkSize: opts.ChunkSize,
		// rosbag2 records with noChunkCRC; the Go writer has one switch for
		// all CRCs, so leave them all out.
		IncludeCRC: false,
	}
	switch opts.ChunkCompression {
	case "zstd":
		// One encoder goroutine keeps the output byte-for-byte repeatable.
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("zstd encoder: %w", err)
		}
		wo.Compressor = mcap.NewCustomCompressor(mcap.CompressionZSTD, enc)
	case "lz4":
		wo.Compression = mcap.CompressionLZ4
	default:
		wo.Compression = mcap.CompressionNone
	}
	if opts.NoSummary {
		wo.SkipStatistics = true
		wo.SkipRepeatedSchemas = true
		wo.SkipRepeatedChannelInfos = true
		wo.SkipChunkIndex = true
		wo.SkipAttachmentIndex = true
		wo.SkipMetadataIndex = true
		wo.SkipSummaryOffsets = true
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w, err := mcap.NewWriter(bw, wo)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("mcap writer: %w", err)
	}
	m := &mcapFile{f: f, bw: bw, w: w, opts: opts, schemas: map[string]uint16{}, channels: map[*topic]uint16{}}
	if err := w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "bagclock bagwrite"}); err != nil {
		f.Close()
		return nil, fmt.Errorf("mcap header: %w", err)
	}
	if err := m.writeMetadata(initial); err != nil {
		f.Close()
		return nil, err
	}
	return m, nil
}

// writeMetadata writes the "rosbag2" Metadata record: ROS_DISTRO only for
// Humble-style bags, plus serialized_metadata (bare BagMetadata YAML) for
// Jazzy-style ones.
func (m *mcapFile) writeMetadata(meta *bagMetadata) error {
	kv := map[string]string{"ROS_DISTRO": m.opts.ROSDistro}
	if m.opts.MetadataVersion >= 9 {
		text, err := meta.yamlText(false)
		if err != nil {
			return err
		}
		kv["serialized_metadata"] = string(text)
	}
	if err := m.w.WriteMetadata(&mcap.Metadata{Name: "rosbag2", Metadata: kv}); err != nil {
		return fmt.Errorf("mcap metadata record: %w", err)
	}
	return nil
}

func (m *mcapFile) addTopic(t *topic) error {
	sid, ok := m.schemas[t.Type]
	if !ok {
		sid = uint16(len(m.schemas) + 1)
		s := &mcap.Schema{ID: sid, Name: t.Type}
		if def, known := t.definition(); known {
			s.Encoding = "ros2msg"
			s.Data = []byte(def)
		}
		if err := m.w.WriteSchema(s); err != nil {
			return fmt.Errorf("schema %s: %w", t.Type, err)
		}
		m.schemas[t.Type] = sid
	}
	cid := uint16(len(m.channels) + 1)
	md := map[string]string{"offered_qos_profiles": qosString(t.QoS, m.opts.MetadataVersion)}
	if m.opts.MetadataVersion >= 9 {
		md["topic_type_hash"] = t.TypeDescriptionHash
	}
	c := &mcap.Channel{ID: cid, SchemaID: sid, Topic: t.Name, MessageEncoding: "cdr", Metadata: md}
	if err := m.w.WriteChannel(c); err != nil {
		return fmt.Errorf("channel %s: %w", t.Name, err)
	}
	m.channels[t] = cid
	return nil
}

func (m *mcapFile) write(t *topic, logNS, pubNS int64, data []byte) error {
	m.msg = mcap.Message{
		ChannelID:   m.channels[t],
		LogTime:     uint64(logNS),
		PublishTime: uint64(pubNS),
		Data:        data,
	}
	return m.w.WriteMessage(&m.msg)
}

func (m *mcapFile) finish(meta *bagMetadata) error {
	if m.opts.MetadataVersion >= 9 {
		if err := m.writeMetadata(meta); err != nil {
			m.f.Close()
			return err
		}
	}
	if err := m.w.Close(); err != nil {
		m.f.Close()
		return fmt.Errorf("mcap close: %w", err)
	}
	return m.flushClose()
}

// abandon keeps only what reached the file: the chunk still being built in
// memory is lost, and no DataEnd, summary or footer is written.
func (m *mcapFile) abandon() error { return m.flushClose() }

func (m *mcapFile) flushClose() error {
	if err := m.bw.Flush(); err != nil {
		m.f.Close()
		return err
	}
	return m.f.Close()
}
