package bagread

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// genMessage is one message a test wrote.
type genMessage struct {
	topic   string
	logTime int64
	data    []byte
}

// genSpec describes a small MCAP file written through the mcap library's
// own Writer, so bagread is checked against an independent writer.
type genSpec struct {
	chunked     bool
	compression mcap.CompressionFormat
	chunkSize   int64
	n           int
	// jitter makes log times go backwards now and then (unsorted file).
	jitter  bool
	noIndex bool
}

// cdrPayload is a tiny valid-looking CDR message (encapsulation header +
// a counter), distinct per message.
func cdrPayload(i int, size int) []byte {
	b := make([]byte, 4+size)
	b[1] = 1
	binary.LittleEndian.PutUint32(b[4:], uint32(i))
	for k := 8; k < len(b); k++ {
		b[k] = byte(i + k)
	}
	return b
}

func writeMCAP(t testing.TB, path string, spec genSpec) []genMessage {
	t.Helper()
	var buf bytes.Buffer
	w, err := mcap.NewWriter(&buf, &mcap.WriterOptions{
		Chunked: spec.chunked, ChunkSize: spec.chunkSize, Compression: spec.compression,
		SkipMessageIndexing: spec.noIndex, SkipChunkIndex: spec.noIndex,
	})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "bagread test"}))
	topics := []string{"/scan", "/tf", "/clock"}
	types := []string{"sensor_msgs/msg/LaserScan", "tf2_msgs/msg/TFMessage", "rosgraph_msgs/msg/Clock"}
	for i := range topics {
		must(w.WriteSchema(&mcap.Schema{ID: uint16(i + 1), Name: types[i], Encoding: "ros2msg", Data: []byte("# test")}))
		must(w.WriteChannel(&mcap.Channel{ID: uint16(i + 1), SchemaID: uint16(i + 1), Topic: topics[i], MessageEncoding: "cdr",
			Metadata: map[string]string{"offered_qos_profiles": "- history: 1\n  depth: 10\n  reliability: 2\n  durability: 2\n"}}))
	}
	var out []genMessage
	for i := 0; i < spec.n; i++ {
		ch := i % 3
		lt := int64(1_000_000_000 + i*10_000_000)
		if spec.jitter && i%7 == 3 {
			lt -= 95_000_000
		}
		data := cdrPayload(i, 40+ch*100)
		must(w.WriteMessage(&mcap.Message{ChannelID: uint16(ch + 1), LogTime: uint64(lt), PublishTime: uint64(lt + 1), Data: data}))
		out = append(out, genMessage{topics[ch], lt, data})
	}
	must(w.Close())
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// writeDB3 builds a db3 with rosbag2's schema of the given version (1..4)
// through the sqlite driver; orphan adds a message whose topic_id has no
// topics row.
func writeDB3(t testing.TB, path string, schema int, n int, orphan bool) []genMessage {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	topicsDDL := "CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, serialization_format TEXT NOT NULL"
	if schema >= 2 {
		topicsDDL += ", offered_qos_profiles TEXT NOT NULL"
	}
	if schema >= 4 {
		topicsDDL += ", type_description_hash TEXT NOT NULL"
	}
	stmts := []string{topicsDDL + ")",
		"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL)",
		"CREATE INDEX timestamp_idx ON messages (timestamp ASC)"}
	if schema >= 3 {
		stmts = append(stmts, "CREATE TABLE schema(schema_version INTEGER PRIMARY KEY, ros_distro TEXT NOT NULL)",
			fmt.Sprintf("INSERT INTO schema VALUES (%d, 'test')", schema))
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	topics := []string{"/scan", "/tf"}
	for i, name := range topics {
		cols, vals := "id, name, type, serialization_format", "?, ?, ?, 'cdr'"
		args := []any{i + 1, name, "sensor_msgs/msg/LaserScan"}
		if schema >= 2 {
			cols, vals = cols+", offered_qos_profiles", vals+", ''"
		}
		if schema >= 4 {
			cols, vals = cols+", type_description_hash", vals+", ''"
		}
		if _, err := db.Exec("INSERT INTO topics("+cols+") VALUES ("+vals+")", args...); err != nil {
			t.Fatal(err)
		}
	}
	var out []genMessage
	for i := 0; i < n; i++ {
		ts := int64(5_000_000_000 + i*1_000_000)
		if i%5 == 2 {
			ts -= 3_500_000 // receive time going back, as after a clock jump
		}
		data := cdrPayload(i, 20)
		if _, err := db.Exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (?, ?, ?)", i%2+1, ts, data); err != nil {
			t.Fatal(err)
		}
		out = append(out, genMessage{topics[i%2], ts, data})
	}
	if orphan {
		if _, err := db.Exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (9, 1, x'00010000')"); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// collect reads a bag fully in one order.
func collect(t testing.TB, b *Bag, opts ReadOptions) ([]genMessage, []Problem, []error) {
	t.Helper()
	it := b.Messages(opts)
	defer it.Close()
	var out []genMessage
	var errs []error
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			errs = append(errs, m.Err)
			continue
		}
		out = append(out, genMessage{m.Topic, m.LogTimeNS, append([]byte(nil), m.Data...)})
	}
	if err := it.Err(); err != nil {
		t.Fatalf("iterate %s: %v", b.Path, err)
	}
	return out, it.Problems(), errs
}

func tempPath(t testing.TB, name string) string { return filepath.Join(t.TempDir(), name) }

// openWritten writes data to path and opens it as a bag, closed when the
// test ends.
func openWritten(t testing.TB, path string, data []byte, opts Options) *Bag {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}
