// Package testenv finds the shared reference material (../shared beside the
// repository, or $BAGCLOCK_SHARED) for tests, and makes private copies of
// bags that must not be opened in place.
package testenv

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// RepoRoot returns the directory holding go.mod, found by walking up from
// the working directory (a test runs in its package directory).
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatalf("testenv: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatalf("testenv: no go.mod above the working directory")
		}
		dir = parent
	}
}

// SharedDir returns the shared reference directory, or skips the test with
// a clear message when it is absent (fails it under BAGCLOCK_REQUIRE_PEERS=1,
// as CI sets: the shared bags and peers are what the cross-checks compare
// against, so CI must never pass without them).
func SharedDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("BAGCLOCK_SHARED")
	if dir == "" {
		dir = filepath.Join(RepoRoot(tb), "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "bags")); err != nil {
		PeerMissing(tb, "shared reference material not found at %s (set BAGCLOCK_SHARED): %v", dir, err)
	}
	return dir
}

// OptionalSharedDir is SharedDir for tests that use the shared bags when
// they are there and test the rest without them: it returns the directory
// and true, or logs why not and returns false (failing the test under
// BAGCLOCK_REQUIRE_PEERS=1).
func OptionalSharedDir(tb testing.TB) (string, bool) {
	tb.Helper()
	dir := os.Getenv("BAGCLOCK_SHARED")
	if dir == "" {
		dir = filepath.Join(RepoRoot(tb), "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "bags")); err != nil {
		if os.Getenv("BAGCLOCK_REQUIRE_PEERS") == "1" {
			tb.Fatalf("BAGCLOCK_REQUIRE_PEERS=1: shared reference material not found at %s (set BAGCLOCK_SHARED): %v", dir, err)
		}
		tb.Logf("shared reference material not found at %s: testing without the shared bags (%v)", dir, err)
		return "", false
	}
	return dir, true
}

// SharedBag returns the path of ../shared/bags/<name>, skipping when absent
// (failing under BAGCLOCK_REQUIRE_PEERS=1).
func SharedBag(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(SharedDir(tb), "bags", name)
	if _, err := os.Stat(p); err != nil {
		PeerMissing(tb, "shared bag %s not found: %v", name, err)
	}
	return p
}

// CopyTree copies src (a file or directory) into a fresh temporary
// directory and returns the copy's path. Use it for bags that SQLite would
// touch (WAL bags) and for anything a test damages.
func CopyTree(tb testing.TB, src string) string {
	tb.Helper()
	dst := filepath.Join(tb.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		return copyFile(p, target)
	})
	if err != nil {
		tb.Fatalf("testenv: copy %s: %v", src, err)
	}
	return dst
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// PeerMissing skips the test because an independent peer (Debian's tf2,
// Chromium, Node.js) is not installed — or fails it when
// BAGCLOCK_REQUIRE_PEERS=1, as CI sets, so a green CI always includes the
// cross-checks.
func PeerMissing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if os.Getenv("BAGCLOCK_REQUIRE_PEERS") == "1" {
		tb.Fatalf("BAGCLOCK_REQUIRE_PEERS=1: "+format, args...)
	}
	tb.Skipf(format, args...)
}

// Unzstd decompresses a FILE-mode compressed storage file (.db3.zstd,
// .mcap.zstd) into the test's temp dir and returns the copy's path; a
// path without the .zstd suffix is returned as it is.
func Unzstd(tb testing.TB, path string) string {
	tb.Helper()
	if !strings.HasSuffix(path, ".zstd") {
		return path
	}
	in, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer in.Close()
	dec, err := zstd.NewReader(in)
	if err != nil {
		tb.Fatal(err)
	}
	defer dec.Close()
	out := filepath.Join(tb.TempDir(), strings.TrimSuffix(filepath.Base(path), ".zstd"))
	f, err := os.Create(out)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(f, dec); err != nil {
		f.Close()
		tb.Fatalf("decompress %s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return out
}
