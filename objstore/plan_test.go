package objstore

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/s3test"
)

// TestPlannedReads fetches plans from a real gateway and checks what a
// pass reads through them against the object's bytes: reads within one
// piece, across the pieces of a long range, outside the plan, from the
// kept head and tail, from two readers at once (the chunk read-ahead
// beside the stream), under a memory budget smaller than the plan, and
// after Close; and the requests: each piece fetched once, one more per
// read the plan missed, none for a second pass of the same plan.
func TestPlannedReads(t *testing.T) {
	srv := s3test.Start(t)
	data, loc := putRandom(t, srv, "obj", 24<<20, 1)
	ctx := context.Background()
	small := []bagread.Range{{Off: 100 << 10, Len: 20 << 10}, {Off: 3 << 20, Len: 16 << 10}, {Off: 3<<20 + 40<<10, Len: 8 << 10}}
	long := bagread.Range{Off: 5 << 20, Len: 9 << 20} // three pieces of planPiece
	plan := append(append([]bagread.Range{{Off: 0, Len: 8 << 10}}, small...), long, bagread.Range{Off: int64(len(data)) - 4096, Len: 4096})
	for _, c := range []struct {
		name  string
		ahead int64
	}{{"default budget", 0}, {"budget under one piece", 1 << 20}} {
		t.Run(c.name, func(t *testing.T) {
			s, err := New(ctx, Settings{AheadBytes: c.ahead, Parallel: 4})
			if err != nil {
				t.Fatal(err)
			}
			in, err := s.Stat(ctx, loc)
			if err != nil {
				t.Fatal(err)
			}
			o, err := s.Open(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			// The head range is in the kept head; the two small ranges 24 KiB
			// apart are one GET; the long one is three.
			pieces := o.pieces(plan)
			if len(pieces) != 5 {
				t.Fatalf("%d pieces, want 5: %+v", len(pieces), pieces)
			}
			check := func(p bagread.PlannedReader, off int64, n int) {
				t.Helper()
				b := make([]byte, n)
				got, err := p.ReadAt(b, off)
				if err != nil || got != n || !bytes.Equal(b, data[off:off+int64(n)]) {
					t.Errorf("read %d bytes at %d: got %d, %v, same bytes %v", n, off, got, err, bytes.Equal(b[:got], data[off:off+int64(got)]))
				}
			}
			before := s.Requests()
			p := o.Plan(plan)
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { // a second reader, ahead in the long range
				defer wg.Done()
				check(p, long.Off+6<<20, 64<<10)
			}()
			check(p, 2000, 4000) // kept head
			for _, r := range small {
				for off := r.Off; off < r.Off+r.Len; off += 4 << 10 {
					check(p, off, int(min(4<<10, r.Off+r.Len-off)))
				}
			}
			check(p, long.Off+planPiece-100, 200) // across two pieces
			check(p, long.Off+2*planPiece-10, 1<<20)
			wg.Wait()
			check(p, int64(len(data))-100, 100) // kept tail
			if n := s.Unplanned(); n != 0 {
				t.Errorf("%d unplanned reads, want 0", n)
			}
			check(p, 20<<20, 1000) // outside the plan
			if n := s.Unplanned(); n != 1 {
				t.Errorf("%d unplanned reads, want 1", n)
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			if got := s.Requests() - before; got != int64(len(pieces))+1 {
				t.Errorf("%d requests for %d pieces and one read outside the plan", got, len(pieces))
			}
			check(p, long.Off, 100) // after Close: read directly, unplanned
			// A second pass of the same plan takes the pieces kept from the
			// first, all but the second long one (the keep budget holds 8
			// MiB, the furthest pieces are given up first): it alone may be
			// fetched again.
			before = s.Requests()
			p2 := o.Plan(plan)
			for _, r := range small {
				check(p2, r.Off, int(r.Len))
			}
			check(p2, long.Off, 1000)
			p2.Close()
			if got := s.Requests() - before; got > 1 || s.Unplanned() != 2 {
				t.Errorf("second pass sent %d requests, %d reads unplanned in all; want at most one, for the piece not kept, and the 2 reads before", got, s.Unplanned())
			}
		})
	}
}
