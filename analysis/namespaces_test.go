package analysis

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestTwoRobots: /robot1 on /clock and /robot2 on system time in one bag,
// with the same frame names. Each robot's topics are looked up in its own
// namespace's tf (same_clock for both, no drop); one shared tree would
// put robot2's system-time stamps against robot1's sim-time tf.
func TestTwoRobots(t *testing.T) {
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		t.Run(storage, func(t *testing.T) {
			specs := scenario.Robots()
			for i := range specs {
				specs[i].Duration = 3 * time.Second
			}
			dir, err := scenario.WriteMulti(filepath.Join(t.TempDir(), "bag"), specs, bagwrite.Options{Storage: storage})
			if err != nil {
				t.Fatal(err)
			}
			bag, err := bagread.Open(dir, bagread.Options{TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer bag.Close()
			rep, err := Analyze(bag, Config{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int{}
			for _, s := range specs {
				tr := s.Truth()
				want[s.TopicName(scenario.TopicScan)] = tr.Scans
				for base, n := range tr.SensorMessages {
					want[s.TopicName(base)] = n
				}
				if tr.Class != scenario.ClassSameClock {
					t.Fatalf("%s: truth %s, want a same-clock robot", s.Name, tr.Class)
				}
			}
			if len(rep.Pairs) != len(want) {
				t.Fatalf("%d pairs, want %d: %+v", len(rep.Pairs), len(want), rep.Pairs)
			}
			for _, p := range rep.Pairs {
				n, ok := want[p.Topic]
				if !ok {
					t.Fatalf("unexpected pair %s", p.Topic)
				}
				if p.Classes[scenario.ClassSameClock] != n || total(p.Classes) != n || p.TargetFrame != "odom" {
					t.Errorf("%s: classes %v target %s, want %d same_clock against odom", p.Topic, p.Classes, p.TargetFrame, n)
				}
				for k, v := range p.Filter {
					if strings.HasPrefix(k, "dropped_") && v > 0 {
						t.Errorf("%s: filter %v, want no drop", p.Topic, p.Filter)
					}
				}
				// The stalest link of every row is its own robot's odom->base_link.
				if ns := strings.SplitN(p.Topic, "/", 3)[1]; p.Stalest != "odom->base_link on /"+ns+"/tf" {
					t.Errorf("%s: stalest link %q, want its robot's odom->base_link", p.Topic, p.Stalest)
				}
			}
			roles := map[string]string{}
			for _, ts := range rep.Topics {
				roles[ts.Topic] = ts.Role
			}
			for _, s := range specs {
				if roles[s.TopicName(scenario.TopicTF)] != "tf" || roles[s.TopicName(scenario.TopicTFStatic)] != "tf_static" {
					t.Errorf("roles %v: %s's tf topics not found", roles, s.Name)
				}
			}
			// Two trees, each on one clock: no tf-tree finding compares
			// robot2's system-time links with robot1's sim-time ones.
			if len(rep.Summary.Findings) != 0 || len(rep.TFFindings) != 0 {
				t.Errorf("findings %v, tf findings %+v", rep.Summary.Findings, rep.TFFindings)
			}
			t.Logf("verdict: %s; findings %v; tf findings %+v", rep.Verdict.Sentence, rep.Summary.Findings, rep.TFFindings)
		})
	}
}
