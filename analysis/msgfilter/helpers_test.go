package msgfilter

import (
	"testing"

	"github.com/bagclock/bagclock/analysis/tf"
)

var identity = tf.Quat{W: 1}

// link is a transform whose x translation encodes its stamp in seconds, so
// a test can tell which pose a lookup used.
func link(parent, child string, stamp int64) tf.Stamped {
	return tf.Stamped{Parent: parent, Child: child, Stamp: stamp,
		Transform: tf.Transform{Translation: tf.Vec3{X: float64(stamp) / 1e9}, Rotation: identity}}
}

// recorder collects results in delivery order.
type recorder struct{ got []Result }

func (r *recorder) add(res Result) { r.got = append(r.got, res) }

func (r *recorder) keys() []uint64 {
	var k []uint64
	for _, g := range r.got {
		k = append(k, g.Key)
	}
	return k
}

// rig is one buffer with the filters replaying against it.
type rig struct {
	t       *testing.T
	buf     *tf.Buffer
	filters []*Filter
	groups  []*Group
}

// set inserts a transform and, when tf2 would, runs the filters' retests.
func (r *rig) set(st tf.Stamped, static bool, at int64) {
	r.t.Helper()
	if err := r.buf.SetTransform(st, "test", static); err != nil {
		r.t.Fatalf("SetTransform(%s->%s @%d): %v", st.Parent, st.Child, st.Stamp, err)
	}
	for _, g := range r.groups {
		g.TransformStored(at, st.Stamp, static)
	}
}

func newRig(t *testing.T, cacheNS int64) *rig {
	return &rig{t: t, buf: tf.NewBuffer(tf.Options{CacheTimeNS: cacheNS})}
}

// filter adds a filter in its own group.
func (r *rig) filter(target string, p Params) (*Filter, *recorder) {
	rec := &recorder{}
	g := NewGroup(r.buf)
	f := g.NewFilter([]string{target}, p, rec.add)
	r.filters = append(r.filters, f)
	r.groups = append(r.groups, g)
	return f, rec
}

func sameKeys(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
