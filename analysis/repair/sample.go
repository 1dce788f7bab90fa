package repair

import (
	"fmt"
	"sort"

	"github.com/bagclock/bagclock/analysis/topics"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// epochApartNS: stamps this far (about three years) from the clock they
// are compared with are on another clock family altogether (sim time
// against system time, 1.79e9 s apart today).
const epochApartNS = int64(100_000_000) * 1_000_000_000

// Families a stamp is classified into.
const (
	FamilySim    = "sim"    // near the /clock in force
	FamilySystem = "system" // near record time (the recorder's clock), or an offset from it
	FamilyZero   = "zero"   // exactly 0
	// FamilyFar: an epoch from record time in a bag without /clock:
	// sim-time stamps whose /clock was not recorded.
	FamilyFar = "sim_without_clock"
)

// Subject names what a plan entry is about: a stamped topic, or one tf
// link (Link "parent->child") on a tf topic.
type Subject struct {
	Topic string
	Link  string
}

func (s Subject) String() string {
	if s.Link == "" {
		return s.Topic
	}
	return s.Topic + " " + s.Link
}

// subjectStats is what the sampling pass keeps per subject: exact counts
// per family and constant-size samples.
type subjectStats struct {
	Subject
	Type   string
	Static bool
	n      int
	counts map[string]int
	// firstRec and lastRec are the first and last record times.
	firstRec, lastRec int64
	// zeroBeforeClock counts stamps of 0 recorded before the first /clock.
	zeroBeforeClock int
	// env is record time − stamp over system-family stamps.
	env envelope
	// simLat is /clock in force − stamp over sim-family stamps; recLat
	// record time − stamp over system ones; pubLat record − publish time.
	simLat, recLat, pubLat sampler
}

// Samples is the result of the sampling pass.
type Samples struct {
	ClockTopic string
	Clock      ClockMap
	// ClockMessages counts /clock messages read.
	ClockMessages int
	subjects      []*subjectStats
	byKey         map[Subject]*subjectStats
	// Skipped counts messages that could not be read or decoded; First
	// names the first of them.
	Skipped    int
	FirstError string
}

// Sample reads the bag once in record order: /clock (the fit), the stamp
// of every header-first topic (its first 12 bytes only) and every
// transform of the tf topics.
func Sample(bag *bagread.Bag) (*Samples, error) {
	infos := topics.Classify(bag)
	s := &Samples{byKey: map[Subject]*subjectStats{}}
	if c := topics.WithRole(infos, topics.Clock); len(c) > 0 {
		s.ClockTopic = c[0].Name
	}
	role := map[string]topics.Role{}
	var read, prefix []string
	for _, ti := range infos {
		switch ti.Role {
		case topics.TF, topics.TFStatic:
			read = append(read, ti.Name)
		case topics.Stamped:
			read = append(read, ti.Name)
			prefix = append(prefix, ti.Name)
		case topics.Clock:
			if ti.Name != s.ClockTopic {
				continue
			}
			read = append(read, ti.Name)
		default:
			continue
		}
		role[ti.Name] = ti.Role
	}
	if len(read) == 0 {
		return s, nil
	}
	it := bag.Messages(bagread.ReadOptions{Topics: read, PrefixTopics: prefix, PrefixBytes: cdr.HeaderStampOffset + 8})
	defer it.Close()
	var fit clockFitter
	var clockNS int64
	clockSeen := false
	hasClock := bag.Topic(s.ClockTopic) != nil && bag.Topic(s.ClockTopic).MessageCount > 0
	var tf cdr.TFMessage
	skip := func(m *bagread.Message, err error) {
		s.Skipped++
		if s.FirstError == "" {
			s.FirstError = fmt.Sprintf("%s message %d: %v", m.Topic, m.Index, err)
		}
	}
	observe := func(st *subjectStats, m *bagread.Message, stamp int64) {
		st.n++
		if st.n == 1 {
			st.firstRec = m.LogTimeNS
		}
		st.lastRec = m.LogTimeNS
		if m.HasPublishTime {
			st.pubLat.add(m.LogTimeNS - m.PublishTimeNS)
		}
		if stamp == 0 {
			st.counts[FamilyZero]++
			if !clockSeen {
				st.zeroBeforeClock++
			}
			return
		}
		dRec := m.LogTimeNS - stamp
		switch {
		case clockSeen && abs64(clockNS-stamp) < abs64(dRec):
			st.counts[FamilySim]++
			st.simLat.add(clockNS - stamp)
		case abs64(dRec) >= epochApartNS && !hasClock:
			st.counts[FamilyFar]++
		case abs64(dRec) >= epochApartNS:
			st.counts[FamilySim]++ // sim time, before the first /clock
		default:
			st.counts[FamilySystem]++
			st.recLat.add(dRec)
			st.env.add(m.LogTimeNS, dRec)
		}
	}
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			skip(m, m.Err)
			continue
		}
		switch role[m.Topic] {
		case topics.Clock:
			c, err := cdr.DecodeClock(m.Data)
			if err != nil {
				skip(m, err)
				continue
			}
			clockNS, clockSeen = c.Clock.Nanoseconds(), true
			s.ClockMessages++
			fit.add(m.LogTimeNS, clockNS)
		case topics.Stamped:
			stamp, err := cdr.Stamp(m.Data, cdr.HeaderStampOffset)
			if err != nil {
				skip(m, err)
				continue
			}
			observe(s.subject(Subject{Topic: m.Topic}, m.Type, false, bag), m, stamp)
		default:
			if _, err := cdr.DecodeTFMessageInto(&tf, m.Data); err != nil {
				skip(m, err)
				continue
			}
			static := role[m.Topic] == topics.TFStatic
			for i := range tf.Transforms {
				t := &tf.Transforms[i]
				st := s.subject(Subject{Topic: m.Topic, Link: t.Header.FrameID + "->" + t.ChildFrameID}, m.Type, static, bag)
				observe(st, m, t.Header.Stamp.Nanoseconds())
			}
		}
	}
	if err := it.Err(); err != nil {
		return s, fmt.Errorf("sampling %s: %w", bag.Path, err)
	}
	s.Clock = fit.finish()
	sort.SliceStable(s.subjects, func(i, j int) bool {
		a, b := s.subjects[i], s.subjects[j]
		if a.Topic != b.Topic {
			return a.Topic < b.Topic
		}
		return a.Link < b.Link
	})
	return s, nil
}

func (s *Samples) subject(k Subject, typ string, static bool, bag *bagread.Bag) *subjectStats {
	if st, ok := s.byKey[k]; ok {
		return st
	}
	if len(s.byKey) >= maxSubjects {
		k = Subject{Topic: k.Topic, Link: "(more links)"}
		if st, ok := s.byKey[k]; ok {
			return st
		}
	}
	st := &subjectStats{Subject: k, Type: typ, Static: static, counts: map[string]int{},
		env: newEnvelope(bag.StartNS, bag.EndNS)}
	s.byKey[k] = st
	s.subjects = append(s.subjects, st)
	return st
}

// maxSubjects bounds the topics and links a plan names (memory is
// constant per subject); links beyond it share one entry per topic,
// which the plan leaves as is.
const maxSubjects = 4096

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// sampler keeps a deterministic, evenly spread sample of at most
// samplerCap values: every k-th value, k doubling when full.
type sampler struct {
	v    []int64
	k, i int
}

const samplerCap = 512

func (s *sampler) add(x int64) {
	if s.k == 0 {
		s.k = 1
	}
	s.i++
	if s.i%s.k != 0 {
		return
	}
	if len(s.v) == samplerCap {
		w := s.v[:0]
		for j := 1; j < len(s.v); j += 2 {
			w = append(w, s.v[j])
		}
		s.v = w
		s.k *= 2
	}
	s.v = append(s.v, x)
}

// median of the sample, ok false when empty.
func (s *sampler) median() (int64, bool) {
	if len(s.v) == 0 {
		return 0, false
	}
	c := append([]int64(nil), s.v...)
	sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
	return c[len(c)/2], true
}
