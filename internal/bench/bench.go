// Package bench holds bagclock's reader benchmarks and what they need: the
// large generated bags, cached on disk between runs, and the baselines the
// reader is measured against (raw read, the mcap library, bare zstd chunk
// decompression, a bare sqlite SELECT).
//
// Run with: go test -run '^$' -bench . -benchtime 3x ./internal/bench
// (plain `go test` generates nothing and measures nothing).
package bench

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/klauspost/compress/zstd"
)

// Topics are what the benchmarks read, as bagclock analyze does.
var Topics = []string{"/scan", "/tf", "/tf_static", "/clock"}

// cacheVersion changes whenever the generated bags would change, so a stale
// cache is regenerated.
const cacheVersion = "bagclock-bench v1"

// CacheDir is where the benchmark bags live: $BAGCLOCK_BENCH_DIR, or
// $TMPDIR/bagclock-bench.
func CacheDir() string {
	if d := os.Getenv("BAGCLOCK_BENCH_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "bagclock-bench")
}

// Bag is one generated benchmark bag.
type Bag struct {
	Name string // "large-mcap", "large-mcap-zstd", "large-db3" (huge-* at 10x)
	Dir  string // bag directory
	File string // its single storage file
	Size int64  // storage file bytes
}

// EnsureBags returns the benchmark bags at the given size factor (1: about
// 120 MB each; 10: about 1.2 GB each), generating them into dir first if
// they are missing or were made by another generator version.
func EnsureBags(dir string, factor int) ([]Bag, error) {
	var out []Bag
	for _, s := range scenario.LargeSamples(factor) {
		bagDir := filepath.Join(dir, s.Dir)
		marker := filepath.Join(bagDir, ".complete")
		if data, err := os.ReadFile(marker); err != nil || string(data) != cacheVersion {
			if err := os.RemoveAll(bagDir); err != nil {
				return nil, fmt.Errorf("bench: clearing %s: %w", bagDir, err)
			}
			if _, err := scenario.Write(bagDir, s.Spec, s.Opts); err != nil {
				return nil, fmt.Errorf("bench: generating %s: %w", bagDir, err)
			}
			if err := os.WriteFile(marker, []byte(cacheVersion), 0o644); err != nil {
				return nil, fmt.Errorf("bench: %w", err)
			}
		}
		files, err := filepath.Glob(filepath.Join(bagDir, s.Dir+"_*"))
		if err != nil || len(files) != 1 {
			return nil, fmt.Errorf("bench: %s: want one storage file, found %v (%v)", bagDir, files, err)
		}
		st, err := os.Stat(files[0])
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		out = append(out, Bag{Name: s.Dir, Dir: bagDir, File: files[0], Size: st.Size()})
	}
	return out, nil
}

// RawRead reads the file through a 1 MiB buffer and returns the bytes
// read: the page-cache speed the reader is compared with.
func RawRead(path string, buf []byte) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var n int64
	for {
		k, err := f.Read(buf)
		n += int64(k)
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// DecompressChunks streams an MCAP file's top-level records and
// decompresses every zstd chunk into a reused buffer, doing nothing else:
// the floor for reading a zstd-chunked file. It returns the uncompressed
// bytes and the buffers for reuse.
func DecompressChunks(path string, dec *zstd.Decoder, rec, out []byte) (int64, []byte, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, rec, out, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var head [9]byte
	if _, err := io.ReadFull(r, head[:8]); err != nil || !bytes.Equal(head[:8], []byte("\x89MCAP0\r\n")) {
		return 0, rec, out, fmt.Errorf("bench: %s is not an MCAP file", path)
	}
	var total int64
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return total, rec, out, fmt.Errorf("bench: %s: %w", path, err)
		}
		n := binary.LittleEndian.Uint64(head[1:])
		switch head[0] {
		case 0x06: // Chunk
			if n > 1<<31 {
				return total, rec, out, fmt.Errorf("bench: %s: chunk of %d bytes", path, n)
			}
			if uint64(cap(rec)) < n {
				rec = make([]byte, n)
			}
			rec = rec[:n]
			if _, err := io.ReadFull(r, rec); err != nil {
				return total, rec, out, fmt.Errorf("bench: %s: %w", path, err)
			}
			if len(rec) < 32 {
				return total, rec, out, fmt.Errorf("bench: %s: short chunk", path)
			}
			p := 32 + int(binary.LittleEndian.Uint32(rec[28:]))
			if p+8 > len(rec) {
				return total, rec, out, fmt.Errorf("bench: %s: bad chunk", path)
			}
			comp, body := string(rec[32:p]), rec[p+8:]
			if comp != "zstd" {
				total += int64(len(body))
				continue
			}
			out, err = dec.DecodeAll(body, out[:0])
			if err != nil {
				return total, rec, out, fmt.Errorf("bench: %s: chunk: %w", path, err)
			}
			total += int64(len(out))
		case 0x0F: // Data End: the summary follows, no more chunks
			return total, rec, out, nil
		default:
			if _, err := r.Discard(int(n)); err != nil {
				return total, rec, out, fmt.Errorf("bench: %s: %w", path, err)
			}
		}
	}
}

// Ratio is one "reader vs baseline" comparison, printed after a benchmark
// run.
type Ratio struct {
	Name, Reader, Baseline string
	// Target is the ratio the issue asks for (0: none).
	Target float64
}

// Ratios are the comparisons the issues set targets for.
var Ratios = []Ratio{
	{"mcap: bagread vs raw read", "large-mcap/bagread", "large-mcap/raw", 4},
	{"mcap: mcap library (index) vs raw read", "large-mcap/mcaplib-index", "large-mcap/raw", 0},
	{"mcap: mcap library (linear) vs raw read", "large-mcap/mcaplib-linear", "large-mcap/raw", 0},
	{"mcap: bagread vs mcap library (index)", "large-mcap/bagread", "large-mcap/mcaplib-index", 0},
	{"mcap-zstd: bagread vs decompressing its chunks", "large-mcap-zstd/bagread", "large-mcap-zstd/zstd-chunks", 1.3},
	{"mcap-zstd: mcap library (index) vs decompressing its chunks", "large-mcap-zstd/mcaplib-index", "large-mcap-zstd/zstd-chunks", 0},
	{"db3: bagread vs bare SELECT", "large-db3/bagread", "large-db3/sqlite-select", 1.3},
	{"mcap: analyze vs bagread", "large-mcap/analyze", "large-mcap/bagread", 1.3},
	{"mcap: analyze job (verdict, JSON to io.Discard) vs raw read", "large-mcap/analyze-job", "large-mcap/raw", 0},
	{"mcap: the binary's analyze vs cat, both processes (issue 22)", "large-mcap/binary-analyze", "large-mcap/binary-cat", 3},
	{"mcap-zstd: analyze job vs decompressing its chunks", "large-mcap-zstd/analyze-job", "large-mcap-zstd/zstd-chunks", 0},
	{"mcap-zstd: the binary's analyze vs cat, both processes", "large-mcap-zstd/binary-analyze", "large-mcap-zstd/binary-cat", 0},
	{"db3: analyze job vs raw read", "large-db3/analyze-job", "large-db3/raw", 0},
	{"db3: the binary's analyze vs cat, both processes (issue 22)", "large-db3/binary-analyze", "large-db3/binary-cat", 3.5},
	{"ros1 (uncompressed): analyze vs raw read", "ros1-none/analyze", "ros1-none/raw", 3},
	{"ros1 (uncompressed): bagread vs raw read", "ros1-none/bagread", "ros1-none/raw", 0},
	{"ros1-lz4: analyze vs decompressing its chunks", "ros1-lz4/analyze", "ros1-lz4/chunks", 1.3},
	{"ros1-lz4: bagread vs decompressing its chunks", "ros1-lz4/bagread", "ros1-lz4/chunks", 0},
	{"ros1-bz2: analyze vs decompressing its chunks", "ros1-bz2/analyze", "ros1-bz2/chunks", 1.3},
	{"ros1-bz2: bagread vs decompressing its chunks", "ros1-bz2/bagread", "ros1-bz2/chunks", 0},
	{"mcap-zstd: analyze vs bagread", "large-mcap-zstd/analyze", "large-mcap-zstd/bagread", 1.3},
	{"db3: analyze vs bagread", "large-db3/analyze", "large-db3/bagread", 1.3},
	{"sensors-mcap: prefix read vs raw read", "sensors-mcap/prefix-read", "sensors-mcap/raw", 0.5},
	{"sensors-db3: prefix read vs raw read", "sensors-db3/prefix-read", "sensors-db3/raw", 0.5},
	{"sensors-mcap: analyze vs raw read", "sensors-mcap/analyze", "sensors-mcap/raw", 0.5},
	{"sensors-db3: analyze vs raw read", "sensors-db3/analyze", "sensors-db3/raw", 0.5},
	{"sensors-mcap: analyze over s3:// (loopback) vs local analyze", "sensors-mcap/s3-analyze", "sensors-mcap/local-analyze", 2},
	{"sensors-mcap: analyze over s3:// (loopback), parallel vs serial fetches", "sensors-mcap/s3-analyze", "sensors-mcap/s3-analyze-serial", 0},
	{"sensors-mcap: analyze over s3:// (5 ms a request) vs local analyze", "sensors-mcap/s3-5ms-analyze", "sensors-mcap/local-analyze", 0},
	{"sensors-mcap: analyze over s3:// (5 ms a request), parallel vs serial", "sensors-mcap/s3-5ms-analyze", "sensors-mcap/s3-5ms-analyze-serial", 0},
	{"sensors-db3: analyze over s3:// (loopback, a private copy) vs local analyze", "sensors-db3/s3-analyze", "sensors-db3/local-analyze", 0},
	{"sensors-db3: analyze over s3:// (loopback), parallel vs serial copy", "sensors-db3/s3-analyze", "sensors-db3/s3-analyze-serial", 0},
}

// FormatRatios renders the ratios whose two sides were measured (ns per
// pass over the bag, keyed "bag/variant").
func FormatRatios(nsPerOp map[string]float64) string {
	var b strings.Builder
	keys := make([]string, 0, len(nsPerOp))
	for k := range nsPerOp {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(&b, "per pass over the bag:\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-32s %8.1f ms\n", k, nsPerOp[k]/1e6)
	}
	fmt.Fprintf(&b, "ratios:\n")
	for _, r := range Ratios {
		a, okA := nsPerOp[r.Reader]
		c, okC := nsPerOp[r.Baseline]
		if !okA || !okC || c == 0 {
			continue
		}
		verdict := ""
		if r.Target > 0 {
			verdict = fmt.Sprintf("  (target <= %.1fx: %s)", r.Target, map[bool]string{true: "met", false: "NOT met"}[a/c <= r.Target])
		}
		fmt.Fprintf(&b, "  %-60s %5.2fx%s\n", r.Name, a/c, verdict)
	}
	return b.String()
}

// LargeSpec is the scenario the benchmark bags are generated from.
func LargeSpec() scenario.Spec { return scenario.LargeSamples(1)[0].Spec }
