package bagread

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// A chunk whose declared uncompressed size is off by one byte is damage;
// the exact size decodes. zstd is checked both ways; lz4 only for a frame
// shorter than declared: one longer than declared is cut at the declared
// size without an error (left to the MCAP integrity work of issue 15 item 3).
func TestChunkSizeMismatch(t *testing.T) {
	payload := bytes.Repeat([]byte("bagclock chunk payload "), 200)
	var z bytes.Buffer
	enc, _ := zstd.NewWriter(&z)
	enc.Write(payload)
	enc.Close()
	var l bytes.Buffer
	lw := lz4.NewWriter(&l)
	lw.Write(payload)
	lw.Close()
	for _, tc := range []struct {
		compression string
		data        []byte
	}{{"zstd", z.Bytes()}, {"lz4", l.Bytes()}} {
		for _, delta := range []int{-1, 0, 1} {
			c := &chunkDecompressor{limit: 1 << 30}
			out, err := c.decompress(tc.compression, tc.data, uint64(len(payload)+delta), nil)
			if delta == 0 && (err != nil || !bytes.Equal(out, payload)) {
				t.Errorf("%s exact size: %v", tc.compression, err)
			}
			if tc.compression == "lz4" && delta < 0 {
				continue
			}
			if delta != 0 && err == nil {
				t.Errorf("%s: declared size %+d accepted", tc.compression, delta)
			}
		}
	}
}

// Time order breaks log-time ties by record order, also when the later
// record sits in a chunk that starts earlier: file A(10) | C(5) D(10) reads
// C, A, D.
func TestChunkMergeTies(t *testing.T) {
	var buf bytes.Buffer
	w, err := mcap.NewWriter(&buf, &mcap.WriterOptions{Chunked: true, ChunkSize: 900, Compression: mcap.CompressionNone})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.WriteHeader(&mcap.Header{Profile: "ros2"}))
	must(w.WriteSchema(&mcap.Schema{ID: 1, Name: "rosgraph_msgs/msg/Clock", Encoding: "ros2msg", Data: []byte("# test")}))
	must(w.WriteChannel(&mcap.Channel{ID: 1, SchemaID: 1, Topic: "/clock", MessageEncoding: "cdr"}))
	var want []genMessage
	for _, m := range []struct {
		lt   int64
		size int
	}{{10, 1000}, {5, 10}, {10, 11}} {
		data := cdrPayload(int(m.lt), m.size)
		must(w.WriteMessage(&mcap.Message{ChannelID: 1, LogTime: uint64(m.lt), PublishTime: uint64(m.lt), Data: data}))
		want = append(want, genMessage{"/clock", m.lt, data})
	}
	must(w.Close())
	p := tempPath(t, "ties.mcap")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got, _, errs := collect(t, b, ReadOptions{Order: TimeOrder})
	order := []genMessage{want[1], want[0], want[2]}
	if !reflect.DeepEqual(got, order) || len(errs) > 0 {
		t.Errorf("time order %v (errors %v), want C(5), A(10), D(10)", got, errs)
	}
}
