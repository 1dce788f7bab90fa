package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestSensorScenarios: the clock cases with a PointCloud2 lidar, an Imu
// and a camera Image beside the laser (all drivers on one clock setting),
// a bag whose tf topics have no leading slash, and a namespaced robot;
// every sensor topic gets the class the spec implies and the outcome the
// consumer preset of its type implies, in both storage formats.
func TestSensorScenarios(t *testing.T) {
	type variant struct {
		name  string
		spec  func(s *scenario.Spec)
		check func(t *testing.T, s scenario.Spec, rep *Report)
	}
	queueFull := func(t *testing.T, s scenario.Spec, rep *Report) {
		// Messages far in tf's future wait until the queue (10 for every
		// RViz display) overflows: all but the last 10 are dropped.
		for _, p := range rep.Pairs {
			n := total(p.Classes)
			if p.Filter["dropped_queue_full"] != n-10 || p.Filter["pending_at_end"] != 10 {
				t.Errorf("%s: filter %v, want %d queue-full drops and 10 pending", p.Topic, p.Filter, n-10)
			}
		}
	}
	outTheBack := func(t *testing.T, s scenario.Spec, rep *Report) {
		for _, p := range rep.Pairs {
			if p.Filter["dropped_out_the_back"] != total(p.Classes) {
				t.Errorf("%s: filter %v, want every message out the back", p.Topic, p.Filter)
			}
		}
	}
	noDrop := func(t *testing.T, s scenario.Spec, rep *Report) {
		for _, p := range rep.Pairs {
			for k, v := range p.Filter {
				if strings.HasPrefix(k, "dropped_") && v > 0 {
					t.Errorf("%s: filter %v, want no drop", p.Topic, p.Filter)
				}
			}
		}
		if containsSub(rep.Summary.Findings, "drop") {
			t.Errorf("findings %v", rep.Summary.Findings)
		}
	}
	cases := []struct {
		name     string
		variants []variant
		findings []string
	}{
		{scenario.BothSim, []variant{
			{"", nil, noDrop},
			{"tf-no-slash", func(s *scenario.Spec) { s.NoSlash = true }, noDrop},
			{"robot1", func(s *scenario.Spec) { s.Namespace = "/robot1" }, noDrop},
		}, []string{}},
		{scenario.LaserSystemTFSim, []variant{
			{"", nil, queueFull},
			{"robot1", func(s *scenario.Spec) { s.Namespace = "/robot1" }, queueFull},
		}, []string{"drop", "clock-mismatch"}},
		{scenario.LaserSimTFSystem, []variant{{"", nil, outTheBack}}, []string{"drop", "clock-mismatch"}},
		{scenario.LaserZeroStamp, []variant{{"", nil, func(t *testing.T, s scenario.Spec, rep *Report) {
			for _, p := range rep.Pairs {
				if p.Filter["passed"] != total(p.Classes) {
					t.Errorf("%s: filter %v, want all passed at once", p.Topic, p.Filter)
				}
			}
			tr := s.Truth()
			want := tr.Scans
			for _, n := range tr.SensorMessages {
				want += n
			}
			if rep.ZeroStamp.Count != want {
				t.Errorf("zero stamps %d, want %d (every sensor message)", rep.ZeroStamp.Count, want)
			}
		}}}, []string{"zero-stamp", "stuck-zero"}},
		{scenario.Skew2500ms, []variant{{"", nil, func(t *testing.T, s scenario.Spec, rep *Report) {
			// 2.5 s ahead of tf: longer than a queue of 10 lasts at any of
			// the rates (10 Hz lidar: 1 s), so every topic drops.
			for _, p := range rep.Pairs {
				if p.Filter["dropped_queue_full"] == 0 {
					t.Errorf("%s: filter %v, want queue-full drops", p.Topic, p.Filter)
				}
			}
		}}}, []string{"drop", "clock-mismatch", "skew"}},
	}
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, c := range cases {
			for _, v := range c.variants {
				name := storage + "/" + c.name
				if v.name != "" {
					name += "/" + v.name
				}
				t.Run(name, func(t *testing.T) {
					s, err := scenario.Get(c.name)
					if err != nil {
						t.Fatal(err)
					}
					s.Duration = 3 * time.Second
					s.Sensors = true
					if v.spec != nil {
						v.spec(&s)
					}
					rows := 0
					rep := analyzeBag(t, specBag(t, s, storage), Config{}, func(*ScanRow) error { rows++; return nil })
					tr := s.Truth()
					want := map[string]struct {
						n    int
						typ  string
						pre  string
						cons string
					}{
						s.TopicName(scenario.TopicScan):   {tr.Scans, "sensor_msgs/msg/LaserScan", "", "rviz-laserscan"},
						s.TopicName(scenario.TopicPoints): {tr.SensorMessages[scenario.TopicPoints], scenario.TypePointCloud2, "", "rviz-display"},
						s.TopicName(scenario.TopicImu):    {tr.SensorMessages[scenario.TopicImu], scenario.TypeImu, "", "rviz-display"},
						s.TopicName(scenario.TopicImage):  {tr.SensorMessages[scenario.TopicImage], scenario.TypeImage, "", "rviz-camera"},
					}
					if len(rep.Pairs) != len(want) {
						t.Fatalf("pairs %+v, want one per sensor topic %v", rep.Pairs, want)
					}
					sum := 0
					for _, p := range rep.Pairs {
						w, ok := want[p.Topic]
						if !ok {
							t.Fatalf("unexpected pair %+v", p)
						}
						sum += w.n
						if p.Classes[tr.Class] != w.n || total(p.Classes) != w.n || p.Type != w.typ || p.Consumer != w.cons {
							t.Errorf("%s: %+v, want %d %s rows of %s by %s", p.Topic, p, w.n, tr.Class, w.typ, w.cons)
						}
						if p.TargetFrame != "odom" {
							t.Errorf("%s: target %s", p.Topic, p.TargetFrame)
						}
					}
					if rows != sum || rep.Summary.Scans != sum {
						t.Errorf("rows %d, messages %d, want %d", rows, rep.Summary.Scans, sum)
					}
					roles := map[string]string{}
					for _, ts := range rep.Topics {
						roles[ts.Topic] = ts.Role
					}
					if roles[s.TopicName(scenario.TopicTF)] != "tf" || roles[s.TopicName(scenario.TopicTFStatic)] != "tf_static" {
						t.Errorf("topics %+v: tf topics %s, %s not found by role", rep.Topics, s.TopicName(scenario.TopicTF), s.TopicName(scenario.TopicTFStatic))
					}
					if !equalStrings(rep.Summary.Findings, c.findings) {
						t.Errorf("findings %v, want %v", rep.Summary.Findings, c.findings)
					}
					v.check(t, s, rep)
					t.Logf("verdict: %s", rep.Verdict.Sentence)
				})
			}
		}
	}
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestTreeScenarios: the generator's tf-tree cases (a detector on system
// time beside a tree on /clock, a robot 4.8 days behind the recorder with
// map->odom 100 s stale, a second static publisher moving the laser 8 cm),
// with the sensors beside the laser, in both storage formats: the tree
// findings are the spec's, every sensor row keeps the spec's class.
func TestTreeScenarios(t *testing.T) {
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		for _, name := range scenario.TreeNames() {
			t.Run(storage+"/"+name, func(t *testing.T) {
				s, err := scenario.Get(name)
				if err != nil {
					t.Fatal(err)
				}
				s.Duration = 3 * time.Second
				s.Sensors = true
				rep := analyzeBag(t, specBag(t, s, storage), Config{}, nil)
				tr := s.Truth()
				var kinds []string
				for _, f := range rep.TFFindings {
					kinds = append(kinds, f.Kind)
				}
				if strings.Join(kinds, ",") != strings.Join(tr.TFFindings, ",") {
					t.Fatalf("tf findings %v, want %v\n%+v", kinds, tr.TFFindings, rep.TFFindings)
				}
				if len(rep.Pairs) != 4 {
					t.Fatalf("%d pairs, want the laser, lidar, IMU and camera", len(rep.Pairs))
				}
				for _, p := range rep.Pairs {
					if n := total(p.Classes); n == 0 || p.Classes[tr.Class] != n || p.TargetFrame != "odom" {
						t.Errorf("%s: classes %v against %s, want all %s against odom", p.Topic, p.Classes, p.TargetFrame, tr.Class)
					}
				}
				if f := findingOf(rep, TFStaticConflict); f != nil && !strings.Contains(strings.Join(f.Evidence, " "), "8.0 cm apart") {
					t.Errorf("static conflict evidence %q, want the 8 cm", f.Evidence)
				}
				t.Logf("verdict: %s", rep.Verdict.Sentence)
			})
		}
	}
}
