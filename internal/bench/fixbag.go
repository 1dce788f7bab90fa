package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// FixBagName is the directory of the bag `bagclock fix` is benchmarked on.
const FixBagName = "large-fix-mcap"

// FixSpec is the Large case (600 s, 20 Hz scans of 1080 ranges and
// intensities, 100 Hz tf and /clock: about 117 MB of uncompressed MCAP)
// with its laser driver on system time, so fix has every scan to map.
func FixSpec() scenario.Spec {
	s := LargeSpec()
	s.Laser = scenario.Publisher{Clock: scenario.ClockSystem}
	return s
}

// EnsureFixBag returns the fix benchmark bag in dir, generating it first
// when missing or made by another generator version.
func EnsureFixBag(dir string) (Bag, error) {
	bagDir := filepath.Join(dir, FixBagName)
	marker := filepath.Join(bagDir, ".complete")
	if data, err := os.ReadFile(marker); err != nil || string(data) != cacheVersion {
		if err := os.RemoveAll(bagDir); err != nil {
			return Bag{}, fmt.Errorf("bench: clearing %s: %w", bagDir, err)
		}
		if _, err := scenario.Write(bagDir, FixSpec(), bagwrite.Options{Storage: bagwrite.StorageMCAP}); err != nil {
			return Bag{}, fmt.Errorf("bench: generating %s: %w", bagDir, err)
		}
		if err := os.WriteFile(marker, []byte(cacheVersion), 0o644); err != nil {
			return Bag{}, fmt.Errorf("bench: %w", err)
		}
	}
	files, err := filepath.Glob(filepath.Join(bagDir, FixBagName+"_*"))
	if err != nil || len(files) != 1 {
		return Bag{}, fmt.Errorf("bench: %s: want one storage file, found %v (%v)", bagDir, files, err)
	}
	st, err := os.Stat(files[0])
	if err != nil {
		return Bag{}, fmt.Errorf("bench: %w", err)
	}
	return Bag{Name: FixBagName, Dir: bagDir, File: files[0], Size: st.Size()}, nil
}

// CatWrite copies the file at src to dst through a 1 MiB buffer and
// syncs nothing: `cat SRC > DST`, the baseline fix is measured against.
func CatWrite(src, dst string, buf []byte) (int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return 0, err
	}
	var n int64
	for {
		k, rerr := in.Read(buf)
		if k > 0 {
			if _, err := out.Write(buf[:k]); err != nil {
				out.Close()
				return n, err
			}
			n += int64(k)
		}
		if rerr != nil {
			if err := out.Close(); err != nil {
				return n, err
			}
			if errors.Is(rerr, io.EOF) {
				return n, nil
			}
			return n, rerr
		}
	}
}
