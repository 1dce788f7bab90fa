package bagread

import (
	"database/sql"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
	"github.com/foxglove/mcap/go/mcap"
)

// TestCompressedChunkPayloadFlip flips one byte of a zstd or lz4 chunk's
// compressed records (near the start, in the middle, near the end): the
// decoder refuses the bytes or the chunk CRC catches what it made of them.
// Either way the chunk is one Problem naming the file and the chunk's
// offset, its messages are skipped, and every other message reads intact.
func TestCompressedChunkPayloadFlip(t *testing.T) {
	msgs := bigMessages(t, 24)
	for _, comp := range []mcap.CompressionFormat{mcap.CompressionZSTD, mcap.CompressionLZ4} {
		dir := t.TempDir()
		p := filepath.Join(dir, "ok.mcap")
		writeBigMCAP(t, p, true, comp, msgs)
		info, err := readSummary(&mcapHandle{path: p, limit: DefaultMaxRecordBytes})
		if err != nil {
			t.Fatal(err)
		}
		good, err := Open(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		whole := pxRead(t, good, ReadOptions{})
		good.Close()
		if len(whole.problems) != 0 || len(whole.msgs) != len(msgs) || len(info.chunks) < 3 {
			t.Fatalf("%s: intact file: %d messages, %d chunks, problems %q", comp, len(whole.msgs), len(info.chunks), whole.problems)
		}
		c := info.chunks[1]
		inChunk := 0
		for _, m := range whole.msgs {
			if m.position == c.offset {
				inChunk++
			}
		}
		orig, _ := os.ReadFile(p)
		body := orig[c.offset+9:]
		// start(8) end(8) usize(8) crc(4) compression string, records length, records
		nameLen := int(binary.LittleEndian.Uint32(body[28:]))
		if got := string(body[32 : 32+nameLen]); got != string(comp) {
			t.Fatalf("chunk compression %q, want %q", got, comp)
		}
		recStart := 32 + nameLen + 8
		recLen := int(binary.LittleEndian.Uint64(body[32+nameLen:]))
		for _, at := range []int{16, recLen / 2, recLen - 16} {
			t.Run(fmt.Sprintf("%s/byte=%d", comp, at), func(t *testing.T) {
				data := append([]byte(nil), orig...)
				data[c.offset+9+int64(recStart+at)] ^= 0x5a
				q := filepath.Join(t.TempDir(), "bad.mcap")
				if err := os.WriteFile(q, data, 0o644); err != nil {
					t.Fatal(err)
				}
				for _, seq := range []bool{false, true} {
					b, err := Open(q, Options{Sequential: seq})
					if err != nil {
						t.Fatal(err)
					}
					got := pxRead(t, b, ReadOptions{})
					b.Close()
					want := fmt.Sprintf("%s: skipped at byte %d (reading went on)", q, c.offset)
					chunk := fmt.Sprintf("MCAP chunk at byte %d skipped", c.offset)
					if len(got.problems) != 1 || !strings.HasPrefix(got.problems[0], want) || !strings.Contains(got.problems[0], chunk) {
						t.Errorf("sequential %v: problems %q, want one naming %s and the chunk at byte %d", seq, got.problems, q, c.offset)
					}
					// The chunk's messages come (from its Message Index) as
					// skipped messages naming file, topic and chunk; the
					// others intact.
					if len(got.msgs) != len(msgs) {
						t.Fatalf("sequential %v: %d messages, want %d", seq, len(got.msgs), len(msgs))
					}
					skipped := 0
					for i, m := range got.msgs {
						inBad := whole.msgs[i].position == c.offset
						if inBad {
							skipped++
						}
						if inBad != (m.err != "") || (inBad && !strings.HasPrefix(m.err, fmt.Sprintf("%s: topic %s message %d (chunk at byte %d", q, m.topic, m.index, c.offset))) {
							t.Fatalf("sequential %v: message %d (%s %d): in the damaged chunk %v, error %q", seq, i, m.topic, m.index, inBad, m.err)
						}
					}
					if skipped != inChunk {
						t.Errorf("sequential %v: %d skipped messages, want the chunk's %d", seq, skipped, inChunk)
					}
				}
			})
		}
	}
}

// TestMessageFramePayloadFlip flips one byte inside a MESSAGE-mode zstd
// frame of the committed sample (its frames carry a content checksum), in
// the compressed block and in the checksum: that message alone is an
// error naming the storage file, its rowid and topic; every other message
// decompresses to CDR.
func TestMessageFramePayloadFlip(t *testing.T) {
	src := filepath.Join(testenv.RepoRoot(t), "testdata", "samples", "variants", "sqlite3-message-zstd")
	for _, tc := range []struct {
		topic string
		at    func(n int) int
	}{
		{"/scan", func(n int) int { return n / 2 }},
		{"/scan", func(n int) int { return n - 2 }}, // the content checksum
		{"/tf", func(n int) int { return n / 2 }},
		{"/clock", func(n int) int { return n - 5 }},
	} {
		dir := testenv.CopyTree(t, src)
		db3 := filepath.Join(dir, "sqlite3-message-zstd_0.db3")
		db, err := sql.Open("sqlite3", db3)
		if err != nil {
			t.Fatal(err)
		}
		var total, rowid int
		var frame []byte
		if err := db.QueryRow("SELECT count(*) FROM messages").Scan(&total); err != nil {
			t.Fatal(err)
		}
		err = db.QueryRow("SELECT m.id, m.data FROM messages m JOIN topics t ON t.id = m.topic_id WHERE t.name = ? ORDER BY m.id LIMIT 1 OFFSET 3", tc.topic).Scan(&rowid, &frame)
		if err != nil || !isZstdFrame(frame) || frame[4]&0x04 == 0 {
			t.Fatalf("%s: no checksummed zstd frame at the 4th message (%v, % x)", tc.topic, err, frame[:min(6, len(frame))])
		}
		at := tc.at(len(frame))
		frame[at] ^= 0x21
		if _, err := db.Exec("UPDATE messages SET data = ? WHERE id = ?", frame, rowid); err != nil {
			t.Fatal(err)
		}
		db.Close()
		t.Run(fmt.Sprintf("%s/rowid=%d/byte=%d", tc.topic, rowid, at), func(t *testing.T) {
			for _, order := range []Order{RecordOrder, TimeOrder} {
				b, err := Open(dir, Options{})
				if err != nil {
					t.Fatal(err)
				}
				got, probs, errs := collect(t, b, ReadOptions{Order: order})
				b.Close()
				if len(errs) != 1 || len(probs) != 0 || len(got) != total-1 {
					t.Fatalf("order %v: %d good, errors %v, problems %v; want %d good and one error", order, len(got), errs, probs, total-1)
				}
				msg := errs[0].Error()
				for _, want := range []string{db3, fmt.Sprintf("rowid %d", rowid), "topic " + tc.topic} {
					if !strings.Contains(msg, want) {
						t.Errorf("order %v: error %q does not name %q", order, msg, want)
					}
				}
				for _, m := range got {
					if len(m.data) < 4 || m.data[0] != 0 {
						t.Fatalf("order %v: %s message not decompressed to CDR: % x", order, m.topic, m.data[:min(4, len(m.data))])
					}
				}
			}
		})
	}
}
