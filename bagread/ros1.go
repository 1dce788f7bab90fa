package bagread

// ROS 1 bag format 2.0 (http://wiki.ros.org/Bags/Format/2.0): a magic
// line, then records of the form
//
//	header_len u32, header (fields: field_len u32, "name=value"), data_len u32, data
//
// all little-endian. The bag header record (op 0x03, padded to 4096 bytes)
// holds index_pos, conn_count and chunk_count; messages (op 0x02) and their
// connections (op 0x07) live inside chunks (op 0x05: compression "none",
// "bz2" or "lz4", uncompressed size), each followed by one index data
// record (op 0x04) per connection; at index_pos the recorder writes every
// connection again and one chunk info (op 0x06) per chunk. A recorder that
// never closed the file (rosbag record killed: a .bag.active) leaves
// index_pos 0 and no index.
//
// Why a reader of our own and not github.com/foxglove/go-rosbag (MIT,
// v0.0.7, read from the module cache): its reader refuses an unindexed
// bag outright (index_pos 0 gives ErrUnindexedBag), so a .bag.active or a
// cut file could not be read at all; ReadRecord allocates whatever
// header_len and data_len a file claims (up to 4 GiB each) before reading,
// and its indexed iterator allocates a chunk's claimed uncompressed size
// and twice its compressed size, so a hostile length is an allocation, not
// an error; its errors carry no file offset. Bounding all of that would
// have meant rewriting the record layer, which is most of the library.
// This reader checks every length against the bytes left and the decode
// budget (Options.MaxRecordBytes) before allocating, decompresses into a
// buffer of the declared size at most (reused from chunk to chunk), and
// reads an unindexed or damaged file by a linear scan of every complete
// record, saying so in File.Recovery.

import (
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// StorageROS1 is the Storage of a ROS 1 bag file (format 2.0).
const StorageROS1 = "rosbag_v2"

// SerializationROS1 is the SerializationFormat of a ROS 1 bag's topics;
// DefinitionROS1 the DefinitionEncoding of their message_definition.
const (
	SerializationROS1 = "ros1"
	DefinitionROS1    = "ros1msg"
)

var ros1Magic = []byte("#ROSBAG V2.0\n")

// Record op codes of format 2.0.
const (
	ros1OpMessage    = 0x02
	ros1OpBagHeader  = 0x03
	ros1OpIndex      = 0x04
	ros1OpChunk      = 0x05
	ros1OpChunkInfo  = 0x06
	ros1OpConnection = 0x07
)

// Connection is one ROS 1 connection record: a publisher of a topic as
// rosbag record saw it.
type Connection struct {
	ID uint32
	// Callerid is the publishing node ("/hokuyo_node"); "" when the
	// recorder did not write one.
	Callerid string
	// Latching is true for a latched publisher (tf_static, map servers).
	Latching bool
	MD5Sum   string
	// Count is the number of messages of this connection found in
	// storage (from the chunk infos, or counted by the linear scan).
	Count uint64
}

// ros1Record is the parsed header of one record; only the fields of its
// op are set.
type ros1Record struct {
	op          byte
	hasOp       bool
	conn        uint32
	time        int64
	indexPos    uint64
	connCount   uint32
	chunkCount  uint32
	compression string
	size        uint32
	hasSize     bool
	topic       string
	chunkPos    uint64
	startTime   int64
	endTime     int64
	count       uint32
}

// ros1Time turns a ROS 1 time (uint32 sec, uint32 nsec) into nanoseconds.
func ros1Time(b []byte) int64 {
	return int64(binary.LittleEndian.Uint32(b))*1_000_000_000 + int64(binary.LittleEndian.Uint32(b[4:]))
}

// ros1EachField calls f for every name=value field of a record header or
// connection header; it stops at the first malformed field.
func ros1EachField(h []byte, f func(name, value []byte) error) error {
	for off := 0; off < len(h); {
		if len(h)-off < 4 {
			return fmt.Errorf("header field length torn at header offset %d", off)
		}
		n := binary.LittleEndian.Uint32(h[off:])
		off += 4
		if uint64(n) > uint64(len(h)-off) {
			return fmt.Errorf("header field at offset %d claims %d bytes, %d left", off-4, n, len(h)-off)
		}
		field := h[off : off+int(n)]
		off += int(n)
		eq := bytes.IndexByte(field, '=')
		if eq < 0 {
			return fmt.Errorf("header field at offset %d has no '='", off-int(n)-4)
		}
		if err := f(field[:eq], field[eq+1:]); err != nil {
			return err
		}
	}
	return nil
}

// parseROS1Record reads a record header into r.
func parseROS1Record(h []byte, r *ros1Record) error {
	*r = ros1Record{}
	err := ros1EachField(h, func(name, v []byte) error {
		fixed := func(n int) error {
			if len(v) != n {
				return fmt.Errorf("field %s has %d bytes, want %d", name, len(v), n)
			}
			return nil
		}
		switch string(name) {
		case "op":
			if err := fixed(1); err != nil {
				return err
			}
			r.op, r.hasOp = v[0], true
		case "conn":
			if err := fixed(4); err != nil {
				return err
			}
			r.conn = binary.LittleEndian.Uint32(v)
		case "time":
			if err := fixed(8); err != nil {
				return err
			}
			r.time = ros1Time(v)
		case "index_pos":
			if err := fixed(8); err != nil {
				return err
			}
			r.indexPos = binary.LittleEndian.Uint64(v)
		case "conn_count":
			if err := fixed(4); err != nil {
				return err
			}
			r.connCount = binary.LittleEndian.Uint32(v)
		case "chunk_count":
			if err := fixed(4); err != nil {
				return err
			}
			r.chunkCount = binary.LittleEndian.Uint32(v)
		case "compression":
			switch string(v) {
			case "none":
				r.compression = "none"
			case "bz2":
				r.compression = "bz2"
			case "lz4":
				r.compression = "lz4"
			default:
				r.compression = string(v)
			}
		case "size":
			if err := fixed(4); err != nil {
				return err
			}
			r.size, r.hasSize = binary.LittleEndian.Uint32(v), true
		case "topic":
			r.topic = string(v)
		case "chunk_pos":
			if err := fixed(8); err != nil {
				return err
			}
			r.chunkPos = binary.LittleEndian.Uint64(v)
		case "start_time":
			if err := fixed(8); err != nil {
				return err
			}
			r.startTime = ros1Time(v)
		case "end_time":
			if err := fixed(8); err != nil {
				return err
			}
			r.endTime = ros1Time(v)
		case "count":
			if err := fixed(4); err != nil {
				return err
			}
			r.count = binary.LittleEndian.Uint32(v)
		}
		return nil
	})
	if err == nil && !r.hasOp {
		err = errors.New("record header has no op field")
	}
	return err
}

// ros1MessageHeaderLen is the header of a message data record as rosbag
// writes it: exactly the fields op (1 byte), conn (4) and time (8), each
// after its 4-byte length: 8 + 13 + 13 bytes.
const ros1MessageHeaderLen = 4 + len("op=") + 1 + 4 + len("conn=") + 4 + 4 + len("time=") + 8

// parseROS1Message is parseROS1Record's fast path for the record met most,
// a message data record: when h holds exactly op=0x02, conn and time, in
// any order, it fills r as parseROS1Record would and returns true; for
// anything else it returns false and leaves r alone. The general parser's
// per-field callback cost a quarter of reading an uncompressed bag.
func parseROS1Message(h []byte, r *ros1Record) bool {
	if len(h) != ros1MessageHeaderLen {
		return false
	}
	var conn uint32
	var t int64
	seen := 0
	for off := 0; off < len(h); {
		if len(h)-off < 4 {
			return false
		}
		n := int(binary.LittleEndian.Uint32(h[off:]))
		if n > len(h)-off-4 {
			return false
		}
		f := h[off+4 : off+4+n]
		switch {
		case n == 4 && string(f[:3]) == "op=" && f[3] == ros1OpMessage:
			seen |= 1
		case n == 9 && string(f[:5]) == "conn=":
			conn = binary.LittleEndian.Uint32(f[5:])
			seen |= 2
		case n == 13 && string(f[:5]) == "time=":
			t = ros1Time(f[5:])
			seen |= 4
		default:
			return false
		}
		off += 4 + n
	}
	if seen != 7 {
		return false
	}
	*r = ros1Record{op: ros1OpMessage, hasOp: true, conn: conn, time: t}
	return true
}

// ros1ConnInfo is the data of a connection record.
type ros1ConnInfo struct {
	topic, typ, md5, def, callerid string
	latching                       bool
}

func parseROS1ConnData(data []byte) (ros1ConnInfo, error) {
	var c ros1ConnInfo
	err := ros1EachField(data, func(name, v []byte) error {
		switch string(name) {
		case "topic":
			c.topic = string(v)
		case "type":
			c.typ = string(v)
		case "md5sum":
			c.md5 = string(v)
		case "message_definition":
			c.def = string(v)
		case "callerid":
			c.callerid = string(v)
		case "latching":
			c.latching = string(v) == "1"
		}
		return nil
	})
	if err == nil && c.typ == "" {
		err = errors.New("connection header has no type")
	}
	return c, err
}

// ros1Slice walks the records of an in-memory buffer (a decompressed
// chunk): next returns the record at off and where the one after starts.
func ros1Slice(buf []byte, off int, r *ros1Record) (data []byte, next int, err error) {
	if len(buf)-off < 4 {
		return nil, 0, &TruncatedError{Need: 4, Have: int64(len(buf) - off)}
	}
	hl := binary.LittleEndian.Uint32(buf[off:])
	if uint64(hl)+8 > uint64(len(buf)-off) {
		return nil, 0, &TruncatedError{Need: uint64(hl) + 8, Have: int64(len(buf) - off)}
	}
	h := buf[off+4 : off+4+int(hl)]
	p := off + 4 + int(hl)
	dl := binary.LittleEndian.Uint32(buf[p:])
	p += 4
	if uint64(dl) > uint64(len(buf)-p) {
		return nil, 0, &TruncatedError{Need: uint64(dl), Have: int64(len(buf) - p)}
	}
	if !parseROS1Message(h, r) {
		if err := parseROS1Record(h, r); err != nil {
			return nil, 0, err
		}
	}
	return buf[p : p+int(dl)], p + int(dl), nil
}

// ros1Decompressor undoes chunk compression into a reused buffer, never
// past the declared size or the decode budget.
type ros1Decompressor struct {
	cd  chunkDecompressor
	buf []byte
}

func (d *ros1Decompressor) decompress(compression string, src []byte, size uint32) ([]byte, error) {
	limit := d.cd.limit
	switch compression {
	case "none":
		if uint64(len(src)) != uint64(size) {
			return nil, fmt.Errorf("uncompressed chunk holds %d bytes, header says %d", len(src), size)
		}
		return src, nil
	case "lz4":
		// roslz4 writes the standard LZ4 frame format (magic 0x184D2204),
		// as MCAP does: the MCAP path's bounded reader serves both.
		out, err := d.cd.decompress("lz4", src, uint64(size), d.buf)
		if out != nil {
			d.buf = out
		}
		return out, err
	case "bz2":
		if int64(size) > limit {
			return nil, &SizeError{What: "bz2 chunk", HasDeclared: true, Declared: uint64(size), Limit: limit}
		}
		r := bzip2.NewReader(bytes.NewReader(src))
		out := d.buf[:0]
		for uint32(len(out)) < size {
			n := len(out)
			out = growLen(out, n+int(min(size-uint32(n), 4<<20)))
			m, err := io.ReadFull(r, out[n:])
			out = out[:n+m]
			if err != nil {
				d.buf = out
				return nil, fmt.Errorf("bz2 chunk: %w", err)
			}
		}
		d.buf = out
		if rest, _ := io.Copy(io.Discard, io.LimitReader(r, limit-int64(size)+1)); rest > 0 {
			return nil, &SizeError{What: "bz2 chunk", HasDeclared: true, Declared: uint64(size), Actual: int64(size) + rest, Limit: limit}
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported chunk compression %q", compression)
}

// maxROS1Header bounds a record header read from the file: the largest
// header format 2.0 writes is a few dozen bytes; connection records carry
// their definitions in the data, not the header.
const maxROS1Header = 1 << 20

// errROS1Size is a record length beyond what the file or the budget holds.
func ros1SizeCheck(what string, n uint64, left int64, limit int64) error {
	if int64(n) < 0 || n > uint64(math.MaxInt64) || int64(n) > left {
		return &TruncatedError{Need: n, Have: left}
	}
	if int64(n) > limit {
		return &SizeError{What: what, HasDeclared: true, Declared: n, Limit: limit}
	}
	return nil
}
