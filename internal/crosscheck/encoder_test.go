package crosscheck

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// encoderCases are messages chosen for the layouts they produce: frame ids
// of every length mod 8 (so each padding width before angle_min and before
// translation.x occurs), NaN and ±Inf ranges, empty and full intensities,
// multi-byte UTF-8, negative seconds and an out-of-range nanosec, in both
// byte orders.
func encoderCases() (scans []cdr.LaserScan, tfs []cdr.TFMessage, clocks []cdr.Clock) {
	names := []string{"", "l", "la", "las", "lase", "laser", "laser_", "laser_f", "läser_frame"}
	for i, n := range names {
		s := cdr.LaserScan{
			Header:   cdr.Header{Stamp: cdr.Time{Sec: int32(1_790_000_000 + i), Nanosec: uint32(i * 111_111_111)}, FrameID: n},
			AngleMin: -2.35619449, AngleMax: 2.35619449, AngleIncrement: 0.004363323,
			TimeIncrement: 1.7e-5, ScanTime: 0.025, RangeMin: 0.02, RangeMax: 30,
			Ranges: make([]float32, 1080),
		}
		for j := range s.Ranges {
			s.Ranges[j] = float32(j%300)*0.01 + 0.03
		}
		s.Ranges[0] = float32(math.NaN())
		s.Ranges[5] = float32(math.Inf(1))
		s.Ranges[6] = float32(math.Inf(-1))
		if i%2 == 0 {
			s.Intensities = make([]float32, 1080)
			for j := range s.Intensities {
				s.Intensities[j] = float32(j % 255)
			}
		}
		if i == 3 { // a scan whose first range is an ordinary number
			s.Ranges[0] = 1.5
		}
		scans = append(scans, s)
	}
	for i := range names {
		var m cdr.TFMessage
		for j := 0; j <= i%4; j++ {
			m.Transforms = append(m.Transforms, cdr.TransformStamped{
				Header:       cdr.Header{Stamp: cdr.Time{Sec: int32(100 + i), Nanosec: uint32(j * 1000)}, FrameID: names[(i+j)%len(names)] + "odom"},
				ChildFrameID: strings.Repeat("c", i+j) + "_link",
				Transform: cdr.Transform{
					Translation: cdr.Vector3{X: 1.0 / 3, Y: -2.5e-9, Z: 1e300},
					Rotation:    cdr.Quaternion{X: 0.1, Y: -0.2, Z: 0.3, W: math.Sqrt(1 - 0.14)},
				},
			})
		}
		tfs = append(tfs, m)
	}
	clocks = []cdr.Clock{
		{Clock: cdr.Time{Sec: 0, Nanosec: 0}},
		{Clock: cdr.Time{Sec: 1_790_000_000, Nanosec: 999_999_999}},
		{Clock: cdr.Time{Sec: -5, Nanosec: 250}},
		{Clock: cdr.Time{Sec: 12, Nanosec: 1_500_000_000}},
	}
	return scans, tfs, clocks
}

// writeEncoderBag writes the cases with cdr's encoder into an MCAP file
// through the mcap library's Writer (zstd chunks), alternating byte order.
// Schemas carry no text, so Foxglove's decoder uses its own built-in
// definitions rather than anything bagclock wrote.
func writeEncoderBag(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "encoder.mcap")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 64 << 10, Compression: mcap.CompressionZSTD})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "bagclock crosscheck"}))
	for i, c := range []struct{ typ, topic string }{
		{cdr.TypeLaserScan, "/scan"}, {cdr.TypeTFMessage, "/tf"}, {cdr.TypeClock, "/clock"},
	} {
		id := uint16(i + 1)
		must(w.WriteSchema(&mcap.Schema{ID: id, Name: c.typ, Encoding: "ros2msg"}))
		must(w.WriteChannel(&mcap.Channel{ID: id, SchemaID: id, Topic: c.topic, MessageEncoding: "cdr"}))
	}
	orders := []binary.ByteOrder{binary.LittleEndian, binary.BigEndian}
	scans, tfs, clocks := encoderCases()
	logTime := uint64(1_000_000_000)
	var seq uint32
	put := func(ch uint16, data []byte) {
		seq++
		logTime += 10_000_000
		must(w.WriteMessage(&mcap.Message{ChannelID: ch, Sequence: seq, LogTime: logTime, PublishTime: logTime - 1, Data: data}))
	}
	for i := range scans {
		put(1, cdr.AppendLaserScan(nil, &scans[i], orders[i%2]))
	}
	for i := range tfs {
		put(2, cdr.AppendTFMessage(nil, &tfs[i], orders[i%2]))
	}
	for i := range clocks {
		put(3, cdr.AppendClock(nil, &clocks[i], orders[i%2]))
	}
	must(w.Close())
	return path
}

// TestPeerEncoder checks cdr's encoder, and its big-endian decoding, against
// Foxglove's decoder: messages bagclock writes in both byte orders must
// decode in the peer to exactly what bagclock decodes.
func TestPeerEncoder(t *testing.T) {
	dump := peerJS(t)
	path := writeEncoderBag(t)
	b := openBag(t, path)
	topics := decodedTopics(b)
	if len(topics) != 3 {
		t.Fatalf("bagread found topics %v in the written bag", topics)
	}
	ours := readRecordsAnyOrder(t, b, topics)
	peer, err := runPeer(t, dump, path, topics)
	if err != nil {
		t.Fatal(err)
	}
	if len(peer) == 0 {
		t.Fatal("the peer decoded nothing")
	}
	compareWithPeer(t, ours, peer)
}

// readRecordsAnyOrder is readRecords without the layout check that holds
// for real (little-endian) bags: half of these messages are big endian.
func readRecordsAnyOrder(t *testing.T, b *bagread.Bag, topics []string) []record {
	t.Helper()
	old := layoutCheck
	layoutCheck = func(info cdr.Info) bool {
		return info.Trailing == 0 && info.StringsWithoutNUL == 0 && info.Encapsulation.Supported()
	}
	defer func() { layoutCheck = old }()
	return readRecords(t, b, topics, bagread.TimeOrder)
}
