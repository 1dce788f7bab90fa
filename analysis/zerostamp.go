package analysis

import (
	"errors"
	"math"
	"strings"

	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/bagread"
)

// zeroStamps counts messages stamped 0 and what that costs: tf2 pairs a
// stamp-0 message with the latest pose (time 0 = latest common time), not
// the pose at the time it was really taken.
type zeroStamps struct {
	sum  ZeroStampSummary
	cost struct{ disp, rot reservoir }
	wait []zeroPending
	lost int
}

type zeroPending struct {
	buf           *tf.Buffer // of the message's tf namespace
	target, frame string
	tReal         int64
	known         bool // tReal known (false: wait for the first /clock)
	latest        tf.Transform
	logNS         int64
}

func init() {
	registerCheck(rankZeroStamp, "zero-stamp", func(*analyzer) check { return &zeroStamps{} })
}

func (z *zeroStamps) onStamped(a *analyzer, s *stampedMsg) {
	if s.stamp == 0 && (s.frame != "" || s.topic.anyFrame) {
		z.noteZeroStamp(a, s.m, s.topic.tf.buf, s.frame, s.topic.targets[0])
	}
}

func (z *zeroStamps) onClock(a *analyzer, m *bagread.Message, v int64) {
	if a.clock.n == 1 {
		z.resolveZeroClock(v)
	}
}

func (z *zeroStamps) onTF(a *analyzer, m *bagread.Message, stored bool) {
	if stored && len(z.wait) > 0 {
		z.resolveZero(a, m.LogTimeNS)
	}
}

// noteZeroStamp counts a stamp-0 message and queues the computation of
// its cost: the pose tf2 pairs it with (time 0 = latest common time, now)
// and the pose at the time the message was really taken — the /clock in
// force at its record time, or the record time itself when the bag has no
// /clock (tf then on system time). The second pose may need tf that
// arrives after the message, so the pair waits (bounded) until the buffer
// can answer.
func (z *zeroStamps) noteZeroStamp(a *analyzer, m *bagread.Message, buf *tf.Buffer, frame, target string) {
	s := &z.sum
	if s.Count == 0 {
		s.FirstLogTimeNS = m.LogTimeNS
	}
	s.Count++
	s.LastLogTimeNS = m.LogTimeNS
	if a.hasClock && !a.clock.seen {
		s.BeforeFirstClock++
	}
	frame = strings.TrimPrefix(frame, "/")
	latest, err := buf.LookupTransform(target, frame, 0)
	if err != nil {
		z.lost++
		return
	}
	zp := zeroPending{buf: buf, target: target, frame: frame, latest: latest.Transform, logNS: m.LogTimeNS}
	switch {
	case !a.hasClock:
		zp.tReal, zp.known = m.LogTimeNS, true
	case a.clock.seen:
		zp.tReal, zp.known = a.clock.ns, true
	}
	if len(z.wait) >= maxZeroPending {
		z.lost++
		z.wait = z.wait[1:]
	}
	z.wait = append(z.wait, zp)
	z.resolveZero(a, m.LogTimeNS)
}

// resolveZeroClock gives the messages that arrived before the first
// /clock that clock value as their real time.
func (z *zeroStamps) resolveZeroClock(v int64) {
	for i := range z.wait {
		if !z.wait[i].known {
			z.wait[i].tReal, z.wait[i].known = v, true
		}
	}
}

func (z *zeroStamps) resolveZero(a *analyzer, nowLog int64) {
	out := z.wait[:0]
	for _, zp := range z.wait {
		if !zp.known {
			out = append(out, zp)
			continue
		}
		real, err := zp.buf.LookupTransform(zp.target, zp.frame, zp.tReal)
		if err != nil {
			// Give up once the answer can no longer come: the real time is
			// older than the cache, or we waited a cache length.
			var te *tf.Error
			if errors.As(err, &te) && te.Kind == tf.BackwardExtrapolationError || nowLog-zp.logNS > a.cache {
				z.lost++
				continue
			}
			out = append(out, zp)
			continue
		}
		d, r := poseDistance(real.Transform, zp.latest)
		z.cost.disp.add(d)
		z.cost.rot.add(r)
		s := &z.sum
		s.MaxDisplacementM = math.Max(s.MaxDisplacementM, d)
		s.MaxRotationDeg = math.Max(s.MaxRotationDeg, r)
		s.Costed++
	}
	z.wait = out
}

func (z *zeroStamps) finish(a *analyzer) {
	s := z.sum
	s.MedianDisplacementM = z.cost.disp.median() // 0 when none was costed
	s.MedianRotationDeg = z.cost.rot.median()
	a.rep.ZeroStamp = s
	a.rep.Summary.ZeroStampScans = s.Count
}

// poseDistance is the translation distance (m) and rotation angle (deg)
// between two transforms of the same frame pair.
func poseDistance(p, q tf.Transform) (float64, float64) {
	dx := p.Translation.X - q.Translation.X
	dy := p.Translation.Y - q.Translation.Y
	dz := p.Translation.Z - q.Translation.Z
	dot := p.Rotation.X*q.Rotation.X + p.Rotation.Y*q.Rotation.Y + p.Rotation.Z*q.Rotation.Z + p.Rotation.W*q.Rotation.W
	np := math.Sqrt(p.Rotation.X*p.Rotation.X + p.Rotation.Y*p.Rotation.Y + p.Rotation.Z*p.Rotation.Z + p.Rotation.W*p.Rotation.W)
	nq := math.Sqrt(q.Rotation.X*q.Rotation.X + q.Rotation.Y*q.Rotation.Y + q.Rotation.Z*q.Rotation.Z + q.Rotation.W*q.Rotation.W)
	c := 1.0
	if np > 0 && nq > 0 {
		c = math.Min(1, math.Abs(dot)/(np*nq))
	}
	return math.Sqrt(dx*dx + dy*dy + dz*dz), 2 * math.Acos(c) * 180 / math.Pi
}
