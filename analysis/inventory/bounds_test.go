package inventory

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// Boundary tests of Build's figures (issue 15): rates and their fallback,
// the frame and link limits, zero stamps, the clock families of tf links.

// boundsTopics indexes a report's topics by name.
func boundsTopics(rep *Report) map[string]Topic {
	by := map[string]Topic{}
	for _, tp := range rep.Topics {
		by[tp.Name] = tp
	}
	return by
}

// boundsTF is a TFMessage with one transform parent->child stamped sec.
func boundsTF(sec int32, parent, child string) []byte {
	return cdr.AppendTFMessage(nil, &cdr.TFMessage{Transforms: []cdr.TransformStamped{{
		Header: cdr.Header{Stamp: cdr.Time{Sec: sec}, FrameID: parent}, ChildFrameID: child,
		Transform: cdr.Transform{Rotation: cdr.Quaternion{W: 1}}}}}, binary.LittleEndian)
}

// TestBuildRates: a topic whose messages span record time gets count-1
// over that span; a topic of two or more messages all at one record time
// gets count over the bag's duration (approximate); one message, or a bag
// of zero duration, gives no rate.
func TestBuildRates(t *testing.T) {
	const s = int64(1e9)
	rep := buildBag(t, bagwrite.StorageMCAP,
		[][2]string{{"/span", "my_pkg/msg/A"}, {"/burst", "my_pkg/msg/B"}, {"/one", "my_pkg/msg/C"}},
		[]message{
			{"/span", 10 * s, []byte{1}},
			{"/burst", 11 * s, []byte{1}},
			{"/burst", 11 * s, []byte{2}},
			{"/one", 12 * s, []byte{1}},
			{"/span", 12 * s, []byte{2}},
			{"/span", 18 * s, []byte{3}},
		})
	if rep.DurationNS != 8*s {
		t.Errorf("duration %d ns, want %d", rep.DurationNS, 8*s)
	}
	by := boundsTopics(rep)
	for _, tc := range []struct {
		topic  string
		rate   float64
		approx bool
	}{
		{"/span", 0.25, false}, // 2 steps over 8 s
		{"/burst", 0.25, true}, // 2 messages over the bag's 8 s
		{"/one", 0, false},
	} {
		if got := by[tc.topic]; got.RateHz != tc.rate || got.RateApprox != tc.approx {
			t.Errorf("%s: rate %v approx %v, want %v %v", tc.topic, got.RateHz, got.RateApprox, tc.rate, tc.approx)
		}
	}

	// Every message at one record time: no duration, no rate.
	rep = buildBag(t, bagwrite.StorageMCAP, [][2]string{{"/burst", "my_pkg/msg/B"}},
		[]message{{"/burst", 11 * s, []byte{1}}, {"/burst", 11 * s, []byte{2}}})
	if got := rep.Topics[0]; rep.DurationNS != 0 || got.RateHz != 0 || got.RateApprox {
		t.Errorf("zero-duration bag: duration %d, rate %v approx %v; want 0, 0, false", rep.DurationNS, got.RateHz, got.RateApprox)
	}
}

// TestBuildMetadataFields: the metadata.yaml version and distro reach the
// report.
func TestBuildMetadataFields(t *testing.T) {
	rep := buildBag(t, bagwrite.StorageSQLite3, [][2]string{{"/a", "my_pkg/msg/A"}}, []message{{"/a", 1e9, []byte{1}}})
	if rep.MetadataVersion != 9 || rep.ROSDistro != "jazzy" {
		t.Errorf("metadata version %d distro %q, want 9 jazzy", rep.MetadataVersion, rep.ROSDistro)
	}
}

// TestBuildZeroStampsAndScanErrors: stamps of exactly 0 are counted; a
// LaserScan too short for its header is undecodable and adds no stamp.
func TestBuildZeroStampsAndScanErrors(t *testing.T) {
	scan := func(sec int32, nanosec uint32) []byte {
		return cdr.AppendLaserScan(nil, &cdr.LaserScan{Header: cdr.Header{Stamp: cdr.Time{Sec: sec, Nanosec: nanosec}, FrameID: "laser"}}, binary.LittleEndian)
	}
	const s = int64(1e9)
	rep := buildBag(t, bagwrite.StorageMCAP, [][2]string{{"/scan", cdr.TypeLaserScan}}, []message{
		{"/scan", 1 * s, scan(0, 0)},
		{"/scan", 2 * s, scan(0, 1)},
		{"/scan", 3 * s, scan(0, 0)},
		{"/scan", 4 * s, scan(7, 0)[:10]},
	})
	got := rep.Topics[0]
	if got.ZeroStamps != 2 || got.HeaderStamp != (Range{0, 1, true}) || got.Undecodable != 1 || got.FirstError == "" {
		t.Errorf("/scan: zero stamps %d, stamps %+v, undecodable %d (%q); want 2, {0 1 true}, 1",
			got.ZeroStamps, got.HeaderStamp, got.Undecodable, got.FirstError)
	}
}

// TestBuildFrameAndLinkLimits: a stamped topic lists at most maxFrames
// frame ids and a tf topic at most maxFrames links, sorted; one under
// and at the limit everything is listed.
func TestBuildFrameAndLinkLimits(t *testing.T) {
	for _, n := range []int{maxFrames - 1, maxFrames, maxFrames + 1} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var msgs []message
			for i := range n {
				at := int64(i+1) * 1e6
				// Reverse order, so that the listing has to sort.
				name := fmt.Sprintf("f%03d", n-i)
				msgs = append(msgs, message{"/imu", at, headerPayload(1, name)}, message{"/tf", at, boundsTF(1, "odom", name)})
			}
			rep := buildBag(t, bagwrite.StorageMCAP, [][2]string{{"/imu", "sensor_msgs/msg/Imu"}, {"/tf", "tf2_msgs/msg/TFMessage"}}, msgs)
			by := boundsTopics(rep)
			want := min(n, maxFrames)
			// The first want names seen (f<n> down) are kept, listed sorted.
			low := fmt.Sprintf("f%03d", n-want+1)
			imu, tf := by["/imu"], by["/tf"]
			if len(imu.Frames) != want || imu.Frames[0] != low {
				t.Fatalf("/imu: %d frames from %q, want %d from %s", len(imu.Frames), imu.Frames[0], want, low)
			}
			if len(tf.Links) != want || len(tf.Frames) != want {
				t.Fatalf("/tf: %d links, %d frames; want %d", len(tf.Links), len(tf.Frames), want)
			}
			first := "odom->" + low
			if tf.Links[0].Link != first || tf.Frames[0] != first || tf.Links[want-1].Link != fmt.Sprintf("odom->f%03d", n) {
				t.Errorf("/tf links %s .. %s, want %s .. odom->f%03d", tf.Links[0].Link, tf.Links[want-1].Link, first, n)
			}
		})
	}
}

// TestFinishLinksMixedClocks: a link counts as system time when its
// oldest stamp is at or past systemTimeNS, as sim time when its newest is
// before it; a link spanning the line, or stamped only 0, counts for
// neither. Only one of each makes MixedClocks.
func TestFinishLinksMixedClocks(t *testing.T) {
	sim := Range{1, 5, true}
	sys := Range{systemTimeNS, systemTimeNS, true}
	for _, tc := range []struct {
		name  string
		links []Range
		want  bool
	}{
		{"sim and system at the line", []Range{sim, sys}, true},
		{"sim just under the line and system", []Range{{1, systemTimeNS - 1, true}, sys}, true},
		{"system just under the line is sim", []Range{{systemTimeNS - 1, systemTimeNS - 1, true}, sim}, false},
		{"spanning the line and system", []Range{{1, systemTimeNS, true}, {systemTimeNS + 1, systemTimeNS + 2, true}}, false},
		{"spanning the line and sim", []Range{{systemTimeNS - 1, systemTimeNS, true}, sim}, false},
		{"stamped only 0 and system", []Range{{0, 0, true}, sys}, false},
		{"empty and system", []Range{{}, sys}, false},
		{"system only", []Range{sys, {systemTimeNS + 1, systemTimeNS + 9, true}}, false},
		{"sim only", []Range{sim, {0, 9, true}}, false},
	} {
		top := &Topic{}
		for i, r := range tc.links {
			top.Links = append(top.Links, LinkStamps{Link: fmt.Sprintf("l%d", len(tc.links)-i), Stamp: r})
		}
		top.finishLinks()
		if top.MixedClocks != tc.want {
			t.Errorf("%s: MixedClocks = %v, want %v", tc.name, top.MixedClocks, tc.want)
		}
		if got := strings.Join(top.Frames, ","); len(tc.links) == 2 && got != "l1,l2" {
			t.Errorf("%s: frames %q, want sorted l1,l2", tc.name, got)
		}
	}
}
