package bagread

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/foxglove/mcap/go/mcap"
)

// drain opens path and reads everything in both orders; the only
// requirement is that nothing panics or hangs.
func drain(t *testing.T, path string) {
	drainIn(path, t.TempDir())
}

// drainIn is drain with the bag's temp dir given, so a fuzz target can
// reuse one directory across execs (creating and removing a temp dir per
// input cost more than reading it).
func drainIn(path, tempDir string) {
	// Sequential reads are about twice as fast per input; every other
	// input size still goes through the concurrent readers.
	st, _ := os.Stat(path)
	seq := st != nil && st.Size()%2 == 0
	b, err := Open(path, Options{TempDir: tempDir, MaxRecordBytes: 4 << 20, Sequential: seq})
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
	// One input file and one temp dir per fuzz worker, rewritten for every
	// input (execs run one after another within a worker).
	work := f.TempDir()
	p, tmp := filepath.Join(work, "f.mcap"), filepath.Join(work, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		drainIn(p, tmp)
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
	work := f.TempDir()
	p, tmp := filepath.Join(work, "f.db3"), filepath.Join(work, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// sqlite opens the file by name; a -wal or -journal left by the
		// previous input must not be replayed into this one.
		os.Remove(p + "-wal")
		os.Remove(p + "-journal")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		drainIn(p, tmp)
	})
}

// TestMutatedFiles is a deterministic stand-in for the fuzzers: seeded
// random byte flips, 64-bit length overwrites, insertions and cuts of
// small generated MCAP and db3 files must neither panic nor hang.
func TestMutatedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	r := rand.New(rand.NewSource(7))
	var seeds [][]byte
	dir := t.TempDir()
	for i, spec := range []genSpec{
		{chunked: true, compression: mcap.CompressionZSTD, chunkSize: 500, n: 12},
		{chunked: true, compression: mcap.CompressionLZ4, chunkSize: 500, n: 12, jitter: true},
		{chunked: true, compression: mcap.CompressionNone, chunkSize: 500, n: 12, noIndex: true},
		{chunked: false, n: 12, jitter: true},
	} {
		p := filepath.Join(dir, fmt.Sprintf("seed%d.mcap", i))
		writeMCAP(t, p, spec)
		data, _ := os.ReadFile(p)
		seeds = append(seeds, data)
	}
	db := filepath.Join(dir, "seed.db3")
	writeDB3(t, db, 4, 8, true)
	dbData, _ := os.ReadFile(db)
	for i := 0; i < 600; i++ {
		name, src := "f.mcap", seeds[i%len(seeds)]
		if i%5 == 4 {
			name, src = "f.db3", dbData
		}
		d := append([]byte(nil), src...)
		switch r.Intn(4) {
		case 0:
			for k := 0; k < 1+r.Intn(4); k++ {
				d[r.Intn(len(d))] = byte(r.Intn(256))
			}
		case 1:
			pos := r.Intn(len(d) - 8)
			binary.LittleEndian.PutUint64(d[pos:], uint64(r.Int63())>>uint(r.Intn(63)))
		case 2:
			pos := r.Intn(len(d))
			d = append(d[:pos], append(make([]byte, 1+r.Intn(20)), d[pos:]...)...)
		case 3:
			d = d[:r.Intn(len(d))]
		}
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, d, 0o644)
		done := make(chan struct{})
		go func() {
			defer close(done)
			drain(t, p)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			os.WriteFile(filepath.Join(os.TempDir(), "bagread-hang-"+name), d, 0o644)
			t.Fatalf("mutation %d hangs (input saved in %s)", i, os.TempDir())
		}
	}
}
