package bagread

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
	"github.com/mattn/go-sqlite3"
)

// walkMsg is what a test compares of one message.
type walkMsg struct {
	Topic, Type        string
	LogTime, Pos, Size int64
	FileIndex          int
	Index              uint64
	Prefix             bool
	Len                int
	Sum                [32]byte
	Err                string
}

// walkRead is one read of a bag: its messages, problems, and how the
// walker took part.
type walkRead struct {
	msgs      []walkMsg
	probs     []string
	walked    bool // some file was walked
	fallbacks int  // walks handed over to SQLite part way
}

// readWalk opens path with opts and reads it with ro, the walker on or off.
func readWalk(t *testing.T, path string, opts Options, ro ReadOptions, walk bool) (walkRead, error) {
	t.Helper()
	b, err := Open(path, opts)
	if err != nil {
		return walkRead{}, err
	}
	defer b.Close()
	var hs []*sqliteHandle
	for _, h := range b.handles {
		if sh, ok := h.(*sqliteHandle); ok {
			if !walk {
				sh.walkChecked, sh.walk = true, nil
			}
			hs = append(hs, sh)
		}
	}
	it := b.Messages(ro)
	var out walkRead
	for it.Next() {
		m := it.Message()
		e := ""
		if m.Err != nil {
			e = m.Err.Error()
		}
		out.msgs = append(out.msgs, walkMsg{m.Topic, m.Type, m.LogTimeNS, m.Position, m.Size, m.FileIndex, m.Index, m.Prefix, len(m.Data), sha256.Sum256(m.Data), e})
	}
	if err := it.Err(); err != nil {
		out.probs = append(out.probs, "error: "+err.Error())
	}
	it.Close()
	for _, p := range it.Problems() {
		out.probs = append(out.probs, p.String())
	}
	for _, h := range hs {
		out.walked = out.walked || h.walk != nil
		out.fallbacks += h.walkFallbacks
	}
	return out, nil
}

// walkVariants are the reads each bag is compared under: topic filters,
// prefix and time-only reads, a small decode budget, sequential.
func walkVariants(topics []string) []struct {
	name string
	opts Options
	ro   ReadOptions
} {
	type v = struct {
		name string
		opts Options
		ro   ReadOptions
	}
	out := []v{
		{"all", Options{}, ReadOptions{Order: RecordOrder}},
		{"all sequential", Options{Sequential: true}, ReadOptions{Order: RecordOrder}},
		{"every topic", Options{}, ReadOptions{Topics: topics, Order: RecordOrder}},
		{"budget 3000", Options{MaxRecordBytes: 3000}, ReadOptions{Order: RecordOrder}},
	}
	if len(topics) > 0 {
		half := topics[:(len(topics)+1)/2]
		out = append(out,
			v{"half the topics", Options{}, ReadOptions{Topics: half, Order: RecordOrder}},
			v{"prefix 480", Options{}, ReadOptions{Topics: topics, PrefixTopics: half, PrefixBytes: 480, Order: RecordOrder}},
			v{"prefix 2 sequential", Options{Sequential: true}, ReadOptions{PrefixTopics: topics, PrefixBytes: 2, Order: RecordOrder}},
			v{"time only", Options{}, ReadOptions{Topics: topics, TimeOnlyTopics: topics[len(topics)-1:], PrefixTopics: topics[:1], PrefixBytes: 700, Order: RecordOrder}},
		)
	}
	return out
}

// compareWalk reads path under every variant with the walker and through
// SQLite alone and fails on any difference; it returns whether the walker
// read some file.
func compareWalk(t *testing.T, path string, topics []string) (walked bool, fallbacks int) {
	t.Helper()
	return compareWalkVariants(t, path, walkVariants(topics))
}

func compareWalkVariants(t *testing.T, path string, variants []struct {
	name string
	opts Options
	ro   ReadOptions
}) (walked bool, fallbacks int) {
	t.Helper()
	for _, v := range variants {
		want, werr := readWalk(t, path, v.opts, v.ro, false)
		got, gerr := readWalk(t, path, v.opts, v.ro, true)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("%s, %s: open: walker %v, SQLite %v", path, v.name, gerr, werr)
		}
		if werr != nil {
			return false, 0
		}
		if want.walked {
			t.Fatalf("%s, %s: walked with the walker off", path, v.name)
		}
		if !reflect.DeepEqual(got.probs, want.probs) {
			t.Errorf("%s, %s: problems\nwalker %q\nSQLite %q", path, v.name, got.probs, want.probs)
		}
		if len(got.msgs) != len(want.msgs) {
			t.Errorf("%s, %s: walker %d messages, SQLite %d", path, v.name, len(got.msgs), len(want.msgs))
		}
		for i := range min(len(got.msgs), len(want.msgs)) {
			if got.msgs[i] != want.msgs[i] {
				t.Errorf("%s, %s: message %d:\nwalker %+v\nSQLite %+v", path, v.name, i, got.msgs[i], want.msgs[i])
				break
			}
		}
		walked = walked || got.walked
		fallbacks += got.fallbacks
	}
	return walked, fallbacks
}

// TestDB3WalkSharedBags compares the walker with SQLite on every db3 bag
// of ../shared/bags (copies: SQLite may write beside a WAL bag).
func TestDB3WalkSharedBags(t *testing.T) {
	root := filepath.Join(testenv.SharedDir(t), "bags")
	var dirs []string
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".db3") || strings.HasSuffix(p, ".db3.zstd")) && !seen[filepath.Dir(p)] {
			seen[filepath.Dir(p)] = true
			dirs = append(dirs, filepath.Dir(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Skip("no db3 bag in", root)
	}
	walked := 0
	for _, d := range dirs {
		rel, _ := filepath.Rel(root, d)
		t.Run(rel, func(t *testing.T) {
			cp := testenv.CopyTree(t, d)
			var topics []string
			if b, err := Open(cp, Options{}); err == nil {
				for _, tp := range b.Topics {
					topics = append(topics, tp.Name)
				}
				b.Close()
			}
			if w, _ := compareWalk(t, cp, topics); w {
				walked++
			}
		})
	}
	t.Logf("%d db3 bags, %d walked", len(dirs), walked)
	if walked == 0 {
		t.Error("the walker read none of the shared db3 bags")
	}
}

// genDB3Spec describes a generated db3 file.
type genDB3Spec struct {
	pageSize, reserved int
	topics, rows       int
	seed               uint64
	maxSize            int  // largest payload
	odd                bool // rows of other column types, orphans, negative rowids
	oddTopic           bool // topic ids or timestamps of other types: Open finds the file damaged
	deletes            bool // delete some rows (freeblocks, free pages)
	autoVacuum         string
	ids                []int64 // rows of these rowids too
}

// writeGenDB3 writes a rosbag2-like db3 (schema 9 tables, the messages
// table rosbag2 creates) at path and returns its topic names.
func writeGenDB3(t testing.TB, path string, s genDB3Spec) []string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(fmt.Sprintf("PRAGMA page_size = %d", s.pageSize))
	if s.autoVacuum != "" {
		exec("PRAGMA auto_vacuum = " + s.autoVacuum)
	}
	exec("CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL)")
	exec("INSERT INTO schema VALUES (4, 'humble')")
	exec("CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL)")
	exec("CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL,type_description_hash TEXT NOT NULL)")
	exec("CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT NULL,encoded_message_definition TEXT NOT NULL,type_description_hash TEXT NOT NULL)")
	exec("CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL,data BLOB NOT NULL)")
	exec("CREATE INDEX timestamp_idx ON messages (timestamp ASC)")
	var names []string
	for i := range s.topics {
		name := fmt.Sprintf("/topic%02d", i)
		names = append(names, name)
		exec("INSERT INTO topics VALUES (?, ?, 'std_msgs/msg/String', 'cdr', '', '')", i+1, name)
	}
	rng := rand.New(rand.NewPCG(s.seed, 7))
	// Sizes around the page's local-payload limits, and long chains.
	u := s.pageSize - s.reserved
	x, m := u-35, (u-12)*32/255-23
	edges := []int{0, 1, 2, 3, 4, 5, m - 1, m, m + 1, x - 1, x, x + 1, u - 4, u, 2*(u-4) + m, 3 * u}
	exec("BEGIN")
	for i := range s.rows {
		var n int
		switch r := rng.IntN(10); {
		case r < 4:
			n = rng.IntN(200)
		case r < 7:
			n = edges[rng.IntN(len(edges))]
		default:
			n = rng.IntN(s.maxSize + 1)
		}
		data := make([]byte, n)
		for k := range data {
			data[k] = byte(rng.Uint32())
		}
		if n >= 8 && rng.IntN(40) == 0 {
			copy(data, zstdMagic) // looks like a MESSAGE-mode frame
		}
		topic := int64(rng.IntN(s.topics) + 1)
		ts := int64(1_700_000_000_000_000_000) + int64(i)*1_000_000 - int64(rng.IntN(3_000_000))
		exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (?, ?, ?)", topic, ts, data)
		if s.oddTopic && i%101 == 60 {
			switch (i / 101) % 3 {
			case 0:
				exec("INSERT INTO messages(topic_id, timestamp, data) VALUES ('abc', 5, x'0102')")
			case 1:
				exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (1.5, 9, x'00')")
			case 2:
				exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (?, 2.5, x'0102')", topic)
			}
		}
		if s.odd && i%97 == 50 {
			switch (i / 97) % 3 {
			case 0:
				exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (999, 8, x'00')")
			case 1:
				exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (?, 7, 'text data')", topic)
			case 2:
				exec("INSERT INTO messages(topic_id, timestamp, data) VALUES (?, 10, 42)", topic)
			}
		}
	}
	if s.odd {
		exec("INSERT INTO messages(id, topic_id, timestamp, data) VALUES (-70, 1, 1, x'05')")
		exec("INSERT INTO messages(id, topic_id, timestamp, data) VALUES (-3, 2, 2, x'0607')")
	}
	for _, id := range s.ids {
		exec("INSERT INTO messages(id, topic_id, timestamp, data) VALUES (?, 1, 3, x'0809')", id)
	}
	exec("COMMIT")
	if s.deletes {
		exec("DELETE FROM messages WHERE (id % 7 = 3 OR (id > 40 AND id < 90)) AND typeof(data) = 'blob' AND topic_id < 999")
	}
	if s.reserved > 0 {
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		err = conn.Raw(func(c any) error {
			return c.(*sqlite3.SQLiteConn).SetFileControlInt("main", 38, s.reserved) // SQLITE_FCNTL_RESERVE_BYTES
		})
		conn.Close()
		if err != nil {
			t.Fatal(err)
		}
		exec("VACUUM")
	}
	hdr := make([]byte, 100)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.ReadAt(hdr, 0); err != nil {
		t.Fatal(err)
	}
	if int(hdr[20]) != s.reserved {
		t.Fatalf("%s: %d reserved bytes, want %d", path, hdr[20], s.reserved)
	}
	return names
}

// TestDB3WalkGenerated compares the walker with SQLite on generated files:
// page sizes 512..65536, reserved bytes, many topics, payloads at the
// local-size limits and with long overflow chains, rows of other types
// (which the walker hands to SQLite), deleted rows, auto-vacuum.
func TestDB3WalkGenerated(t *testing.T) {
	defer func(n int64) { sqliteRangeRows = n }(sqliteRangeRows)
	sqliteRangeRows = 64 // split reads, resumed ones included, on small files
	specs := []genDB3Spec{
		{pageSize: 4096, topics: 12, rows: 3000, maxSize: 20000},
		{pageSize: 512, topics: 3, rows: 1500, maxSize: 3000},
		{pageSize: 512, reserved: 32, topics: 5, rows: 800, maxSize: 5000, deletes: true},
		{pageSize: 1024, reserved: 1, topics: 40, rows: 2000, maxSize: 9000, odd: true},
		{pageSize: 2048, topics: 7, rows: 1200, maxSize: 70000, autoVacuum: "full", deletes: true},
		{pageSize: 8192, reserved: 200, topics: 9, rows: 900, maxSize: 40000, autoVacuum: "incremental"},
		{pageSize: 16384, topics: 4, rows: 600, maxSize: 100000, odd: true, deletes: true},
		{pageSize: 32768, topics: 2, rows: 400, maxSize: 200000},
		{pageSize: 65536, reserved: 16, topics: 3, rows: 500, maxSize: 300000, odd: true},
		{pageSize: 4096, topics: 3, rows: 0},
		{pageSize: 4096, topics: 3, rows: 700, maxSize: 9000, oddTopic: true},
	}
	for i, s := range specs {
		s.seed = uint64(i + 1)
		name := fmt.Sprintf("page%d-reserved%d-rows%d", s.pageSize, s.reserved, s.rows)
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gen_0.db3")
			topics := writeGenDB3(t, path, s)
			walked, fallbacks := compareWalk(t, path, topics)
			if walked == s.oddTopic {
				t.Errorf("walked %v", walked)
			}
			if s.odd && fallbacks == 0 {
				t.Error("rows of other types, but the walker never handed over to SQLite")
			}
			if !s.odd && fallbacks != 0 {
				t.Errorf("%d hand-overs to SQLite on a plain file", fallbacks)
			}
		})
	}
}

// TestDB3WalkRowids: rowids of nine-byte varints, the least and the
// greatest, and a walk handed over to SQLite after the greatest. Only
// sequential reads: the split read steps a range query per 4096 rowids of
// the span.
func TestDB3WalkRowids(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ids_0.db3")
	topics := writeGenDB3(t, path, genDB3Spec{pageSize: 512, topics: 2, rows: 300, maxSize: 2000, seed: 3,
		ids: []int64{math.MinInt64, math.MinInt64 + 1, -1 << 40, 1 << 40, math.MaxInt64 - 1, math.MaxInt64}})
	var variants []struct {
		name string
		opts Options
		ro   ReadOptions
	}
	for _, v := range walkVariants(topics) {
		if v.opts.Sequential {
			variants = append(variants, v)
		}
	}
	if walked, _ := compareWalkVariants(t, path, variants); !walked {
		t.Error("not walked")
	}
}

// TestDB3WalkDamage: a damaged page the open does not read (an overflow
// page number out of range, an overflow page cut) ends the walk at that
// row; SQLite reads on from there and reports the damage as it does
// without the walker.
func TestDB3WalkDamage(t *testing.T) {
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean_0.db3")
	topics := writeGenDB3(t, clean, genDB3Spec{pageSize: 1024, topics: 4, rows: 600, maxSize: 6000, seed: 9})
	data, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	hdr, err := parseDB3Header(data[:100], int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	// Find the leaf cells with overflow through the walker itself.
	pr := newPageReader(newMemReaderAt(data), hdr)
	w, err := newTableWalk(pr, messagesRoot(t, clean))
	if err != nil {
		t.Fatal(err)
	}
	var overflowAt []int64 // file offsets of first-overflow page numbers
	for {
		c, ok, err := w.next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		if c.overflow != 0 {
			pg, _ := pr.page(w.leaf)
			off := int(binary.BigEndian.Uint16(pg[8+2*(w.cell-1):]))
			_, n1 := uvarint(pg[off:])
			_, n2 := uvarint(pg[off+n1:])
			ptr := off + n1 + n2 + len(c.local)
			if binary.BigEndian.Uint32(pg[ptr:]) != c.overflow {
				t.Fatalf("row %d: no overflow page number at %d", c.rowid, ptr)
			}
			overflowAt = append(overflowAt, int64(w.leaf-1)*int64(hdr.pageSize)+int64(ptr))
		}
	}
	if len(overflowAt) < 10 {
		t.Fatalf("%d cells with overflow pages", len(overflowAt))
	}
	cases := []struct {
		name  string
		patch func(b []byte)
	}{
		{"overflow page out of range", func(b []byte) { copy(b[overflowAt[len(overflowAt)/2]:], []byte{0xff, 0xff, 0xff, 0x00}) }},
		{"overflow page 0", func(b []byte) { copy(b[overflowAt[len(overflowAt)/3]:], []byte{0, 0, 0, 0}) }},
		{"overflow page 1", func(b []byte) { copy(b[overflowAt[2]:], []byte{0, 0, 0, 1}) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := append([]byte(nil), data...)
			c.patch(b)
			path := filepath.Join(t.TempDir(), "damaged_0.db3")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			walked, fallbacks := compareWalk(t, path, topics)
			if !walked || fallbacks == 0 {
				t.Errorf("walked %v, %d hand-overs: want the walk to stop at the damage", walked, fallbacks)
			}
		})
	}
}

// messagesRoot is the messages table's root page of the file at path.
func messagesRoot(t testing.TB, path string) uint32 {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var root uint32
	if err := db.QueryRow("SELECT rootpage FROM sqlite_master WHERE name = 'messages'").Scan(&root); err != nil {
		t.Fatal(err)
	}
	return root
}

// memReaderAt serves ReadAt from memory, with io.EOF past the end as a
// file does.
type memReaderAt struct{ b []byte }

func newMemReaderAt(b []byte) *memReaderAt { return &memReaderAt{b} }

func (m *memReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= int64(len(m.b)) {
		return 0, fmt.Errorf("read at %d: %w", off, fs.ErrInvalid)
	}
	n := copy(p, m.b[off:])
	if n < len(p) {
		return n, fmt.Errorf("short read at %d", off)
	}
	return n, nil
}
