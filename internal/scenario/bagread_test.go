package scenario

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/testenv"
)

type wantMsg struct {
	topic        string
	logNS, pubNS int64
	data         []byte
}

func generated(t *testing.T, s Spec) []wantMsg {
	t.Helper()
	var out []wantMsg
	if err := Generate(s, func(r *Record) error {
		out = append(out, wantMsg{r.Topic, r.LogTimeNS, r.PublishTimeNS, append([]byte(nil), r.Data...)})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// readAll reads every message of the bag at path through bagread in
// record order.
func readAll(t *testing.T, path string) (*bagread.Bag, []wantMsg, []bool) {
	t.Helper()
	bag, err := bagread.Open(path, bagread.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatalf("bagread.Open(%s): %v", path, err)
	}
	t.Cleanup(func() { bag.Close() })
	it := bag.Messages(bagread.ReadOptions{Order: bagread.RecordOrder})
	defer it.Close()
	var got []wantMsg
	var hasPub []bool
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			t.Fatalf("%s: message %s #%d: %v", path, m.Topic, m.Index, m.Err)
		}
		got = append(got, wantMsg{m.Topic, m.LogTimeNS, m.PublishTimeNS, append([]byte(nil), m.Data...)})
		hasPub = append(hasPub, m.HasPublishTime)
	}
	if err := it.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return bag, got, hasPub
}

// TestSamplesReadBackThroughBagread reads every committed sample with
// bagread and requires exactly the generated messages, in record order,
// with the storage variant's details (publish time, recovery) right.
func TestSamplesReadBackThroughBagread(t *testing.T) {
	root := filepath.Join(testenv.RepoRoot(t), "testdata", "samples")
	for _, smp := range Samples() {
		t.Run(smp.Dir, func(t *testing.T) {
			src := filepath.Join(root, smp.Dir)
			if _, err := os.Stat(src); err != nil {
				t.Fatalf("committed sample missing (regenerate with go run ./cmd/baggen --samples testdata/samples): %v", err)
			}
			// A private copy: SQLite must never touch the committed files.
			path := testenv.CopyTree(t, src)
			bag, got, hasPub := readAll(t, path)
			want := generated(t, smp.Spec)
			crashed := smp.Opts.Crash
			if crashed != bag.MetadataReconstructed {
				t.Errorf("MetadataReconstructed = %v for a bag with crash=%v (%s)", bag.MetadataReconstructed, crashed, bag.MetadataProblem)
			}
			if crashed && smp.Opts.Storage != bagwrite.StorageSQLite3 {
				// The last chunk never reached the file: a prefix survives.
				if len(got) == 0 || len(got) >= len(want) {
					t.Fatalf("crashed MCAP gave %d of %d messages", len(got), len(want))
				}
				if bag.Files[len(bag.Files)-1].Recovery == nil {
					t.Error("crashed MCAP has no Recovery")
				}
				want = want[:len(got)]
			}
			if len(got) != len(want) {
				t.Fatalf("bagread gave %d messages, generated %d", len(got), len(want))
			}
			mcapV9 := smp.Opts.Storage != bagwrite.StorageSQLite3 && smp.Opts.MetadataVersion != 5
			for i := range want {
				g, w := got[i], want[i]
				if g.topic != w.topic || g.logNS != w.logNS || !bytes.Equal(g.data, w.data) {
					t.Fatalf("message %d: got %s @%d (%d bytes), want %s @%d (%d bytes)", i, g.topic, g.logNS, len(g.data), w.topic, w.logNS, len(w.data))
				}
				if mcapV9 && (!hasPub[i] || g.pubNS != w.pubNS) {
					t.Fatalf("message %d: publish time %d (present %v), want %d", i, g.pubNS, hasPub[i], w.pubNS)
				}
			}
			tr := smp.Spec.Truth()
			if !crashed && bag.MessageCount != uint64(len(want)) {
				t.Errorf("Bag.MessageCount %d, want %d", bag.MessageCount, len(want))
			}
			for _, tp := range bag.Topics {
				if tp.Name == TopicScan && !crashed && tp.MessageCount != uint64(tr.Scans) {
					t.Errorf("/scan count %d, truth %d", tp.MessageCount, tr.Scans)
				}
			}
		})
	}
}

// TestWALLeftoverThroughBagread writes a crashed WAL-mode db3 and checks
// that bagread yields the messages that live only in the -wal file and
// leaves all three files byte-identical.
func TestWALLeftoverThroughBagread(t *testing.T) {
	s, _ := Get(BothSim)
	s = s.Sample()
	dir := filepath.Join(t.TempDir(), "wal")
	const tail = 150
	if _, err := Write(dir, s, bagwrite.Options{Storage: bagwrite.StorageSQLite3, Crash: true, WALTail: tail}); err != nil {
		t.Fatal(err)
	}
	sums := func() map[string][32]byte {
		out := map[string][32]byte{}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = sha256.Sum256(data)
		}
		return out
	}
	before := sums()
	if len(before) != 3 {
		t.Fatalf("crashed WAL bag holds %d files, want db3, -wal, -shm", len(before))
	}
	bag, got, _ := readAll(t, dir)
	want := generated(t, s)
	if len(got) != len(want) {
		t.Fatalf("bagread gave %d messages, want %d (the last %d live only in the WAL)", len(got), len(want), tail)
	}
	for i := range want {
		if got[i].logNS != want[i].logNS || !bytes.Equal(got[i].data, want[i].data) {
			t.Fatalf("message %d differs", i)
		}
	}
	if !bag.MetadataReconstructed {
		t.Error("no metadata.yaml, but MetadataReconstructed is false")
	}
	bag.Close()
	after := sums()
	for name, sum := range before {
		if after[name] != sum {
			t.Errorf("%s changed while bagread read the bag", name)
		}
	}
}

// TestWriterVariantsThroughBagread covers writer options no committed
// sample uses, alone and combined.
func TestWriterVariantsThroughBagread(t *testing.T) {
	s, _ := Get(LaserSimTFSystem)
	s = s.Sample()
	cases := []struct {
		name string
		opts bagwrite.Options
	}{
		{"mcap-no-summary", bagwrite.Options{NoSummary: true}},
		{"mcap-split-file-zstd", bagwrite.Options{SplitEvery: 500_000_000, Compression: "zstd", ChunkCompression: "lz4"}},
		{"mcap-unchunked-crash", bagwrite.Options{NoChunking: true, Crash: true}},
		{"db3-split-message-zstd", bagwrite.Options{Storage: bagwrite.StorageSQLite3, SplitEvery: 500_000_000, Compression: "zstd", CompressionMode: bagwrite.CompressionModeMessage}},
		{"db3-schema3-v9", bagwrite.Options{Storage: bagwrite.StorageSQLite3, SQLiteSchema: 3}},
	}
	want := generated(t, s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "b")
			if _, err := Write(dir, s, c.opts); err != nil {
				t.Fatal(err)
			}
			bag, got, _ := readAll(t, dir)
			if len(got) != len(want) {
				t.Fatalf("bagread gave %d messages, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i].topic != want[i].topic || got[i].logNS != want[i].logNS || !bytes.Equal(got[i].data, want[i].data) {
					t.Fatalf("message %d differs", i)
				}
			}
			if wantFiles := 1 + boolInt(c.opts.SplitEvery > 0)*3; len(bag.Files) != wantFiles {
				t.Errorf("%d files, want %d", len(bag.Files), wantFiles)
			}
		})
	}
}

// TestRobotsSamplesReadBack reads the committed multi-robot samples with
// bagread: exactly the merged messages of every robot, one /clock, every
// robot's /rosout lines.
func TestRobotsSamplesReadBack(t *testing.T) {
	root := filepath.Join(testenv.RepoRoot(t), "testdata", "samples")
	for _, smp := range RobotsSamples() {
		t.Run(smp.Dir, func(t *testing.T) {
			path := testenv.CopyTree(t, filepath.Join(root, smp.Dir))
			_, got, _ := readAll(t, path)
			var want []wantMsg
			if err := GenerateMulti(smp.Specs, func(r *Record) error {
				want = append(want, wantMsg{r.Topic, r.LogTimeNS, r.PublishTimeNS, append([]byte(nil), r.Data...)})
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("bagread gave %d messages, generated %d", len(got), len(want))
			}
			// Equal record times may come back in another order.
			key := func(m wantMsg) string { return fmt.Sprintf("%020d %s %x", m.logNS, m.topic, sha256.Sum256(m.data)) }
			count := map[string]int{}
			for i := range want {
				count[key(want[i])]++
				count[key(got[i])]--
			}
			for k, n := range count {
				if n != 0 {
					t.Fatalf("message %s: %+d more generated than read", k, n)
				}
			}
			perTopic := map[string]int{}
			for _, m := range got {
				perTopic[m.topic]++
			}
			clocks, rosout := 0, 0
			for _, s := range smp.Specs {
				tr := s.Truth()
				if perTopic[s.TopicName(TopicScan)] != tr.Scans || perTopic[s.TopicName(TopicTF)] != tr.TFMessages {
					t.Errorf("%s: %d scans, %d tf, want %d, %d", s.Name, perTopic[s.TopicName(TopicScan)], perTopic[s.TopicName(TopicTF)], tr.Scans, tr.TFMessages)
				}
				clocks = max(clocks, tr.ClockMessages)
				rosout += tr.RosoutMessages
			}
			if perTopic[TopicClock] != clocks || perTopic[TopicRosout] != rosout {
				t.Errorf("%d /clock, %d /rosout, want %d, %d", perTopic[TopicClock], perTopic[TopicRosout], clocks, rosout)
			}
		})
	}
}

// TestMultiRejects: robots whose sim-time stamps could not follow the one
// recorded /clock, topics recorded twice, a single robot.
func TestMultiRejects(t *testing.T) {
	if _, err := RobotsOf([]string{BothSim}); err == nil {
		t.Error("one robot accepted")
	}
	if _, err := RobotsOf([]string{BothSim, "nope"}); err == nil {
		t.Error("unknown case accepted")
	}
	reset, _ := RobotsOf([]string{BothSim, SimReset})
	same, _ := Get(BothSim)
	for name, specs := range map[string][]Spec{
		"two simulators": reset,
		"same topics":    {same, same},
	} {
		if _, err := WriteMulti(filepath.Join(t.TempDir(), "bag"), specs, bagwrite.Options{}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
