package repair

import (
	"fmt"

	"github.com/bagclock/bagclock/bagread"

	"github.com/bagclock/bagclock/cdr"
)

// Patcher applies a plan to messages, one at a time, and counts what it
// did per entry. It is for one goroutine.
type Patcher struct {
	plan    *Plan
	headers map[string]int            // topic → entry index, header-first topics
	links   map[string]map[string]int // tf topic → link → entry index
	// Done counts, per entry index, the stamps mapped, synthesized and
	// left unmapped because the mapping could not reach them.
	Done    []EntryCounts
	offsets []int
	tf      cdr.TFMessage
	// donors read the paired topics of zero-stamp entries (by topic).
	donors map[string]*donorCursor
}

// EntryCounts is what a Patcher did to one entry's stamps.
type EntryCounts struct {
	Mapped      int `json:"mapped"`
	Synthesized int `json:"synthesized"`
	// Unmapped: stamps the entry's mapping applies to that it could not
	// reach (before the first /clock, beyond a segment's samples, out of
	// builtin_interfaces/Time range); they are written as they were.
	Unmapped int `json:"unmapped"`
	// Paired: synthesized stamps taken from the paired topic's message
	// (ZeroDonor.PairedTopic); the rest came from the latency donor.
	Paired int `json:"paired"`
}

// NewPatcher prepares plan for patching.
func NewPatcher(plan *Plan) *Patcher {
	p := &Patcher{plan: plan, headers: map[string]int{}, links: map[string]map[string]int{}, Done: make([]EntryCounts, len(plan.Entries))}
	for i := range plan.Entries {
		e := &plan.Entries[i]
		if e.Action != ActionMap {
			continue
		}
		if e.Link == "" {
			p.headers[e.Topic] = i
			continue
		}
		if p.links[e.Topic] == nil {
			p.links[e.Topic] = map[string]int{}
		}
		p.links[e.Topic][e.Link] = i
	}
	return p
}

// Touches reports whether the plan may change messages of topic.
func (p *Patcher) Touches(topic string) bool {
	_, h := p.headers[topic]
	return h || len(p.links[topic]) > 0
}

// Patch returns the message with its stamps mapped: data itself when
// nothing changes, else a copy in buf (reused when large enough) in which
// only the 8 bytes of each mapped stamp differ. recNS is the message's
// record time.
func (p *Patcher) Patch(topic string, data []byte, recNS int64, buf []byte) ([]byte, error) {
	if i, ok := p.headers[topic]; ok {
		stamp, err := cdr.Stamp(data, cdr.HeaderStampOffset)
		if err != nil {
			return data, fmt.Errorf("header.stamp: %w", err)
		}
		v, ok := p.newStamp(i, stamp, recNS)
		if !ok || v == stamp {
			return data, nil
		}
		out := append(buf[:0], data...)
		if err := cdr.PutStamp(out, cdr.HeaderStampOffset, v); err != nil {
			p.undo(i, stamp)
			return data, nil
		}
		return out, nil
	}
	links := p.links[topic]
	if len(links) == 0 {
		return data, nil
	}
	var err error
	if p.offsets, err = cdr.TFStampOffsets(p.offsets[:0], data); err != nil {
		return data, err
	}
	if _, err := cdr.DecodeTFMessageInto(&p.tf, data); err != nil {
		return data, err
	}
	out := data
	for k := range p.tf.Transforms {
		t := &p.tf.Transforms[k]
		i, ok := links[t.Header.FrameID+"->"+t.ChildFrameID]
		if !ok {
			continue
		}
		stamp := t.Header.Stamp.Nanoseconds()
		v, ok := p.newStamp(i, stamp, recNS)
		if !ok || v == stamp {
			continue
		}
		if &out[0] == &data[0] {
			out = append(buf[:0], data...)
		}
		if err := cdr.PutStamp(out, p.offsets[k], v); err != nil {
			p.undo(i, stamp)
		}
	}
	return out, nil
}

// undo takes back a count newStamp made for a stamp that could not be
// written.
func (p *Patcher) undo(i int, stamp int64) {
	d := &p.Done[i]
	if stamp == 0 {
		d.Synthesized--
	} else {
		d.Mapped--
	}
	d.Unmapped++
}

// newStamp is entry i's stamp for a message stamped stamp and recorded at
// rec; ok false leaves it.
func (p *Patcher) newStamp(i int, stamp, rec int64) (int64, bool) {
	e := &p.plan.Entries[i]
	d := &p.Done[i]
	if stamp == 0 {
		if e.Zero == nil {
			return 0, false
		}
		if dc := p.donors[e.Zero.PairedTopic]; dc != nil {
			if v, ok := dc.take(p, rec, e.Zero.PairMaxGapNS); ok {
				d.Synthesized++
				d.Paired++
				return v, true
			}
		}
		v, ok := p.plan.refAt(rec-e.Zero.LatencyNS, rec)
		if !ok {
			d.Unmapped++
			return 0, false
		}
		d.Synthesized++
		return v, true
	}
	if e.Map == nil || p.plan.Family(stamp, rec) != e.Map.From {
		return 0, false
	}
	v, ok := p.plan.mapStamp(e.Map, stamp, rec)
	if !ok {
		d.Unmapped++
		return 0, false
	}
	d.Mapped++
	return v, true
}

// mapStamp applies m to a nonzero stamp of a message recorded at rec.
func (p *Plan) mapStamp(m *Mapping, stamp, rec int64) (int64, bool) {
	t := stamp
	if m.Offset != nil {
		t += m.Offset.At(rec)
	}
	switch m.Kind {
	case MapSystemToSim:
		return p.Clock.ToSim(t, rec)
	case MapSimToSystem:
		return p.Clock.ToSystem(t, rec)
	}
	return t, true
}

// onReference is a nonzero stamp of topic put on the reference clock as
// the plan puts that topic's stamps (unchanged when the plan leaves it).
func (p *Plan) onReference(topic string, stamp, rec int64) (int64, bool) {
	for i := range p.Entries {
		e := &p.Entries[i]
		if e.Topic != topic || e.Link != "" {
			continue
		}
		if e.Action != ActionMap || e.Map == nil || p.Family(stamp, rec) != e.Map.From {
			return stamp, p.Family(stamp, rec) == familyOf(p.Reference)
		}
		return p.mapStamp(e.Map, stamp, rec)
	}
	return stamp, p.Family(stamp, rec) == familyOf(p.Reference)
}

func familyOf(ref string) string {
	if ref == ClockSim {
		return FamilySim
	}
	return FamilySystem
}

// OpenDonors starts a reader of each paired topic the plan's zero-stamp
// entries take stamps from, in record order alongside the copy (header
// prefixes only). Close ends them.
func (p *Patcher) OpenDonors(bag *bagread.Bag) {
	for i := range p.plan.Entries {
		e := &p.plan.Entries[i]
		if e.Action != ActionMap || e.Zero == nil || e.Zero.PairedTopic == "" {
			continue
		}
		t := e.Zero.PairedTopic
		if p.donors == nil {
			p.donors = map[string]*donorCursor{}
		}
		if _, ok := p.donors[t]; ok || bag.Topic(t) == nil {
			continue
		}
		p.donors[t] = &donorCursor{topic: t, it: bag.Messages(bagread.ReadOptions{Topics: []string{t}, Order: bagread.TimeOrder,
			PrefixTopics: []string{t}, PrefixBytes: cdr.HeaderStampOffset + 8})}
	}
}

// Close ends the donor readers.
func (p *Patcher) Close() {
	for _, d := range p.donors {
		d.it.Close()
	}
}

// donorCursor walks a paired topic in record order, keeping its nonzero
// stamps within a window of the message being patched.
type donorCursor struct {
	topic string
	it    *bagread.Iterator
	ahead []donorStamp // read, not yet used, in record order
	done  bool
}

type donorStamp struct{ rec, stamp int64 }

// take returns the stamp, on the reference clock, of the unused donor
// message recorded nearest to rec and within maxGap; messages before it
// are dropped (a later stamp of 0 would be further from them).
func (d *donorCursor) take(p *Patcher, rec, maxGap int64) (int64, bool) {
	for !d.done && (len(d.ahead) == 0 || d.ahead[len(d.ahead)-1].rec <= rec+maxGap) {
		if !d.it.Next() {
			d.done = true
			break
		}
		m := d.it.Message()
		if m.Err != nil {
			continue
		}
		if m.LogTimeNS < rec-maxGap {
			continue // too old to pair with this or any later message
		}
		if st, err := cdr.Stamp(m.Data, cdr.HeaderStampOffset); err == nil && st != 0 {
			d.ahead = append(d.ahead, donorStamp{m.LogTimeNS, st})
		}
	}
	best := -1
	for i, a := range d.ahead {
		if a.rec < rec-maxGap {
			continue
		}
		if a.rec > rec+maxGap {
			break
		}
		if best < 0 || abs64(a.rec-rec) < abs64(d.ahead[best].rec-rec) {
			best = i
		}
	}
	if best < 0 {
		// Drop what is too old to pair with this or any later message.
		k := 0
		for k < len(d.ahead) && d.ahead[k].rec < rec-maxGap {
			k++
		}
		d.ahead = d.ahead[k:]
		return 0, false
	}
	a := d.ahead[best]
	d.ahead = d.ahead[best+1:]
	return p.plan.onReference(d.topic, a.stamp, a.rec)
}

// refAt is the reference clock at system time t, for a message recorded
// at rec.
func (p *Plan) refAt(t, rec int64) (int64, bool) {
	if p.Reference == ClockSim {
		if p.Clock == nil {
			return 0, false
		}
		return p.Clock.ToSim(t, rec)
	}
	return t, true
}

// Family classifies a nonzero stamp of a message recorded at rec: sim
// when it is nearer the sim time at rec than rec itself, system when near
// rec, sim_without_clock when an epoch away in a bag without /clock.
func (p *Plan) Family(stamp, rec int64) string {
	d := abs64(rec - stamp)
	if p.Clock != nil {
		if sim, ok := p.Clock.SimAt(rec); ok && abs64(sim-stamp) < d {
			return FamilySim
		}
	}
	switch {
	case d >= epochApartNS && p.Clock == nil:
		return FamilyFar
	case d >= epochApartNS:
		return FamilySim
	}
	return FamilySystem
}
