package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestAnalyzeTopicFlag: --topic takes any stamped topic, with or without
// its slash and repeated; a topic without a header is a usage error; by
// default every sensor topic is analysed, and a namespaced robot whose tf
// is /robot1/tf is analysed against that tree.
func TestAnalyzeTopicFlag(t *testing.T) {
	spec, err := scenario.Get(scenario.LaserSystemTFSim)
	if err != nil {
		t.Fatal(err)
	}
	spec.Duration, spec.Sensors, spec.Namespace = 2*time.Second, true, "/robot1"
	bag := specBag(t, spec, "")
	topicsOf := func(out string) map[string]string {
		var doc struct {
			Pairs []struct{ Topic, Type string }
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("json: %v", err)
		}
		m := map[string]string{}
		for _, p := range doc.Pairs {
			m[p.Topic] = p.Type
		}
		return m
	}
	code, out, errOut := runCLI(t, "analyze", bag, "--format", "json")
	if got := topicsOf(out); code != exitOK || len(got) != 4 || got["/robot1/imu"] != scenario.TypeImu {
		t.Errorf("default: exit %d, topics %v: %s", code, got, errOut)
	}
	if !strings.Contains(errOut, "publish with system time") {
		t.Errorf("verdict: %s", errOut)
	}
	code, out, errOut = runCLI(t, "analyze", bag, "--format", "json", "--topic", "robot1/imu", "--topic", "/robot1/points")
	if got := topicsOf(out); code != exitOK || len(got) != 2 || got["/robot1/points"] != scenario.TypePointCloud2 {
		t.Errorf("--topic: exit %d, topics %v: %s", code, got, errOut)
	}
	code, _, errOut = runCLI(t, "analyze", bag, "--topic", "/clock")
	if code != exitUsage || !strings.Contains(errOut, "has no header to analyse") || !strings.Contains(errOut, "/robot1/imu") {
		t.Errorf("--topic /clock: exit %d: %s", code, errOut)
	}
}
