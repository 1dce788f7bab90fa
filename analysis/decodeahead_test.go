package analysis

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/testenv"
)

// TestDecodeAheadBatchSizes: the report and every row are the same whatever
// the hand-over batch size, and with no read-ahead (Config.Sequential), on clock cases of each storage (MCAP
// also in 4 kB chunks: the reader reuses its chunk buffers, so bytes kept
// past their Next would show here) and on a shared db3 with a /clock jump.
func TestDecodeAheadBatchSizes(t *testing.T) {
	dirs := map[string]string{
		"mcap loop":   writeCase(t, filepath.Join(t.TempDir(), "mcap"), clockCase{name: "loop", loopAtS: 3}, bagwrite.StorageMCAP, 6),
		"db3 skew":    writeCase(t, filepath.Join(t.TempDir(), "db3"), clockCase{name: "skew", laserSkewNS: 2_500_000_000}, bagwrite.StorageSQLite3, 6),
		"simstart":    "shared:tb3-walker-simstart", // copied in its subtest: only it needs ../shared
		"demo (tiny)": filepath.Join(testenv.RepoRoot(t), "testdata", "samples", "demo"),
		"small chunks": writeCaseWith(t, filepath.Join(t.TempDir(), "chunks"), clockCase{name: "loop", loopAtS: 3},
			bagwrite.Options{Storage: bagwrite.StorageMCAP, ChunkSize: 4 << 10}, 6),
		"small zstd chunks": writeCaseWith(t, filepath.Join(t.TempDir(), "zchunks"), clockCase{name: "same"},
			bagwrite.Options{Storage: bagwrite.StorageMCAP, ChunkSize: 4 << 10, ChunkCompression: "zstd"}, 6),
	}
	defer func(n int, f func(int) bool) { aheadBatchSize, deferTFWhen = n, f }(aheadBatchSize, deferTFWhen)
	for name, dir := range dirs {
		t.Run(name, func(t *testing.T) {
			if shared, ok := strings.CutPrefix(dir, "shared:"); ok {
				dir = testenv.CopyTree(t, testenv.SharedBag(t, shared))
			}
			var want string
			// tf decoded by the reader, by the analysis, or as the reader
			// finds the queue (the default).
			for _, split := range []struct {
				name string
				when func(int) bool
			}{{"reader", func(int) bool { return false }}, {"analysis", func(int) bool { return true }},
				{"adaptive", deferTFWhen}} {
				for _, size := range []int{1024, 1, 7, 100000, 0} {
					aheadBatchSize = size
					deferTFWhen = split.when
					// 0: Config.Sequential, no read-ahead goroutine at all.
					rep, rows := analyzeDir(t, dir, Config{Sequential: size == 0})
					rep.Bag.Path = ""
					got, err := json.Marshal(struct {
						R *Report
						S []ScanRow
					}{rep, rows})
					if err != nil {
						t.Fatal(err)
					}
					if len(rows) == 0 {
						t.Fatalf("batch %d: no rows", size)
					}
					if want == "" {
						want = string(got)
					} else if string(got) != want {
						t.Errorf("batch size %d, tf decoded by %s, changes the result", size, split.name)
					}
				}
			}
		})
	}
}

// TestDecodeAheadStops: a sink error mid-bag stops the reading goroutine;
// none is left behind.
func TestDecodeAheadStops(t *testing.T) {
	dir := writeCase(t, filepath.Join(t.TempDir(), "bag"), clockCase{name: "same"}, bagwrite.StorageMCAP, 6)
	defer func(n int) { aheadBatchSize = n }(aheadBatchSize)
	aheadBatchSize = 3
	before := runtime.NumGoroutine()
	for i := range 20 {
		bag, err := bagread.Open(dir, bagread.Options{})
		if err != nil {
			t.Fatal(err)
		}
		boom := fmt.Errorf("disk full %d", i)
		n := 0
		_, err = analyzeFinished(bag, Config{}, func(*ScanRow) error {
			if n++; n > i {
				return boom
			}
			return nil
		})
		bag.Close()
		if !errors.Is(err, boom) {
			t.Fatalf("stop after %d rows: err %v", i+1, err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after 20 stopped analyses, %d before", n, before)
	}
}
