package analysis

import (
	"math"
	"testing"
)

// TestOffsetDrift: the drift is the robust slope of the stretches'
// medians, so a steady offset with one odd stretch stays steady and a
// real drift is measured whole.
func TestOffsetDrift(t *testing.T) {
	const width = int64(1e9) // 1 s stretches
	tests := []struct {
		name     string
		medians  []float64 // per stretch; NaN: no samples
		wantS    float64
		wantPPM  float64
		tolerate float64
	}{
		{"steady", []float64{0.025, 0.025, 0.025, 0.025, 0.025}, 0, 0, 1e-12},
		{"steady with an odd first stretch", []float64{-0.6, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 0, 1e-12},
		{"steady with an odd last stretch", []float64{0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.5}, 0, 0, 1e-12},
		{"linear drift 1 ms/s", []float64{0, 0.001, 0.002, 0.003, 0.004, 0.005}, 0.005, 1000, 1e-9},
		{"drift with a gap", []float64{0, 0.002, math.NaN(), math.NaN(), 0.008, 0.010}, 0.010, 2000, 1e-9},
		{"one stretch", []float64{0.3}, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := &offsetTrack{bins: make([]reservoir, len(tc.medians)), binWidth: width}
			for i, m := range tc.medians {
				if math.IsNaN(m) {
					continue
				}
				for k := 0; k < 5; k++ {
					o.bins[i].add(m)
				}
			}
			d, ppm := o.drift()
			if math.Abs(d-tc.wantS) > tc.tolerate || math.Abs(ppm-tc.wantPPM) > tc.tolerate*1e6 {
				t.Errorf("drift %g s (%g ppm), want %g s (%g ppm)", d, ppm, tc.wantS, tc.wantPPM)
			}
		})
	}
}
