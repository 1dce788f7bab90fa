package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/scenario"
)

// TestFixSynchronizerBeforeAfter: a depth driver on system time (or
// stamping 0) beside a colour camera on /clock starves the default
// ApproximateTime synchronizer; fix repairs the depth stamps, and its
// before/after shows the synchronizer's sets go from 0 to about one per
// frame, as analyze of the copy does.
func TestFixSynchronizerBeforeAfter(t *testing.T) {
	for _, name := range []string{scenario.SyncOtherClock, scenario.SyncZeroStamp} {
		for _, in := range []string{"mcap", "sqlite3"} {
			t.Run(name+"/"+in, func(t *testing.T) {
				bag := caseBag(t, name, in)
				dst := filepath.Join(t.TempDir(), "fixed")
				code, stdout, stderr := runCLI(t, "fix", bag, "-o", dst)
				if code != exitOK {
					t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
				}
				before, after := analyzeReport(t, bag), analyzeReport(t, dst)
				var starved, fed int64 = -1, -1
				for _, s := range before.Sync {
					if s.Policy == "approximate" && strings.Contains(strings.Join(s.Topics, " "), scenario.TopicDepth) {
						starved = s.Sets
					}
				}
				for _, s := range after.Sync {
					if s.Policy == "approximate" && strings.Contains(strings.Join(s.Topics, " "), scenario.TopicDepth) {
						fed = s.Sets
					}
				}
				frames := int64(20 * scenario.CameraRigHz)
				if starved != 0 || fed < frames-5 {
					t.Fatalf("depth synchronizer: %d sets before (want 0), %d after (want about %d)", starved, fed, frames)
				}
				line := regexp.MustCompile(`(?m)^  approximate .*depth.*: 0 sets; \d+ unused  =>  (\d+) sets; \d+ unused$`).FindStringSubmatch(stdout)
				if line == nil || line[1] != itoa(fed) {
					t.Errorf("fix's before/after does not show the synchronizer's %d sets:\n%s", fed, stdout)
				}
			})
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
