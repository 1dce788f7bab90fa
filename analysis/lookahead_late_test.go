package analysis

import (
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// lateOdomBag writes 8 s of /scan (10 Hz, frame laser) and a static
// base_link->laser, with two publishers on /tf: a detector
// (base_link->object_1, 10 Hz) from the start and odometry (odom->base_link,
// 50 Hz) whose stamps start at 0 but which reaches the recorder only from
// odomFromNS on, its backlog in one burst (a base computer that connected
// late).
func lateOdomBag(t *testing.T, storage string, odomFromNS int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bag")
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: storage})
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range [][2]string{{"/tf_static", cdr.TypeTFMessage}, {"/tf", cdr.TypeTFMessage}, {"/scan", cdr.TypeLaserScan}} {
		if err := w.AddTopic(tp[0], tp[1]); err != nil {
			t.Fatal(err)
		}
	}
	le := binary.LittleEndian
	ts := func(ns int64) cdr.Time { return cdr.Time{Sec: int32(ns / 1e9), Nanosec: uint32(ns % 1e9)} }
	tfmsg := func(stamp int64, parent, child string) []byte {
		return cdr.AppendTFMessage(nil, &cdr.TFMessage{Transforms: []cdr.TransformStamped{{
			Header: cdr.Header{Stamp: ts(stamp), FrameID: parent}, ChildFrameID: child,
			Transform: cdr.Transform{Translation: cdr.Vector3{X: 0.1}, Rotation: cdr.Quaternion{W: 1}},
		}}}, le)
	}
	write := func(topic string, rec int64, data []byte) {
		if err := w.Write(topic, rec, rec, data); err != nil {
			t.Fatal(err)
		}
	}
	write("/tf_static", sysStartNS, tfmsg(sysStartNS, "base_link", "laser"))
	const step = int64(20e6) // 50 Hz
	var backlog []int64
	for i := int64(0); i < 400; i++ {
		at := sysStartNS + i*step
		rec := at + 2_000_000
		if rec-sysStartNS >= odomFromNS {
			for _, st := range backlog {
				write("/tf", rec, tfmsg(st, "odom", "base_link"))
				rec += 100_000
			}
			backlog = backlog[:0]
			write("/tf", rec, tfmsg(at, "odom", "base_link"))
		} else {
			backlog = append(backlog, at)
		}
		if i%5 == 0 {
			write("/tf", at+1_000_000, tfmsg(at, "base_link", "object_1"))
			write("/scan", at+3_000_000, cdr.AppendLaserScan(nil, &cdr.LaserScan{Header: cdr.Header{Stamp: ts(at), FrameID: "laser"},
				AngleMax: 1, AngleIncrement: 0.1, RangeMax: 10, Ranges: make([]float32, 10)}, le))
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLookAheadLateOdometry: /tf carries several publishers, and one that
// reaches the recorder late must still be seen before the default target
// is decided: the look-ahead goes on until a transform names odom, or
// /scan would be checked against base_link, the root of a tree without
// odom (static only, where no clock fault shows).
func TestLookAheadLateOdometry(t *testing.T) {
	for _, storage := range []string{"mcap", "sqlite3"} {
		for _, from := range []int64{0, 2_500_000_000, 6_000_000_000} {
			rep := analyzeBag(t, lateOdomBag(t, storage, from), Config{}, nil)
			var target string
			var static int
			for _, p := range rep.Pairs {
				if p.Topic == "/scan" {
					target, static = p.TargetFrame, p.Classes["static_only"]
				}
			}
			if target != "odom" || static > 0 {
				t.Errorf("%s, odometry from %.1f s: /scan checked against %q with %d static_only rows, want odom and none",
					storage, float64(from)/1e9, target, static)
			}
		}
	}
}
