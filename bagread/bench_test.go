package bagread

import (
	"database/sql"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
)

// benchSeconds of a scan/tf/clock recording: 20 Hz scans of 1080 ranges,
// 100 Hz tf, 100 Hz clock (the large bag, shortened so a run on
// the shared 2-core machine stays short; the ratios are what matter).
const benchSeconds = 60

func benchMessages(emit func(topic int, t int64, data []byte)) {
	scan := make([]byte, 4+60+1080*4*2)
	scan[1] = 1
	tf := make([]byte, 4+100)
	tf[1] = 1
	clock := make([]byte, 4+8)
	clock[1] = 1
	for ms := int64(0); ms < benchSeconds*1000; ms += 10 {
		t := 1_000_000_000_000 + ms*1_000_000
		binary.LittleEndian.PutUint64(clock[4:], uint64(t))
		emit(2, t, clock)
		emit(1, t+1000, tf)
		if ms%50 == 0 {
			binary.LittleEndian.PutUint64(scan[4:], uint64(t))
			emit(0, t+2000, scan)
		}
	}
}

var benchTopics = []string{"/scan", "/tf", "/clock"}

func benchMCAP(b *testing.B, compression mcap.CompressionFormat) string {
	p := filepath.Join(b.TempDir(), "bench.mcap")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 768 << 10, Compression: compression})
	if err != nil {
		b.Fatal(err)
	}
	w.WriteHeader(&mcap.Header{Profile: "ros2"})
	for i, topic := range benchTopics {
		w.WriteSchema(&mcap.Schema{ID: uint16(i + 1), Name: "t", Encoding: "ros2msg"})
		w.WriteChannel(&mcap.Channel{ID: uint16(i + 1), SchemaID: uint16(i + 1), Topic: topic, MessageEncoding: "cdr"})
	}
	benchMessages(func(topic int, t int64, data []byte) {
		if err := w.WriteMessage(&mcap.Message{ChannelID: uint16(topic + 1), LogTime: uint64(t), PublishTime: uint64(t), Data: data}); err != nil {
			b.Fatal(err)
		}
	})
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return p
}

func benchDB3(b *testing.B) string {
	p := filepath.Join(b.TempDir(), "bench_0.db3")
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		"CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL)",
		"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL)",
		"INSERT INTO topics VALUES (1, '/scan', 't', 'cdr', ''), (2, '/tf', 't', 'cdr', ''), (3, '/clock', 't', 'cdr', ''), (4, '/camera', 't', 'cdr', '')",
	} {
		if _, err := db.Exec(s); err != nil {
			b.Fatal(err)
		}
	}
	tx, _ := db.Begin()
	st, _ := tx.Prepare("INSERT INTO messages(topic_id, timestamp, data) VALUES (?, ?, ?)")
	benchMessages(func(topic int, t int64, data []byte) {
		if _, err := st.Exec(topic+1, t, data); err != nil {
			b.Fatal(err)
		}
	})
	st.Close()
	tx.Commit()
	return p
}

func fileSize(b *testing.B, p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}

func readBag(b *testing.B, p string, opts ReadOptions) {
	b.ReportAllocs()
	bag, err := Open(p, Options{})
	if err != nil {
		b.Fatal(err)
	}
	it := bag.Messages(opts)
	n := 0
	for it.Next() {
		n += len(it.Message().Data)
	}
	if it.Err() != nil || n == 0 {
		b.Fatal(it.Err(), n)
	}
	it.Close()
	bag.Close()
}

// BenchmarkMCAP compares reading an uncompressed and a zstd-chunked MCAP
// with their baselines: a raw read of the file, and decompressing its
// chunks alone.
func BenchmarkMCAP(b *testing.B) {
	plain := benchMCAP(b, mcap.CompressionNone)
	zst := benchMCAP(b, mcap.CompressionZSTD)
	b.Run("raw-read-plain", func(b *testing.B) {
		b.SetBytes(fileSize(b, plain))
		for b.Loop() {
			f, _ := os.Open(plain)
			io.Copy(io.Discard, f)
			f.Close()
		}
	})
	b.Run("bagread-plain", func(b *testing.B) {
		b.SetBytes(fileSize(b, plain))
		for b.Loop() {
			readBag(b, plain, ReadOptions{Topics: benchTopics})
		}
	})
	b.Run("bagread-plain-time", func(b *testing.B) {
		b.SetBytes(fileSize(b, plain))
		for b.Loop() {
			readBag(b, plain, ReadOptions{Topics: benchTopics, Order: TimeOrder})
		}
	})
	b.Run("decompress-chunks-zstd", func(b *testing.B) {
		b.SetBytes(fileSize(b, zst))
		dec, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		defer dec.Close()
		for b.Loop() {
			rr, _ := newRecReader(&mcapHandle{path: zst, limit: 1 << 30})
			rr.magic()
			var buf, out []byte
			for {
				op, n, _, err := rr.header()
				if err != nil || op == opDataEnd {
					break
				}
				if op != opChunk {
					rr.skip(n)
					continue
				}
				body, _ := rr.body(&buf, n)
				ch, _ := parseChunk(body)
				out, _ = dec.DecodeAll(ch.records, out[:0])
			}
			rr.close()
		}
	})
	b.Run("bagread-zstd", func(b *testing.B) {
		b.SetBytes(fileSize(b, zst))
		for b.Loop() {
			readBag(b, zst, ReadOptions{Topics: benchTopics})
		}
	})
	b.Run("bagread-zstd-clock-only", func(b *testing.B) {
		b.SetBytes(fileSize(b, zst))
		for b.Loop() {
			readBag(b, zst, ReadOptions{Topics: []string{"/clock"}})
		}
	})
}

// BenchmarkDB3 compares bagread with a bare SELECT loop through the same
// driver.
func BenchmarkDB3(b *testing.B) {
	p := benchDB3(b)
	b.Run("bare-select", func(b *testing.B) {
		b.SetBytes(fileSize(b, p))
		for b.Loop() {
			db, _ := sql.Open("sqlite3", "file:"+p+"?mode=ro&immutable=1")
			rows, err := db.Query("SELECT data FROM messages WHERE topic_id IN (1,2,3)")
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for rows.Next() {
				var d sql.RawBytes
				rows.Scan(&d)
				n += len(d)
			}
			rows.Close()
			db.Close()
		}
	})
	b.Run("bagread", func(b *testing.B) {
		b.SetBytes(fileSize(b, p))
		for b.Loop() {
			readBag(b, p, ReadOptions{Topics: benchTopics})
		}
	})
	b.Run("bagread-time", func(b *testing.B) {
		b.SetBytes(fileSize(b, p))
		for b.Loop() {
			readBag(b, p, ReadOptions{Topics: benchTopics, Order: TimeOrder})
		}
	})
}

// BenchmarkDB3Open is what Open costs on its own (schema, per-topic
// counts and time range).
func BenchmarkDB3Open(b *testing.B) {
	p := benchDB3(b)
	b.SetBytes(fileSize(b, p))
	for b.Loop() {
		bag, err := Open(p, Options{})
		if err != nil {
			b.Fatal(err)
		}
		bag.Close()
	}
}
