package main

import (
	"errors"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestRowPipe: the pipe hands the sink copies of every row, in order (the
// caller reuses its row), and a sink error comes back from a later row
// and from close.
func TestRowPipe(t *testing.T) {
	for _, n := range []int{0, 1, rowPipeBatch, rowPipeBatch*rowPipeBatches*3 + 7} {
		var got []uint64
		p := newRowPipe(func(r *analysis.ScanRow) error {
			got = append(got, r.ScanIndex)
			return nil
		})
		var r analysis.ScanRow
		for i := range n {
			r.ScanIndex = uint64(i)
			if err := p.row(&r); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.close(); err != nil {
			t.Fatal(err)
		}
		if len(got) != n {
			t.Fatalf("%d rows: sink saw %d", n, len(got))
		}
		for i, v := range got {
			if v != uint64(i) {
				t.Fatalf("%d rows: row %d is %d", n, i, v)
			}
		}
	}
	boom := errors.New("disk full")
	seen := 0
	p := newRowPipe(func(r *analysis.ScanRow) error {
		seen++
		if r.ScanIndex == 300 {
			return boom
		}
		return nil
	})
	var r analysis.ScanRow
	stopped := -1
	for i := range 10 * rowPipeBatch * rowPipeBatches {
		r.ScanIndex = uint64(i)
		if err := p.row(&r); err != nil {
			if !errors.Is(err, boom) {
				t.Fatalf("row %d: %v", i, err)
			}
			stopped = i
			break
		}
	}
	if stopped < 0 {
		t.Error("the sink's error never reached a row")
	}
	if err := p.close(); !errors.Is(err, boom) {
		t.Errorf("close: %v, want %v", err, boom)
	}
	if seen != 301 {
		t.Errorf("sink called %d times, want 301 (none after its error)", seen)
	}
}
