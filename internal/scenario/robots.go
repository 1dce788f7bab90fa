package scenario

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/internal/bagwrite"
)

// Robots returns the two-robot case of issue 9: one bag with /robot1
// (laser, sensors and tf on /clock, case both_sim) and /robot2 (a real
// robot: laser, sensors and tf on its system clock, case both_system), the
// same frame names in both trees, /clock from robot1's simulator. Each
// robot's topics must be analysed against its own namespace's tf: both
// are same_clock there, while robot2's messages looked up in robot1's
// tree would be laser_on_system_clock.
func Robots() []Spec {
	specs, _ := RobotsOf([]string{BothSim, BothSystem}) // known cases
	for i := range specs {
		specs[i].Sensors = true
	}
	return specs
}

// RobotsOf returns one robot per named case, robot N (from 1) named
// "robotN" and recorded under the namespace /robotN, for WriteMulti.
func RobotsOf(cases []string) ([]Spec, error) {
	if len(cases) < 2 {
		return nil, fmt.Errorf("scenario: a multi-robot bag needs at least two cases, got %d", len(cases))
	}
	var out []Spec
	for i, name := range cases {
		s, err := Get(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		s.Name = fmt.Sprintf("robot%d", i+1)
		s.Namespace = "/" + s.Name
		out = append(out, s)
	}
	return out, nil
}

// RobotsSample is a committed bag of several namespaced robots, written
// by WriteMulti.
type RobotsSample struct {
	Dir   string // relative to the samples root
	Specs []Spec
	Opts  bagwrite.Options
}

// RobotsSamples lists the multi-robot samples, in both storages
// (robots/<storage>/robot2_laser_system): /robot1 healthy on /clock
// (both_sim) and /robot2 whose laser driver, and the other drivers on its
// machine, stamp with system time while its tf follows /clock
// (laser_system_tf_sim); both with sensors, at sample size. Only robot2's
// topics may be reported, and only against robot2's tree.
func RobotsSamples() []RobotsSample {
	specs, _ := RobotsOf([]string{BothSim, LaserSystemTFSim}) // known cases
	for i := range specs {
		specs[i] = specs[i].Sample()
		specs[i].Sensors = true
	}
	var out []RobotsSample
	for _, st := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		out = append(out, RobotsSample{Dir: filepath.Join("robots", st, "robot2_laser_system"), Specs: specs, Opts: bagwrite.Options{Storage: st}})
	}
	return out
}

// clockModel is what decides a spec's /clock values and sim-time stamps.
type clockModel struct {
	hz, rtf           float64
	simStart, resetTo int64
	loop, resetAt     int64
}

func (s Spec) clockModel() clockModel {
	return clockModel{s.ClockHz, s.RealTimeFactor, s.SimStartNS, s.ResetToNS, int64(s.LoopPeriod), int64(s.ResetAt)}
}

// GenerateMulti merges the messages of several specs in record order
// (ties: in spec order) and calls emit for each. The specs must record
// different topics but for /clock, taken from the first spec that records
// it, and /rosout, which every spec's lines go to. Specs with /clock must
// model the same simulator (rate, start, loop, reset) and all share the
// recorder's start time, or their sim-time stamps would not follow the
// recorded /clock. Every message is held until the merge: meant for short
// bags.
func GenerateMulti(specs []Spec, emit func(*Record) error) error {
	clockOwner, sim := -1, clockModel{}
	for i, s := range specs {
		if s.SystemStartNS != specs[0].SystemStartNS {
			return fmt.Errorf("scenario: %s and %s start recording at different times", specs[0].Name, s.Name)
		}
		if s.ClockHz == 0 || s.ClockNotRecorded {
			continue
		}
		if clockOwner < 0 {
			clockOwner, sim = i, s.clockModel()
		} else if s.clockModel() != sim {
			return fmt.Errorf("scenario: %s and %s model different simulators (/clock differs)", specs[clockOwner].Name, s.Name)
		}
	}
	var recs []Record
	for i, s := range specs {
		err := Generate(s, func(r *Record) error {
			if r.Topic == TopicClock && i != clockOwner {
				return nil
			}
			c := *r
			c.Data = append([]byte(nil), r.Data...)
			recs = append(recs, c)
			return nil
		})
		if err != nil {
			return err
		}
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].LogTimeNS < recs[j].LogTimeNS })
	for i := range recs {
		if err := emit(&recs[i]); err != nil {
			return err
		}
	}
	return nil
}

// MultiTopics returns the (name, type) pairs the specs record together,
// each once, in registration order; a topic other than /clock and
// /rosout recorded by two specs is an error.
func MultiTopics(specs []Spec) ([][2]string, error) {
	var out [][2]string
	seen := map[string]bool{}
	for _, s := range specs {
		for _, tp := range s.Topics() {
			if seen[tp[0]] {
				if tp[0] == TopicClock || tp[0] == TopicRosout {
					continue
				}
				return nil, fmt.Errorf("scenario: topic %s recorded by two specs", tp[0])
			}
			seen[tp[0]] = true
			out = append(out, tp)
		}
	}
	return out, nil
}

// WriteMulti writes several specs into one bag directory (see
// GenerateMulti) and returns dir.
func WriteMulti(dir string, specs []Spec, opts bagwrite.Options) (string, error) {
	topics, err := MultiTopics(specs)
	if err != nil {
		return "", err
	}
	w, err := bagwrite.Create(dir, opts)
	if err != nil {
		return "", fmt.Errorf("scenario: %w", err)
	}
	for _, tp := range topics {
		if err := w.AddTopic(tp[0], tp[1]); err != nil {
			return "", fmt.Errorf("scenario: %w", err)
		}
	}
	err = GenerateMulti(specs, func(r *Record) error {
		return w.Write(r.Topic, r.LogTimeNS, r.PublishTimeNS, r.Data)
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("scenario: writing %s: %w", dir, err)
	}
	return dir, nil
}
