package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/bagclock/bagclock/internal/testenv"
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
			rep := analyzeBag(t, dir, Config{}, nil)
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

// TestRobotsSamples checks the committed two-robot samples (both formats):
// /robot1 healthy on /clock, /robot2's drivers on system time beside its
// tf on /clock. Every topic gets its own robot's class and outcome against
// its own robot's tree, and the verdict names robot2's topics, never
// robot1's.
func TestRobotsSamples(t *testing.T) {
	root := filepath.Join(testenv.RepoRoot(t), "testdata", "samples")
	for _, smp := range scenario.RobotsSamples() {
		t.Run(smp.Dir, func(t *testing.T) {
			dir := filepath.Join(root, smp.Dir)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("committed sample missing (regenerate with go run ./cmd/baggen --samples testdata/samples): %v", err)
			}
			rep, _ := analyzeDir(t, dir, Config{})
			type want struct {
				n     int
				class string
				spec  scenario.Spec
			}
			wants := map[string]want{}
			var faulty scenario.Spec
			for _, s := range smp.Specs {
				tr := s.Truth()
				wants[s.TopicName(scenario.TopicScan)] = want{tr.Scans, tr.Class, s}
				for base, n := range tr.SensorMessages {
					wants[s.TopicName(base)] = want{n, tr.Class, s}
				}
				if tr.Class != scenario.ClassSameClock {
					faulty = s
				}
			}
			if faulty.Namespace == "" {
				t.Fatal("no robot of the sample has a clock fault")
			}
			if len(rep.Pairs) != len(wants) {
				t.Fatalf("%d pairs, want %d: %+v", len(rep.Pairs), len(wants), rep.Pairs)
			}
			for _, p := range rep.Pairs {
				w, ok := wants[p.Topic]
				if !ok {
					t.Fatalf("unexpected pair %s", p.Topic)
				}
				if p.Classes[w.class] != w.n || total(p.Classes) != w.n || p.TargetFrame != w.spec.OdomFrame {
					t.Errorf("%s: classes %v target %s, want %d %s against %s", p.Topic, p.Classes, p.TargetFrame, w.n, w.class, w.spec.OdomFrame)
				}
				if p.Stalest != "odom->base_link on "+w.spec.TopicName(scenario.TopicTF) {
					t.Errorf("%s: stalest link %q, want its own robot's odom->base_link", p.Topic, p.Stalest)
				}
				drops := 0
				for k, v := range p.Filter {
					if strings.HasPrefix(k, "dropped_") {
						drops += v
					}
				}
				// Far in tf's future: the RViz display queue overflows, all
				// but its last RosoutQueueSize messages are dropped.
				wantDrops := 0
				if w.class == scenario.ClassLaserOnSystemClock {
					wantDrops = w.n - scenario.RosoutQueueSize
				}
				if drops != wantDrops || p.Filter["dropped_queue_full"] != wantDrops {
					t.Errorf("%s: filter %v, want %d queue-full drops", p.Topic, p.Filter, wantDrops)
				}
			}
			v := rep.Verdict
			if v.Class != scenario.ClassLaserOnSystemClock {
				t.Errorf("verdict class %q, want %s", v.Class, scenario.ClassLaserOnSystemClock)
			}
			if !strings.Contains(v.Sentence, faulty.TopicName(scenario.TopicScan)) {
				t.Errorf("verdict %q does not name %s", v.Sentence, faulty.TopicName(scenario.TopicScan))
			}
			for _, s := range smp.Specs {
				if s.Namespace != faulty.Namespace && strings.Contains(v.Sentence+strings.Join(v.Commands, " "), s.Namespace+"/") {
					t.Errorf("verdict names the healthy %s: %q %v", s.Namespace, v.Sentence, v.Commands)
				}
			}
			if !containsSub(rep.Summary.Findings, "clock-mismatch") || len(rep.TFFindings) != 0 {
				t.Errorf("findings %v, tf findings %+v", rep.Summary.Findings, rep.TFFindings)
			}
			ftr := faulty.Truth()
			if rep.Counts.RosoutLines != ftr.RosoutMessages || rep.Counts.MatchedDrops != ftr.RosoutDrops {
				t.Errorf("rosout %d lines, %d matched; want %d, %d", rep.Counts.RosoutLines, rep.Counts.MatchedDrops, ftr.RosoutMessages, ftr.RosoutDrops)
			}
			if rep.Summary.Skipped != 0 {
				t.Errorf("skipped %v", rep.Skipped)
			}
		})
	}
}
