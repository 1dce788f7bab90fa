package bagread

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// TestStreamedChunkHeaders: a prefix read parses a large chunk record by
// record; a chunk header whose fields do not fit the record is skipped
// damage naming the field and its sizes.
func TestStreamedChunkHeaders(t *testing.T) {
	const limit = 4 << 20
	p := filepath.Join(t.TempDir(), "s.mcap")
	writeMCAP(t, p, genSpec{chunked: true, compression: mcap.CompressionZSTD, chunkSize: 1 << 20, n: 6})
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(good[len(good)-footerLen+25:], 0) // summary CRC: not checked
	// The one chunk record: its offset, length and fields.
	chunk := 8
	for good[chunk] != opChunk {
		chunk += 9 + int(binary.LittleEndian.Uint64(good[chunk+1:]))
	}
	length := binary.LittleEndian.Uint64(good[chunk+1:])
	body := chunk + 9
	clen := uint64(binary.LittleEndian.Uint32(good[body+28:]))
	recLen := binary.LittleEndian.Uint64(good[body+32+int(clen):])
	const big = prefixStreamChunk + 1 // declared uncompressed size: streamed
	patch := func(f func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint64(b[body+16:], big)
		f(b)
		return b
	}
	for _, c := range []struct {
		name string
		data []byte
		want string // after "MCAP chunk at byte C skipped: "
	}{
		{"compression name too long", patch(func(b []byte) { binary.LittleEndian.PutUint32(b[body+28:], 65) }), "chunk compression: length 65 does not fit"},
		{"compression name past the record", patch(func(b []byte) { binary.LittleEndian.PutUint32(b[body+28:], uint32(length-40+1)) }),
			fmt.Sprintf("chunk compression: length %d does not fit", length-40+1)},
		{"records past the record", patch(func(b []byte) { binary.LittleEndian.PutUint64(b[body+32+int(clen):], recLen+1) }),
			fmt.Sprintf("chunk records: length %d exceeds the %d bytes left", recLen+1, recLen)},
		{"over the budget", patch(func(b []byte) { binary.LittleEndian.PutUint64(b[body+16:], limit+1) }), "chunk uncompressed size 4194305: size exceeds limit (4194304)"},
		{"unknown compression", patch(func(b []byte) { copy(b[body+32:], "bz2!") }), `unsupported chunk compression "bz2!"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := filepath.Join(t.TempDir(), "s.mcap")
			if err := os.WriteFile(q, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := Open(q, Options{MaxRecordBytes: limit})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			msgs, probs, _ := collect(t, b, ReadOptions{Topics: []string{"/scan"}, PrefixTopics: []string{"/scan"}, PrefixBytes: 64})
			var skipped []string
			for _, pr := range probs {
				if pr.Skipped {
					skipped = append(skipped, pr.String())
				}
			}
			want := []string{fmt.Sprintf("%s: skipped at byte %d (reading went on): MCAP chunk at byte %[2]d skipped: %s", q, chunk, c.want)}
			if !slices.Equal(skipped, want) {
				t.Errorf("%d messages, skipped %q; want %q", len(msgs), skipped, want)
			}
		})
	}
}

// TestStreamedChunkRecords: inside a chunk parsed record by record, a
// record header torn by the chunk's end or a record longer than what is
// left is a problem naming the chunk, the chunk offset and both sizes;
// the messages before it are kept.
func TestStreamedChunkRecords(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.mcap")
	writeMCAP(t, p, genSpec{chunked: true, chunkSize: 1 << 20, n: 6})
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(good[len(good)-footerLen+25:], 0) // summary CRC: not checked
	chunk := 8
	for good[chunk] != opChunk {
		chunk += 9 + int(binary.LittleEndian.Uint64(good[chunk+1:]))
	}
	body := chunk + 9
	clen := int(binary.LittleEndian.Uint32(good[body+28:]))
	recLenAt := body + 32 + clen
	recLen := binary.LittleEndian.Uint64(good[recLenAt:])
	recs := recLenAt + 8
	// The chunk's records: offsets (in the chunk) of each, and of the last.
	var offs []int
	for off := 0; off < int(recLen); off += 9 + int(binary.LittleEndian.Uint64(good[recs+off+1:])) {
		offs = append(offs, off)
	}
	last := offs[len(offs)-1]
	lastLen := binary.LittleEndian.Uint64(good[recs+last+1:])
	if good[recs+last] != opMessage {
		t.Fatalf("the chunk's last record is opcode %#x, want a message", good[recs+last])
	}
	patch := func(f func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint64(b[body+16:], prefixStreamChunk+1) // declared size: streamed
		f(b)
		return b
	}
	for _, c := range []struct {
		name  string
		data  []byte
		msgs  int      // of /scan, all before the last record (a /clock message)
		probs []string // after "PATH: damage at byte C (reading went on): MCAP chunk at byte C"
	}{
		{"intact", patch(func([]byte) {}), 2, nil},
		{"record longer than the chunk", patch(func(b []byte) { binary.LittleEndian.PutUint64(b[recs+last+1:], lastLen+1) }), 2,
			[]string{fmt.Sprintf(": record opcode 0x05 at chunk offset %d claims %d bytes, %d left", last, lastLen+1, lastLen)}},
		{"record header torn by the chunk's end", patch(func(b []byte) { binary.LittleEndian.PutUint64(b[recLenAt:], uint64(last+8)) }), 2,
			[]string{fmt.Sprintf(": torn record header at chunk offset %d", last)}},
		{"chunk ending right after a record header", patch(func(b []byte) { binary.LittleEndian.PutUint64(b[recLenAt:], uint64(last+9)) }), 2,
			[]string{fmt.Sprintf(": record opcode 0x05 at chunk offset %d claims %d bytes, 0 left", last, lastLen)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := filepath.Join(t.TempDir(), "r.mcap")
			if err := os.WriteFile(q, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := Open(q, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			msgs, probs, _ := collect(t, b, ReadOptions{Topics: []string{"/scan"}, PrefixTopics: []string{"/scan"}, PrefixBytes: 64})
			var got, want []string
			for _, pr := range probs {
				got = append(got, pr.String())
			}
			for _, w := range c.probs {
				want = append(want, fmt.Sprintf("%s: damage at byte %d (reading went on): MCAP chunk at byte %[2]d", q, chunk)+w)
			}
			if len(msgs) != c.msgs || !slices.Equal(got, want) {
				t.Errorf("%d messages, problems %q; want %d and %q", len(msgs), got, c.msgs, want)
			}
		})
	}
}
