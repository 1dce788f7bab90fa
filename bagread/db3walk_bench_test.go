package bagread

import (
	"database/sql"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// benchDB3Path is the benchmark db3 of internal/bench (go run ./cmd/baggen
// --large), or $BAGCLOCK_BENCH_DB3.
func benchDB3Path(b *testing.B) string {
	p := os.Getenv("BAGCLOCK_BENCH_DB3")
	if p == "" {
		d := os.Getenv("BAGCLOCK_BENCH_DIR")
		if d == "" {
			d = filepath.Join(os.TempDir(), "bagclock-bench")
		}
		p = filepath.Join(d, "large-db3", "large-db3_0.db3")
	}
	if _, err := os.Stat(p); err != nil {
		b.Skip("no benchmark db3 (go run ./cmd/baggen --large):", err)
	}
	return p
}

// BenchmarkDB3Walk times the b-tree walk of the benchmark db3 (every row's
// data whole, or 480-byte prefixes, at several block sizes; prefix-pages
// reads one page at a time, only the pages needed) beside a raw read of
// the file in the same run.
func BenchmarkDB3Walk(b *testing.B) {
	path := benchDB3Path(b)
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		b.Fatal(err)
	}
	var root uint32
	if err := db.QueryRow("SELECT rootpage FROM sqlite_master WHERE name='messages'").Scan(&root); err != nil {
		b.Fatal(err)
	}
	db.Close()
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range []struct {
		name  string
		px    int64
		block int
	}{{"walk-128k", 0, 128 << 10}, {"walk-256k", 0, 256 << 10}, {"walk-1m", 0, 1 << 20}, {"prefix-128k", 480, 128 << 10}, {"prefix-256k", 480, 256 << 10}, {"prefix-1m", 480, 1 << 20}, {"prefix-pages", 480, 4096}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(st.Size())
			defer reportRusage(b)()
			var rows int64
			for range b.N {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				var h [100]byte
				if _, err := f.ReadAt(h[:], 0); err != nil {
					b.Fatal(err)
				}
				g, err := parseDB3Header(h[:], st.Size())
				if err != nil {
					b.Fatal(err)
				}
				pr := newPageReader(f, g)
				pr.maxBlock = v.block
				pr.block = min(pr.block, v.block)
				w, err := newTableWalk(pr, root)
				if err != nil {
					b.Fatal(err)
				}
				for {
					c, ok, err := w.next()
					if err != nil {
						b.Fatal(err)
					}
					if !ok {
						break
					}
					r, err := w.record(&c)
					if err != nil {
						b.Fatal(err)
					}
					to := r.dataOff + r.dataLen
					if v.px > 0 {
						to = min(to, r.dataOff+v.px)
					}
					if _, err := w.payload(&c, r.dataOff, to); err != nil {
						b.Fatal(err)
					}
					rows++
				}
				f.Close()
				b.ReportMetric(float64(pr.reads), "preads")
			}
			b.ReportMetric(float64(rows)/float64(b.N), "rows")
		})
	}
	b.Run("raw", func(b *testing.B) {
		b.SetBytes(st.Size())
		defer reportRusage(b)()
		buf := make([]byte, 1<<20)
		for range b.N {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			for {
				n, err := f.Read(buf)
				if n == 0 || err != nil {
					break
				}
			}
			f.Close()
		}
	})
}

// BenchmarkDB3OpenAnalyze times Open of the benchmark db3 bag as analyze opens it.
func BenchmarkDB3OpenAnalyze(b *testing.B) {
	dir := filepath.Dir(benchDB3Path(b))
	defer reportRusage(b)()
	for range b.N {
		bag, err := Open(dir, Options{MetadataTopicCounts: true})
		if err != nil {
			b.Fatal(err)
		}
		bag.Close()
	}
}

// reportRusage reports CPU time and minor page faults per op when the
// returned func runs.
func reportRusage(b *testing.B) func() {
	var ru0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	return func() {
		var ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(ru1.Minflt-ru0.Minflt)/float64(b.N), "faults/op")
	}
}
