package analysis

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/analysis/msgfilter"
	"github.com/bagclock/bagclock/analysis/tf"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/scenario"
)

// TestRowsFollowOwnTreeFilter ties the analysis to the filter the ROS 1
// oracle checks (msgfilter's TestMessageFilterOracleTreeScenarios): for the
// tf-tree scenarios, tf topics without slash, a namespaced robot and the
// two-robot sample, every row's outcome equals that of one standalone
// MessageFilter (the topic's preset) fed only the topic's messages and
// its own robot's tf topics. A row looked up in another robot's tree, or
// fed the other robot's transforms, would differ.
func TestRowsFollowOwnTreeFilter(t *testing.T) {
	one := func(name string, edit func(*scenario.Spec)) []scenario.Spec {
		s, err := scenario.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		s = s.Sample()
		s.Sensors = true
		if edit != nil {
			edit(&s)
		}
		return []scenario.Spec{s}
	}
	cases := []struct {
		name    string
		specs   []scenario.Spec
		targets []string
	}{
		{"detector", one(scenario.TFDetectorSystem, nil), nil},
		{"offset_days", one(scenario.TFOffsetDays, nil), []string{"odom", scenario.MapFrame}},
		{"static_conflict", one(scenario.TFStaticConflict, nil), nil},
		{"tf_no_slash", one(scenario.BothSim, func(s *scenario.Spec) { s.NoSlash = true }), nil},
		{"robot1", one(scenario.BothSim, func(s *scenario.Spec) { s.Namespace = "/robot1" }), nil},
		{"robots", scenario.RobotsSamples()[0].Specs, nil},
		// Same frame names, trees on different clocks: the one case where
		// the other robot's tree would change every outcome.
		{"robots sim+system", sampleSize(scenario.Robots()), nil},
	}
	const cacheNS = 10_000_000_000
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := scenario.WriteMulti(filepath.Join(t.TempDir(), "bag"), tc.specs, bagwrite.Options{Storage: bagwrite.StorageMCAP})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{} // topic target index → outcome
			rep := analyzeBag(t, dir, Config{TargetFrames: tc.targets, CacheTimeS: 10, SetCacheTime: true}, func(r *ScanRow) error {
				got[fmt.Sprintf("%s %s %d", r.Topic, r.TargetFrame, r.ScanIndex)] = r.FilterOutcome
				return nil
			})
			robot := map[string]scenario.Spec{}
			for _, s := range tc.specs {
				for _, base := range []string{scenario.TopicScan, scenario.TopicPoints, scenario.TopicImu, scenario.TopicImage} {
					robot[s.TopicName(base)] = s
				}
			}
			compared := 0
			for _, p := range rep.Pairs {
				s, ok := robot[p.Topic]
				pr, known := msgfilter.Presets[p.Consumer]
				if !ok || !known {
					t.Fatalf("pair %s (consumer %q): not a generated sensor topic or no such preset", p.Topic, p.Consumer)
				}
				want := ownTreeOutcomes(t, tc.specs, s, p.Topic, p.TargetFrame, pr.Params, cacheNS)
				if len(want) != total(p.Classes) {
					t.Fatalf("%s -> %s: %d messages generated, %d rows", p.Topic, p.TargetFrame, len(want), total(p.Classes))
				}
				for i, w := range want {
					if g := got[fmt.Sprintf("%s %s %d", p.Topic, p.TargetFrame, i)]; g != string(w) {
						t.Errorf("%s -> %s message %d: row %q, own-tree filter %q", p.Topic, p.TargetFrame, i, g, w)
					}
				}
				compared += len(want)
			}
			if compared == 0 {
				t.Fatal("nothing compared")
			}
		})
	}
}

// ownTreeOutcomes replays topic's messages through one MessageFilter over
// a buffer fed only robot s's tf topics, in record order.
func ownTreeOutcomes(t *testing.T, specs []scenario.Spec, s scenario.Spec, topic, target string, params msgfilter.Params, cacheNS int64) []msgfilter.Outcome {
	t.Helper()
	buf := tf.NewBuffer(tf.Options{CacheTimeNS: cacheNS})
	g := msgfilter.NewGroup(buf)
	var out []msgfilter.Outcome
	f := g.NewFilter([]string{target}, params, func(r msgfilter.Result) { out[r.Key] = r.Outcome })
	tfTopic, staticTopic := s.TopicName(scenario.TopicTF), s.TopicName(scenario.TopicTFStatic)
	var msg cdr.TFMessage
	err := scenario.GenerateMulti(specs, func(r *scenario.Record) error {
		switch r.Topic {
		case tfTopic, staticTopic:
			if _, err := cdr.DecodeTFMessageInto(&msg, r.Data); err != nil {
				return err
			}
			for i := range msg.Transforms {
				st := stampedOf(&msg.Transforms[i])
				if buf.SetTransform(st, r.Topic, r.Topic == staticTopic) == nil {
					g.TransformStored(r.LogTimeNS, st.Stamp, r.Topic == staticTopic)
				}
			}
		case topic:
			h, err := cdr.DecodeHeader(r.Data, r.Type)
			if err != nil {
				return err
			}
			out = append(out, "")
			f.Add(msgfilter.Msg{Key: uint64(len(out) - 1), FrameID: h.FrameID, StampNS: h.Stamp.Nanoseconds(), ArrivalNS: r.LogTimeNS})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	g.Finish()
	return out
}

func sampleSize(specs []scenario.Spec) []scenario.Spec {
	for i := range specs {
		specs[i] = specs[i].Sample()
	}
	return specs
}
