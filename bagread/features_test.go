package bagread

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/testenv"
	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
)

func hashTree(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = sha256.Sum256(b)
	}
	return out
}

// A WAL bag yields the WAL's messages and its files stay byte-identical.
func TestWALBagUntouched(t *testing.T) {
	shared := testenv.SharedBag(t, "tb3-unclean-wal-no-metadata")
	for _, tc := range []struct {
		name string
		dir  string
	}{
		{"copy", testenv.CopyTree(t, shared)},
		{"read-only shared dir", shared},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := hashTree(t, tc.dir)
			b, err := Open(tc.dir, Options{TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if b.MessageCount != 2457 {
				t.Errorf("MessageCount %d, PROVENANCE says 2457 with the WAL", b.MessageCount)
			}
			f := b.Files[0]
			if !f.PrivateCopy || f.Recovery == nil || f.Recovery.WALMessages != 2457-2120 || f.WALBytes != 4124152 {
				t.Errorf("file %+v recovery %+v: want a private copy with 337 WAL-only messages", f, f.Recovery)
			}
			got, probs, errs := collect(t, b, ReadOptions{})
			if len(got) != 2457 || len(probs) > 0 || len(errs) > 0 {
				t.Errorf("read %d messages, problems %v, errors %v", len(got), probs, errs)
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			if after := hashTree(t, tc.dir); !reflect.DeepEqual(before, after) {
				t.Errorf("bag files changed by reading")
			}
		})
	}
}

// Generated db3 files of every schema version read back exactly, in both
// orders, with orphans reported and the topic filter pushed down.
func TestDB3Schemas(t *testing.T) {
	for schema := 1; schema <= 4; schema++ {
		t.Run(fmt.Sprint("schema", schema), func(t *testing.T) {
			p := tempPath(t, "x_0.db3")
			want := writeDB3(t, p, schema, 50, true)
			b, err := Open(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if b.Files[0].SchemaVersion != schema || b.OrphanMessages != 1 || b.MessageCount != 51 {
				t.Errorf("schema %d orphans %d messages %d", b.Files[0].SchemaVersion, b.OrphanMessages, b.MessageCount)
			}
			got, _, errs := collect(t, b, ReadOptions{Order: RecordOrder})
			if !reflect.DeepEqual(got, want) {
				t.Errorf("record order differs from what was written")
			}
			if len(errs) != 1 || !errors.Is(errs[0], ErrOrphanMessage) || !strings.Contains(errs[0].Error(), "rowid 51") {
				t.Errorf("orphan errors: %v", errs)
			}
			sorted := append([]genMessage(nil), want...)
			sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].logTime < sorted[j].logTime })
			got, _, _ = collect(t, b, ReadOptions{Order: TimeOrder})
			if !reflect.DeepEqual(got, sorted) {
				t.Errorf("time order differs from the sorted messages")
			}
			got, _, errs = collect(t, b, ReadOptions{Topics: []string{"/tf"}})
			if len(got) != 25 || len(errs) != 0 {
				t.Errorf("topic filter: %d messages, %d errors", len(got), len(errs))
			}
			for _, m := range got {
				if m.topic != "/tf" {
					t.Fatalf("filter leaked %s", m.topic)
				}
			}
		})
	}
}

// Generated MCAP files (chunked zstd/lz4/none, unchunked, without index,
// out of order) read back exactly in both orders.
func TestMCAPVariants(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec genSpec
	}{
		{"zstd chunks", genSpec{chunked: true, compression: mcap.CompressionZSTD, chunkSize: 2000, n: 300}},
		{"lz4 chunks", genSpec{chunked: true, compression: mcap.CompressionLZ4, chunkSize: 2000, n: 300}},
		{"plain chunks", genSpec{chunked: true, compression: mcap.CompressionNone, chunkSize: 2000, n: 300}},
		{"unchunked", genSpec{chunked: false, n: 300}},
		{"zstd chunks unsorted", genSpec{chunked: true, compression: mcap.CompressionZSTD, chunkSize: 1500, n: 300, jitter: true}},
		{"unchunked unsorted", genSpec{chunked: false, n: 300, jitter: true}},
		{"no index unsorted", genSpec{chunked: true, compression: mcap.CompressionLZ4, chunkSize: 1500, n: 300, jitter: true, noIndex: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tempPath(t, "gen.mcap")
			want := writeMCAP(t, p, tc.spec)
			checkMCAPFile(t, p, want)
			// The same file FILE-compressed: streamed through zstd.
			zp := p + ".zstd"
			zstdFile(t, p, zp)
			checkMCAPFile(t, zp, want)
		})
	}
}

func zstdFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc, _ := zstd.NewWriter(&buf)
	enc.Write(data)
	enc.Close()
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func checkMCAPFile(t *testing.T, p string, want []genMessage) {
	t.Helper()
	b, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.MessageCount != uint64(len(want)) || b.Topic("/scan") == nil || b.Topic("/scan").Type != "sensor_msgs/msg/LaserScan" {
		t.Fatalf("%s: %d messages, topics %+v", p, b.MessageCount, b.Topics)
	}
	if q := b.Topic("/tf").QoS; len(q) != 1 || q[0].Reliability != "best_effort" || q[0].Depth != 10 {
		t.Errorf("QoS from channel metadata: %+v", q)
	}
	got, probs, errs := collect(t, b, ReadOptions{Order: RecordOrder})
	if !reflect.DeepEqual(got, want) || len(probs)+len(errs) > 0 {
		t.Errorf("%s: record order: %d of %d messages equal? %v; problems %v %v", p, len(got), len(want), reflect.DeepEqual(got, want), probs, errs)
	}
	sorted := append([]genMessage(nil), want...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].logTime < sorted[j].logTime })
	got, _, _ = collect(t, b, ReadOptions{Order: TimeOrder})
	if !reflect.DeepEqual(got, sorted) {
		t.Errorf("%s: time order differs from the stably sorted messages", p)
	}
	got, _, _ = collect(t, b, ReadOptions{Order: TimeOrder, Topics: []string{"/clock"}})
	var clock []genMessage
	for _, m := range sorted {
		if m.topic == "/clock" {
			clock = append(clock, m)
		}
	}
	if !reflect.DeepEqual(got, clock) {
		t.Errorf("%s: /clock filter in time order: %d messages, want %d", p, len(got), len(clock))
	}
}

// lexerCount is an independent count of what is salvageable in a cut
// MCAP: the mcap library's own lexer, counting messages until it fails.
func lexerCount(t *testing.T, data []byte) int {
	lex, err := mcap.NewLexer(bytes.NewReader(data), &mcap.LexerOptions{MaxRecordSize: 1 << 30, MaxDecompressedChunkSize: 1 << 30})
	if err != nil {
		return 0
	}
	defer lex.Close()
	n := 0
	buf := make([]byte, 1024)
	for {
		tok, rec, err := lex.Next(buf)
		if err != nil {
			return n
		}
		if cap(rec) > cap(buf) {
			buf = rec
		}
		if tok == mcap.TokenMessage {
			n++
		}
		if tok == mcap.TokenDataEnd || tok == mcap.TokenFooter {
			return n
		}
	}
}

// Cut copies of real and generated MCAP files at several offsets: every
// complete message before the cut is kept and the cut is reported. The
// generated files need no shared data, so only the real ones can skip.
func TestTruncatedMCAP(t *testing.T) {
	gen := tempPath(t, "lz4.mcap")
	writeMCAP(t, gen, genSpec{chunked: true, compression: mcap.CompressionLZ4, chunkSize: 3000, n: 400})
	flat := tempPath(t, "flat.mcap")
	writeMCAP(t, flat, genSpec{n: 400})
	for name, src := range map[string]string{"generated lz4": gen, "generated unchunked": flat} {
		t.Run(name, func(t *testing.T) { checkTruncatedMCAP(t, src) })
	}
	for _, rel := range []string{"rerun-rosbag2-humble-mcap/rosbag2_2025_09_10-13_03_56_0.mcap", "evo-nav2-turtlebot-mcap/nav2_turtlebot.mcap",
		"rosbags-rs-test-bags/test_bag_mcap/test_bag_mcap.mcap", "rosbag2-head/rosbag2_py/test/resources/mcap/wbag/wbag_0.mcap"} {
		t.Run(rel, func(t *testing.T) { checkTruncatedMCAP(t, testenv.SharedBag(t, rel)) })
	}
}

// checkTruncatedMCAP cuts src at several fractions of its size and checks
// what bagread salvages against the mcap library's lexer.
func checkTruncatedMCAP(t *testing.T, src string) {
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, frac := range []float64{0.05, 0.3, 0.5, 0.77, 0.9, 0.999} {
		cut := int(float64(len(data)) * frac)
		t.Run(fmt.Sprintf("cut%d", cut), func(t *testing.T) {
			p := tempPath(t, "cut.mcap")
			if err := os.WriteFile(p, data[:cut], 0o644); err != nil {
				t.Fatal(err)
			}
			want := lexerCount(t, data[:cut])
			b, err := Open(p, Options{})
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer b.Close()
			f := b.Files[0]
			if f.Recovery == nil || f.Indexed {
				t.Fatalf("no recovery reported for a cut file: %+v", f)
			}
			if f.MessageCount != uint64(want) || f.Recovery.Recovered != uint64(want) {
				t.Errorf("recovered %d (%d), mcap lexer reads %d", f.MessageCount, f.Recovery.Recovered, want)
			}
			if !strings.Contains(f.Recovery.Reason, "MCAP truncated at byte") && !strings.Contains(f.Recovery.Reason, "no summary/footer") && !strings.Contains(f.Recovery.Reason, "summary/footer unreadable") {
				t.Errorf("reason %q", f.Recovery.Reason)
			}
			for _, order := range []Order{RecordOrder, TimeOrder} {
				got, probs, errs := collect(t, b, ReadOptions{Order: order})
				if len(got) != want || len(errs) > 0 {
					t.Errorf("order %d: read %d, want %d (errors %v)", order, len(got), want, errs)
				}
				if len(probs) == 0 || probs[0].File != p {
					t.Errorf("order %d: problems %v", order, probs)
				}
			}
		})
	}
}

// A FILE-compressed MCAP whose zstd stream was cut: every message the
// decodable prefix holds is kept.
func TestTruncatedMCAPZstd(t *testing.T) {
	src := tempPath(t, "src.mcap")
	writeMCAP(t, src, genSpec{chunked: true, compression: mcap.CompressionNone, chunkSize: 30000, n: 6000})
	zp := src + ".zstd"
	zstdFile(t, src, zp)
	z, _ := os.ReadFile(zp)
	for _, frac := range []float64{0.2, 0.5, 0.8, 0.99} {
		cut := int(float64(len(z)) * frac)
		t.Run(fmt.Sprint("cut", cut), func(t *testing.T) {
			p := tempPath(t, "cut.mcap.zstd")
			os.WriteFile(p, z[:cut], 0o644)
			dec, _ := zstd.NewReader(bytes.NewReader(z[:cut]))
			prefix, _ := io.ReadAll(dec)
			dec.Close()
			want := lexerCount(t, prefix)
			t.Logf("decodable prefix %d bytes, %d messages", len(prefix), want)
			b, err := Open(p, Options{})
			if len(prefix) < 8 {
				if err == nil || !strings.Contains(err.Error(), p) {
					t.Errorf("nothing decodable: want an error naming the file, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if f := b.Files[0]; f.Recovery == nil || f.MessageCount != uint64(want) || f.Compression != "zstd" {
				t.Errorf("file %+v recovery %+v: want %d messages (mcap lexer on the decodable prefix)", f, f.Recovery, want)
			}
			got, probs, _ := collect(t, b, ReadOptions{Order: TimeOrder})
			if len(got) != want || len(probs) == 0 {
				t.Errorf("time order read %d of %d, problems %v", len(got), want, probs)
			}
		})
	}
}

// A corrupt MESSAGE-mode frame is one bad message, not a failed read.
func TestBadMessageFrame(t *testing.T) {
	dir := testenv.CopyTree(t, testenv.SharedBag(t, "rosbag2-reindex-test-bags/message_compression"))
	db, err := sql.Open("sqlite3", filepath.Join(dir, "message_compression_1.db3"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE messages SET data = x'28b52ffd00ffffffffffff' WHERE id = 7"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.CompressionMode != "MESSAGE" {
		t.Errorf("compression mode %q not detected", b.CompressionMode)
	}
	got, probs, errs := collect(t, b, ReadOptions{})
	if len(got) != 1126 || len(errs) != 1 || len(probs) != 0 {
		t.Fatalf("got %d good, %d bad, problems %v", len(got), len(errs), probs)
	}
	msg := errs[0].Error()
	if !strings.Contains(msg, "message_compression_1.db3") || !strings.Contains(msg, "rowid 7") || !strings.Contains(msg, "topic /") {
		t.Errorf("error does not locate the message: %s", msg)
	}
	for _, m := range got {
		if len(m.data) < 4 || m.data[0] != 0 {
			t.Fatalf("message not decompressed to CDR: % x", m.data[:4])
		}
	}
}

// v<4 relative paths carry the bag dir name; v4 compressed bags sometimes
// too: try as given, then the basename.
func TestPathPrefixes(t *testing.T) {
	src := filepath.Join(testenv.SharedBag(t, "ait-ros2bag-tools/test.bag"), "test.bag_0.db3")
	for _, tc := range []struct {
		version int
		rel     string
	}{{3, "mybag/mybag_0.db3"}, {4, "mybag/mybag_0.db3"}, {5, "mybag_0.db3"}, {4, "elsewhere/mybag_0.db3"}} {
		dir := filepath.Join(t.TempDir(), "mybag")
		os.Mkdir(dir, 0o755)
		in, _ := os.ReadFile(src)
		os.WriteFile(filepath.Join(dir, "mybag_0.db3"), in, 0o644)
		md := fmt.Sprintf("rosbag2_bagfile_information:\n  version: %d\n  storage_identifier: sqlite3\n  relative_file_paths:\n    - %s\n  message_count: 2\n", tc.version, tc.rel)
		os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(md), 0o644)
		b, err := Open(dir, Options{})
		if err != nil {
			t.Fatalf("v%d %s: %v", tc.version, tc.rel, err)
		}
		if b.MetadataReconstructed || len(b.Files) != 1 || b.MessageCount != 2 {
			t.Errorf("v%d %s: reconstructed %v files %d messages %d", tc.version, tc.rel, b.MetadataReconstructed, len(b.Files), b.MessageCount)
		}
		b.Close()
	}
}

func TestParseMetadata(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       MetadataTopic
		version    int
		bad        bool
	}{
		{"v1 topic_and_type", "rosbag2_bagfile_information:\n  version: 1\n  topics_with_message_count:\n    - topic_and_type:\n        name: /a\n        type: x/Y\n        serialization_format: cdr\n      message_count: 3\n",
			MetadataTopic{Name: "/a", Type: "x/Y", SerializationFormat: "cdr", MessageCount: 3}, 1, false},
		{"v4 qos string", "rosbag2_bagfile_information:\n  version: 4\n  topics_with_message_count:\n    - topic_metadata:\n        name: /a\n        type: x/Y\n        serialization_format: cdr\n        offered_qos_profiles: \"- history: 3\\n  depth: 0\\n  reliability: 1\\n  durability: 2\\n  deadline:\\n    sec: 2147483647\\n    nsec: 4294967295\\n  liveliness: 1\\n\"\n      message_count: 1\n",
			MetadataTopic{Name: "/a", Type: "x/Y", SerializationFormat: "cdr", MessageCount: 1,
				OfferedQoS: "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 2\n  deadline:\n    sec: 2147483647\n    nsec: 4294967295\n  liveliness: 1\n",
				QoS:        []QoSProfile{{History: "unknown", Reliability: "reliable", Durability: "volatile", Liveliness: "automatic", DeadlineNS: -1, LifespanNS: -1, LivelinessLeaseDurationNS: -1}}}, 4, false},
		{"v9 qos list", "rosbag2_bagfile_information:\n  version: 9\n  topics_with_message_count:\n    - topic_metadata:\n        name: /a\n        type: x/Y\n        serialization_format: cdr\n        offered_qos_profiles:\n          - history: keep_last\n            depth: 5\n            reliability: best_effort\n            durability: transient_local\n            lifespan:\n              sec: 1\n              nsec: 5\n      message_count: 2\n",
			MetadataTopic{Name: "/a", Type: "x/Y", SerializationFormat: "cdr", MessageCount: 2,
				OfferedQoS: "- history: keep_last\n  depth: 5\n  reliability: best_effort\n  durability: transient_local\n  lifespan:\n    sec: 1\n    nsec: 5\n",
				QoS:        []QoSProfile{{History: "keep_last", Depth: 5, Reliability: "best_effort", Durability: "transient_local", DeadlineNS: -1, LifespanNS: 1_000_000_005, LivelinessLeaseDurationNS: -1}}}, 9, false},
		{"no wrapper (sqlite metadata table)", "version: 8\ntopics_with_message_count:\n  - topic_metadata:\n      name: /a\n      type: x/Y\n      serialization_format: cdr\n    message_count: 0\n",
			MetadataTopic{Name: "/a", Type: "x/Y", SerializationFormat: "cdr"}, 8, false},
		{"merge conflict", "rosbag2_bagfile_information:\n<<<<<<< HEAD\n  version: 5\n=======\n  version: 6\n>>>>>>> x\n", MetadataTopic{}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md, err := ParseMetadata([]byte(tc.text))
			if tc.bad {
				if err == nil {
					t.Fatal("want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if md.Version != tc.version || len(md.Topics) != 1 || !reflect.DeepEqual(md.Topics[0], tc.want) {
				t.Errorf("got v%d %+v\nwant %+v", md.Version, md.Topics, tc.want)
			}
		})
	}
}

// Opening a directory of unrelated loose files, or garbage, fails with an
// error that names the path.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.db3"), []byte("not sqlite at all, not mcap either"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.mcap"), []byte("x"), 0o644)
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("dir of unrelated files: %v", err)
	}
	p := filepath.Join(dir, "a.db3")
	if _, err := Open(p, Options{}); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("garbage file: %v", err)
	}
	var fe *FileError
	if _, err := Open(p, Options{}); !errors.As(err, &fe) {
		t.Errorf("want a *FileError, got %T", err)
	}
	_ = io.EOF
}

// The mcap library's linear reader panics on a chunk whose compression
// name is longer than 24 bytes (style.md §5); bagread reports the chunk.
func TestLongCompressionName(t *testing.T) {
	p := tempPath(t, "x.mcap")
	writeMCAP(t, p, genSpec{chunked: true, compression: mcap.CompressionNone, chunkSize: 1 << 20, n: 30})
	data, _ := os.ReadFile(p)
	// First chunk record: find opcode 0x06 after the header.
	off := -1
	for i := 8; i+9 < len(data); {
		op, n := data[i], int(binary.LittleEndian.Uint64(data[i+1:]))
		if op == opChunk {
			off = i
			break
		}
		i += 9 + n
	}
	if off < 0 {
		t.Fatal("no chunk")
	}
	binary.LittleEndian.PutUint32(data[off+9+28:], 100) // compression length
	os.WriteFile(p, data, 0o644)
	b, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got, probs, _ := collect(t, b, ReadOptions{})
	if len(got) != 0 || len(probs) == 0 || !strings.Contains(probs[0].Err.Error(), fmt.Sprintf("chunk at byte %d", off)) {
		t.Errorf("got %d messages, problems %v", len(got), probs)
	}
}

// A db3 with a damaged page: the messages before it are counted and read
// and the damage is reported; a db3 cut short is refused by SQLite itself
// ("malformed"), with an error naming the file.
func TestDamagedDB3(t *testing.T) {
	src := filepath.Join(testenv.SharedBag(t, "tb3-walker-humble-nitesh"), "rosbag2_2022_12_06-21_57_13_0.db3")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range []int{300, 600, 850} {
		t.Run(fmt.Sprint("page", page), func(t *testing.T) {
			bad := append([]byte(nil), data...)
			copy(bad[(page-1)*4096:page*4096], bytes.Repeat([]byte{0xAB}, 4096))
			p := tempPath(t, "bad_0.db3")
			os.WriteFile(p, bad, 0o644)
			for _, seq := range []bool{false, true} {
				b, err := Open(p, Options{Sequential: seq})
				if err != nil {
					t.Fatal(err)
				}
				defer b.Close()
				f := b.Files[0]
				if f.Recovery == nil || f.MessageCount == 0 || f.MessageCount >= 8542 || !strings.Contains(f.Recovery.Reason, "malformed") {
					t.Fatalf("recovery %+v, %d messages", f.Recovery, f.MessageCount)
				}
				got, probs, errs := collect(t, b, ReadOptions{})
				if uint64(len(got)) != f.MessageCount || len(errs) > 0 || len(probs) != 1 || probs[0].Recovered != f.MessageCount {
					t.Errorf("sequential %v: read %d of %d counted, errors %v, problems %v", seq, len(got), f.MessageCount, errs, probs)
				}
			}
		})
	}
	p := tempPath(t, "cut_0.db3")
	os.WriteFile(p, data[:len(data)/2], 0o644)
	if _, err := Open(p, Options{}); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("cut db3: %v", err)
	}
}

// Two iterators on one Bag at once (run under -race in CI).
func TestConcurrentIterators(t *testing.T) {
	for _, rel := range []string{"evo-nav2-turtlebot-mcap", "tb3-walker-simstart", "rosbag2-head/rosbag2_py/test/resources/mcap/wbag"} {
		b, err := Open(testenv.SharedBag(t, rel), Options{})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan int, 2)
		for _, order := range []Order{RecordOrder, TimeOrder} {
			go func() {
				it := b.Messages(ReadOptions{Order: order})
				n := 0
				for it.Next() {
					n++
				}
				it.Close()
				done <- n
			}()
		}
		if a, c := <-done, <-done; uint64(a) != b.MessageCount || uint64(c) != b.MessageCount {
			t.Errorf("%s: concurrent reads got %d and %d of %d", rel, a, c, b.MessageCount)
		}
		b.Close()
	}
}

// A MESSAGE-mode frame whose header claims 1 GiB but holds a few bytes is
// an error for that message, and costs no gigabyte.
func TestLyingFrameHeader(t *testing.T) {
	var frame bytes.Buffer
	enc, _ := zstd.NewWriter(&frame, zstd.WithZeroFrames(true))
	enc.Write([]byte{0, 1, 0, 0, 42})
	enc.Close()
	// Rewrite the frame as one claiming 1 GiB: magic, FHD with an 8-byte
	// FCS and single segment, then the original blocks.
	var h zstd.Header
	if err := h.Decode(frame.Bytes()); err != nil {
		t.Fatal(err)
	}
	lie := append([]byte{0x28, 0xB5, 0x2F, 0xFD, 0xE0}, make([]byte, 8)...)
	binary.LittleEndian.PutUint64(lie[5:], 1<<30)
	lie = append(lie, frame.Bytes()[h.HeaderSize:]...)
	dec, _ := newBlockDecoder(DefaultMaxRecordBytes)
	defer releaseBlockDecoder(dec)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	if _, err := decodeFrame(dec, lie, nil, DefaultMaxRecordBytes); err == nil {
		t.Errorf("lying frame decoded without error")
	}
	runtime.ReadMemStats(&ms)
	if ms.TotalAlloc-before > 64<<20 {
		t.Errorf("lying frame cost %d bytes of allocation", ms.TotalAlloc-before)
	}
}

// With a chunk index, chunks holding no selected channel are not read.
func TestChunkSkipping(t *testing.T) {
	var buf bytes.Buffer
	w, _ := mcap.NewWriter(&buf, &mcap.WriterOptions{Chunked: true, ChunkSize: 4000, Compression: mcap.CompressionZSTD})
	w.WriteHeader(&mcap.Header{Profile: "ros2"})
	for i, topic := range []string{"/camera", "/clock"} {
		w.WriteSchema(&mcap.Schema{ID: uint16(i + 1), Name: "t", Encoding: "ros2msg"})
		w.WriteChannel(&mcap.Channel{ID: uint16(i + 1), SchemaID: uint16(i + 1), Topic: topic, MessageEncoding: "cdr"})
	}
	// A burst of camera frames, then clock: the camera chunks hold no /clock.
	for i := 0; i < 200; i++ {
		w.WriteMessage(&mcap.Message{ChannelID: 1, LogTime: uint64(i), Data: cdrPayload(i, 1000)})
	}
	for i := 0; i < 50; i++ {
		w.WriteMessage(&mcap.Message{ChannelID: 2, LogTime: uint64(1000 + i), Data: cdrPayload(i, 8)})
	}
	w.Close()
	p := tempPath(t, "skip.mcap")
	os.WriteFile(p, buf.Bytes(), 0o644)
	b, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	h := b.handles[0].(*mcapHandle)
	s, err := h.open(0, selection{"/clock": true}, RecordOrder)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for s.next() {
		n++
	}
	ms := s.(*mcapStream)
	if n != 50 || ms.skipped < 10 {
		t.Errorf("read %d /clock messages, skipped %d of %d chunks", n, ms.skipped, len(h.info.chunks))
	}
	s.close()
	got, _, _ := collect(t, b, ReadOptions{Topics: []string{"/clock"}, Order: TimeOrder})
	if len(got) != 50 {
		t.Errorf("time order: %d /clock messages", len(got))
	}
}

// MetadataTopicCounts takes per-topic counts from metadata.yaml only when
// it matches storage; any disagreement it can see means counting.
func TestMetadataTopicCounts(t *testing.T) {
	src := filepath.Join(testenv.RepoRoot(t), "testdata", "samples", "sqlite3", "both_sim")
	orig, err := os.ReadFile(filepath.Join(src, "metadata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	exact := map[string]uint64{"/clock": 160, "/tf_static": 1, "/tf": 80, "/scan": 32}
	for _, tc := range []struct {
		name         string
		edit         func(string) string // of metadata.yaml; nil removes it
		fromMetadata bool
		counts       map[string]uint64 // nil: exact
	}{
		{"intact", func(s string) string { return s }, true, nil},
		{"total off", func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(s, "message_count: 273", "message_count: 274"), "message_count: 32", "message_count: 33")
		}, false, nil},
		{"topic counts do not add up", func(s string) string { return strings.Replace(s, "message_count: 32", "message_count: 31", 1) }, false, nil},
		{"topic missing", func(s string) string {
			i := strings.Index(s, "    - topic_metadata:\n        name: /scan")
			j := strings.Index(s, "message_count: 32\n")
			return strings.ReplaceAll(s[:i]+s[j+len("message_count: 32\n"):], "message_count: 273", "message_count: 241")
		}, false, nil},
		{"no metadata", nil, false, nil},
		// What the check cannot see: counts moved between topics with every
		// total kept. Documented on Options.MetadataTopicCounts.
		{"counts moved between topics", func(s string) string {
			return strings.Replace(strings.Replace(s, "message_count: 32", "message_count: 30", 1), "message_count: 80", "message_count: 82", 1)
		}, true, map[string]uint64{"/clock": 160, "/tf_static": 1, "/tf": 82, "/scan": 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testenv.CopyTree(t, src)
			if tc.edit == nil {
				os.Remove(filepath.Join(dir, "metadata.yaml"))
			} else if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(tc.edit(string(orig))), 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := Open(dir, Options{MetadataTopicCounts: true})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if b.TopicCountsFromMetadata != tc.fromMetadata {
				t.Errorf("TopicCountsFromMetadata = %v, want %v (warnings %q)", b.TopicCountsFromMetadata, tc.fromMetadata, b.Warnings)
			}
			want := tc.counts
			if want == nil {
				want = exact
			}
			if len(b.Topics) != len(want) || b.MessageCount != 273 {
				t.Fatalf("%d topics, %d messages", len(b.Topics), b.MessageCount)
			}
			for _, tp := range b.Topics {
				if tp.MessageCount != want[tp.Name] {
					t.Errorf("%s: %d messages, want %d", tp.Name, tp.MessageCount, want[tp.Name])
				}
			}
			if f := b.Files[0]; f.MessageCount != 273 || f.StartNS != b.StartNS || f.EndNS <= f.StartNS || f.StartNS == 0 {
				t.Errorf("file totals %d, %d..%d", f.MessageCount, f.StartNS, f.EndNS)
			}
		})
	}
}

// A damaged db3 in a bag whose metadata.yaml matches its totals: with
// MetadataTopicCounts the damage may only show while reading, and must
// show there, as a Problem after the readable rows.
func TestMetadataTopicCountsDamaged(t *testing.T) {
	src := testenv.SharedBag(t, "tb3-walker-humble-nitesh")
	dir := testenv.CopyTree(t, src)
	p := filepath.Join(dir, "rosbag2_2022_12_06-21_57_13_0.db3")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range []int{300, 600, 850} {
		t.Run(fmt.Sprint("page", page), func(t *testing.T) {
			bad := append([]byte(nil), data...)
			copy(bad[(page-1)*4096:page*4096], bytes.Repeat([]byte{0xAB}, 4096))
			if err := os.WriteFile(p, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			exact, err := Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer exact.Close()
			b, err := Open(dir, Options{MetadataTopicCounts: true})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			got, probs, _ := collect(t, b, ReadOptions{})
			t.Logf("from metadata %v, recovery %v, read %d, problems %v", b.TopicCountsFromMetadata, b.Files[0].Recovery, len(got), probs)
			want := exact.Files[0].MessageCount
			if uint64(len(got)) != want || len(probs) != 1 || probs[0].Recovered != want {
				t.Errorf("read %d messages with %d problems (%v); storage-counted open says %d readable", len(got), len(probs), probs, want)
			}
		})
	}
}

// A record-order db3 read split into rowid ranges over two connections
// yields exactly what one query yields (on a worker, or Sequential on the
// caller's goroutine), filtered or not, and stops cleanly when closed
// half-way.
func TestSQLiteRanges(t *testing.T) {
	defer func(n int64) { sqliteRangeRows = n }(sqliteRangeRows)
	type row struct {
		topic string
		pos   int64
		index uint64
		sum   [32]byte
	}
	read := func(t *testing.T, b *Bag, topics []string, limit int) []row {
		it := b.Messages(ReadOptions{Topics: topics})
		defer it.Close()
		var out []row
		for it.Next() && (limit == 0 || len(out) < limit) {
			m := it.Message()
			out = append(out, row{m.Topic, m.Position, m.Index, sha256.Sum256(m.Data)})
		}
		if err := it.Err(); err != nil || len(it.Problems()) > 0 {
			t.Fatalf("read: %v %v", err, it.Problems())
		}
		return out
	}
	for _, name := range []string{"tb3-walker-humble-nitesh", "tb3-walker-simstart", "tb3-unclean-wal-no-metadata"} {
		t.Run(name, func(t *testing.T) {
			b, err := Open(testenv.SharedBag(t, name), Options{TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			seq, err := Open(testenv.SharedBag(t, name), Options{TempDir: t.TempDir(), Sequential: true})
			if err != nil {
				t.Fatal(err)
			}
			defer seq.Close()
			for _, topics := range [][]string{nil, {"/scan", "/tf", "/clock"}, {"/tf_static"}} {
				sqliteRangeRows = 1 << 62
				want := read(t, b, topics, 0)
				if got := read(t, seq, topics, 0); !reflect.DeepEqual(got, want) {
					t.Fatalf("topics %v: Sequential read differs (%d vs %d messages)", topics, len(got), len(want))
				}
				for _, span := range []int64{1, 7, 4096} {
					sqliteRangeRows = span
					got := read(t, b, topics, 0)
					if len(got) != len(want) {
						t.Fatalf("topics %v, ranges of %d rowids: %d messages, one query %d", topics, span, len(got), len(want))
					}
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("topics %v, ranges of %d rowids: message %d is %v, one query gives %v", topics, span, i, got[i], want[i])
						}
					}
				}
				if len(want) > 10 {
					sqliteRangeRows = 3
					before := runtime.NumGoroutine()
					for range 10 {
						read(t, b, topics, 10) // closed half-way
					}
					time.Sleep(50 * time.Millisecond)
					if n := runtime.NumGoroutine(); n > before {
						t.Errorf("%d goroutines after 10 abandoned reads, %d before", n, before)
					}
				}
			}
		})
	}
}

// Chunk read-ahead (compressed, indexed MCAP) yields exactly what the
// stream alone yields, with a topic filter that skips chunks, and on a
// copy with a damaged chunk the same messages and the same problem.
func TestChunkReadAhead(t *testing.T) {
	type msg struct {
		topic      string
		pos, chunk int64
		index      uint64
		sum        [32]byte
		bad        string
	}
	read := func(t *testing.T, path string, opts Options, topics []string) ([]msg, []string) {
		b, err := Open(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		it := b.Messages(ReadOptions{Topics: topics})
		defer it.Close()
		var out []msg
		for it.Next() {
			m := it.Message()
			e := ""
			if m.Err != nil {
				e = m.Err.Error()
			}
			out = append(out, msg{m.Topic, m.Position, m.ChunkOffset, m.Index, sha256.Sum256(m.Data), e})
		}
		var probs []string
		for _, p := range it.Problems() {
			probs = append(probs, p.String())
		}
		return out, probs
	}
	root := filepath.Join(testenv.RepoRoot(t), "testdata", "samples", "variants")
	for _, v := range []string{"mcap-zstd-chunks", "mcap-lz4-chunks"} {
		file := filepath.Join(root, v, v+"_0.mcap")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// Damage the compressed records of a chunk the read-ahead fetches.
		ob, err := Open(file, Options{Sequential: true})
		if err != nil {
			t.Fatal(err)
		}
		chunks := ob.handles[0].(*mcapHandle).info.chunks
		ob.Close()
		if len(chunks) < 2 {
			t.Fatalf("%s: %d chunks, want several", v, len(chunks))
		}
		// The last chunk: the first is always read by the stream itself.
		sort.Slice(chunks, func(i, j int) bool { return chunks[i].offset < chunks[j].offset })
		damaged := append([]byte(nil), data...)
		at := chunks[len(chunks)-1].offset + 9 + 60
		for i := at; i < at+64; i++ {
			damaged[i] ^= 0x5A
		}
		bad := tempPath(t, v+"_damaged.mcap")
		if err := os.WriteFile(bad, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{file, bad} {
			for _, topics := range [][]string{nil, {"/scan"}, {"/clock", "/tf"}} {
				want, wantProbs := read(t, path, Options{Sequential: true}, topics)
				got, gotProbs := read(t, path, Options{}, topics)
				if len(want) == 0 {
					t.Fatalf("%s %v: nothing read", filepath.Base(path), topics)
				}
				if path == bad && len(wantProbs) == 0 && topics == nil {
					t.Fatalf("%s: the damage went unnoticed", filepath.Base(path))
				}
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotProbs, wantProbs) {
					t.Errorf("%s %v: read-ahead gives %d messages, problems %q; alone %d, %q",
						filepath.Base(path), topics, len(got), gotProbs, len(want), wantProbs)
				}
			}
		}
	}
}
