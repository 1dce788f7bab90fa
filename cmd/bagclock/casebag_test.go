package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// specBag writes spec as a bag in storage ("" for the writer's default)
// into t.TempDir() and returns the bag's directory.
func specBag(t *testing.T, spec scenario.Spec, storage string) string {
	t.Helper()
	dir, err := scenario.Write(filepath.Join(t.TempDir(), "bag"), spec, bagwrite.Options{Storage: storage})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// caseBag is specBag for the scenario case of that name.
func caseBag(t *testing.T, name, storage string) string {
	t.Helper()
	spec, err := scenario.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return specBag(t, spec, storage)
}

// runInfoJSON runs `bagclock info --json path` and decodes its output
// into v; a non-zero exit or output that is not JSON fails the test.
func runInfoJSON(t *testing.T, path string, v any) {
	t.Helper()
	code, out, errOut := runCLI(t, "info", "--json", path)
	if code != exitOK {
		t.Fatalf("exit %d, stderr: %s", code, errOut)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("info --json is not JSON: %v\n%s", err, out)
	}
}
