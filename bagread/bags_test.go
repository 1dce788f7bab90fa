package bagread

import (
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// provenanceBag is what PROVENANCE.md lists for one bag.
type provenanceBag struct {
	files              int
	topics             map[string]uint64
	recvStart, recvEnd string
}

// sharedUnits lists the bags under shared/bags as rel path -> path: a dir
// with metadata.yaml or split-named storage files, else each loose file.
func sharedUnits(t *testing.T, root string) map[string]string {
	units := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return err
		}
		var storage []string
		hasMeta := false
		for _, e := range entries {
			if e.Name() == "metadata.yaml" {
				hasMeta = true
			}
			if e.Type().IsRegular() && storageFromName(e.Name()) != "" {
				storage = append(storage, e.Name())
			}
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case hasMeta || len(storage) == 1:
			units[rel] = p
		case len(storage) > 1:
			if _, err := discoverFiles(p); err == nil {
				units[rel] = p
			} else {
				for _, s := range storage {
					units[filepath.Join(rel, s)] = filepath.Join(p, s)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return units
}

// readAll iterates a bag fully and returns per-topic counts and an
// order-independent digest of (topic, time, data).
func readAll(t *testing.T, b *Bag, opts ReadOptions) (map[string]uint64, uint64, []Problem) {
	t.Helper()
	it := b.Messages(opts)
	defer it.Close()
	counts := map[string]uint64{}
	var digest uint64
	last := int64(math.MinInt64)
	perTopicFile := map[string]uint64{}
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			t.Errorf("%s: unexpected message error: %v", b.Path, m.Err)
			continue
		}
		if m.Index != counts[m.Topic] {
			t.Fatalf("%s: topic %s message index %d, want %d", b.Path, m.Topic, m.Index, counts[m.Topic])
		}
		counts[m.Topic]++
		perTopicFile[m.Topic]++
		if opts.Order == TimeOrder {
			if m.LogTimeNS < last {
				t.Fatalf("%s: time order broken: %d after %d", b.Path, m.LogTimeNS, last)
			}
			last = m.LogTimeNS
		}
		h := fnv.New64a()
		h.Write([]byte(m.Topic))
		h.Write([]byte(strconv.FormatInt(m.LogTimeNS, 10)))
		h.Write(m.Data)
		digest += h.Sum64()
	}
	if err := it.Err(); err != nil {
		t.Fatalf("%s: iterate: %v", b.Path, err)
	}
	return counts, digest, it.Problems()
}

func TestSharedBags(t *testing.T) {
	root := filepath.Join(testenv.SharedDir(t), "bags")
	units := sharedUnits(t, root)
	names := make([]string, 0, len(units))
	for n := range units {
		names = append(names, n)
	}
	sort.Strings(names)
	checked := 0
	for _, name := range names {
		path := units[name]
		t.Run(name, func(t *testing.T) {
			b, err := Open(path, Options{})
			if strings.HasPrefix(name, "rosbag2-reindex-test-bags/target_metadata/") {
				// Reference metadata only: the files it lists are not there.
				if err == nil || !strings.Contains(err.Error(), "no storage files") {
					t.Fatalf("want a 'no storage files' error, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer b.Close()
			st, _ := os.Stat(filepath.Join(path, "metadata.yaml"))
			if isDir(path) && st == nil && !b.MetadataReconstructed {
				t.Errorf("no metadata.yaml but MetadataReconstructed is false")
			}
			if name == "tb3-walker-corrupt-metadata" && (!b.MetadataReconstructed || !strings.Contains(b.MetadataProblem, "metadata.yaml")) {
				t.Errorf("corrupt metadata: reconstructed=%v problem=%q", b.MetadataReconstructed, b.MetadataProblem)
			}
			if name == "rosbag2-compressed-bag-foxy" || name == "rosbag2-head/ros2bag/test/resources/empty_bag" {
				if b.MessageCount != 0 || b.StartNS != 0 || b.EndNS != 0 {
					t.Errorf("empty bag: %d messages, %d..%d", b.MessageCount, b.StartNS, b.EndNS)
				}
			}
			rec, dRec, pRec := readAll(t, b, ReadOptions{Order: RecordOrder})
			tim, dTim, pTim := readAll(t, b, ReadOptions{Order: TimeOrder})
			if len(pRec)+len(pTim) > 0 {
				t.Errorf("problems on an intact bag: %v %v", pRec, pTim)
			}
			if dRec != dTim {
				t.Errorf("RecordOrder and TimeOrder yield different multisets")
			}
			var total uint64
			for _, tp := range b.Topics {
				if rec[tp.Name] != tp.MessageCount || tim[tp.Name] != tp.MessageCount {
					t.Errorf("topic %s: Topics says %d, record order read %d, time order %d", tp.Name, tp.MessageCount, rec[tp.Name], tim[tp.Name])
				}
				total += tp.MessageCount
			}
			if total != b.MessageCount {
				t.Errorf("topic counts sum to %d, MessageCount %d", total, b.MessageCount)
			}
			checkMetadataTopicCounts(t, path, b)
			want, ok := provenanceBags[name]
			if !ok {
				t.Logf("not in PROVENANCE.md table: only self-consistency checked")
				return
			}
			checked++
			if len(b.Files) != want.files {
				t.Errorf("%d files, PROVENANCE lists %d", len(b.Files), want.files)
			}
			for topic, n := range want.topics {
				tp := b.Topic(topic)
				if tp == nil {
					t.Errorf("topic %s (x%d in PROVENANCE) missing", topic, n)
					continue
				}
				if tp.MessageCount != n {
					t.Errorf("topic %s: %d messages, PROVENANCE says %d", topic, tp.MessageCount, n)
				}
			}
			for _, tp := range b.Topics {
				if _, ok := want.topics[tp.Name]; !ok && tp.MessageCount > 0 {
					t.Errorf("topic %s (x%d) not in PROVENANCE", tp.Name, tp.MessageCount)
				}
			}
			if want.recvStart != "" {
				lo, _ := strconv.ParseFloat(want.recvStart, 64)
				hi, _ := strconv.ParseFloat(want.recvEnd, 64)
				if math.Abs(float64(b.StartNS)/1e9-lo) > 0.0011 || math.Abs(float64(b.EndNS)/1e9-hi) > 0.0011 {
					t.Errorf("receive range %.3f..%.3f, PROVENANCE %s..%s", float64(b.StartNS)/1e9, float64(b.EndNS)/1e9, want.recvStart, want.recvEnd)
				}
			}
		})
	}
	if checked < len(provenanceBags) {
		t.Errorf("checked %d of the %d PROVENANCE bags", checked, len(provenanceBags))
	}
}

// checkMetadataTopicCounts opens path again with MetadataTopicCounts and
// wants exactly the counts, totals and recoveries counted in storage.
func checkMetadataTopicCounts(t *testing.T, path string, exact *Bag) {
	t.Helper()
	b, err := Open(path, Options{MetadataTopicCounts: true})
	if err != nil {
		t.Fatalf("Open with MetadataTopicCounts: %v", err)
	}
	defer b.Close()
	if b.MessageCount != exact.MessageCount || b.StartNS != exact.StartNS || b.EndNS != exact.EndNS || b.OrphanMessages != exact.OrphanMessages {
		t.Errorf("MetadataTopicCounts: %d messages %d..%d (%d orphans), storage counted %d %d..%d (%d)",
			b.MessageCount, b.StartNS, b.EndNS, b.OrphanMessages, exact.MessageCount, exact.StartNS, exact.EndNS, exact.OrphanMessages)
	}
	if len(b.Topics) != len(exact.Topics) {
		t.Fatalf("MetadataTopicCounts: %d topics, storage %d", len(b.Topics), len(exact.Topics))
	}
	for i, tp := range b.Topics {
		e := exact.Topics[i]
		if tp.Name != e.Name || tp.Type != e.Type || tp.MessageCount != e.MessageCount || tp.MetadataCount != e.MetadataCount || tp.OfferedQoS != e.OfferedQoS {
			t.Errorf("MetadataTopicCounts (from metadata: %v): topic %+v, storage counted %+v", b.TopicCountsFromMetadata, tp, exact.Topics[i])
		}
	}
	if b.TopicCountsFromMetadata {
		t.Logf("per-topic counts taken from metadata.yaml")
	}
	if b.TopicCountsFromMetadata && exact.Storage != StorageSQLite3 {
		t.Errorf("counts taken from metadata for %s storage", exact.Storage)
	}
	for i := range b.Files {
		if (b.Files[i].Recovery == nil) != (exact.Files[i].Recovery == nil) {
			t.Errorf("file %d: recovery %+v, storage-counted open %+v", i, b.Files[i].Recovery, exact.Files[i].Recovery)
		}
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
