package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/bench"
)

// BenchmarkFix measures `bagclock fix` (in process, its re-analysis of the
// copy included) on the ~117 MB uncompressed MCAP benchmark bag with its
// laser on system time, beside reading the same file and writing its bytes
// to a new file (cat FILE > OUT) in the same run, and prints the ratio the
// issue sets a target for (<= 3x):
//
//	go test -run '^$' -bench Fix -benchtime 3x ./cmd/bagclock
//
// The bag is generated once into $BAGCLOCK_BENCH_DIR (internal/bench).
func BenchmarkFix(b *testing.B) {
	bag, err := bench.EnsureFixBag(bench.CacheDir())
	if err != nil {
		b.Fatal(err)
	}
	tmp := b.TempDir()
	var catNS, fixNS float64
	b.Run("cat-write", func(b *testing.B) {
		b.SetBytes(bag.Size)
		buf := make([]byte, 1<<20)
		for i := range b.N {
			dst := filepath.Join(tmp, fmt.Sprintf("cat-%d", i))
			if n, err := bench.CatWrite(bag.File, dst, buf); err != nil || n != bag.Size {
				b.Fatalf("copied %d of %d bytes: %v", n, bag.Size, err)
			}
			b.StopTimer()
			os.Remove(dst)
			b.StartTimer()
		}
		catNS = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	b.Run("fix", func(b *testing.B) {
		b.SetBytes(bag.Size)
		for i := range b.N {
			dst := filepath.Join(tmp, fmt.Sprintf("fixed-%d", i))
			var out, errOut bytes.Buffer
			code := run([]string{"fix", bag.Dir, "-o", dst, "--quiet"}, &env{stdout: &out, stderr: &errOut, stdin: strings.NewReader("")})
			if code != exitOK {
				b.Fatalf("fix: exit %d\n%s\n%s", code, out.String(), errOut.String())
			}
			b.StopTimer()
			os.RemoveAll(dst)
			b.StartTimer()
		}
		fixNS = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	if catNS > 0 && fixNS > 0 {
		r := fixNS / catNS
		verdict := map[bool]string{true: "met", false: "NOT met"}[r <= 3]
		fmt.Printf("fix of %s (%.1f MB): %.0f ms; cat + write %.0f ms; ratio %.2fx (target <= 3x: %s)\n",
			bag.Name, float64(bag.Size)/1e6, fixNS/1e6, catNS/1e6, r, verdict)
	}
}
