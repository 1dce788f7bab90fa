package main

import (
	"sort"
	"testing"

	"github.com/bagclock/bagclock/analysis/finding"
)

// TestFailOnKinds: --fail-on accepts exactly the finding kinds.
func TestFailOnKinds(t *testing.T) {
	var kinds []string
	for _, k := range finding.Kinds() {
		kinds = append(kinds, string(k))
	}
	got := append([]string(nil), failOnKinds...)
	sort.Strings(got)
	sort.Strings(kinds)
	if len(got) != len(kinds) {
		t.Fatalf("--fail-on kinds %q, finding kinds %q", got, kinds)
	}
	for i := range got {
		if got[i] != kinds[i] {
			t.Fatalf("--fail-on kinds %q, finding kinds %q", got, kinds)
		}
	}
}
