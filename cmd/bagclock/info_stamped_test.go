package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// TestInfoStampedTopics: info gives every topic its record-time range and
// every stamped topic (not only LaserScan) its header-stamp range and
// frames, in JSON and text.
func TestInfoStampedTopics(t *testing.T) {
	path := testenv.SharedBag(t, "tb3-walker-simstart")
	code, out, errOut := runCLI(t, "info", "--json", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Topics []struct {
			Name       string   `json:"name"`
			Role       string   `json:"role"`
			Stamped    bool     `json:"stamped"`
			Count      uint64   `json:"count"`
			Frames     []string `json:"frames"`
			RecordTime struct {
				Valid bool `json:"valid"`
			} `json:"record_time"`
			HeaderStamp struct {
				MinNS, MaxNS int64
				Valid        bool `json:"valid"`
			} `json:"header_stamp"`
		} `json:"topics"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"/imu": "imu_link", "/odom": "odom", "/scan": "base_scan", "/joint_states": "", "/performance_metrics": ""}
	for _, tp := range rep.Topics {
		if tp.Count > 0 && !tp.RecordTime.Valid {
			t.Errorf("%s: no record-time range", tp.Name)
		}
		frame, ok := want[tp.Name]
		if !ok {
			continue
		}
		delete(want, tp.Name)
		if tp.Role != "stamped" || !tp.Stamped || !tp.HeaderStamp.Valid || len(tp.Frames) != 1 || tp.Frames[0] != frame {
			t.Errorf("%s: role %s stamped %v header %+v frames %q; want stamped, frame %q", tp.Name, tp.Role, tp.Stamped, tp.HeaderStamp, tp.Frames, frame)
		}
	}
	if len(want) > 0 {
		t.Errorf("topics missing: %v", want)
	}
	code, out, _ = runCLI(t, "info", path)
	if code != exitOK || !strings.Contains(out, "  frames /imu: imu_link\n") || !strings.Contains(out, `  frames /joint_states: ""`) {
		t.Errorf("text lacks the frames lines:\n%s", out)
	}
}
