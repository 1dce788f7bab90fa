package bagread

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
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
	drainBag(b)
}

// drainMem is drain for an MCAP file in memory (openMemMCAP).
func drainMem(data []byte) {
	b, err := openMemMCAP("f.mcap", data, Options{MaxRecordBytes: 4 << 20, Sequential: len(data)%2 == 0})
	if err != nil {
		return
	}
	drainBag(b)
}

// drainReads are the four ways drainBag reads a bag: in record order,
// in time order, /tf alone, and in record order with /scan's payloads
// cut to prefixes (read past in MCAP, through blob I/O in db3).
var drainReads = []ReadOptions{{Order: RecordOrder}, {Order: TimeOrder}, {Topics: []string{"/tf"}},
	{Order: RecordOrder, PrefixTopics: []string{"/scan"}, PrefixBytes: 16}}

// drainBag reads everything of b in every way of drainReads and closes it.
func drainBag(b *Bag) {
	defer b.Close()
	for _, ro := range drainReads {
		drainRead(b, ro)
	}
}

// drainRead reads b once with ro; only panics and hangs matter.
func drainRead(b *Bag, ro ReadOptions) {
	it := b.Messages(ro)
	for it.Next() {
		_ = it.Message().Data
	}
	_ = it.Problems()
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
	// The input is read from memory: no file is written per exec.
	f.Fuzz(func(t *testing.T, data []byte) {
		drainMem(data)
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
	// Ranges of two rows split the read of an 8-row seed, so inputs read
	// in parallel (not Sequential) go through the C batch stepping of a
	// split read (sqlitebatch.go), not only the driver.
	defer func(n int64) { sqliteRangeRows = n }(sqliteRangeRows)
	sqliteRangeRows = 2
	work := fuzzWorkDir(f)
	p, tmp := filepath.Join(work, "f.db3"), filepath.Join(work, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer checkFDs(t, openFDs())
		// sqlite opens the file by name; a -wal or -journal left by the
		// previous input must not be replayed into this one.
		os.Remove(p + "-wal")
		os.Remove(p + "-journal")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// Each open costs sqlite connections, so an input is read one of
		// the ways of drainReads, picked by its length: more inputs per
		// second for the same reader code (TestMutatedFiles reads them all).
		b, err := Open(p, Options{TempDir: tmp, MaxRecordBytes: 4 << 20, Sequential: len(data)%2 == 0})
		if err != nil {
			return
		}
		defer b.Close()
		drainRead(b, drainReads[len(data)%len(drainReads)])
	})
}

// TestMutatedFiles is a deterministic stand-in for the fuzzers: seeded
// random byte flips, 64-bit length overwrites, insertions and cuts of
// small generated MCAP and db3 files must neither panic nor hang.
func TestMutatedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	defer func(n int64) { sqliteRangeRows = n }(sqliteRangeRows)
	sqliteRangeRows = 2 // db3 reads split, through the C batch stepping too
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
		fds := openFDs()
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
		checkFDs(t, fds)
	}
}

// openFDs counts this process's open file descriptors (-1 where
// /proc/self/fd is not there).
func openFDs() int {
	// The runtime opens its poller's two descriptors (eventpoll, eventfd)
	// at the first pollable file and keeps them: open them now, so a read
	// that happens to be the process's first is not blamed for them.
	if r, w, err := os.Pipe(); err == nil {
		r.Close()
		w.Close()
	}
	d, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(d)
}

// checkFDs fails t when more file descriptors are open than before (a
// bag reader that leaks one per damaged file runs a long archive scan out
// of them). A descriptor closed by a goroutine just after is waited for.
func checkFDs(t *testing.T, before int) {
	t.Helper()
	if before < 0 {
		return
	}
	for wait := time.Millisecond; ; wait *= 2 {
		now := openFDs()
		if now <= before {
			return
		}
		if wait > 200*time.Millisecond {
			t.Fatalf("%d file descriptors open after reading the bag, %d before", now, before)
		}
		time.Sleep(wait)
	}
}

// TestMemMCAPMatchesFile: an MCAP opened from memory (what FuzzMCAPReader
// reads) yields the same file facts, messages and problems as the same
// bytes opened from disk, whole and cut, so the fuzz target exercises the
// reader bags are really read with.
func TestMemMCAPMatchesFile(t *testing.T) {
	dir := t.TempDir()
	specs := []genSpec{
		{chunked: true, compression: mcap.CompressionZSTD, chunkSize: 500, n: 12},
		{chunked: true, compression: mcap.CompressionLZ4, chunkSize: 500, n: 12, jitter: true},
		{chunked: true, compression: mcap.CompressionNone, chunkSize: 500, n: 12, noIndex: true},
		{chunked: false, n: 12, jitter: true},
	}
	for i, spec := range specs {
		p := filepath.Join(dir, fmt.Sprintf("s%d.mcap", i))
		writeMCAP(t, p, spec)
		whole, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, cut := range []int{len(whole), len(whole) * 2 / 3} {
			data := whole[:cut]
			fp := filepath.Join(dir, fmt.Sprintf("cut%d_%d.mcap", i, cut))
			if err := os.WriteFile(fp, data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, seq := range []bool{false, true} {
				opts := Options{Sequential: seq}
				fb, err := Open(fp, opts)
				if err != nil {
					t.Fatal(err)
				}
				mb, err := openMemMCAP(fp, data, opts)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("spec %d, %d of %d bytes, sequential %v", i, cut, len(whole), seq)
				if a, b := filesText(fb), filesText(mb); a != b {
					t.Errorf("%s: Open\n%s\nopenMemMCAP\n%s", name, a, b)
				}
				for _, order := range []Order{RecordOrder, TimeOrder} {
					if a, b := readAllText(t, fb, order), readAllText(t, mb, order); a != b {
						t.Errorf("%s, order %d: Open\n%s\nopenMemMCAP\n%s", name, order, a, b)
					} else if !strings.Contains(a, "/tf") {
						t.Errorf("%s: no /tf message read:\n%s", name, a)
					}
				}
				fb.Close()
				mb.Close()
			}
		}
	}
}

// filesText prints a bag's files (with their recovery) and topics.
func filesText(b *Bag) string {
	var sb strings.Builder
	for _, f := range b.Files {
		r := f.Recovery
		f.Recovery = nil
		fmt.Fprintf(&sb, "%+v recovery %+v\n", f, r)
	}
	fmt.Fprintf(&sb, "%+v", b.Topics)
	return sb.String()
}

// readAllText lists every message (topic, index, time, position, payload
// hash) and the problems of a read.
func readAllText(t *testing.T, b *Bag, order Order) string {
	t.Helper()
	var sb strings.Builder
	it := b.Messages(ReadOptions{Order: order})
	for it.Next() {
		m := it.Message()
		fmt.Fprintf(&sb, "%s %d %d %d %d %x %v\n", m.Topic, m.Index, m.LogTimeNS, m.Position, m.ChunkOffset, sha256.Sum256(m.Data), m.Err)
	}
	for _, p := range it.Problems() {
		fmt.Fprintln(&sb, p.String())
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// fuzzWorkDir is where FuzzDB3Reader writes each input: sqlite opens a db3
// by name only, and on tmpfs the write costs a third of what it costs on
// the overlay disk (measured 0.31 of 1.57 ms per input there).
func fuzzWorkDir(f *testing.F) string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "bagclock-fuzz-"); err == nil {
			f.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return f.TempDir()
}
