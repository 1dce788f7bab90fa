package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/bagclock/bagclock/internal/testenv"
)

// TestInfoStampedTopics: info gives every topic its record-time range and
// every stamped topic (not only LaserScan) its header-stamp range and
// frames, in JSON and text.
func TestInfoStampedTopics(t *testing.T) {
	path := testenv.SharedBag(t, "tb3-walker-simstart")
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
	runInfoJSON(t, path, &rep)
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
	code, out, _ := runCLI(t, "info", path)
	if code != exitOK || !strings.Contains(out, "  frames /imu: imu_link\n") || !strings.Contains(out, `  frames /joint_states: ""`) {
		t.Errorf("text lacks the frames lines:\n%s", out)
	}
}

// TestInfoRobotsSample: in the two-robot sample every topic has its
// record-time range, every sensor topic its header-stamp range and frame,
// and each robot's tf topics their links, in JSON and text; an empty
// topic keeps its row in the text's time ranges.
func TestInfoRobotsSample(t *testing.T) {
	for _, smp := range scenario.RobotsSamples() {
		t.Run(smp.Dir, func(t *testing.T) {
			path := filepath.Join(testenv.RepoRoot(t), "testdata", "samples", smp.Dir)
			var rep struct {
				Topics []struct {
					Name       string   `json:"name"`
					Count      uint64   `json:"count"`
					Frames     []string `json:"frames"`
					RecordTime struct {
						Valid bool `json:"valid"`
					} `json:"record_time"`
					HeaderStamp struct {
						MinNS int64 `json:"min_ns"`
						Valid bool  `json:"valid"`
					} `json:"header_stamp"`
				} `json:"topics"`
			}
			runInfoJSON(t, path, &rep)
			type want struct {
				frames  string
				stampNS int64 // first header stamp
			}
			wants := map[string]want{}
			for _, s := range smp.Specs {
				first := s.SimStartNS
				if s.Laser.Clock == scenario.ClockSystem {
					first = -1 // a system-time stamp: only its validity is checked
				}
				for base, frame := range map[string]string{scenario.TopicScan: s.LaserFrame, scenario.TopicPoints: scenario.LidarFrame,
					scenario.TopicImu: scenario.ImuFrame, scenario.TopicImage: scenario.CameraFrame} {
					wants[s.TopicName(base)] = want{frame, first}
				}
				wants[s.TopicName(scenario.TopicTF)] = want{s.OdomFrame + "->" + s.BaseFrame, s.SimStartNS}
			}
			for _, tp := range rep.Topics {
				if tp.Count == 0 || !tp.RecordTime.Valid {
					t.Errorf("%s: %d messages, record time valid %v", tp.Name, tp.Count, tp.RecordTime.Valid)
				}
				w, ok := wants[tp.Name]
				if !ok {
					continue
				}
				delete(wants, tp.Name)
				if strings.Join(tp.Frames, ",") != w.frames || !tp.HeaderStamp.Valid || (w.stampNS >= 0 && tp.HeaderStamp.MinNS != w.stampNS) {
					t.Errorf("%s: frames %q header %+v, want %q from %d", tp.Name, tp.Frames, tp.HeaderStamp, w.frames, w.stampNS)
				}
			}
			if len(wants) > 0 {
				t.Errorf("topics missing: %v", wants)
			}
			_, text, _ := runCLI(t, "info", path)
			for _, s := range smp.Specs {
				for _, line := range []string{
					"  links " + s.TopicName(scenario.TopicTF) + ": " + s.OdomFrame + "->" + s.BaseFrame + "\n",
					"  frames " + s.TopicName(scenario.TopicScan) + ": " + s.LaserFrame + "\n",
				} {
					if !strings.Contains(text, line) {
						t.Errorf("text lacks %q:\n%s", line, text)
					}
				}
			}
		})
	}
	path := testenv.SharedBag(t, "tb3-roomba-v4-empty-scan")
	if _, text, _ := runCLI(t, "info", path); !regexp.MustCompile(`\n  /scan +no messages +-\n`).MatchString(text) {
		t.Errorf("the empty /scan has no time-range row:\n%s", text)
	}
}
