package bagread

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// TestReadSummary: the summary is used only when the footer, its offsets
// and the summary records all check out; each refusal says why (Open then
// scans the file instead).
func TestReadSummary(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.mcap")
	writeMCAP(t, p, genSpec{chunked: true, chunkSize: 512, n: 30})
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	size := len(good)
	foot := good[size-footerLen:]
	summaryStart := binary.LittleEndian.Uint64(foot[9:])
	summaryOffsetStart := binary.LittleEndian.Uint64(foot[17:])
	sumLen := int64(summaryOffsetStart - summaryStart)
	// edit returns a copy of the file with f applied to its footer; the
	// footer's CRC is cleared (0: not checked) unless keepCRC.
	edit := func(keepCRC bool, f func(foot []byte)) []byte {
		b := append([]byte(nil), good...)
		f(b[len(b)-footerLen:])
		if !keepCRC {
			binary.LittleEndian.PutUint32(b[len(b)-footerLen+25:], 0)
		}
		return b
	}
	u64 := func(off int, v uint64) func([]byte) {
		return func(foot []byte) { binary.LittleEndian.PutUint64(foot[off:], v) }
	}
	// The summary's records: opcode and offset in the file.
	type sumRec struct {
		op  byte
		off int
	}
	var recs []sumRec
	for off := int(summaryStart); off < int(summaryOffsetStart); {
		recs = append(recs, sumRec{good[off], off})
		off += 9 + int(binary.LittleEndian.Uint64(good[off+1:]))
	}
	// editRecs applies f to the records of one opcode (first only, or all).
	editRecs := func(op byte, all bool, f func(b []byte, off int)) []byte {
		b := edit(false, func([]byte) {})
		for _, r := range recs {
			if r.op == op {
				f(b, r.off)
				if !all {
					break
				}
			}
		}
		return b
	}
	const unknownOp = 0x80
	// Chunk Index body: start and end time, chunk_start_offset (16), chunk_length (24).
	chunkIndex := func(startOff func(start, length uint64) (uint64, uint64)) []byte {
		return editRecs(opChunkIndex, false, func(b []byte, off int) {
			st, ln := binary.LittleEndian.Uint64(b[off+9+16:]), binary.LittleEndian.Uint64(b[off+9+24:])
			st, ln = startOff(st, ln)
			binary.LittleEndian.PutUint64(b[off+9+16:], st)
			binary.LittleEndian.PutUint64(b[off+9+24:], ln)
		})
	}
	lastRec := recs[len(recs)-1].off
	chanRec := -1
	for _, r := range recs {
		if r.op == opChannel && chanRec < 0 {
			chanRec = r.off
		}
	}
	for _, c := range []struct {
		name  string
		data  []byte
		limit int64
		want  string // error; "" for a usable summary
	}{
		{"intact", good, 1 << 20, ""},
		{"summary at the budget", good, sumLen, ""},
		{"summary past the budget", good, sumLen - 1, "no usable summary"},
		{"too short for a footer", good[:8+9+footerLen-1], 1 << 20, "too short for a footer"},
		{"just long enough for a footer", good[size-(8+9+footerLen):], 1 << 20, "no usable summary"},
		{"footer magic", edit(true, func(f []byte) { f[footerLen-1] ^= 1 }), 1 << 20, "no footer"},
		{"footer opcode", edit(true, func(f []byte) { f[0] = opDataEnd }), 1 << 20, "no footer"},
		{"footer length", edit(true, u64(1, 21)), 1 << 20, "no footer"},
		{"footer CRC", edit(true, func(f []byte) { f[25] ^= 1 }), 1 << 20, "MCAP summary CRC mismatch: "},
		{"no summary", edit(false, u64(9, 0)), 1 << 20, "no usable summary"},
		{"summary in the magic", edit(false, u64(9, 7)), 1 << 20, "no usable summary"},
		// A summary may start right after the magic; this one then holds the
		// whole data section, which its chunk indexes point into.
		{"summary right after the magic", edit(false, u64(9, 8)), 1 << 20, "chunk index points outside the data section"},
		{"empty summary", edit(false, u64(9, summaryOffsetStart)), 1 << 20, "summary has no statistics"},
		{"summary past the offsets", edit(false, u64(9, summaryOffsetStart+1)), 1 << 20, "no usable summary"},
		{"summary offsets ignored", edit(false, u64(17, 0)), 1 << 20, ""},
		{"summary offsets past the end", edit(false, u64(17, uint64(size+1000))), 1 << 20, ""},
		{"summary starting inside a record", edit(false, u64(9, summaryStart+1)), 1 << 20, "summary record runs past the summary"},
		{"summary cut inside a record header", edit(false, u64(17, uint64(lastRec+8))), 1 << 20, "torn summary record"},
		{"summary cut after a record header", edit(false, u64(17, uint64(lastRec+9))), 1 << 20, "summary record runs past the summary"},
		{"channel topic past the record", editRecs(opChannel, false, func(b []byte, off int) { binary.LittleEndian.PutUint32(b[off+9+4:], 1<<31) }),
			1 << 20, fmt.Sprintf("%s: at byte %d: parse channel: ", p, chanRec)},
		{"no statistics", editRecs(opStatistics, true, func(b []byte, off int) { b[off] = unknownOp }), 1 << 20, "summary has no statistics"},
		{"statistics count off by one", editRecs(opStatistics, true, func(b []byte, off int) { binary.LittleEndian.PutUint64(b[off+9:], 31) }),
			1 << 20, "statistics per-channel counts do not add up"},
		{"no chunk indexes", editRecs(opChunkIndex, true, func(b []byte, off int) { b[off] = unknownOp }), 1 << 20, "summary has no chunk indexes"},
		{"chunk in the magic", chunkIndex(func(_, l uint64) (uint64, uint64) { return 7, l }), 1 << 20, "chunk index points outside the data section"},
		{"chunk right after the magic", chunkIndex(func(_, l uint64) (uint64, uint64) { return 8, l }), 1 << 20, ""},
		{"chunk longer than the data section", chunkIndex(func(_, _ uint64) (uint64, uint64) { return 8, summaryStart + 1 }), 1 << 20, "chunk index points outside the data section"},
		{"chunk as long as the data section", chunkIndex(func(_, _ uint64) (uint64, uint64) { return 8, summaryStart - 8 }), 1 << 20, ""},
		{"chunk ending in the summary", chunkIndex(func(_, l uint64) (uint64, uint64) { return summaryStart - l + 1, l }), 1 << 20, "chunk index points outside the data section"},
		{"chunk ending at the summary", chunkIndex(func(_, l uint64) (uint64, uint64) { return summaryStart - l, l }), 1 << 20, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			info, err := readSummary(&mcapHandle{path: p, limit: c.limit, mem: &memFile{name: p, data: c.data}})
			if c.want != "" {
				if !errorIs(err, c.want) {
					t.Errorf("error %v, want %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !info.indexed || info.messages != 30 || info.profile != "ros2" || !strings.HasSuffix(info.library, "; bagread test") || len(info.chunks) != 11 {
				t.Errorf("summary: indexed %v, %d messages, profile %q, library %q, %d chunks", info.indexed, info.messages, info.profile, info.library, len(info.chunks))
			}
		})
	}
}

// TestChannelBeforeSchema: channels declared before their schemas (legal
// in MCAP) get their types when the schemas come, each its own; the file's
// time range is that of its messages.
func TestChannelBeforeSchema(t *testing.T) {
	u16 := func(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
	channel := func(id, schema uint16, topic string) []byte {
		return rec(opChannel, cat(u16(id), u16(schema), str32(topic), str32("cdr"), u32le(0)))
	}
	schema := func(id uint16, name string) []byte {
		return rec(opSchema, cat(u16(id), str32(name), str32("ros2msg"), str32("int32 x")))
	}
	data := cat(mcapMagic, rec(opHeader, cat(str32("ros2"), str32("hand"))),
		channel(1, 1, "/a"), channel(2, 2, "/b"), schema(1, "pkg/msg/A"), schema(2, "pkg/msg/B"))
	for i, lt := range []uint64{102, 100, 103, 101} { // out of order: the scan finds the range
		data = cat(data, rec(opMessage, cat(u16(uint16(i%2+1)), u32le(uint32(i)), u64le(lt), u64le(lt), cdrPayload(i, 4))))
	}
	data = cat(data, rec(opDataEnd, u32le(0)), mcapMagic)
	p := filepath.Join(t.TempDir(), "c.mcap")
	b := openWritten(t, p, data, Options{})
	if a, bb := b.Topic("/a"), b.Topic("/b"); a == nil || bb == nil || a.Type != "pkg/msg/A" || bb.Type != "pkg/msg/B" {
		t.Errorf("topics %+v, want /a of pkg/msg/A and /b of pkg/msg/B", b.Topics)
	}
	if f := b.Files[0]; f.StartNS != 100 || f.EndNS != 103 || f.MessageCount != 4 || f.Indexed {
		t.Errorf("file %d..%d with %d messages, indexed %v; want 100..103 with 4, scanned", f.StartNS, f.EndNS, f.MessageCount, f.Indexed)
	}
	for _, c := range []struct {
		order Order
		want  []int64
	}{{RecordOrder, []int64{102, 100, 103, 101}}, {TimeOrder, []int64{100, 101, 102, 103}}} {
		msgs, probs, _ := collect(t, b, ReadOptions{Order: c.order})
		var got []int64
		for _, m := range msgs {
			got = append(got, m.logTime)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("order %d: log times %v, want %v", c.order, got, c.want)
		}
		// A read repeats why the file was read sequentially.
		note := fmt.Sprintf("%s: stopped at byte %d after 4 messages: MCAP summary/footer unreadable (data section complete up to byte %[2]d): read sequentially, recovered 4 messages", p, len(data))
		if len(probs) != 1 || probs[0].String() != note {
			t.Errorf("order %d: problems %v, want %q", c.order, probs, note)
		}
	}
	// Data End and the closing magic but no footer: complete, but scanned.
	end := int64(len(data)) // the closing magic read
	want := Recovery{Reason: fmt.Sprintf("MCAP summary/footer unreadable (data section complete up to byte %d): read sequentially, recovered 4 messages", end),
		Offset: end, Recovered: 4}
	if r := b.Files[0].Recovery; r == nil || *r != want {
		t.Errorf("recovery %+v, want %+v", r, want)
	}
}

// TestReadSummaryEmpty: a file without messages needs no chunk index for
// its summary to be used.
func TestReadSummaryEmpty(t *testing.T) {
	p := filepath.Join(t.TempDir(), "e.mcap")
	writeMCAP(t, p, genSpec{chunked: true, n: 0, noIndex: true})
	info, err := readSummary(&mcapHandle{path: p, limit: 1 << 20})
	if err != nil || !info.indexed || info.messages != 0 || len(info.chunks) != 0 || len(info.channels) != 3 {
		t.Fatalf("readSummary: %+v, %v; want the summary of 3 channels, no messages", info, err)
	}
}

// TestSummaryHeaderCap: profile and library come from a Header record of
// less than 1 MiB; a larger one is not read.
func TestSummaryHeaderCap(t *testing.T) {
	write := func(lib int) ([]byte, uint64) {
		var buf bytes.Buffer
		w, err := mcap.NewWriter(&buf, &mcap.WriterOptions{Chunked: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteHeader(&mcap.Header{Profile: "ros2", Library: strings.Repeat("x", lib)}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes(), binary.LittleEndian.Uint64(buf.Bytes()[9:])
	}
	_, n := write(1000)
	extra := int(n) - 1000 // header bytes besides the library's x's
	for _, c := range []struct {
		length  int
		profile string
	}{{1<<20 - 1, "ros2"}, {1 << 20, ""}} {
		data, n := write(c.length - extra)
		if n != uint64(c.length) {
			t.Fatalf("header of %d bytes, want %d", n, c.length)
		}
		info, err := readSummary(&mcapHandle{path: "h.mcap", limit: 4 << 20, mem: &memFile{data: data}})
		if err != nil {
			t.Fatal(err)
		}
		if info.profile != c.profile {
			t.Errorf("header of %d bytes: profile %q, want %q", n, info.profile, c.profile)
		}
	}
}

// TestChunkMissingFromIndex: a chunk the summary's chunk index leaves out
// is read by the stream itself while the others come from read-ahead;
// every message is read once, in order.
func TestChunkMissingFromIndex(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.mcap")
	want := writeMCAP(t, p, genSpec{chunked: true, compression: mcap.CompressionZSTD, chunkSize: 256, n: 40})
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	foot := data[len(data)-footerLen:]
	binary.LittleEndian.PutUint32(foot[25:], 0) // summary CRC: not checked
	seen := 0
	for off := int(binary.LittleEndian.Uint64(foot[9:])); off < int(binary.LittleEndian.Uint64(foot[17:])); off += 9 + int(binary.LittleEndian.Uint64(data[off+1:])) {
		if data[off] == opChunkIndex {
			if seen++; seen == 2 {
				data[off] = 0x80 // the second chunk's index entry becomes an unknown record
			}
		}
	}
	b := openWritten(t, p, data, Options{})
	if !b.Files[0].Indexed || seen < 4 {
		t.Fatalf("indexed %v, %d chunk indexes: want an indexed file of several chunks", b.Files[0].Indexed, seen)
	}
	got, probs, errs := collect(t, b, ReadOptions{})
	if len(probs)+len(errs) > 0 || len(got) != len(want) {
		t.Fatalf("%d messages, problems %v, errors %v; want %d", len(got), probs, errs, len(want))
	}
	for i := range got {
		if got[i].logTime != want[i].logTime || !bytes.Equal(got[i].data, want[i].data) {
			t.Fatalf("message %d differs", i)
		}
	}
}
