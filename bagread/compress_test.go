package bagread

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/bombs"
)

// pattern is n bytes that do not repeat over short distances.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

// TestChunkDecompress: a chunk decodes when its declared size is within
// the budget and matches what it decodes to; otherwise the error gives
// the declared size, what it decoded to (bounded by the budget) and the
// budget.
func TestChunkDecompress(t *testing.T) {
	const L = testBudget
	const budget = ": size exceeds limit (decode budget 4194304 bytes)"
	zeros := func(n int64, withSize bool) []byte { return zeros(t, n, withSize) }
	big := pattern(9 << 20)
	cases := []struct {
		name        string
		limit       int64
		compression string
		src         []byte
		size        uint64
		dstCap      int
		want        []byte // decoded records, when there is no error
		wantErr     string // whole, or the start when it ends in ": "
	}{
		{"uncompressed", 100, "", []byte("abc"), 1000, 0, []byte("abc"), ""},
		{"zstd at the budget", L, "zstd", bombs.Compress(pattern(L)), L, 0, pattern(L), ""},
		{"zstd over the budget", L, "zstd", bombs.Compress(pattern(100)), L + 1, 0, nil,
			"zstd chunk declares 4194305 bytes, not decoded" + budget},
		{"zstd longer than declared", L, "zstd", zeros(60, false), 50, 0, nil,
			"zstd chunk declares 50 bytes, decodes to 60 bytes" + budget},
		{"zstd longer than declared into a roomy buffer", L, "zstd", zeros(60, false), 50, 200, nil,
			"zstd chunk declares 50 bytes, decodes to 60 bytes" + budget},
		{"zstd past the budget", L, "zstd", zeros(L+100, false), 50, 0, nil,
			"zstd chunk declares 50 bytes, decodes to more than 4194304 bytes" + budget},
		{"zstd shorter than declared", L, "zstd", zeros(50, false), 60, 0, nil,
			"zstd chunk decoded to 50 bytes, header says 60"},
		{"zstd garbage", L, "zstd", []byte("not a zstd frame"), 16, 0, nil, "zstd chunk: "},
		{"lz4 at the budget", 100, "lz4", bombs.LZ4(pattern(100)), 100, 0, pattern(100), ""},
		{"lz4 in several steps", 16 << 20, "lz4", bombs.LZ4(big), uint64(len(big)), 0, big, ""},
		{"lz4 over the budget", 100, "lz4", bombs.LZ4(pattern(100)), 101, 0, nil,
			"lz4 chunk declares 101 bytes, not decoded: size exceeds limit (decode budget 100 bytes)"},
		{"lz4 one byte longer than declared", 100, "lz4", bombs.LZ4(pattern(100)), 99, 0, nil,
			"lz4 chunk declares 99 bytes, decodes to 100 bytes: size exceeds limit (decode budget 100 bytes)"},
		{"lz4 past the budget", 100, "lz4", bombs.LZ4(pattern(300)), 50, 0, nil,
			"lz4 chunk declares 50 bytes, decodes to more than 100 bytes: size exceeds limit (decode budget 100 bytes)"},
		{"lz4 shorter than declared", 100, "lz4", bombs.LZ4(pattern(50)), 60, 0, nil, "lz4 chunk: unexpected EOF"},
		{"unknown", 100, "bz2", []byte("x"), 1, 0, nil, `unsupported chunk compression "bz2"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := chunkDecompressor{limit: c.limit}
			defer d.close()
			// Twice: the second time with the decoders kept from the first.
			for range 2 {
				out, err := d.decompress(c.compression, c.src, c.size, make([]byte, 0, c.dstCap))
				if c.wantErr == "" {
					if err != nil || !bytes.Equal(out, c.want) {
						t.Fatalf("decoded %d bytes, error %v; want %d bytes", len(out), err, len(c.want))
					}
					continue
				}
				if !errorIs(err, c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				if strings.Contains(c.wantErr, "exceeds limit") && !errors.Is(err, ErrTooLarge) {
					t.Errorf("%v does not wrap ErrTooLarge", err)
				}
				// Past the budget, Actual is Limit+1: the count stops there.
				var se *SizeError
				if strings.Contains(c.wantErr, "more than") && (!errors.As(err, &se) || se.Actual != c.limit+1) {
					t.Errorf("%v: Actual is not the budget + 1", err)
				}
			}
		})
	}
}

// errorIs reports whether err's text is want, or starts with it when want
// ends in ": " (the rest comes from a library).
func errorIs(err error, want string) bool {
	if err == nil {
		return false
	}
	if strings.HasSuffix(want, ": ") {
		return strings.HasPrefix(err.Error(), want)
	}
	return err.Error() == want
}

// TestDecompressPartial: a torn chunk gives what its bytes decode to, up
// to the declared size and never past the budget.
func TestDecompressPartial(t *testing.T) {
	data := pattern(5 << 20)
	for _, c := range []struct {
		name        string
		limit       int64
		compression string
		src         []byte
		size        uint64
		want        int // bytes of data
	}{
		{"uncompressed", 100, "", data[:10], 1000, 10},
		{"zstd cut at the declared size", 1 << 30, "zstd", bombs.Compress(data), 5 << 19, 5 << 19},
		{"zstd shorter than declared", testBudget, "zstd", bombs.Compress(data[:300]), 400, 300},
		{"zstd garbage", 1000, "zstd", []byte("not zstd at all"), 400, 0},
		{"lz4 cut at the declared size", 1 << 30, "lz4", bombs.LZ4(data), 5 << 19, 5 << 19},
		{"lz4 whole", 1 << 30, "lz4", bombs.LZ4(data), uint64(len(data)), len(data)},
		{"lz4 cut at the budget", 100, "lz4", bombs.LZ4(data[:300]), 200, 100},
		{"unknown", 1000, "bz2", data[:10], 10, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := chunkDecompressor{limit: c.limit}
			out := d.decompressPartial(c.compression, c.src, c.size, nil)
			if c.want < 0 {
				if out != nil {
					t.Errorf("decoded %d bytes, want nil", len(out))
				}
				return
			}
			if !bytes.Equal(out, data[:c.want]) {
				t.Errorf("decoded %d bytes, want the first %d", len(out), c.want)
			}
		})
	}
}

// TestDecodeFrame: a MESSAGE-mode frame decodes within the budget; over
// it, the error gives what the frame declares and what it decodes to.
func TestDecodeFrame(t *testing.T) {
	const L = testBudget
	const budget = ": size exceeds limit (decode budget 4194304 bytes)"
	two := append(bombs.Compress(pattern(50)), bombs.Compress(pattern(50))...)
	for _, c := range []struct {
		name    string
		src     []byte
		want    []byte
		wantErr string
	}{
		{"with size at the budget", bombs.Compress(pattern(L)), pattern(L), ""},
		{"with size over the budget", zeros(t, L+1, true), nil, "zstd frame declares 4194305 bytes, not decoded" + budget},
		{"without size at the budget", zeros(t, L, false), make([]byte, L), ""},
		{"without size under the budget", zeros(t, 7, false), make([]byte, 7), ""},
		{"without size over the budget", zeros(t, L+1, false), nil, "zstd frame declares no size, decodes to more than 4194304 bytes" + budget},
		{"two frames", two, append(pattern(50), pattern(50)...), ""},
		{"no header", []byte{0x28, 0xB5}, nil, "zstd frame header: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := newBlockDecoder(L)
			if err != nil {
				t.Fatal(err)
			}
			defer releaseBlockDecoder(d)
			out, err := decodeFrame(d, c.src, nil, L)
			if c.wantErr == "" {
				if err != nil || !bytes.Equal(out, c.want) {
					t.Errorf("decoded %d bytes, error %v; want %d bytes", len(out), err, len(c.want))
				}
				return
			}
			if !errorIs(err, c.wantErr) {
				t.Errorf("error %v, want %q", err, c.wantErr)
			}
		})
	}
}

// TestDecompressFile: a FILE-mode .zstd file may decode to the larger of
// the budget and FileModeRatio times its size, and not one byte more; past
// that, the output file is removed and the error gives both sizes.
func TestDecompressFile(t *testing.T) {
	const L = testBudget
	random := make([]byte, 3<<20) // two frames of it: past the budget, within 100x
	rand.New(rand.NewSource(1)).Read(random)
	for _, c := range []struct {
		name    string
		data    []byte // compressed
		want    int64  // bytes written, or -1 for the error
		wantErr string // after "decompress SRC: "
	}{
		{"at the budget", zeros(t, L, false), L, ""},
		{"past the budget", zeros(t, L+1, false), -1,
			"decompresses past 4194304 bytes from %d compressed bytes (over 100x and the 4194304-byte decode budget): size exceeds limit"},
		{"past the budget, under 100x", append(bombs.Compress(random), bombs.Compress(random)...), 2 * int64(len(random)), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src, dst := filepath.Join(dir, "b_0.db3.zstd"), filepath.Join(dir, "b_0.db3")
			if err := os.WriteFile(src, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			err := decompressFile(src, dst, L)
			if c.want < 0 {
				want := "decompress " + src + ": " + fmt.Sprintf(c.wantErr, len(c.data))
				if err == nil || err.Error() != want || !errors.Is(err, ErrTooLarge) {
					t.Errorf("error %v, want %q", err, want)
				}
				if _, err := os.Stat(dst); !os.IsNotExist(err) {
					t.Errorf("output left behind: %v", err)
				}
				return
			}
			st, serr := os.Stat(dst)
			if err != nil || serr != nil || st.Size() != c.want {
				t.Errorf("error %v, output %v %v; want %d bytes", err, st, serr, c.want)
			}
		})
	}
}
