package sweeptest

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// TestREADMESweepBlocks: every sweep README.md shows (a block after a
// `<!-- sweeptest: NAME -->` marker) is, to the byte, the block of that name
// in docs/scan.md that TestSweeps runs, and README shows the Slurm job
// array and its submission. Cheap: no scheduler is started.
func TestREADMESweepBlocks(t *testing.T) {
	root := testenv.RepoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, sweepDoc))
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{}
	for _, m := range regexp.MustCompile(`<!-- sweeptest: ([a-z ]+) -->`).FindAllStringSubmatch(string(readme), -1) {
		name := m[1]
		shown[name] = true
		got, err := markedBlock(string(readme), name)
		if err != nil {
			t.Errorf("README.md: %v", err)
			continue
		}
		want, err := markedBlock(string(doc), name)
		if err != nil {
			t.Errorf("%s: %v (README.md shows it)", sweepDoc, err)
			continue
		}
		if got != want {
			t.Errorf("README.md's %q block differs from %s's, which the sweep test runs:\nREADME:\n%s\n%s:\n%s", name, sweepDoc, got, sweepDoc, want)
		}
	}
	for _, name := range []string{"slurm script", "slurm submit"} {
		if !shown[name] {
			t.Errorf("README.md does not show the %q block", name)
		}
	}
	for _, name := range []string{"slurm script", "slurm submit", "slurm rerun", "parallel"} {
		if _, err := markedBlock(string(doc), name); err != nil {
			t.Errorf("%s: %v", sweepDoc, err)
		}
	}
}
