package tf

import (
	"math"
	"testing"
)

// FuzzBuffer drives a buffer with operations decoded from the input and
// checks invariants: caches stay sorted and bounded by the window,
// CanTransform, CanTransformErr and LookupTransform agree, and nothing
// panics.
func FuzzBuffer(f *testing.F) {
	f.Add([]byte{0, 1, 2, 10, 0, 2, 3, 20, 1, 1, 3, 15, 2, 0, 3, 0})
	f.Add([]byte{0, 1, 0, 5, 0, 0, 1, 5, 3, 0, 0, 0, 1, 1, 0, 255, 2, 2, 1, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		names := []string{"a", "b", "c", "d", "/a", ""}
		gens := []Generation{GenerationCurrent, GenerationPruneAfter, GenerationLegacy}
		if len(data) == 0 {
			return
		}
		b := NewBuffer(Options{CacheTimeNS: 5 * sec, Generation: gens[int(data[0])%3]})
		for i := 1; i+3 < len(data); i += 4 {
			op, x, y, v := data[i]%8, names[int(data[i+1])%len(names)], names[int(data[i+2])%len(names)], int64(data[i+3])
			stamp := v * sec / 4
			switch op {
			case 0, 1, 2: // set dynamic
				q := Quat{W: 1}
				if v%7 == 0 {
					q = Quat{X: math.Sqrt(0.5), W: math.Sqrt(0.5)}
				}
				b.SetTransform(Stamped{Parent: x, Child: y, Stamp: stamp, Transform: Transform{Translation: Vec3{X: float64(v)}, Rotation: q}}, "f", false)
			case 3: // set static
				b.SetTransform(Stamped{Parent: x, Child: y, Stamp: stamp, Transform: Transform{Rotation: Quat{W: 1}}}, "f", true)
			case 4:
				if v%16 == 0 {
					b.Clear()
				}
			default: // queries
				if v%5 == 0 {
					stamp = 0
				}
				_, lerr := b.LookupTransform(x, y, stamp)
				can := b.CanTransform(x, y, stamp)
				cerr := b.CanTransformErr(x, y, stamp)
				if can != (lerr == nil) || can != (cerr == nil) {
					t.Fatalf("%q<-%q at %d: lookup %v, can %v, canErr %v", x, y, stamp, lerr, can, cerr)
				}
				if lerr != nil {
					_ = lerr.Error()
					_ = cerr.Error()
				}
				b.LatestCommonTime(x, y)
				b.Path(x, y)
			}
		}
		for id := 1; id < len(b.frames); id++ {
			c := &b.frames[id].dyn
			for k := 1; k < c.n; k++ {
				if c.at(k-1).stamp > c.at(k).stamp {
					t.Fatalf("frame %s: cache not sorted", b.frames[id].name)
				}
			}
			// Pruning runs against the newest stamp; the current rules run it
			// before inserting, so the newest entry may lie one gap beyond.
			if c.n >= 2 {
				ref := c.newest().stamp
				if b.gen == GenerationCurrent {
					ref = c.at(c.n - 2).stamp
				}
				if c.oldest().stamp+b.cacheTime < ref {
					t.Fatalf("frame %s: cache spans more than the window", b.frames[id].name)
				}
			}
		}
	})
}
