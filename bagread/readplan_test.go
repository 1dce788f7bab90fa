package bagread

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// planSource is a storage file in memory that plans like an object in a
// store: it keeps the plans it was given and counts the reads of planned
// passes that fall outside their plan.
type planSource struct {
	data []byte
	// failAt, when > 0, fails every read reaching past that offset once
	// failing is set.
	failAt  int64
	failing bool

	mu        sync.Mutex
	plans     [][]Range
	unplanned []Range
}

var errStoreDown = errors.New("the store is down")

func (s *planSource) ReadAt(p []byte, off int64) (int, error) {
	s.mu.Lock()
	fail := s.failing && s.failAt > 0 && off+int64(len(p)) > s.failAt
	s.mu.Unlock()
	if fail {
		return 0, errStoreDown
	}
	return bytes.NewReader(s.data).ReadAt(p, off)
}

func (s *planSource) Plan(ranges []Range) PlannedReader {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.plans = append(s.plans, ranges)
	return &planPass{s: s, ranges: ranges}
}

type planPass struct {
	s      *planSource
	ranges []Range
}

func (p *planPass) ReadAt(b []byte, off int64) (int, error) {
	end := min(off+int64(len(b)), int64(len(p.s.data)))
	in := slices.ContainsFunc(p.ranges, func(r Range) bool { return r.Off <= off && end <= r.Off+r.Len })
	if !in {
		p.s.mu.Lock()
		p.s.unplanned = append(p.s.unplanned, Range{off, end - off})
		p.s.mu.Unlock()
	}
	return p.s.ReadAt(b, off)
}

func (p *planPass) Close() error { return nil }

// writeCameraMCAP writes an MCAP file shaped like a camera recording with
// the mcap library's writer: each 1.2 MB image closes its chunk, with
// small tf and imu messages before it; /gps appears only in the second
// half, so a read of /gps alone skips the first chunks.
func writeCameraMCAP(t *testing.T, compression mcap.CompressionFormat) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := mcap.NewWriter(&buf, &mcap.WriterOptions{Chunked: true, ChunkSize: 256 << 10, Compression: compression})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "bagread test"}))
	topics := []string{"/camera", "/tf", "/imu", "/gps"}
	for i, topic := range topics {
		must(w.WriteSchema(&mcap.Schema{ID: uint16(i + 1), Name: "test/msg/T" + topic[1:], Encoding: "ros2msg", Data: []byte("# test")}))
		must(w.WriteChannel(&mcap.Channel{ID: uint16(i + 1), SchemaID: uint16(i + 1), Topic: topic, MessageEncoding: "cdr"}))
	}
	const frames = 12
	lt := uint64(1_000_000_000)
	put := func(ch uint16, data []byte) {
		lt += 1_000_000
		must(w.WriteMessage(&mcap.Message{ChannelID: ch, LogTime: lt, PublishTime: lt, Data: data}))
	}
	for i := range frames {
		put(2, cdrPayload(i, 100))
		for k := range 3 {
			put(3, cdrPayload(10*i+k, 300))
		}
		if i >= frames/2 {
			put(4, cdrPayload(i, 60))
		}
		put(1, cdrPayload(i, 1_200_000))
	}
	must(w.Close())
	return buf.Bytes()
}

// TestReadPlan reads camera-shaped MCAP files through a planning source
// as through a local file, and checks that the messages are the same and
// that every read of a planned pass fell inside its plan: the plan is the
// whole forecast of what a record-order pass reads, and a prefix read's
// plan leaves the image payloads out.
func TestReadPlan(t *testing.T) {
	all := []string{"/camera", "/tf", "/imu", "/gps"}
	for _, c := range []struct {
		name        string
		compression mcap.CompressionFormat
		opts        ReadOptions
		planned     bool    // a plan is made
		maxShare    float64 // of the file's bytes planned, when planned
	}{
		{"prefix read of images", "", ReadOptions{Topics: all, Order: RecordOrder, PrefixTopics: []string{"/camera"}, PrefixBytes: 64}, true, 0.05},
		{"image time only", "", ReadOptions{Topics: all, Order: RecordOrder, TimeOnlyTopics: []string{"/camera"}}, true, 0.05},
		{"chunks skipped by topic", "", ReadOptions{Topics: []string{"/gps", "/camera"}, Order: RecordOrder, PrefixTopics: []string{"/camera"}, PrefixBytes: 64}, true, 0.05},
		{"whole uncompressed chunks", "", ReadOptions{Topics: []string{"/tf"}, Order: RecordOrder}, true, 1},
		{"zstd chunks read ahead", mcap.CompressionZSTD, ReadOptions{Topics: []string{"/tf", "/imu"}, Order: RecordOrder}, true, 1},
		{"zstd prefix read", mcap.CompressionZSTD, ReadOptions{Topics: all, Order: RecordOrder, PrefixTopics: []string{"/camera"}, PrefixBytes: 64}, true, 1},
		{"time order: no plan", "", ReadOptions{Topics: all, Order: TimeOrder, PrefixTopics: []string{"/camera"}, PrefixBytes: 64}, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := writeCameraMCAP(t, c.compression)
			path := filepath.Join(t.TempDir(), "cam.mcap")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			local, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer local.Close()
			want, wantProbs, _ := collect(t, local, c.opts)
			src := &planSource{data: data}
			b, err := OpenSources("store://cam.mcap", nil, []Source{{Name: "store://cam.mcap", Size: int64(len(data)), ReaderAt: src}}, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			got, gotProbs, _ := collect(t, b, c.opts)
			if len(want) == 0 || !slices.EqualFunc(got, want, func(a, b genMessage) bool {
				return a.topic == b.topic && a.logTime == b.logTime && bytes.Equal(a.data, b.data)
			}) {
				t.Fatalf("%d messages through the plan, %d from the file, or they differ", len(got), len(want))
			}
			if len(gotProbs) != len(wantProbs) {
				t.Errorf("problems %v, from the file %v", gotProbs, wantProbs)
			}
			if !c.planned {
				if len(src.plans) != 0 {
					t.Errorf("%d plans made; want none", len(src.plans))
				}
				return
			}
			if len(src.plans) != 1 {
				t.Fatalf("%d plans made; want 1", len(src.plans))
			}
			if len(src.unplanned) > 0 {
				t.Errorf("reads outside the plan: %v", src.unplanned)
			}
			var planned int64
			for i, r := range src.plans[0] {
				planned += r.Len
				if i > 0 && r.Off <= src.plans[0][i-1].Off+src.plans[0][i-1].Len {
					t.Errorf("ranges %v and %v overlap or touch: not merged", src.plans[0][i-1], r)
				}
			}
			if share := float64(planned) / float64(len(data)); share > c.maxShare {
				t.Errorf("plan covers %.1f%% of the file, want at most %.0f%%", 100*share, 100*c.maxShare)
			}
		})
	}
}

// TestSourceFailureIsFatal: a read the source fails after the bag was
// opened (the store kept failing, the object changed) ends the read with
// that error, whether or not the source plans; it is not reported as a
// cut file with the messages before it as the whole bag.
func TestSourceFailureIsFatal(t *testing.T) {
	data := writeCameraMCAP(t, "")
	for _, c := range []struct {
		name string
		src  io.ReaderAt
	}{
		{"planning source", &planSource{data: data, failAt: int64(len(data) / 2)}},
		{"plain source", struct{ io.ReaderAt }{&planSource{data: data, failAt: int64(len(data) / 2)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := OpenSources("store://cam.mcap", nil, []Source{{Name: "store://cam.mcap", Size: int64(len(data)), ReaderAt: c.src}}, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			var ps *planSource
			switch s := c.src.(type) {
			case *planSource:
				ps = s
			case struct{ io.ReaderAt }:
				ps = s.ReaderAt.(*planSource)
			}
			ps.mu.Lock()
			ps.failing = true
			ps.mu.Unlock()
			for _, opts := range []ReadOptions{
				{Order: RecordOrder, PrefixTopics: []string{"/camera"}, PrefixBytes: 64},
				{Order: TimeOrder},
			} {
				it := b.Messages(opts)
				n := 0
				for it.Next() {
					if it.Message().LogTimeNS > 0 {
						n++
					}
				}
				err := it.Err()
				it.Close()
				if !errors.Is(err, errStoreDown) {
					t.Errorf("%v: read %d messages, Err %v; want the store's error", opts.Order, n, err)
				}
			}
		})
	}
}
