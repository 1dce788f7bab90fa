package analysis

import (
	"fmt"
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// Tests of the tf-clock check's per-transform bookkeeping (issue 15): the
// lag of each dynamic link behind the freshest other link of its tf
// namespace and clock family, kept with the top two links by stamp.

// TestTFClockLagSequence feeds transforms one by one and checks every lag
// sample taken, in seconds.
func TestTFClockLagSequence(t *testing.T) {
	const s = int64(1e9)
	sys := EpochThresholdNS
	a := &analyzer{}
	c := &tfClockCheck{}
	links := []*linkStats{
		{id: 0}, {id: 1}, {id: 2}, // A, B, C: sim time, namespace 0
		{id: 3},           // D: system time, namespace 0
		{id: 4, space: 1}, // E: sim time, namespace 1
		{id: 5, static: true},
	}
	for _, f := range []struct {
		id    int
		stamp int64
	}{
		{0, 100 * s}, // A first: no other link yet
		{1, 90 * s},  // B: A is 10 s fresher
		{2, 95 * s},  // C: A 5 s; C takes B's place in the top two
		{0, 120 * s}, // A: C is older: lag 0
		{2, 130 * s}, // C: now the freshest
		{1, 100 * s}, // B: 30 s behind C, stays out of the top two
		{0, 125 * s}, // A: 5 s behind C
		{0, 110 * s}, // A goes back: 20 s behind C, its top stamp stays 125
		{1, 140 * s}, // B: freshest, A leaves the top two
		{0, 135 * s}, // A: 5 s behind B
		{2, 131 * s}, // C: 9 s behind B
		{3, sys},     // D: alone on system time
		{3, sys + s}, // D: its own link does not count
		{4, 50 * s},  // E: alone in its namespace
		{4, 60 * s},
		{5, 0}, // static: no lag
	} {
		l := links[f.id]
		c.onLink(a, &bagread.Message{}, l, &tf.Stamped{Stamp: f.stamp})
	}
	want := [][]float64{{0, 5, 20, 5}, {10, 30, 0}, {5, 0, 9}, nil, nil, nil}
	for id, w := range want {
		var got []float64
		if id < len(c.lag) {
			got = c.lag[id].s
		}
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("link %d: lags %v, want %v", id, got, w)
		}
	}
}
