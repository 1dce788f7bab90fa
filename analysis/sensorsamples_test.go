package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/bagclock/bagclock/internal/testenv"
)

// TestSensorSamples checks the committed issue 9 samples (sensors/ and
// tree/, both formats) against the spec's truth: every sensor topic's
// messages all get the spec's class, and the tf-tree findings are the
// spec's.
func TestSensorSamples(t *testing.T) {
	root := filepath.Join(testenv.RepoRoot(t), "testdata", "samples")
	for _, s := range scenario.SensorSamples() {
		t.Run(s.Dir, func(t *testing.T) {
			dir := filepath.Join(root, s.Dir)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("committed sample missing (regenerate with go run ./cmd/baggen --samples testdata/samples): %v", err)
			}
			tr := s.Spec.Truth()
			rep, _ := analyzeDir(t, dir, Config{})
			want := map[string]int{s.Spec.TopicName(scenario.TopicScan): tr.Scans}
			for base, n := range tr.SensorMessages {
				want[s.Spec.TopicName(base)] = n
			}
			if len(rep.Pairs) != len(want) {
				t.Fatalf("%d pairs, want %d (%v)", len(rep.Pairs), len(want), want)
			}
			for _, p := range rep.Pairs {
				if n := want[p.Topic]; n == 0 || p.Classes[tr.Class] != n || total(p.Classes) != n {
					t.Errorf("%s: classes %v, want %d %s", p.Topic, p.Classes, n, tr.Class)
				}
			}
			var kinds []string
			for _, f := range rep.TFFindings {
				kinds = append(kinds, f.Kind)
			}
			if strings.Join(kinds, ",") != strings.Join(tr.TFFindings, ",") {
				t.Errorf("tf findings %v, want %v", kinds, tr.TFFindings)
			}
			if rep.Summary.Skipped != 0 {
				t.Errorf("skipped %v", rep.Skipped)
			}
		})
	}
}
