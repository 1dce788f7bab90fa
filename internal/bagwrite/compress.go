package bagwrite

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
)

// compressFile replaces path with path.zstd, a zstd stream at level 1 as
// rosbag2's FILE mode writes (ZSTD_compressStream2), and deletes the
// original.
func compressFile(path string) error {
	in, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("bagwrite: FILE compression: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(path+".zstd", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("bagwrite: FILE compression: %w", err)
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	enc, err := zstd.NewWriter(bw, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		out.Close()
		return fmt.Errorf("bagwrite: FILE compression: %w", err)
	}
	if _, err := io.Copy(enc, in); err != nil {
		enc.Close()
		out.Close()
		return fmt.Errorf("bagwrite: compressing %s: %w", path, err)
	}
	if err := enc.Close(); err != nil {
		out.Close()
		return fmt.Errorf("bagwrite: compressing %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		out.Close()
		return fmt.Errorf("bagwrite: compressing %s: %w", path, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("bagwrite: compressing %s: %w", path, err)
	}
	in.Close()
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("bagwrite: removing %s after compression: %w", path, err)
	}
	return nil
}
