package bagread

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// drain opens path and reads everything in both orders; the only
// requirement is that nothing panics or hangs.
func drain(t *testing.T, path string) {
	b, err := Open(path, Options{TempDir: t.TempDir(), MaxRecordBytes: 4 << 20})
	if err != nil {
		return
	}
	defer b.Close()
	for _, order := range []Order{RecordOrder, TimeOrder} {
		it := b.Messages(ReadOptions{Order: order})
		for it.Next() {
			_ = it.Message().Data
		}
		_ = it.Problems()
		it.Close()
	}
	it := b.Messages(ReadOptions{Topics: []string{"/tf"}})
	for it.Next() {
	}
	it.Close()
}

func FuzzMCAPReader(f *testing.F) {
	dir := f.TempDir()
	for i, spec := range []genSpec{
		{chunked: true, compression: mcap.CompressionZSTD, chunkSize: 500, n: 12},
		{chunked: true, compression: mcap.CompressionLZ4, chunkSize: 500, n: 12, jitter: true},
		{chunked: true, compression: mcap.CompressionNone, chunkSize: 500, n: 12, noIndex: true},
		{chunked: false, n: 12, jitter: true},
	} {
		p := filepath.Join(dir, "seed.mcap")
		writeMCAP(f, p, spec)
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)*(i+1)/5]) // cut files too
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.mcap")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		drain(t, p)
	})
}

func FuzzDB3Reader(f *testing.F) {
	for schema := 1; schema <= 4; schema += 3 {
		p := filepath.Join(f.TempDir(), "seed.db3")
		writeDB3(f, p, schema, 8, schema == 4)
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.db3")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		drain(t, p)
	})
}
