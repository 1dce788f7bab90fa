// Package bombs writes small hostile bags for tests and the memory
// check (scripts/bomb-rss.sh): compressed chunks and frames that inflate
// far beyond their size, with honest or lying declared sizes.
package bombs

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/bagclock/bagclock/cdr"
	_ "github.com/mattn/go-sqlite3" // the db3 writer
)

// Zeros returns one zstd frame that decodes to n zero bytes; withSize
// writes the content size into the frame header, otherwise the frame
// has none (a streaming encoder's output).
func Zeros(n int64, withSize bool) ([]byte, error) {
	var buf bytes.Buffer
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	if withSize {
		enc.ResetContentSize(&buf, n)
	} else {
		enc.Reset(&buf)
	}
	zero := make([]byte, 1<<20)
	for left := n; left > 0; {
		k := min(left, int64(len(zero)))
		if _, err := enc.Write(zero[:k]); err != nil {
			return nil, err
		}
		left -= k
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// LZ4 returns data as one lz4 frame (as MCAP lz4 chunks hold).
func LZ4(data []byte) []byte {
	var buf bytes.Buffer
	w := lz4.NewWriter(&buf)
	w.Write(data)
	w.Close()
	return buf.Bytes()
}

// Compress returns data as one zstd frame with its content size.
func Compress(data []byte) []byte {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

// Payload is a small valid LaserScan (frame "laser", stamped i seconds
// after 1 s), so the messages around a bomb analyse cleanly.
func Payload(i int) []byte {
	m := cdr.LaserScan{Header: cdr.Header{Stamp: cdr.Time{Sec: int32(1 + i)}, FrameID: "laser"},
		AngleMin: -1, AngleMax: 1, AngleIncrement: 0.5, RangeMax: 10, Ranges: []float32{1, 2, 3, 4, 5}}
	return cdr.AppendLaserScan(nil, &m, binary.LittleEndian)
}

type rec struct{ bytes.Buffer }

func (r *rec) u16(v uint16) { binary.Write(&r.Buffer, binary.LittleEndian, v) }
func (r *rec) u32(v uint32) { binary.Write(&r.Buffer, binary.LittleEndian, v) }
func (r *rec) u64(v uint64) { binary.Write(&r.Buffer, binary.LittleEndian, v) }
func (r *rec) str(s string) { r.u32(uint32(len(s))); r.WriteString(s) }

func record(w io.Writer, op byte, body []byte) {
	var h [9]byte
	h[0] = op
	binary.LittleEndian.PutUint64(h[1:], uint64(len(body)))
	w.Write(h[:])
	w.Write(body)
}

var mcapMagic = []byte{0x89, 'M', 'C', 'A', 'P', '0', '\r', '\n'}

// MCAPChunk writes an MCAP with one /scan channel and no summary: a chunk
// before the bomb with one message, the bomb chunk (zstd records frame,
// the declared uncompressed size as given), and a chunk after it with one
// more message, so a reader that skips the bomb still reads two messages.
// Every chunk is followed by its Message Index record, as rosbag2 writes
// them; the bomb's claims one message (log time 2 s), which a reader that
// skips the chunk can count as skipped. It returns the byte offset of the
// bomb chunk.
func MCAPChunk(path string, declared uint64, frame []byte) (int64, error) {
	return MCAPChunkWith(path, "zstd", declared, frame)
}

// MCAPChunkWith is MCAPChunk with the bomb chunk's compression named
// ("zstd" or "lz4": records must be a frame of that kind); the chunks
// around it are zstd.
func MCAPChunkWith(path, compression string, declared uint64, records []byte) (int64, error) {
	var f bytes.Buffer
	mcapStart(&f)
	chunk := func(comp string, usize uint64, records []byte, logTime uint64) {
		var c rec
		c.u64(1_000_000_000)
		c.u64(3_000_000_000)
		c.u64(usize)
		c.u32(0) // no CRC
		c.str(comp)
		c.u64(uint64(len(records)))
		c.Write(records)
		record(&f, 0x06, c.Bytes())
		var mi rec // Message Index: channel 1, one message at chunk offset 0
		mi.u16(1)
		mi.u32(16)
		mi.u64(logTime)
		mi.u64(0)
		record(&f, 0x07, mi.Bytes())
	}
	message := func(i int) []byte {
		var m rec
		m.u16(1)
		m.u32(uint32(i))
		m.u64(uint64(1_000_000_000 + i*1_000_000_000))
		m.u64(uint64(1_000_000_000 + i*1_000_000_000))
		m.Write(Payload(i))
		var out bytes.Buffer
		record(&out, 0x05, m.Bytes())
		return out.Bytes()
	}
	before := message(0)
	chunk("zstd", uint64(len(before)), Compress(before), 1_000_000_000)
	off := int64(f.Len())
	chunk(compression, declared, records, 2_000_000_000)
	after := message(2)
	chunk("zstd", uint64(len(after)), Compress(after), 3_000_000_000)
	mcapEnd(&f)
	return off, os.WriteFile(path, f.Bytes(), 0o644)
}

// mcapStart writes what the bomb MCAPs share before their messages: the
// magic, a Header record, and one LaserScan schema and /scan channel (id 1).
func mcapStart(f *bytes.Buffer) {
	f.Write(mcapMagic)
	var r rec
	r.str("ros2")
	r.str("bombs")
	record(f, 0x01, r.Bytes())
	r.Reset()
	r.u16(1)
	r.str("sensor_msgs/msg/LaserScan")
	r.str("ros2msg")
	r.u32(0)
	record(f, 0x03, r.Bytes())
	r.Reset()
	r.u16(1)
	r.u16(1)
	r.str("/scan")
	r.str("cdr")
	r.u32(0)
	record(f, 0x04, r.Bytes())
}

// mcapEnd closes a bomb MCAP without a summary: Data End, a Footer
// pointing at no summary section, and the closing magic.
func mcapEnd(f *bytes.Buffer) {
	var r rec
	r.u32(0)
	record(f, 0x0F, r.Bytes())
	r.Reset()
	r.u64(0)
	r.u64(0)
	r.u32(0)
	record(f, 0x02, r.Bytes())
	f.Write(mcapMagic)
}

// MCAPBigMessage writes an MCAP with one /scan channel, no chunks and no
// summary: a message, a message record whose payload is a LaserScan
// padded with zeros to n bytes (log time 2 s), and one more message. It
// returns the byte offset of the big record.
func MCAPBigMessage(path string, n int) (int64, error) {
	var f bytes.Buffer
	mcapStart(&f)
	message := func(i int, payload []byte) {
		var m rec
		m.u16(1)
		m.u32(uint32(i))
		m.u64(uint64(1_000_000_000 + i*1_000_000_000))
		m.u64(uint64(1_000_000_000 + i*1_000_000_000))
		m.Write(payload)
		record(&f, 0x05, m.Bytes())
	}
	message(0, Payload(0))
	off := int64(f.Len())
	big := Payload(1)
	message(1, append(big, make([]byte, max(n-len(big), 0))...))
	message(2, Payload(2))
	mcapEnd(&f)
	return off, os.WriteFile(path, f.Bytes(), 0o644)
}

// MessageModeDB3 writes a MESSAGE-mode db3 (every row a zstd frame) with
// one /scan topic: a good row, then each bomb frame as a row, then one
// more good row.
func MessageModeDB3(path string, bombs ...[]byte) error {
	return messagesDB3(path, "?", bombs...)
}

// BigRowDB3 writes a db3 like MessageModeDB3 whose middle row is n zero
// bytes, not compressed; sqlite writes them (zeroblob), so the caller
// never holds them.
func BigRowDB3(path string, n int64) error {
	return messagesDB3(path, "zeroblob("+strconv.FormatInt(n, 10)+")", nil)
}

// messagesDB3 writes a one-topic db3: a MESSAGE-mode row, a row per bomb
// (its data bound to the SQL expression middle), one more MESSAGE-mode row.
func messagesDB3(path, middle string, bombs ...[]byte) error {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return err
	}
	defer db.Close()
	stmts := []string{
		"CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL)",
		"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL)",
		"INSERT INTO topics VALUES (1, '/scan', 'sensor_msgs/msg/LaserScan', 'cdr', '')",
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			return err
		}
	}
	rows := [][]byte{Compress(Payload(0))}
	rows = append(rows, bombs...)
	rows = append(rows, Compress(Payload(len(rows))))
	for i, data := range rows {
		expr, args := "?", []any{int64(1_000_000_000 * (i + 1)), data}
		if i > 0 && i < len(rows)-1 && middle != "?" {
			expr, args = middle, args[:1]
		}
		if _, err := db.Exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (1, ?, "+expr+")", args...); err != nil {
			return fmt.Errorf("row %d: %w", i, err)
		}
	}
	return nil
}

// FileModeDB3 writes a FILE-mode .db3.zstd: a small valid db3 compressed
// as the first frame, followed by the given frames (concatenated frames
// decode as one stream).
func FileModeDB3(path string, extra ...[]byte) error {
	plain := path + ".plain.db3"
	defer os.Remove(plain)
	db, err := sql.Open("sqlite3", plain)
	if err != nil {
		return err
	}
	for _, s := range []string{
		"CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL)",
		"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL)",
		"INSERT INTO topics VALUES (1, '/scan', 'sensor_msgs/msg/LaserScan', 'cdr', '')",
		"INSERT INTO messages VALUES (1, 1, 1000000000, x'000100000000000000000000')",
	} {
		if _, err := db.Exec(s); err != nil {
			db.Close()
			return err
		}
	}
	db.Close()
	data, err := os.ReadFile(plain)
	if err != nil {
		return err
	}
	out := Compress(data)
	for _, e := range extra {
		out = append(out, e...)
	}
	return os.WriteFile(path, out, 0o644)
}
