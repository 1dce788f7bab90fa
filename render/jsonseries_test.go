package render

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
)

// TestAppendJSONSeries holds appendJSONSeries to json.Marshal, byte for
// byte, on hand-picked edges (nil and empty series, exponent cut-offs,
// escapes) and on random series.
func TestAppendJSONSeries(t *testing.T) {
	edges := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1.0 / 3, 123.456, 599.992,
		1e-6, 9.99e-7, -1e-7, 1e-9, 5e-324, 1e20, 1e21, -1e21, 1.5e300, math.MaxFloat64,
		1790000600.241708698, -2.5e-5}
	var edgePts []analysis.Point
	for i, f := range edges {
		edgePts = append(edgePts, analysis.Point{X: f, Y: -f, Index: uint64(i), StampNS: int64(i) - 3})
	}
	cases := []struct {
		name string
		s    analysis.Series
	}{
		{"zero", analysis.Series{}},
		{"empty", analysis.Series{Diff: map[string][]analysis.Point{}, Clock: []analysis.Point{}, Outcomes: []analysis.OutcomePoint{}}},
		{"nil points under a key", analysis.Series{Diff: map[string][]analysis.Point{"/scan → odom": nil}}},
		{"edges", analysis.Series{Clock: edgePts, Diff: map[string][]analysis.Point{"b": edgePts, "a": edgePts[:3]}}},
		{"strings", analysis.Series{
			Diff: map[string][]analysis.Point{
				"/scan → odom":           {{X: 1, Y: 2, Outcome: "dropped_queue_full", LogLine: `Message Filter dropping message: frame 'laser' at time 1.5 for reason 'the timestamp on the message is earlier than all the data in the transform cache'`}},
				`<&>"\` + "\t\u2028\xff": {{X: 1, Outcome: "<b>", LogLine: "a\nb"}},
				"":                       {{}},
			},
			Outcomes: []analysis.OutcomePoint{{X: 0, Outcome: "passed", Count: 3}, {X: 1e-7, Outcome: "é\"", Count: -1}},
		}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		var s analysis.Series
		s.Diff = map[string][]analysis.Point{}
		for k := range rng.IntN(4) {
			var ps []analysis.Point
			for range rng.IntN(40) {
				p := analysis.Point{X: rng.Float64() * 600, Y: rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-25))}
				if rng.IntN(2) == 0 {
					p.Index, p.StampNS = rng.Uint64N(1e6), rng.Int64()-rng.Int64()
				}
				if rng.IntN(3) == 0 {
					p.Outcome = []string{"passed", "dropped_queue_full", "pending_at_end"}[rng.IntN(3)]
				}
				ps = append(ps, p)
			}
			s.Diff[strings.Repeat("k", k+1)] = ps
		}
		for range rng.IntN(60) {
			s.Clock = append(s.Clock, analysis.Point{X: rng.Float64() * 600, Y: rng.Float64() * 1e9})
		}
		for range rng.IntN(10) {
			s.Outcomes = append(s.Outcomes, analysis.OutcomePoint{X: rng.Float64(), Outcome: "passed", Count: rng.IntN(100)})
		}
		cases = append(cases, struct {
			name string
			s    analysis.Series
		}{"random " + string(rune('a'+i%26)), s})
	}
	for _, tc := range cases {
		want, err := json.Marshal(tc.s)
		if err != nil {
			t.Fatalf("%s: json.Marshal: %v", tc.name, err)
		}
		got, ok := appendJSONSeries([]byte("prefix"), &tc.s)
		if !ok || !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Errorf("%s: appendJSONSeries (ok %v)\n got %s\nwant prefix%s", tc.name, ok, got, want)
		}
	}
}

// TestAppendJSONSeriesNotFinite: a NaN or infinity anywhere appends
// nothing and reports false, and Finish fails as json.Marshal does.
func TestAppendJSONSeriesNotFinite(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    analysis.Series
	}{
		{"clock y NaN", analysis.Series{Clock: []analysis.Point{{X: 1, Y: math.NaN()}}}},
		{"diff x +Inf", analysis.Series{Diff: map[string][]analysis.Point{"a": {{X: math.Inf(1)}}}}},
		{"outcome x -Inf", analysis.Series{Outcomes: []analysis.OutcomePoint{{X: math.Inf(-1)}}}},
	} {
		got, ok := appendJSONSeries([]byte("p"), &tc.s)
		if ok || string(got) != "p" {
			t.Errorf("%s: appendJSONSeries = %q, %v; want \"p\", false", tc.name, got, ok)
		}
		var buf bytes.Buffer
		j := NewJSON(&buf)
		err := j.Finish(&analysis.Report{Series: tc.s})
		if err == nil || !strings.Contains(err.Error(), "unsupported value") || !strings.Contains(err.Error(), "series") {
			t.Errorf("%s: Finish error %v, want json's unsupported value for series", tc.name, err)
		}
	}
}
