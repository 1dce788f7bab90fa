package objstore

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/s3test"
)

// TestCopyTo copies an object of several pieces to a private file, the
// pieces fetched side by side: the copy holds the object's bytes, in one
// GET per piece; an object over the budget is refused before any GET;
// an object replaced since it was listed fails the copy with ErrChanged
// and leaves no file.
func TestCopyTo(t *testing.T) {
	srv := s3test.Start(t)
	data, loc := putRandom(t, srv, "db", 2*copyPiece+12345, 3)
	ctx := context.Background()
	s, err := New(ctx, Settings{Parallel: 2, MaxCopyBytes: int64(len(data))})
	if err != nil {
		t.Fatal(err)
	}
	in, err := s.Stat(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "copy")
	before := s.Requests()
	if err := s.copyTo(ctx, in, p); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, data) {
		t.Errorf("the copy differs from the object (%v)", err)
	}
	if n := s.Requests() - before; n != 3 {
		t.Errorf("%d requests for 3 pieces", n)
	}
	big := in
	big.Size = int64(len(data)) + 1
	before = s.Requests()
	if err := s.copyTo(ctx, big, filepath.Join(dir, "big")); !errors.Is(err, ErrTooLarge) || s.Requests() != before {
		t.Errorf("over the budget: %v after %d requests; want ErrTooLarge and none", err, s.Requests()-before)
	}
	srv.PutBytes(t, "db", append([]byte("v2"), data...)[:len(data)])
	err = s.copyTo(ctx, in, filepath.Join(dir, "stale"))
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), loc.String()) {
		t.Errorf("copy of a replaced object: %v; want ErrChanged naming %s", err, loc)
	}
	if _, serr := os.Stat(filepath.Join(dir, "stale")); serr == nil {
		t.Error("a failed copy left its file")
	}
}
