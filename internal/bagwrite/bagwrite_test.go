package bagwrite

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
	"go.yaml.in/yaml/v3"

	"github.com/bagclock/bagclock/internal/testenv"
)

type testMsg struct {
	topic        string
	logNS, pubNS int64
	data         []byte
}

const t0 = int64(1_790_000_000_000_000_000)

// testMessages makes n messages over three topics, 10 ms apart, each with
// distinct bytes so a mix-up shows.
func testMessages(n int) []testMsg {
	topics := []string{"/scan", "/tf", "/clock"}
	out := make([]testMsg, n)
	for i := range out {
		data := []byte{0, 1, 0, 0}
		data = append(data, []byte(fmt.Sprintf("message %05d payload %s", i, strings.Repeat("x", i%50)))...)
		out[i] = testMsg{topic: topics[i%3], logNS: t0 + int64(i)*10_000_000, pubNS: t0 + int64(i)*10_000_000 - 1000, data: data}
	}
	return out
}

func writeBag(t *testing.T, dir string, opts Options, msgs []testMsg) *Writer {
	t.Helper()
	w, err := Create(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range [][2]string{{"/scan", "sensor_msgs/msg/LaserScan"}, {"/tf", "tf2_msgs/msg/TFMessage"}, {"/clock", "rosgraph_msgs/msg/Clock"}} {
		if err := w.AddTopic(tp[0], tp[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range msgs {
		if err := w.Write(m.topic, m.logNS, m.pubNS, m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w
}

// plainCopy returns a path to the uncompressed storage file: itself, or a
// decompressed copy of a FILE-mode .zstd file.
func plainCopy(t *testing.T, path string) string {
	t.Helper()
	return testenv.Unzstd(t, path)
}

// readMCAP reads every message back through the mcap library, by index
// when the file has one, linearly otherwise.
func readMCAP(t *testing.T, path string, useIndex bool) (msgs []testMsg, channels map[string]*mcap.Channel, stopErr error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := mcap.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	it, err := r.Messages(mcap.UsingIndex(useIndex))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	channels = map[string]*mcap.Channel{}
	for {
		schema, ch, m, err := it.NextInto(nil)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				stopErr = err
			}
			break
		}
		channels[ch.Topic] = ch
		if schema == nil || schema.Encoding != "ros2msg" || !strings.Contains(string(schema.Data), "MSG: builtin_interfaces/Time") {
			t.Errorf("%s: channel %s: schema %+v lacks its ros2msg definition", path, ch.Topic, schema)
		}
		msgs = append(msgs, testMsg{ch.Topic, int64(m.LogTime), int64(m.PublishTime), append([]byte(nil), m.Data...)})
	}
	return msgs, channels, stopErr
}

func readDB3(t *testing.T, path string) (msgs []testMsg, tables []string, qos map[string]string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	qos = map[string]string{}
	rows, err = db.Query("SELECT name, offered_qos_profiles FROM topics")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n, q string
		rows.Scan(&n, &q)
		qos[n] = q
	}
	rows.Close()
	rows, err = db.Query("SELECT t.name, m.timestamp, m.data FROM messages m JOIN topics t ON t.id = m.topic_id ORDER BY m.id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var m testMsg
		if err := rows.Scan(&m.topic, &m.logNS, &m.data); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return msgs, tables, qos
}

type metaYAML struct {
	Info struct {
		Version           int    `yaml:"version"`
		StorageIdentifier string `yaml:"storage_identifier"`
		MessageCount      uint64 `yaml:"message_count"`
		Duration          struct {
			NS int64 `yaml:"nanoseconds"`
		} `yaml:"duration"`
		Start struct {
			NS int64 `yaml:"nanoseconds_since_epoch"`
		} `yaml:"starting_time"`
		Topics []struct {
			Meta struct {
				Name string    `yaml:"name"`
				Type string    `yaml:"type"`
				QoS  yaml.Node `yaml:"offered_qos_profiles"`
			} `yaml:"topic_metadata"`
			Count uint64 `yaml:"message_count"`
		} `yaml:"topics_with_message_count"`
		CompressionFormat string   `yaml:"compression_format"`
		CompressionMode   string   `yaml:"compression_mode"`
		Paths             []string `yaml:"relative_file_paths"`
		Files             []struct {
			Path  string `yaml:"path"`
			Count uint64 `yaml:"message_count"`
		} `yaml:"files"`
		ROSDistro string `yaml:"ros_distro"`
	} `yaml:"rosbag2_bagfile_information"`
}

func TestRoundTrip(t *testing.T) {
	msgs := testMessages(900)
	cases := []struct {
		name string
		opts Options
		// wantFiles is the expected storage file names.
		wantFiles []string
		// lost is how many trailing messages a crash may lose (upper bound);
		// 0 means every message must come back.
		crash bool
	}{
		{"mcap", Options{}, []string{"b_0.mcap"}, false},
		{"mcap-zstd-chunks", Options{ChunkCompression: "zstd", ChunkSize: 4096}, []string{"b_0.mcap"}, false},
		{"mcap-lz4-chunks", Options{ChunkCompression: "lz4", ChunkSize: 4096}, []string{"b_0.mcap"}, false},
		{"mcap-unchunked", Options{NoChunking: true}, []string{"b_0.mcap"}, false},
		{"mcap-no-summary", Options{NoSummary: true}, []string{"b_0.mcap"}, false},
		{"mcap-v5", Options{MetadataVersion: 5}, []string{"b_0.mcap"}, false},
		{"mcap-split", Options{SplitEvery: 3 * time.Second}, []string{"b_0.mcap", "b_1.mcap", "b_2.mcap"}, false},
		{"mcap-file-zstd", Options{Compression: "zstd", SplitEvery: 5 * time.Second}, []string{"b_0.mcap.zstd", "b_1.mcap.zstd"}, false},
		{"mcap-crash", Options{Crash: true, ChunkSize: 4096}, []string{"b_0.mcap"}, true},
		{"mcap-crash-torn", Options{Crash: true, ChunkSize: 4096, TruncateTail: 100}, []string{"b_0.mcap"}, true},
		{"db3", Options{Storage: StorageSQLite3}, []string{"b_0.db3"}, false},
		{"db3-v5", Options{Storage: StorageSQLite3, MetadataVersion: 5}, []string{"b_0.db3"}, false},
		{"db3-split", Options{Storage: StorageSQLite3, SplitEvery: 4 * time.Second}, []string{"b_0.db3", "b_1.db3", "b_2.db3"}, false},
		{"db3-file-zstd", Options{Storage: StorageSQLite3, Compression: "zstd"}, []string{"b_0.db3.zstd"}, false},
		{"db3-message-zstd", Options{Storage: StorageSQLite3, Compression: "zstd", CompressionMode: CompressionModeMessage}, []string{"b_0.db3"}, false},
		{"db3-crash", Options{Storage: StorageSQLite3, Crash: true}, []string{"b_0.db3"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "b")
			w := writeBag(t, dir, tc.opts, msgs)
			var names []string
			for _, p := range w.Files() {
				names = append(names, filepath.Base(p))
				if _, err := os.Stat(p); err != nil {
					t.Error(err)
				}
			}
			if fmt.Sprint(names) != fmt.Sprint(tc.wantFiles) {
				t.Fatalf("files %v, want %v", names, tc.wantFiles)
			}
			var got []testMsg
			isMCAP := tc.opts.Storage != StorageSQLite3
			for _, p := range w.Files() {
				plain := plainCopy(t, p)
				if isMCAP {
					useIndex := !tc.crash && !tc.opts.NoSummary && !tc.opts.NoChunking
					part, chans, stop := readMCAP(t, plain, useIndex)
					if stop != nil && !tc.crash {
						t.Fatalf("%s: reading stopped: %v", p, stop)
					}
					if tc.opts.TruncateTail > 0 && stop == nil {
						t.Errorf("%s: torn file read to a clean end", p)
					}
					if q := chans["/tf"].Metadata["offered_qos_profiles"]; !strings.HasPrefix(q, "- history: ") {
						t.Errorf("channel QoS %q", q)
					}
					if chans["/tf"].MessageEncoding != "cdr" {
						t.Errorf("message encoding %q", chans["/tf"].MessageEncoding)
					}
					got = append(got, part...)
				} else {
					part, tables, qos := readDB3(t, plain)
					want := "message_definitions messages metadata schema topics"
					if tc.opts.MetadataVersion == 5 {
						want = "messages metadata schema topics"
					}
					if strings.Join(tables, " ") != want {
						t.Errorf("tables %v, want %s", tables, want)
					}
					wantQoS := "reliability: reliable"
					if tc.opts.MetadataVersion == 5 {
						wantQoS = "reliability: 1"
					}
					if !strings.Contains(qos["/scan"], wantQoS) {
						t.Errorf("topics.offered_qos_profiles %q lacks %q", qos["/scan"], wantQoS)
					}
					got = append(got, part...)
				}
			}
			if tc.opts.CompressionMode == CompressionModeMessage {
				dec, _ := zstd.NewReader(nil)
				defer dec.Close()
				for i := range got {
					if !bytes.HasPrefix(got[i].data, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
						t.Fatalf("message %d is not a zstd frame", i)
					}
					var h zstd.Header
					if err := h.Decode(got[i].data); err != nil || !h.HasFCS {
						t.Fatalf("message %d: frame header without content size (%v)", i, err)
					}
					d, err := dec.DecodeAll(got[i].data, nil)
					if err != nil {
						t.Fatal(err)
					}
					got[i].data = d
				}
			}
			want := msgs
			if tc.crash {
				if len(got) == 0 || len(got) >= len(msgs) {
					t.Fatalf("crash kept %d of %d messages; want some but not all", len(got), len(msgs))
				}
				want = msgs[:len(got)]
			}
			if len(got) != len(want) {
				t.Fatalf("read %d messages, want %d", len(got), len(want))
			}
			for i := range want {
				g, m := got[i], want[i]
				wantPub := m.pubNS
				if !isMCAP {
					g.pubNS = m.pubNS // sqlite keeps no publish time
				} else if tc.opts.MetadataVersion == 5 {
					wantPub = m.logNS
				}
				if g.topic != m.topic || g.logNS != m.logNS || g.pubNS != wantPub || !bytes.Equal(g.data, m.data) {
					t.Fatalf("message %d: got %s %d %d %q, want %s %d %d %q", i, g.topic, g.logNS, g.pubNS, g.data, m.topic, m.logNS, wantPub, m.data)
				}
			}
			checkMetadataYAML(t, dir, tc.opts, tc.crash || tc.opts.Crash, w, len(msgs))
		})
	}
}

func checkMetadataYAML(t *testing.T, dir string, opts Options, crash bool, w *Writer, n int) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(dir, "metadata.yaml"))
	if crash {
		if err == nil {
			t.Error("crashed bag has a metadata.yaml")
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var m metaYAML
	if err := yaml.Unmarshal(text, &m); err != nil {
		t.Fatalf("metadata.yaml does not parse: %v\n%s", err, text)
	}
	info := m.Info
	wantVersion := 9
	if opts.MetadataVersion == 5 {
		wantVersion = 5
	}
	if info.Version != wantVersion || info.MessageCount != uint64(n) || info.Start.NS != t0 || info.Duration.NS != int64(n-1)*10_000_000 {
		t.Errorf("metadata: version %d count %d start %d duration %d", info.Version, info.MessageCount, info.Start.NS, info.Duration.NS)
	}
	var sum uint64
	for _, tp := range info.Topics {
		sum += tp.Count
		wantKind := yaml.SequenceNode
		if wantVersion < 9 {
			wantKind = yaml.ScalarNode
		}
		if tp.Meta.QoS.Kind != wantKind {
			t.Errorf("topic %s: offered_qos_profiles kind %v, want %v", tp.Meta.Name, tp.Meta.QoS.Kind, wantKind)
		}
	}
	if sum != uint64(n) || len(info.Topics) != 3 {
		t.Errorf("topics %d, counts sum %d", len(info.Topics), sum)
	}
	var files []string
	for _, p := range w.Files() {
		files = append(files, filepath.Base(p))
	}
	if fmt.Sprint(info.Paths) != fmt.Sprint(files) {
		t.Errorf("relative_file_paths %v, want %v", info.Paths, files)
	}
	var fileSum uint64
	for i, f := range info.Files {
		fileSum += f.Count
		if f.Path != strings.TrimSuffix(files[i], ".zstd") {
			t.Errorf("files[%d].path %s", i, f.Path)
		}
	}
	if fileSum != uint64(n) {
		t.Errorf("files[] counts sum to %d", fileSum)
	}
	if info.CompressionFormat != opts.Compression {
		t.Errorf("compression_format %q", info.CompressionFormat)
	}
}

// TestWALTail checks that the held-back messages live only in the -wal
// file: absent from the main file alone, present when SQLite reads both.
func TestWALTail(t *testing.T) {
	msgs := testMessages(500)
	dir := filepath.Join(t.TempDir(), "b")
	w := writeBag(t, dir, Options{Storage: StorageSQLite3, Crash: true, WALTail: 120}, msgs)
	db3 := w.Files()[0]
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(db3 + suffix); err != nil {
			t.Fatalf("no leftover %s: %v", suffix, err)
		}
	}
	// The main file alone, copied without its WAL.
	alone := filepath.Join(t.TempDir(), "alone.db3")
	data, err := os.ReadFile(db3)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(alone, data, 0o644)
	mainOnly, _, _ := readDB3(t, alone)
	if len(mainOnly) != len(msgs)-120 {
		t.Errorf("main file alone holds %d messages, want %d", len(mainOnly), len(msgs)-120)
	}
	// Main file with its WAL (on a copy: opening rewrites -shm).
	withWAL := filepath.Join(t.TempDir(), "b_0.db3")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		data, err := os.ReadFile(db3 + suffix)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(withWAL+suffix, data, 0o644)
	}
	all, _, _ := readDB3(t, withWAL)
	if len(all) != len(msgs) {
		t.Fatalf("main file + WAL hold %d messages, want %d", len(all), len(msgs))
	}
	for i := range all {
		if all[i].logNS != msgs[i].logNS || !bytes.Equal(all[i].data, msgs[i].data) {
			t.Fatalf("message %d differs", i)
		}
	}
}

func TestMetadataYAMLShape(t *testing.T) {
	m := &bagMetadata{version: 5, storage: "sqlite3", startNS: 5, durationNS: 7, messageCount: 1,
		topics:        []topicInfo{{name: "/tf", typ: "tf2_msgs/msg/TFMessage", format: "cdr", qos: []QoS{{}}, count: 1}},
		relativePaths: []string{"b_0.db3"}, files: []fileInfo{{path: "b_0.db3", startNS: 5, durationNS: 7, messageCount: 1}}}
	text, err := m.yamlText(true)
	if err != nil {
		t.Fatal(err)
	}
	// The QoS line as Humble writes it (compare tb3-walker-humble bags in
	// ../shared/bags): one double-quoted scalar with integer policies.
	wantQoS := `offered_qos_profiles: "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 2\n  deadline:\n    sec: 9223372036\n    nsec: 854775807\n  lifespan:\n    sec: 9223372036\n    nsec: 854775807\n  liveliness: 1\n  liveliness_lease_duration:\n    sec: 9223372036\n    nsec: 854775807\n  avoid_ros_namespace_conventions: false"`
	for _, want := range []string{"rosbag2_bagfile_information:\n  version: 5\n  storage_identifier: sqlite3\n", wantQoS,
		"  compression_format: \"\"\n  compression_mode: \"\"\n  relative_file_paths:\n    - b_0.db3\n  files:\n    - path: b_0.db3\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("metadata.yaml lacks\n%s\ngot\n%s", want, text)
		}
	}
	if strings.Contains(string(text), "custom_data") || strings.Contains(string(text), "ros_distro") {
		t.Errorf("version 5 metadata has v6+/v8+ keys:\n%s", text)
	}
	m.version = 9
	text, _ = m.yamlText(true)
	for _, want := range []string{"        offered_qos_profiles:\n          - history: unknown\n            depth: 0\n            reliability: reliable\n            durability: volatile\n",
		"  custom_data: ~\n", "  ros_distro: \"\"\n", "        type_description_hash: \"\"\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("v9 metadata.yaml lacks\n%s\ngot\n%s", want, text)
		}
	}
}

func TestCreateRejects(t *testing.T) {
	cases := []Options{
		{Storage: "rosbag1"},
		{Compression: "bz2"},
		{CompressionMode: CompressionModeFile},
		{Compression: "zstd", CompressionMode: CompressionModeMessage}, // mcap + MESSAGE
		{ChunkCompression: "brotli"},
		{MetadataVersion: 7},
		{WALTail: 3},
	}
	for i, o := range cases {
		if _, err := Create(filepath.Join(t.TempDir(), "b"), o); err == nil {
			t.Errorf("case %d %+v: Create accepted it", i, o)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o644)
	if _, err := Create(dir, Options{}); err == nil {
		t.Error("Create wrote into a non-empty directory")
	}
}

func TestDeterministic(t *testing.T) {
	msgs := testMessages(300)
	for _, o := range []Options{{ChunkCompression: "zstd", ChunkSize: 2048}, {Storage: StorageSQLite3}, {Compression: "zstd", ChunkCompression: "lz4"}} {
		a := filepath.Join(t.TempDir(), "b")
		b := filepath.Join(t.TempDir(), "b")
		writeBag(t, a, o, msgs)
		writeBag(t, b, o, msgs)
		ea, _ := os.ReadDir(a)
		var names []string
		for _, e := range ea {
			names = append(names, e.Name())
			x, _ := os.ReadFile(filepath.Join(a, e.Name()))
			y, err := os.ReadFile(filepath.Join(b, e.Name()))
			if err != nil || !bytes.Equal(x, y) {
				t.Errorf("%+v: %s differs between two identical writes", o, e.Name())
			}
		}
		sort.Strings(names)
		if len(names) < 2 {
			t.Errorf("%+v: wrote only %v", o, names)
		}
	}
}
