package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestAnalyzeSyncFlags: --sync names a synchronizer (slash optional) whose
// summary reaches the JSON; a topic the bag lacks, or one without a header,
// is a usage error listing the stamped topics; the policy flags without
// --sync, a bad policy, queue or interval are usage errors; --fail-on sync
// exits 1 when the synchronizer never fires.
func TestAnalyzeSyncFlags(t *testing.T) {
	spec, err := scenario.Get(scenario.BothSystem)
	if err != nil {
		t.Fatal(err)
	}
	spec.Duration, spec.Sensors = 3*time.Second, true
	bag := specBag(t, spec, "")
	code, out, errOut := runCLI(t, "analyze", bag, "--format", "json", "--sync", "camera/image_raw,/points", "--sync-queue", "5")
	var doc struct {
		Sync []struct {
			Topics    []string
			Policy    string
			QueueSize int `json:"queue_size"`
			Sets      int64
			Fires     bool
			Received  []int64
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitOK {
		t.Fatalf("exit %d, json %v: %s", code, err, errOut)
	}
	if len(doc.Sync) != 1 || doc.Sync[0].Topics[0] != "/camera/image_raw" || doc.Sync[0].Policy != "approximate" || doc.Sync[0].QueueSize != 5 ||
		!doc.Sync[0].Fires || doc.Sync[0].Sets == 0 || doc.Sync[0].Received[1] == 0 {
		t.Errorf("sync: %+v", doc.Sync)
	}
	// Camera at 15 Hz, lidar at 10 Hz, 1 ms apart at best: never equal.
	code, _, errOut = runCLI(t, "analyze", bag, "--format", "json", "-o", "/dev/null", "--sync", "/camera/image_raw,/points", "--sync-policy", "exact", "--fail-on", "sync")
	if code != exitFindings || !strings.Contains(errOut, "never pair") {
		t.Errorf("exact on unequal stamps: exit %d, want %d and the reason in the verdict: %s", code, exitFindings, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--sync", "/camera/image_raw,/nope"}, `the bag's stamped topics`},
		{[]string{"--sync", "/camera/image_raw,/tf"}, "no header stamp"},
		{[]string{"--sync", "/camera/image_raw"}, "2 to 9 topics"},
		{[]string{"--sync-policy", "exact"}, "applies to --sync"},
		{[]string{"--sync", "/a,/b", "--sync-policy", "latest"}, "want approximate or exact"},
		{[]string{"--sync", "/a,/b", "--sync-queue", "0"}, "must be >= 1"},
		{[]string{"--sync", "/a,/b", "--sync-policy", "exact", "--sync-max-interval", "0.1"}, "approximate only"},
	} {
		code, _, errOut := runCLI(t, append([]string{"analyze", bag, "--format", "json"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, want %d with %q: %s", tc.args, code, exitUsage, tc.want, errOut)
		}
	}
}
