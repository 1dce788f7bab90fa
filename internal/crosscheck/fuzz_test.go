package crosscheck

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/testenv"
)

// FuzzDecodeRealMessages feeds every cdr decoder with bytes derived from
// real recordings: it is seeded with the first messages of each
// LaserScan, TFMessage, Clock and Log topic of the shared bags (when
// ../shared is present), so the fuzzer mutates what rmw actually wrote.
// Whatever decodes must re-encode to a fixed point: encode(decode(x)) ==
// encode(decode(encode(decode(x)))), which compares floats by bit pattern.
func FuzzDecodeRealMessages(f *testing.F) {
	seedFromSharedBags(f)
	f.Add([]byte{0, 1, 0, 0, 0, 0xf1, 0x53, 0x65, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			checkFixedPoint(t, "LaserScan", data, order, func(b []byte, o binary.ByteOrder) ([]byte, error) {
				m, err := cdr.DecodeLaserScan(b)
				return cdr.AppendLaserScan(nil, &m, o), err
			})
			checkFixedPoint(t, "TFMessage", data, order, func(b []byte, o binary.ByteOrder) ([]byte, error) {
				m, err := cdr.DecodeTFMessage(b)
				return cdr.AppendTFMessage(nil, &m, o), err
			})
			checkFixedPoint(t, "Clock", data, order, func(b []byte, o binary.ByteOrder) ([]byte, error) {
				m, err := cdr.DecodeClock(b)
				return cdr.AppendClock(nil, &m, o), err
			})
			checkFixedPoint(t, "Log", data, order, func(b []byte, o binary.ByteOrder) ([]byte, error) {
				m, err := cdr.DecodeLog(b)
				return cdr.AppendLog(nil, &m, o), err
			})
		}
		if _, err := cdr.DecodeLaserScanHeader(data); err != nil {
			checkErr(t, err)
		}
	})
}

// checkFixedPoint decodes data and, if that works, requires re-encoding
// in order to be stable through another decode.
func checkFixedPoint(t *testing.T, name string, data []byte, order binary.ByteOrder,
	roundTrip func([]byte, binary.ByteOrder) ([]byte, error)) {
	t.Helper()
	enc, err := roundTrip(data, order)
	if err != nil {
		checkErr(t, err)
		return
	}
	enc2, err := roundTrip(enc, order)
	if err != nil {
		t.Fatalf("%s: re-decoding our own encoding: %v", name, err)
	}
	if !bytes.Equal(enc, enc2) {
		t.Fatalf("%s: encoding is not a fixed point:\n% x\n% x", name, enc, enc2)
	}
}

func checkErr(t *testing.T, err error) {
	t.Helper()
	var de *cdr.DecodeError
	if !errors.As(err, &de) ||
		!(errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, cdr.ErrBadLength) || errors.Is(err, cdr.ErrUnsupportedEncapsulation)) {
		t.Fatalf("unexpected error %T: %v", err, err)
	}
}

// seedFromSharedBags adds up to 3 messages per decoded topic of each
// shared bag. Nothing is added (and nothing fails) without ../shared.
func seedFromSharedBags(f *testing.F) {
	if testing.Short() {
		return
	}
	dir := os.Getenv("BAGCLOCK_SHARED")
	if dir == "" {
		dir = filepath.Join(testenv.RepoRoot(f), "..", "shared")
	}
	root := filepath.Join(dir, "bags")
	bags, err := listBags(root)
	if err != nil {
		return
	}
	for _, bag := range bags {
		b, err := bagread.Open(filepath.Join(root, filepath.FromSlash(bag)), bagread.Options{TempDir: f.TempDir()})
		if err != nil {
			continue
		}
		var topics []string
		for _, tp := range b.Topics {
			if kind(tp.Type) != "" && tp.MessageCount > 0 {
				topics = append(topics, tp.Name)
			}
		}
		if len(topics) > 0 {
			seen := map[string]int{}
			it := b.Messages(bagread.ReadOptions{Topics: topics})
			for it.Next() {
				m := it.Message()
				if m.Err == nil && seen[m.Topic] < 3 {
					seen[m.Topic]++
					f.Add(bytes.Clone(m.Data))
				}
			}
			it.Close()
		}
		b.Close()
	}
}
