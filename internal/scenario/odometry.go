package scenario

import (
	"math"
	"time"

	"github.com/bagclock/bagclock/cdr"
)

// TopicOdom and TypeOdometry: the odometry topic of Spec.Odometry.
const (
	TopicOdom    = "/odom"
	TypeOdometry = "nav_msgs/msg/Odometry"
)

// odometryStream is the odometry node's /odom: the robot's pose in
// OdomFrame at TFHz, stamped like the odom -> base link it broadcasts.
func (g *gen) odometryStream() *stream {
	s := g.s
	return g.periodicOn(MachineTF, tfPhaseNS+200_000, periodNS(s.TFHz), nil, g.jitter(300_000, 1_000_000), func(_ int, t int64, r *Record) {
		st := g.stampOn(MachineTF, s.TF, t)
		x, y, yaw := pose(g.motionS(t))
		w := cdrWriter{b: append(g.buf[:0], 0, byte(cdr.CDRLE), 0, 0)}
		w.time(st)
		w.str(s.OdomFrame)
		w.str(s.BaseFrame)
		w.f64s(x, y, 0, 0, 0, math.Sin(yaw/2), math.Cos(yaw/2)) // pose
		w.f64s(make([]float64, 36)...)                          // its covariance
		w.f64s(circleRadius*yawRate, 0, 0, 0, 0, yawRate)
		w.f64s(make([]float64, 36)...)
		r.Topic, r.Type, r.StampNS, r.PublishTimeNS = s.TopicName(TopicOdom), TypeOdometry, st, g.sendOn(MachineTF, t, s.TF.OffsetNS)
		r.Data = w.b
		g.buf = w.b
	})
}

// amclTolerance is how far ahead AMCL stamps map -> odom by default
// (transform_tolerance, 1 s), so that lookups up to then succeed.
const amclTolerance = time.Second
