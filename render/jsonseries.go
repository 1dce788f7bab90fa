package render

import (
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/bagclock/bagclock/analysis"
)

// appendJSONSeries appends the report's "series" value: byte for byte what
// json.Marshal(s) writes (TestAppendJSONSeries holds them equal), without
// reflection. The series are the report's largest key after "scans"
// (about 140 kB on the 117 MB benchmark bag), and encoding/json spent
// 2.5-6 ms on them at the end of a fresh analyze process, after the pass.
// It returns false, having appended nothing, when a value is not finite:
// json.Marshal then gives the error.
func appendJSONSeries(b []byte, s *analysis.Series) ([]byte, bool) {
	start := len(b)
	ok := true
	b = append(b, `{"diff":`...)
	if s.Diff == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(s.Diff)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = appendJSONPoints(b, s.Diff[k], &ok)
		}
		b = append(b, '}')
	}
	b = append(b, `,"clock":`...)
	b = appendJSONPoints(b, s.Clock, &ok)
	b = append(b, `,"outcomes":`...)
	if s.Outcomes == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range s.Outcomes {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"x":`...)
			b = appendJSONFloat(b, p.X, &ok)
			b = append(b, `,"outcome":`...)
			b = appendJSONString(b, p.Outcome)
			b = append(b, `,"count":`...)
			b = strconv.AppendInt(b, int64(p.Count), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	if !ok {
		return b[:start], false
	}
	return b, true
}

// appendJSONPoints appends a []analysis.Point as encoding/json does (nil
// is null; index, stamp_ns, outcome and log_line are omitted when zero).
func appendJSONPoints(b []byte, ps []analysis.Point, ok *bool) []byte {
	if ps == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range ps {
		p := &ps[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"x":`...)
		b = appendJSONFloat(b, p.X, ok)
		b = append(b, `,"y":`...)
		b = appendJSONFloat(b, p.Y, ok)
		if p.Index != 0 {
			b = append(b, `,"index":`...)
			b = strconv.AppendUint(b, p.Index, 10)
		}
		if p.StampNS != 0 {
			b = append(b, `,"stamp_ns":`...)
			b = strconv.AppendInt(b, p.StampNS, 10)
		}
		if p.Outcome != "" {
			b = append(b, `,"outcome":`...)
			b = appendJSONString(b, p.Outcome)
		}
		if p.LogLine != "" {
			b = append(b, `,"log_line":`...)
			b = appendJSONString(b, p.LogLine)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendJSONFloat appends a float64 as encoding/json writes one: the
// shortest decimal that reads back the same, plain below 1e21 and from
// 1e-6 on, else in exponent form with the exponent unpadded ("1e-7", not
// "1e-07"). A NaN or infinity clears *ok (JSON has no such number).
func appendJSONFloat(b []byte, f float64, ok *bool) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		*ok = false
		return b
	}
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		b = strconv.AppendFloat(b, f, 'e', -1, 64)
		// strconv pads a one-digit negative exponent to two ("e-07").
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
		return b
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}
