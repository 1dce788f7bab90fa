package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
)

// TestDecompressChunks checks the zstd baseline against the mcap
// library's chunk index: it must decompress exactly the bytes the index
// says the chunks hold.
func TestDecompressChunks(t *testing.T) {
	path := filepath.Join(testenv.RepoRoot(t), "testdata", "samples", "variants", "mcap-zstd-chunks", "mcap-zstd-chunks_0.mcap")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("sample missing: %v", err)
	}
	defer f.Close()
	r, err := mcap.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	info, err := r.Info()
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, ci := range info.ChunkIndexes {
		if ci.Compression != "zstd" {
			t.Fatalf("chunk compression %q", ci.Compression)
		}
		want += int64(ci.UncompressedSize)
	}
	if len(info.ChunkIndexes) < 2 {
		t.Fatalf("sample has %d chunks; want several", len(info.ChunkIndexes))
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	got, _, _, err := DecompressChunks(path, dec, nil, nil)
	if err != nil || got != want {
		t.Fatalf("decompressed %d bytes (%v), chunk index says %d", got, err, want)
	}
	st, _ := os.Stat(path)
	buf := make([]byte, 4096)
	if n, err := RawRead(path, buf); err != nil || n != st.Size() {
		t.Errorf("RawRead %d of %d bytes: %v", n, st.Size(), err)
	}
	if _, _, _, err := DecompressChunks(filepath.Join(testenv.RepoRoot(t), "go.mod"), dec, nil, nil); err == nil {
		t.Error("DecompressChunks accepted a non-MCAP file")
	}
}

func TestFormatRatios(t *testing.T) {
	out := FormatRatios(map[string]float64{
		"large-mcap/bagread": 300e6, "large-mcap/raw": 100e6,
		"large-db3/bagread": 140e6, "large-db3/sqlite-select": 100e6,
	})
	for _, want := range []string{
		"mcap: bagread vs raw read", "3.00x  (target <= 4.0x: met)",
		"db3: bagread vs bare SELECT", "1.40x  (target <= 1.3x: NOT met)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "mcap-zstd") {
		t.Errorf("ratio printed without both sides measured:\n%s", out)
	}
}
