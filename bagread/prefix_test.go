package bagread

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
)

// pxMsg is one message of a read, copied.
type pxMsg struct {
	topic      string
	index      uint64
	logTime    int64
	data       []byte
	size       int64
	prefix     bool
	err        string
	fileIndex  int
	position   int64
	chunkOffst int64
}

type pxResult struct {
	msgs     []pxMsg
	problems []string
}

func pxRead(t *testing.T, b *Bag, opts ReadOptions) pxResult {
	t.Helper()
	it := b.Messages(opts)
	defer it.Close()
	var r pxResult
	for it.Next() {
		m := it.Message()
		rm := pxMsg{topic: m.Topic, index: m.Index, logTime: m.LogTimeNS, data: append([]byte(nil), m.Data...), size: m.Size, prefix: m.Prefix,
			fileIndex: m.FileIndex, position: m.Position, chunkOffst: m.ChunkOffset}
		if m.Err != nil {
			rm.err = m.Err.Error()
		}
		r.msgs = append(r.msgs, rm)
	}
	if err := it.Err(); err != nil {
		t.Fatalf("%s: iterate: %v", b.Path, err)
	}
	for _, p := range it.Problems() {
		r.problems = append(r.problems, p.String())
	}
	return r
}

// checkPrefixRead reads b whole and with prefixes of n bytes on
// prefixTopics (all topics when nil) and checks the prefix read yields
// the same messages, cut as documented, and the same problems. It
// returns how many messages were cut.
func checkPrefixRead(t *testing.T, b *Bag, order Order, n int, prefixTopics []string) int {
	t.Helper()
	if prefixTopics == nil {
		for _, tp := range b.Topics {
			prefixTopics = append(prefixTopics, tp.Name)
		}
	}
	isPx := map[string]bool{}
	for _, tp := range prefixTopics {
		isPx[tp] = true
	}
	whole := pxRead(t, b, ReadOptions{Order: order})
	part := pxRead(t, b, ReadOptions{Order: order, PrefixTopics: prefixTopics, PrefixBytes: n})
	if strings.Join(whole.problems, "\n") != strings.Join(part.problems, "\n") {
		t.Errorf("%s: problems differ:\nwhole:  %q\nprefix: %q", b.Path, whole.problems, part.problems)
	}
	if len(whole.msgs) != len(part.msgs) {
		t.Fatalf("%s: %d messages whole, %d with prefixes", b.Path, len(whole.msgs), len(part.msgs))
	}
	cut := 0
	for i, w := range whole.msgs {
		p := part.msgs[i]
		where := fmt.Sprintf("%s: message %d (%s #%d)", b.Path, i, w.topic, w.index)
		if w.topic != p.topic || w.index != p.index || w.logTime != p.logTime || w.err != p.err ||
			w.fileIndex != p.fileIndex || w.position != p.position || w.chunkOffst != p.chunkOffst {
			t.Fatalf("%s: differs: whole %+v, prefix %+v", where, w.hdr(), p.hdr())
		}
		if w.prefix || w.size != int64(len(w.data)) {
			t.Fatalf("%s: whole read has prefix %v, size %d for %d bytes", where, w.prefix, w.size, len(w.data))
		}
		want, wantPx := w.data, false
		if isPx[w.topic] && len(want) > n {
			want, wantPx = want[:n], true
		}
		if !bytes.Equal(p.data, want) || p.size != w.size || p.prefix != wantPx {
			t.Fatalf("%s: prefix read gave %d bytes (size %d, prefix %v), want the first %d of %d (prefix %v)",
				where, len(p.data), p.size, p.prefix, len(want), w.size, wantPx)
		}
		if wantPx {
			cut++
		}
	}
	return cut
}

// checkTimeOnlyRead reads b whole and with every topic time-only and
// checks the time-only read yields the same records without a payload
// byte and the same problems. Sizes are compared except on the topics of
// framed (MESSAGE-mode zstd payloads, whose stored length is not the
// decoded one) and in MESSAGE-mode bags.
func checkTimeOnlyRead(t *testing.T, b *Bag, order Order, framed map[string]bool) {
	t.Helper()
	var all []string
	for _, tp := range b.Topics {
		all = append(all, tp.Name)
	}
	whole := pxRead(t, b, ReadOptions{Order: order})
	part := pxRead(t, b, ReadOptions{Order: order, TimeOnlyTopics: all, PrefixTopics: all, PrefixBytes: 64})
	if strings.Join(whole.problems, "\n") != strings.Join(part.problems, "\n") {
		t.Errorf("%s: problems differ:\nwhole:     %q\ntime-only: %q", b.Path, whole.problems, part.problems)
	}
	if len(whole.msgs) != len(part.msgs) {
		t.Fatalf("%s: %d messages whole, %d time-only", b.Path, len(whole.msgs), len(part.msgs))
	}
	for i, w := range whole.msgs {
		p := part.msgs[i]
		where := fmt.Sprintf("%s: message %d (%s #%d)", b.Path, i, w.topic, w.index)
		if w.topic != p.topic || w.index != p.index || w.logTime != p.logTime || w.err != p.err ||
			w.fileIndex != p.fileIndex || w.position != p.position || w.chunkOffst != p.chunkOffst {
			t.Fatalf("%s: differs: whole %+v, time-only %+v", where, w.hdr(), p.hdr())
		}
		sizeOK := p.size == w.size || (framed[w.topic] || b.CompressionMode == "MESSAGE") && p.size > 0
		if len(p.data) != 0 || !sizeOK || p.prefix != (p.size > 0) {
			t.Fatalf("%s: time-only read gave %d bytes (size %d, prefix %v), want none (size %d)",
				where, len(p.data), p.size, p.prefix, w.size)
		}
	}
}

func (m pxMsg) hdr() string {
	return fmt.Sprintf("%s #%d t=%d err=%q file %d pos %d/%d", m.topic, m.index, m.logTime, m.err, m.fileIndex, m.position, m.chunkOffst)
}

// bigPayload is a CDR-looking payload of size bytes, distinct per i.
func bigPayload(i, size int) []byte {
	b := make([]byte, size)
	if size >= 4 {
		b[1] = 1
	}
	for k := 4; k < size; k++ {
		b[k] = byte(i*7 + k*13 + k>>9)
	}
	if size >= 8 {
		binary.LittleEndian.PutUint32(b[4:], uint32(i))
	}
	return b
}

// bigTopics are the topics of the generated large-message bags: a camera,
// a lidar, an IMU, and a topic whose payloads are zstd frames (MESSAGE
// mode), with sizes that straddle the prefix lengths tested.
var bigTopics = []struct {
	name string
	size func(i int) int
	zstd bool
}{
	{"/camera/image", func(i int) int { return 600_000 + i*97_001%2_500_000 }, false},
	{"/lidar/points", func(i int) int { return []int{40, 120, 1_200_000, 64}[i%4] }, false},
	{"/imu", func(i int) int { return 300 + i%5 }, false},
	{"/framed", func(i int) int { return 200_000 + i%3*50_000 }, true},
}

// bigMessages returns the generated messages, in write order.
func bigMessages(t testing.TB, n int) []genMessage {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var out []genMessage
	for i := 0; i < n; i++ {
		tp := bigTopics[i%len(bigTopics)]
		data := bigPayload(i, tp.size(i/len(bigTopics)))
		if tp.zstd {
			data = enc.EncodeAll(data, nil)
		}
		out = append(out, genMessage{tp.name, int64(1_000_000_000 + i*5_000_000), data})
	}
	return out
}

// writeBigMCAP writes bigMessages through the mcap library's Writer.
func writeBigMCAP(t testing.TB, path string, chunked bool, compression mcap.CompressionFormat, msgs []genMessage) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: chunked, ChunkSize: 768 << 10, Compression: compression, IncludeCRC: true})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "bagread test"}))
	ids := map[string]uint16{}
	for i, tp := range bigTopics {
		id := uint16(i + 1)
		ids[tp.name] = id
		must(w.WriteSchema(&mcap.Schema{ID: id, Name: "test_msgs/msg/T" + fmt.Sprint(i), Encoding: "ros2msg", Data: []byte("# test")}))
		must(w.WriteChannel(&mcap.Channel{ID: id, SchemaID: id, Topic: tp.name, MessageEncoding: "cdr"}))
	}
	for _, m := range msgs {
		must(w.WriteMessage(&mcap.Message{ChannelID: ids[m.topic], LogTime: uint64(m.logTime), PublishTime: uint64(m.logTime), Data: m.data}))
	}
	must(w.Close())
}

// writeBigDB3 writes bigMessages into a schema-4 db3.
func writeBigDB3(t testing.TB, path string, msgs []genMessage) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		"CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL, type_description_hash TEXT NOT NULL)",
		"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL)",
		"CREATE TABLE schema(schema_version INTEGER PRIMARY KEY, ros_distro TEXT NOT NULL)",
		"INSERT INTO schema VALUES (4, 'test')",
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	ids := map[string]int{}
	for i, tp := range bigTopics {
		ids[tp.name] = i + 1
		if _, err := db.Exec("INSERT INTO topics VALUES (?, ?, 'test_msgs/msg/T', 'cdr', '', '')", i+1, tp.name); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if _, err := tx.Exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (?, ?, ?)", ids[m.topic], m.logTime, m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestPrefixGenerated checks prefix reads against whole reads on
// generated bags with large messages, both formats, every MCAP chunk
// compression, chunked or not, several prefix lengths, both orders.
func TestPrefixGenerated(t *testing.T) {
	msgs := bigMessages(t, 48)
	dir := t.TempDir()
	bags := map[string]string{}
	for _, c := range []struct {
		name    string
		chunked bool
		comp    mcap.CompressionFormat
	}{{"chunked", true, mcap.CompressionNone}, {"zstd", true, mcap.CompressionZSTD}, {"lz4", true, mcap.CompressionLZ4}, {"unchunked", false, ""}} {
		p := filepath.Join(dir, c.name+".mcap")
		writeBigMCAP(t, p, c.chunked, c.comp, msgs)
		bags[c.name] = p
	}
	bags["db3"] = filepath.Join(dir, "big.db3")
	writeBigDB3(t, bags["db3"], msgs)
	names := make([]string, 0, len(bags))
	for n := range bags {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			for _, seq := range []bool{false, true} {
				b, err := Open(bags[name], Options{Sequential: seq})
				if err != nil {
					t.Fatal(err)
				}
				defer b.Close()
				for _, n := range []int{1, 100, 4096, 300_001} {
					if cut := checkPrefixRead(t, b, RecordOrder, n, nil); cut == 0 {
						t.Errorf("prefix %d: no message was cut", n)
					}
				}
				checkPrefixRead(t, b, RecordOrder, 100, []string{"/camera/image", "/imu"})
				checkPrefixRead(t, b, TimeOrder, 64, nil)
				checkTimeOnlyRead(t, b, RecordOrder, map[string]bool{"/framed": true})
				checkTimeOnlyRead(t, b, TimeOrder, map[string]bool{"/framed": true})
				// A prefix topic that is not selected is not read.
				got := pxRead(t, b, ReadOptions{Topics: []string{"/imu"}, PrefixTopics: []string{"/camera/image"}, PrefixBytes: 8})
				if len(got.msgs) != len(msgs)/len(bigTopics) || got.msgs[0].topic != "/imu" {
					t.Errorf("topic filter with prefixes: %d messages", len(got.msgs))
				}
			}
		})
	}
}

// TestPrefixShared checks prefix reads on every shared bag.
func TestPrefixShared(t *testing.T) {
	root := filepath.Join(testenv.SharedDir(t), "bags")
	units := sharedUnits(t, root)
	checked, cutAny := 0, 0
	for name, path := range units {
		b, err := Open(path, Options{})
		if err != nil {
			continue // TestSharedBags says which bags open
		}
		t.Run(name, func(t *testing.T) {
			defer b.Close()
			for _, n := range []int{1, 64} {
				cutAny += checkPrefixRead(t, b, RecordOrder, n, nil)
			}
			checkTimeOnlyRead(t, b, RecordOrder, nil)
			checked++
		})
	}
	if checked < 20 || cutAny == 0 {
		t.Errorf("checked %d shared bags, %d messages cut", checked, cutAny)
	}
}

// TestPrefixDamaged: damage is reported by a prefix read as by a whole
// one: truncated files (recovered by Open) and damage Open cannot see.
func TestPrefixDamaged(t *testing.T) {
	msgs := bigMessages(t, 24)
	dir := t.TempDir()
	for _, comp := range []mcap.CompressionFormat{mcap.CompressionNone, mcap.CompressionZSTD} {
		p := filepath.Join(dir, "src_"+string(comp)+".mcap")
		writeBigMCAP(t, p, true, comp, msgs)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, cut := range []int{len(data) / 3, len(data) / 2, len(data) - 100} {
			t.Run(fmt.Sprintf("%s/cut%d", comp, cut), func(t *testing.T) {
				q := filepath.Join(t.TempDir(), "cut.mcap")
				os.WriteFile(q, data[:cut], 0o644)
				b, err := Open(q, Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer b.Close()
				checkPrefixRead(t, b, RecordOrder, 100, nil)
				if r := pxRead(t, b, ReadOptions{PrefixTopics: []string{"/camera/image"}, PrefixBytes: 10}); len(r.problems) == 0 {
					t.Errorf("no problem reported for a cut file")
				}
			})
		}
	}
	// An indexed, uncompressed file whose big chunk has a message record
	// claiming more bytes than its chunk holds: Open trusts the summary,
	// both reads find the damage at the same place.
	p := filepath.Join(dir, "src_.mcap")
	data, _ := os.ReadFile(p)
	info, err := readSummary(&mcapHandle{path: p, limit: DefaultMaxRecordBytes})
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), data...)
	hit := false
	for _, c := range info.chunks {
		body := bad[c.offset+9:]
		clen := binary.LittleEndian.Uint32(body[28:])
		recs := body[32+clen+8:]
		if binary.LittleEndian.Uint64(bad[c.offset+1:]) < prefixStreamChunk {
			continue
		}
		// Walk to the last message record and make it claim too much.
		recLen := binary.LittleEndian.Uint64(body[32+clen:])
		var last int
		for off := 0; off < int(recLen); {
			n := int(binary.LittleEndian.Uint64(recs[off+1:]))
			if recs[off] == opMessage {
				last = off
			}
			off += 9 + n
		}
		binary.LittleEndian.PutUint64(recs[last+1:], 1<<40)
		// No chunk CRC: a whole read would report the mismatch and skip
		// the chunk, which a prefix read of an uncompressed chunk cannot
		// check (mcapcrc.go); this case is about the record itself.
		binary.LittleEndian.PutUint32(body[24:], 0)
		hit = true
		break
	}
	if !hit {
		t.Fatal("no chunk large enough to damage")
	}
	q := filepath.Join(dir, "bad.mcap")
	os.WriteFile(q, bad, 0o644)
	b, err := Open(q, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	checkPrefixRead(t, b, RecordOrder, 100, nil)
	if r := pxRead(t, b, ReadOptions{PrefixTopics: []string{"/camera/image"}, PrefixBytes: 100}); len(r.problems) != 1 || !strings.Contains(r.problems[0], "claims 1099511627776 bytes") {
		t.Errorf("problems %q", r.problems)
	}
}

// TestPrefixDamagedDB3: a db3 with a broken page is read whole, so a
// prefix read reports the same problems and messages.
func TestPrefixDamagedDB3(t *testing.T) {
	src := filepath.Join(testenv.SharedBag(t, "tb3-walker-humble-nitesh"), "rosbag2_2022_12_06-21_57_13_0.db3")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), data...)
	copy(bad[599*4096:600*4096], bytes.Repeat([]byte{0xAB}, 4096))
	p := tempPath(t, "bad_0.db3")
	os.WriteFile(p, bad, 0o644)
	b, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	checkPrefixRead(t, b, RecordOrder, 16, nil)
	if r := pxRead(t, b, ReadOptions{PrefixTopics: []string{"/scan"}, PrefixBytes: 16}); len(r.problems) != 1 {
		t.Errorf("problems %q", r.problems)
	}
}

// procReadBytes is this process's rchar (bytes asked of read syscalls),
// or -1 where /proc/self/io is not readable.
func procReadBytes() int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		var v int64
		if n, _ := fmt.Sscanf(l, "rchar: %d", &v); n == 1 {
			return v
		}
	}
	return -1
}

// TestPrefixReadsLittle: on uncompressed MCAP and db3, a prefix read of
// every topic asks the kernel for a small share of the file's bytes
// (a whole read for all of them, as the control).
func TestPrefixReadsLittle(t *testing.T) {
	if procReadBytes() < 0 {
		t.Skip("no /proc/self/io")
	}
	msgs := bigMessages(t, 96)
	dir := t.TempDir()
	paths := map[string]string{"mcap": filepath.Join(dir, "big.mcap"), "unchunked": filepath.Join(dir, "flat.mcap"), "db3": filepath.Join(dir, "big.db3")}
	writeBigMCAP(t, paths["mcap"], true, mcap.CompressionNone, msgs)
	writeBigMCAP(t, paths["unchunked"], false, "", msgs)
	writeBigDB3(t, paths["db3"], msgs)
	for name, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Open(p, Options{Sequential: true})
		if err != nil {
			t.Fatal(err)
		}
		read := func(opts ReadOptions) int64 {
			r0 := procReadBytes()
			it := b.Messages(opts)
			for it.Next() {
			}
			it.Close()
			return procReadBytes() - r0
		}
		whole := read(ReadOptions{})
		part := read(ReadOptions{PrefixTopics: []string{"/camera/image", "/lidar/points", "/imu", "/framed"}, PrefixBytes: 64})
		none := read(ReadOptions{TimeOnlyTopics: []string{"/camera/image", "/lidar/points", "/imu", "/framed"}})
		b.Close()
		t.Logf("%s: %d bytes on disk, whole read %d, prefix read %d, time-only read %d", name, st.Size(), whole, part, none)
		// /framed (MESSAGE-mode frames) is read whole: it is small here.
		if whole < st.Size()*8/10 || part > st.Size()/10 || none > st.Size()/10 {
			t.Errorf("%s: %d bytes on disk, whole read %d, prefix read %d, time-only read %d (want ≤ 10%%)", name, st.Size(), whole, part, none)
		}
	}
}
