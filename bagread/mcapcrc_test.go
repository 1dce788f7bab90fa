package bagread

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// TestChunkCRC flips bytes in generated MCAP files written with CRCs: a
// payload byte of an uncompressed chunk, the stored CRC of a compressed
// one. The damaged chunk is reported with file and offset and its
// messages are skipped and counted; the other chunks read as before.
func TestChunkCRC(t *testing.T) {
	msgs := bigMessages(t, 24)
	for _, comp := range []mcap.CompressionFormat{mcap.CompressionNone, mcap.CompressionZSTD, mcap.CompressionLZ4} {
		t.Run(fmt.Sprint("compression=", comp), func(t *testing.T) {
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
			if len(whole.problems) != 0 || len(whole.msgs) != len(msgs) {
				t.Fatalf("intact file: %d messages, problems %q", len(whole.msgs), whole.problems)
			}
			data, _ := os.ReadFile(p)
			c := info.chunks[1]
			body := data[c.offset+9:]
			inChunk := 0
			for _, m := range whole.msgs {
				if m.position == c.offset {
					inChunk++
				}
			}
			if comp == mcap.CompressionNone {
				clen := binary.LittleEndian.Uint32(body[28:])
				body[32+clen+8+200] ^= 0x55 // inside the chunk's records
			} else {
				body[24] ^= 0x01 // the stored uncompressed_crc
			}
			q := filepath.Join(dir, "bad.mcap")
			os.WriteFile(q, data, 0o644)
			// Time order merges chunks after seeking to each: the
			// Message Index after the damaged one is read there.
			for _, rc := range []struct {
				name  string
				seq   bool
				order Order
			}{{"concurrent", false, RecordOrder}, {"sequential", true, RecordOrder}, {"time order", false, TimeOrder}} {
				b, err := Open(q, Options{Sequential: rc.seq})
				if err != nil {
					t.Fatal(err)
				}
				got := pxRead(t, b, ReadOptions{Order: rc.order})
				b.Close()
				want := fmt.Sprintf("%s: skipped at byte %d (reading went on)", q, c.offset)
				if len(got.problems) != 1 || !strings.HasPrefix(got.problems[0], want) ||
					!strings.Contains(got.problems[0], fmt.Sprintf("skipped (%d messages): damaged: CRC32", inChunk)) {
					t.Errorf("%s: problems %q, want one at byte %d skipping %d messages", rc.name, got.problems, c.offset, inChunk)
				}
				// Every message of the chunk comes as a skipped message
				// (from the Message Index after it), in its place, with
				// its record time; the others read as before.
				if len(got.msgs) != len(msgs) {
					t.Fatalf("%s: %d messages, want %d", rc.name, len(got.msgs), len(msgs))
				}
				skipped := 0
				for i, m := range got.msgs {
					w := whole.msgs[i]
					if m.topic != w.topic || m.logTime != w.logTime || m.position != w.position || m.index != w.index {
						t.Errorf("message %d: %s %d at %d, %d; intact file has %s %d at %d, %d", i, m.topic, m.index, m.logTime, m.position, w.topic, w.index, w.logTime, w.position)
					}
					if w.position != c.offset {
						if m.err != "" || !bytes.Equal(m.data, w.data) {
							t.Errorf("message %d outside the damaged chunk: error %q", i, m.err)
						}
						continue
					}
					skipped++
					if wantErr := fmt.Sprintf("%s: topic %s message %d (chunk at byte %d, offset ", q, w.topic, w.index, c.offset); !strings.HasPrefix(m.err, wantErr) ||
						!strings.Contains(m.err, "damaged: CRC32") || m.data != nil {
						t.Errorf("message %d in the damaged chunk: error %q, want %q...", i, m.err, wantErr)
					}
				}
				if skipped != inChunk {
					t.Errorf("%s: %d skipped messages, want %d", rc.name, skipped, inChunk)
				}
			}
		})
	}
}

// TestSummaryCRC: a summary whose CRC does not match is not used; the
// file is scanned and Recovery says why.
func TestSummaryCRC(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.mcap")
	msgs := bigMessages(t, 8)
	writeBigMCAP(t, p, true, mcap.CompressionNone, msgs)
	b, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Files[0].Indexed || b.Files[0].Recovery != nil {
		t.Fatalf("intact file: indexed %v, recovery %+v", b.Files[0].Indexed, b.Files[0].Recovery)
	}
	b.Close()
	data, _ := os.ReadFile(p)
	data[len(data)-footerLen+25] ^= 0x80 // the footer's summary_crc
	os.WriteFile(p, data, 0o644)
	b, err = Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := b.Files[0].Recovery
	if b.Files[0].Indexed || r == nil || !strings.Contains(r.Reason, "summary CRC mismatch") || b.MessageCount != uint64(len(msgs)) {
		t.Fatalf("indexed %v, recovery %+v, %d messages", b.Files[0].Indexed, r, b.MessageCount)
	}
	// The whole file was read: no offset, every message recovered.
	if !strings.HasSuffix(r.Reason, fmt.Sprintf(": summary ignored, read sequentially, recovered %d messages", len(msgs))) ||
		r.Offset != -1 || r.Recovered != uint64(len(msgs)) {
		t.Errorf("recovery %+v, want offset -1 and %d messages recovered", r, len(msgs))
	}
}
