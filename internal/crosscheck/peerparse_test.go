package crosscheck

import (
	"math"
	"testing"

	"github.com/bagclock/bagclock/cdr"
)

// TestParsePeerLine pins how dump.mjs lines are read: nanoseconds beyond
// 2^53 stay exact, null floats become NaN, and every field takes part in
// the comparison.
func TestParsePeerLine(t *testing.T) {
	scanLine := `{"topic":"/scan","type":"sensor_msgs/msg/LaserScan","log_time_ns":1790000000123456789,` +
		`"header_stamp_ns":1790000000123456787,"frame_id":"laser","n_ranges":3,"n_intensities":0,` +
		`"angle_min":-1.5,"angle_max":1.5,"angle_increment":1.5,"time_increment":0,` +
		`"scan_time":0.10000000149011612,"range_min":0.10000000149011612,"range_max":10,` +
		`"range_first":null,"ranges_sum":null}`
	tfLine := `{"topic":"/tf","type":"tf2_msgs/msg/TFMessage","log_time_ns":5,"publish_time_ns":4,"index":1,` +
		`"n_transforms":2,"header_stamp_ns":3,"frame_id":"odom","child_frame_id":"base_link",` +
		`"t":[1,2,0],"q":[0,0,0.3826834323650898,0.9238795325112867]}`
	clockLine := `{"topic":"/clock","type":"rosgraph_msgs/msg/Clock","log_time_ns":7,"clock_ns":120000000000}`

	scan, err := parsePeerLine([]byte(scanLine))
	if err != nil {
		t.Fatal(err)
	}
	want := record{Topic: "/scan", Kind: cdr.TypeLaserScan, LogTime: 1790000000123456789,
		Stamp: 1790000000123456787, Frame: "laser", NRanges: 3,
		F:          [7]float64{-1.5, 1.5, 1.5, 0, float64(float32(0.1)), float64(float32(0.1)), 10},
		RangeFirst: math.NaN(), RangesSum: math.NaN()}
	if d := diffRecord(&want, &scan); d != "" {
		t.Errorf("scan line: %s", d)
	}
	tf, err := parsePeerLine([]byte(tfLine))
	if err != nil {
		t.Fatal(err)
	}
	wantTF := record{Topic: "/tf", Kind: cdr.TypeTFMessage, LogTime: 5, PublishTime: 4, HasPublishTime: true,
		Stamp: 3, Frame: "odom", Child: "base_link", Index: 1, Count: 2,
		F: [7]float64{1, 2, 0, 0, 0, 0.3826834323650898, 0.9238795325112867}}
	if d := diffRecord(&wantTF, &tf); d != "" {
		t.Errorf("tf line: %s", d)
	}
	clock, err := parsePeerLine([]byte(clockLine))
	if err != nil || clock.Stamp != 120_000_000_000 || clock.Kind != cdr.TypeClock {
		t.Errorf("clock line: %+v, %v", clock, err)
	}

	// Each perturbation must be seen.
	perturb := []struct {
		name string
		fn   func(r *record)
	}{
		{"log time", func(r *record) { r.LogTime++ }},
		{"stamp by 1 ns", func(r *record) { r.Stamp++ }},
		{"frame", func(r *record) { r.Frame = "laser2" }},
		{"ranges", func(r *record) { r.NRanges-- }},
		{"scan_time as float64 0.1", func(r *record) { r.F[4] = 0.1 }},
		{"range_first", func(r *record) { r.RangeFirst = 1 }},
		{"ranges_sum", func(r *record) { r.RangesSum = 6 }},
	}
	for _, p := range perturb {
		r := want
		p.fn(&r)
		if diffRecord(&r, &scan) == "" {
			t.Errorf("%s: change not detected", p.name)
		}
	}
	r := wantTF
	r.PublishTime = 0
	if diffRecord(&r, &tf) == "" {
		t.Errorf("publish time change not detected")
	}
	r = wantTF
	r.F[6] = math.Nextafter(r.F[6], 2)
	if diffRecord(&r, &tf) == "" {
		t.Errorf("1-ulp quaternion change not detected")
	}
	if _, err := parsePeerLine([]byte(`{"topic":"/x","type":"std_msgs/msg/String","log_time_ns":1}`)); err == nil {
		t.Errorf("undecoded type accepted")
	}
	if _, err := parsePeerLine([]byte(`{"topic":"/clock","type":"rosgraph_msgs/msg/Clock","log_time_ns":1.5,"clock_ns":1}`)); err == nil {
		t.Errorf("fractional nanoseconds accepted")
	}
}
