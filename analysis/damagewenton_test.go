package analysis

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/bagwrite"
)

// TestDamageWhileReadingWentOn: a message record on a channel the file
// never declares is damage the reader steps over. The verdict must say
// so, not that reading stopped before the file's end.
func TestDamageWhileReadingWentOn(t *testing.T) {
	dir, files := writeSplit(t, bagwrite.StorageMCAP, 2*time.Second, 0)
	if len(files) != 1 {
		t.Fatalf("files %v, want one", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	at := firstChunkedMessage(t, data)
	binary.LittleEndian.PutUint16(data[at:], 999) // no such channel
	if err := os.WriteFile(files[0], data, 0o644); err != nil {
		t.Fatal(err)
	}

	rep := analyseDir(t, dir)
	var onGoing int
	for _, p := range rep.Bag.Problems {
		if strings.Contains(p, ": stopped ") {
			t.Errorf("problem %q says reading stopped; it went on", p)
		}
		if strings.Contains(p, ": damage at byte ") && strings.Contains(p, "(reading went on): ") && strings.Contains(p, "undeclared channel 999") {
			onGoing++
		}
	}
	if onGoing != 1 {
		t.Errorf("problems %q, want one 'damage at byte … (reading went on)' naming channel 999", rep.Bag.Problems)
	}
	d := rep.Damage
	if d.Status != DamageDamaged || !strings.HasPrefix(d.Headline, "damaged bag: damage inside bag_0.mcap") || !strings.Contains(d.Headline, "(reading went on)") || strings.Contains(d.Headline, "stopped") {
		t.Errorf("damage %+v", d)
	}
	if rep.Summary.Scans == 0 {
		t.Errorf("no message analysed after the damaged record: reading must go on")
	}
}

// firstChunkedMessage returns the offset of the channel id of the first
// Message record inside the first chunk of an uncompressed MCAP file.
func firstChunkedMessage(t *testing.T, b []byte) int {
	t.Helper()
	for off := 8; off+9 <= len(b); {
		op, n := b[off], int(binary.LittleEndian.Uint64(b[off+1:]))
		body := off + 9
		if op == 0x06 { // Chunk: start, end, uncompressed size and CRC, compression, records
			p := body + 8 + 8 + 8 + 4
			clen := int(binary.LittleEndian.Uint32(b[p:]))
			if comp := string(b[p+4 : p+4+clen]); comp != "" {
				t.Fatalf("chunk compressed with %q", comp)
			}
			p += 4 + clen + 8
			for p+9 <= body+n {
				if b[p] == 0x05 {
					return p + 9
				}
				p += 9 + int(binary.LittleEndian.Uint64(b[p+1:]))
			}
		}
		off = body + n
	}
	t.Fatal("no message record inside a chunk")
	return 0
}
