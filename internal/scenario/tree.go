package scenario

import (
	"encoding/binary"

	"github.com/bagclock/bagclock/cdr"
)

// treeStreams are the tf-tree fault publishers of a spec: a detector on
// its own clock, a stale localiser, a second static publisher.
func (g *gen) treeStreams() []*stream {
	s := g.s
	var out []*stream
	one := func(mc Machine, topic string, st, t int64, off int64, parent, child string, v cdr.Vector3, r *Record) {
		m := cdr.TFMessage{Transforms: []cdr.TransformStamped{{
			Header:       cdr.Header{Stamp: toTime(st), FrameID: parent},
			ChildFrameID: child,
			Transform:    cdr.Transform{Translation: v, Rotation: cdr.Quaternion{W: 1}},
		}}}
		r.Topic, r.Type, r.StampNS, r.PublishTimeNS = topic, cdr.TypeTFMessage, st, g.sendOn(mc, t, off)
		r.Data = cdr.AppendTFMessage(g.buf[:0], &m, binary.LittleEndian)
		g.buf = r.Data
	}
	if p := s.Detector; p != nil {
		out = append(out, g.periodic(detectorPhaseNS, periodNS(DetectorHz), g.jitter(300_000, 1_000_000), func(_ int, t int64, r *Record) {
			one(0, s.TopicName(TopicTF), g.stamp(*p, t), t, p.OffsetNS, s.BaseFrame, DetectorFrame, cdr.Vector3{X: 1.5}, r)
		}))
	}
	if s.MapLag > 0 {
		out = append(out, g.periodicOn(MachineTF, mapPhaseNS, periodNS(MapHz), nil, g.jitter(300_000, 1_000_000), func(_ int, t int64, r *Record) {
			one(MachineTF, s.TopicName(TopicTF), g.stampOn(MachineTF, s.TF, t)-int64(s.MapLag), t, s.TF.OffsetNS, MapFrame, s.OdomFrame, cdr.Vector3{X: 0.2}, r)
		}))
	}
	if s.Localiser {
		out = append(out, g.periodicOn(MachineTF, mapPhaseNS, periodNS(MapHz), nil, g.jitter(300_000, 1_000_000), func(_ int, t int64, r *Record) {
			one(MachineTF, s.TopicName(TopicTF), g.stampOn(MachineTF, s.TF, t)+int64(amclTolerance), t, s.TF.OffsetNS, MapFrame, s.OdomFrame, cdr.Vector3{X: 0.2}, r)
		}))
	}
	if s.StaticConflictM > 0 {
		out = append(out, g.periodicOn(MachineTF, g.dur/2, g.dur+1, nil, func() int64 { return 300_000 }, func(_ int, t int64, r *Record) {
			one(MachineTF, s.TopicName(TopicTFStatic), g.stampOn(MachineTF, s.TF, t), t, s.TF.OffsetNS, s.BaseFrame, s.LaserFrame, cdr.Vector3{X: laserX + s.StaticConflictM, Z: laserZ}, r)
		}))
	}
	return out
}
