package analysis

import (
	"fmt"
	"math"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// staticTolM and staticTolRad: values closer than this are the same
// mount republished (latched /tf_static, several subscribers), not a
// conflict.
const (
	staticTolM   = 1e-6
	staticTolRad = 1e-6
)

// tfStaticCheck finds static links published with different values, most
// often two publishers (a URDF through robot_state_publisher and a
// static_transform_publisher) disagreeing about a mount. tf2 keeps one
// value per static link: the last one received wins.
type tfStaticCheck struct {
	links map[staticKey]*staticValues
	order []staticKey
}

// staticKey is a static link in one tf namespace (analyzer.tfSpaces).
type staticKey struct {
	space         int
	parent, child string
}

type staticValues struct {
	first, other, last  staticValue
	conflicts           int // transforms whose value differs from the first
	sawOther, lastOther bool
}

type staticValue struct {
	t     tf.Transform
	logNS int64
	topic string
}

func init() {
	registerCheck(rankTFTree+20, "tf-static", func(*analyzer) check {
		return &tfStaticCheck{links: map[staticKey]*staticValues{}}
	})
}

func sameTransform(x, y tf.Transform) bool {
	dx, dy, dz := x.Translation.X-y.Translation.X, x.Translation.Y-y.Translation.Y, x.Translation.Z-y.Translation.Z
	return math.Sqrt(dx*dx+dy*dy+dz*dz) <= staticTolM && rotationAngle(x.Rotation, y.Rotation) <= staticTolRad
}

// rotationAngle is the angle between two rotations (q and −q are one).
func rotationAngle(p, q tf.Quat) float64 {
	np := math.Sqrt(p.X*p.X + p.Y*p.Y + p.Z*p.Z + p.W*p.W)
	nq := math.Sqrt(q.X*q.X + q.Y*q.Y + q.Z*q.Z + q.W*q.W)
	if np == 0 || nq == 0 {
		return 0
	}
	d := math.Abs(p.X*q.X+p.Y*q.Y+p.Z*q.Z+p.W*q.W) / (np * nq)
	return 2 * math.Acos(math.Min(1, d))
}

func (c *tfStaticCheck) onLink(a *analyzer, m *bagread.Message, l *linkStats, st *tf.Stamped) {
	if !l.static {
		return
	}
	k := staticKey{l.space, l.key.parent, l.key.child}
	v := staticValue{t: st.Transform, logNS: m.LogTimeNS, topic: m.Topic}
	s := c.links[k]
	if s == nil {
		c.links[k] = &staticValues{first: v, last: v}
		c.order = append(c.order, k)
		return
	}
	differs := !sameTransform(s.first.t, v.t)
	if differs {
		s.conflicts++
		if !s.sawOther {
			s.other, s.sawOther = v, true
		}
	}
	s.last, s.lastOther = v, differs
}

func (c *tfStaticCheck) finish(a *analyzer) {
	var names []string
	f := TFFinding{Kind: TFStaticConflict, Rank: RankTFStatic, FailOn: failOnTFTree}
	for _, k := range c.order {
		s := c.links[k]
		if !s.sawOther {
			continue
		}
		name := k.parent + "->" + k.child
		if ns := a.tfSpaces[k.space].ns; len(a.tfSpaces) > 1 && ns != "" {
			name += " in /" + ns
		} else if len(a.tfSpaces) > 1 {
			name += " in the root namespace"
		}
		names = append(names, name)
		if len(f.Links) < maxTFFindingExamples {
			f.Links = append(f.Links, name)
			winner := "the first value"
			if s.lastOther {
				winner = "the second value"
			}
			d := s.first.t.Translation
			o := s.other.t.Translation
			dist := math.Sqrt((d.X-o.X)*(d.X-o.X) + (d.Y-o.Y)*(d.Y-o.Y) + (d.Z-o.Z)*(d.Z-o.Z))
			f.Evidence = append(f.Evidence, fmt.Sprintf("%s: %s at %s on %s, then %s at %s on %s (%s apart, %.2f° apart; %d of its transforms differ from the first); tf2 keeps the last one received: %s.",
				name, fmtTransform(s.first.t), a.relTime(s.first.logNS), s.first.topic,
				fmtTransform(s.other.t), a.relTime(s.other.logNS), s.other.topic,
				fmtDist(dist), rotationAngle(s.first.t.Rotation, s.other.t.Rotation)*180/math.Pi, s.conflicts, winner))
		}
	}
	if len(names) == 0 {
		return
	}
	f.Count = len(names)
	f.Sentence = fmt.Sprintf("Static link %s is published with different values (two publishers disagree, e.g. the URDF and a static_transform_publisher): tf2 keeps whichever arrived last, so the result depends on start order; remove one of them.", linkList(names))
	if len(names) > 1 {
		f.Sentence = fmt.Sprintf("Static links %s are published with different values (two publishers disagree, e.g. the URDF and a static_transform_publisher): tf2 keeps whichever arrived last, so the result depends on start order; remove one of them.", linkList(names))
	}
	a.addTFFinding(f)
}

func fmtTransform(t tf.Transform) string {
	return fmt.Sprintf("xyz (%.4g, %.4g, %.4g) m, q (%.4g, %.4g, %.4g, %.4g)",
		t.Translation.X, t.Translation.Y, t.Translation.Z, t.Rotation.X, t.Rotation.Y, t.Rotation.Z, t.Rotation.W)
}

func fmtDist(m float64) string {
	if m < 1 {
		return fmt.Sprintf("%.1f cm", m*100)
	}
	return fmt.Sprintf("%.3f m", m)
}

// relTime prints a record time as seconds from the start of the bag.
func (a *analyzer) relTime(logNS int64) string {
	return fmt.Sprintf("+%.3f s", float64(logNS-a.startNS)/1e9)
}
