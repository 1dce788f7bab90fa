package crosscheck

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// TestReencodeExact re-encodes every LaserScan, TFMessage, Clock and Log
// message of the shared bags and requires the bytes the recorder stored:
// same length, same value bytes; only padding may differ (ours is zero).
func TestReencodeExact(t *testing.T) {
	root, bags := sharedBags(t)
	total := map[string]int{}
	padded := map[string]int{}
	for _, bag := range bags {
		t.Run(bag, func(t *testing.T) {
			b := openBag(t, filepath.Join(root, filepath.FromSlash(bag)))
			types := map[string]string{}
			var topics []string
			for _, tp := range b.Topics {
				if k := kind(tp.Type); k != "" && tp.MessageCount > 0 {
					types[tp.Name] = k
					topics = append(topics, tp.Name)
				}
			}
			if len(topics) == 0 {
				t.Skip("no messages of the decoded types")
			}
			it := b.Messages(bagread.ReadOptions{Topics: topics})
			defer it.Close()
			var buf []byte
			dirty := 0
			for it.Next() {
				m := it.Message()
				if m.Err != nil {
					continue // reported by the other tests
				}
				buf = buf[:0]
				var err error
				switch types[m.Topic] {
				case cdr.TypeLaserScan:
					var s cdr.LaserScan
					if s, err = cdr.DecodeLaserScan(m.Data); err == nil {
						buf = cdr.AppendLaserScan(buf, &s, binary.LittleEndian)
					}
				case cdr.TypeTFMessage:
					var tf cdr.TFMessage
					if tf, err = cdr.DecodeTFMessage(m.Data); err == nil {
						buf = cdr.AppendTFMessage(buf, &tf, binary.LittleEndian)
					}
				case cdr.TypeClock:
					var c cdr.Clock
					if c, err = cdr.DecodeClock(m.Data); err == nil {
						buf = cdr.AppendClock(buf, &c, binary.LittleEndian)
					}
				case cdr.TypeLog:
					var l cdr.Log
					if l, err = cdr.DecodeLog(m.Data); err == nil {
						buf = cdr.AppendLog(buf, &l, binary.LittleEndian)
					}
				}
				if err != nil {
					t.Errorf("%s message %d: %v", m.Topic, m.Index, err)
					continue
				}
				total[types[m.Topic]]++
				if bytes.Equal(buf, m.Data) {
					continue
				}
				// Recorders do not zero alignment padding (Fast-CDR leaves
				// whatever the buffer held). A byte may differ only where
				// the encoder wrote padding (always 0) — no value byte is 0
				// in buf yet non-zero in data unless decoding lost it,
				// which the round trip in cdr's fuzz targets rules out.
				if len(buf) != len(m.Data) {
					t.Errorf("%s message %d: re-encoding has %d bytes, the recorder wrote %d", m.Topic, m.Index, len(buf), len(m.Data))
					continue
				}
				for i := range buf {
					if buf[i] != m.Data[i] && buf[i] != 0 {
						t.Errorf("%s message %d: byte %d is %#02x, re-encoded %#02x", m.Topic, m.Index, i, m.Data[i], buf[i])
						break
					}
				}
				if dirty++; dirty == 1 {
					t.Logf("%s message %d: non-zero padding in the recorded bytes (e.g. % x at %d)", m.Topic, m.Index, firstDiff(buf, m.Data), firstDiffAt(buf, m.Data))
				}
			}
			if err := it.Err(); err != nil {
				t.Error(err)
			}
			if dirty > 0 {
				t.Logf("%d messages differ only in padding", dirty)
				padded[bag] = dirty
			}
		})
	}
	t.Logf("re-encoded %v; messages whose recorder left non-zero padding, per bag: %v", total, padded)
}

func firstDiffAt(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// firstDiff returns up to 4 recorded bytes from the first difference.
func firstDiff(ours, recorded []byte) []byte {
	i := firstDiffAt(ours, recorded)
	if i < 0 {
		return nil
	}
	return recorded[i:min(i+4, len(recorded))]
}
