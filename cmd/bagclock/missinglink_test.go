package main

import (
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// A scan frame never connected to odom is the missing-link finding, not a
// drop: --fail-on drop passes, --fail-on missing-link fails.
func TestFailOnMissingLink(t *testing.T) {
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		bag := caseBag(t, scenario.MissingLink, storage)
		for _, tc := range []struct {
			failOn string
			code   int
		}{{"drop", exitOK}, {"missing-link", exitFindings}, {"drop,missing-link", exitFindings}} {
			code, _, errOut := runCLI(t, "analyze", bag, "--fail-on", tc.failOn, "-o", filepath.Join(t.TempDir(), "r.csv"))
			if code != tc.code {
				t.Errorf("%s --fail-on %s: exit %d, want %d: %s", storage, tc.failOn, code, tc.code, errOut)
			}
		}
	}
}
