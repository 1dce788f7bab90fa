package scenario

import (
	"fmt"
	"sort"

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
	r1, _ := Get(BothSim) // known cases
	r2, _ := Get(BothSystem)
	r1.Name, r1.Namespace, r1.Sensors = "robot1", "/robot1", true
	r2.Name, r2.Namespace, r2.Sensors = "robot2", "/robot2", true
	return []Spec{r1, r2}
}

// WriteMulti writes several specs into one bag directory, their messages
// merged in record order (ties: in spec order). The specs must record
// different topics but for /clock and /rosout, which are taken from the
// first spec that records them. Meant for short bags: every message is
// held until the merge.
func WriteMulti(dir string, specs []Spec, opts bagwrite.Options) (string, error) {
	w, err := bagwrite.Create(dir, opts)
	if err != nil {
		return "", fmt.Errorf("scenario: %w", err)
	}
	owner := map[string]int{} // topic → index of the spec recording it
	for i, s := range specs {
		for _, tp := range s.Topics() {
			if _, ok := owner[tp[0]]; ok {
				if tp[0] == TopicClock || tp[0] == TopicRosout {
					continue
				}
				return "", fmt.Errorf("scenario: topic %s recorded by two specs", tp[0])
			}
			owner[tp[0]] = i
			if err := w.AddTopic(tp[0], tp[1]); err != nil {
				return "", fmt.Errorf("scenario %s: %w", s.Name, err)
			}
		}
	}
	var recs []Record
	for i, s := range specs {
		err := Generate(s, func(r *Record) error {
			if owner[r.Topic] != i {
				return nil
			}
			c := *r
			c.Data = append([]byte(nil), r.Data...)
			recs = append(recs, c)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].LogTimeNS < recs[j].LogTimeNS })
	for i := range recs {
		r := &recs[i]
		if err = w.Write(r.Topic, r.LogTimeNS, r.PublishTimeNS, r.Data); err != nil {
			break
		}
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("scenario: writing %s: %w", dir, err)
	}
	return dir, nil
}
