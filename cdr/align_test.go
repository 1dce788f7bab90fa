package cdr

import "testing"

// align rounds the position past the encapsulation header up to a multiple
// of n, capped at 8; the mask path (powers of two) and the general path
// (any other n, kept as a guard) agree with plain arithmetic.
func TestAlign(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for off := 0; off <= 17; off++ {
			c := cursor{pos: EncapsulationSize + off}
			c.align(n)
			m := min(n, maxAlign)
			want := EncapsulationSize + (off+m-1)/m*m
			if c.pos != want {
				t.Errorf("align(%d) at offset %d: pos %d, want %d", n, off, c.pos, want)
			}
		}
	}
}
