// Package inventory summarises what a bag holds, for `bagclock info`: the
// storage facts bagread knows, plus what only reading tells — the
// record-time range of every topic, header-stamp ranges and frame ids of
// every stamped topic (any type whose first field is std_msgs/Header, see
// analysis/topics), the /clock range, rates and the number of undecodable
// messages per topic.
package inventory

import (
	"fmt"
	"sort"

	"github.com/bagclock/bagclock/analysis/topics"
	"github.com/bagclock/bagclock/analysis/wire"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/ros1msg"
)

// Range is a closed interval of nanoseconds; Valid is false when empty.
type Range struct {
	MinNS int64 `json:"min_ns"`
	MaxNS int64 `json:"max_ns"`
	Valid bool  `json:"valid"`
}

func (r *Range) add(v int64) {
	if !r.Valid {
		r.MinNS, r.MaxNS, r.Valid = v, v, true
		return
	}
	r.MinNS = min(r.MinNS, v)
	r.MaxNS = max(r.MaxNS, v)
}

// Topic is one topic's inventory.
type Topic struct {
	Name                string               `json:"name"`
	Type                string               `json:"type"`
	SerializationFormat string               `json:"serialization_format"`
	Count               uint64               `json:"count"`
	MetadataCount       int64                `json:"metadata_count"`
	QoS                 []bagread.QoSProfile `json:"qos,omitempty"`
	OfferedQoS          string               `json:"offered_qos_profiles,omitempty"`
	// Role is the topic's role for bagclock (analysis/topics: "tf",
	// "stamped", "not_analysed", ...); Stamped and StampReason say whether
	// its messages start with std_msgs/Header, and how that was decided.
	Role        string `json:"role"`
	Stamped     bool   `json:"stamped"`
	StampReason string `json:"stamp_reason,omitempty"`
	// Decoded is true for the types whose stamps bagclock reads
	// (TFMessage, Clock and every stamped type); only those have
	// HeaderStamp, ZeroStamps and Frames filled.
	Decoded bool `json:"decoded"`
	// RecordTime is the record-time range of the topic's messages (every
	// topic); HeaderStamp the header-stamp range (per transform for
	// TFMessage, the clock value for Clock).
	RecordTime  Range `json:"record_time"`
	HeaderStamp Range `json:"header_stamp"`
	ZeroStamps  int   `json:"zero_stamps"`
	// RateHz is messages per second of record time (decoded topics), or
	// count over the bag's duration for the others (RateApprox true).
	RateHz     float64 `json:"rate_hz"`
	RateApprox bool    `json:"rate_approx,omitempty"`
	// Undecodable counts messages that could not be read or decoded, with
	// the first error's text.
	Undecodable int    `json:"undecodable"`
	FirstError  string `json:"first_error,omitempty"`
	// Frames lists frame ids seen (header frame ids of stamped topics,
	// parent->child links of TFMessage), at most 64.
	Frames []string `json:"frames,omitempty"`

	// MixedClocks is set on a tf topic whose links' stamps are on two
	// clock families (some on sim time, some on system time): its one
	// HeaderStamp range then spans both, and Links tells them apart.
	MixedClocks bool `json:"mixed_clocks,omitempty"`
	// Links is the stamp range of each parent->child link of a tf topic
	// (at most 64, as Frames), sorted by link.
	Links []LinkStamps `json:"links,omitempty"`

	hdr     cdr.Header // reused by DecodeHeaderInto so a steady frame id does not allocate
	wire    wire.Decoder
	tf      cdr.TFMessage
	linkIdx map[string]int
}

// LinkStamps is the header-stamp range of one tf link.
type LinkStamps struct {
	Link  string `json:"link"`
	Stamp Range  `json:"stamp"`
}

// systemTimeNS splits the clock families: no simulation runs for 3 years,
// and no system clock that was ever set reads before 1973.
const systemTimeNS = int64(1e8 * 1e9)

// Report is the whole inventory.
type Report struct {
	Path                  string   `json:"path"`
	Storage               string   `json:"storage"`
	Files                 []File   `json:"files"`
	SizeBytes             int64    `json:"size_bytes"`
	Messages              uint64   `json:"messages"`
	StartNS               int64    `json:"start_ns"`
	EndNS                 int64    `json:"end_ns"`
	DurationNS            int64    `json:"duration_ns"`
	CompressionFormat     string   `json:"compression_format,omitempty"`
	CompressionMode       string   `json:"compression_mode,omitempty"`
	MetadataVersion       int      `json:"metadata_version,omitempty"`
	ROSDistro             string   `json:"ros_distro,omitempty"`
	MetadataReconstructed bool     `json:"metadata_reconstructed"`
	MetadataProblem       string   `json:"metadata_problem,omitempty"`
	Recovery              []string `json:"recovery,omitempty"`
	Clock                 Range    `json:"clock"`
	Topics                []Topic  `json:"topics"`
	Undecodable           int      `json:"undecodable"`
}

// File is one storage file.
type File struct {
	Path         string `json:"path"`
	Size         int64  `json:"size"`
	Storage      string `json:"storage"`
	Compression  string `json:"compression,omitempty"`
	MessageCount uint64 `json:"message_count"`
	Recovery     string `json:"recovery,omitempty"`
}

// decodedRoles are the unstamped roles whose stamps info reads: by role,
// not type name, so the older pkg/Type spelling of TFMessage and Clock is
// read too.
var decodedRoles = map[topics.Role]bool{topics.TF: true, topics.TFStatic: true, topics.Clock: true}

// maxFrames bounds the frame list per topic.
const maxFrames = 64

// Build reads every message of bag once, in record order, and returns the
// inventory. Only the header of stamped messages is decoded.
func Build(bag *bagread.Bag) (*Report, error) {
	rep := &Report{
		Path:                  bag.Path,
		Storage:               bag.Storage,
		Messages:              bag.MessageCount,
		StartNS:               bag.StartNS,
		EndNS:                 bag.EndNS,
		DurationNS:            bag.EndNS - bag.StartNS,
		CompressionFormat:     bag.CompressionFormat,
		CompressionMode:       bag.CompressionMode,
		MetadataReconstructed: bag.MetadataReconstructed,
		MetadataProblem:       bag.MetadataProblem,
	}
	if bag.Metadata != nil {
		rep.MetadataVersion = bag.Metadata.Version
		rep.ROSDistro = bag.Metadata.ROSDistro
	}
	rep.SizeBytes = bag.SizeBytes()
	for _, f := range bag.Files {
		file := File{Path: f.Path, Size: f.Size, Storage: f.Storage, Compression: f.Compression, MessageCount: f.MessageCount}
		if f.Recovery != nil {
			file.Recovery = f.Recovery.Reason
			rep.Recovery = append(rep.Recovery, fmt.Sprintf("%s: %s", f.Path, f.Recovery.Reason))
		}
		rep.Files = append(rep.Files, file)
	}

	index := map[string]*Topic{}
	frames := map[string]map[string]bool{}
	for _, t := range bag.Topics {
		ti := topics.Of(t.Name, t.Type, t.DefinitionEncoding, t.Definition)
		top := Topic{
			Name: t.Name, Type: t.Type, SerializationFormat: t.SerializationFormat,
			Count: t.MessageCount, MetadataCount: t.MetadataCount, QoS: t.QoS, OfferedQoS: t.OfferedQoS,
			Role: string(ti.Role), Stamped: ti.Stamp.Stamped, StampReason: ti.Stamp.Reason,
			Decoded: decodedRoles[ti.Role] || ti.Stamp.Stamped,
			wire:    wire.Decoder{ROS1: bag.Storage == bagread.StorageROS1},
		}
		rep.Topics = append(rep.Topics, top)
	}
	for i := range rep.Topics {
		index[rep.Topics[i].Name] = &rep.Topics[i]
	}

	if len(rep.Topics) > 0 {
		it := bag.Messages(bagread.ReadOptions{Order: bagread.RecordOrder})
		for it.Next() {
			m := it.Message()
			top := index[m.Topic]
			if top == nil {
				continue
			}
			if m.Err != nil {
				top.fail(m.Err)
				continue
			}
			if err := top.observe(m, frames, &rep.Clock); err != nil {
				top.fail(fmt.Errorf("%s: topic %s message %d: %w", bag.Files[m.FileIndex].Path, m.Topic, m.Index, err))
			}
		}
		err := it.Err()
		for _, p := range it.Problems() {
			if bag.Files[p.FileIndex].Recovery != nil {
				continue // already reported from the file's recovery at Open
			}
			rep.Recovery = append(rep.Recovery, p.String())
		}
		it.Close()
		if err != nil {
			return rep, fmt.Errorf("read %s: %w", bag.Path, err)
		}
	}

	durS := float64(rep.DurationNS) / 1e9
	for i := range rep.Topics {
		top := &rep.Topics[i]
		rep.Undecodable += top.Undecodable
		if top.RecordTime.Valid && top.RecordTime.MaxNS > top.RecordTime.MinNS && top.Count > 1 {
			top.RateHz = float64(top.Count-1) / (float64(top.RecordTime.MaxNS-top.RecordTime.MinNS) / 1e9)
		} else if durS > 0 && top.Count > 1 {
			top.RateHz = float64(top.Count) / durS
			top.RateApprox = true
		}
		top.finishLinks()
		for f := range frames[top.Name] {
			top.Frames = append(top.Frames, f)
		}
		sort.Strings(top.Frames) // also a tf topic's links, sorted already
	}
	return rep, nil
}

func (t *Topic) fail(err error) {
	t.Undecodable++
	if t.FirstError == "" {
		t.FirstError = err.Error()
	}
}

func (t *Topic) stamp(ns int64) {
	t.HeaderStamp.add(ns)
	if ns == 0 {
		t.ZeroStamps++
	}
}

func (t *Topic) frame(frames map[string]map[string]bool, name string) {
	fs := frames[t.Name]
	if fs == nil {
		fs = map[string]bool{}
		frames[t.Name] = fs
	}
	if len(fs) < maxFrames {
		fs[name] = true
	}
}

// linkStamp widens link's stamp range; past maxFrames links a new one is
// left out (a tf topic's Frames are these links).
func (t *Topic) linkStamp(link string, ns int64) {
	if t.linkIdx == nil {
		t.linkIdx = map[string]int{}
	}
	i, ok := t.linkIdx[link]
	if !ok {
		if len(t.Links) >= maxFrames {
			return
		}
		i = len(t.Links)
		t.linkIdx[link] = i
		t.Links = append(t.Links, LinkStamps{Link: link})
	}
	t.Links[i].Stamp.add(ns)
}

// finishLinks sorts the links and sets MixedClocks when one link is on
// sim time and another on system time (links stamped only 0 count for
// neither).
func (t *Topic) finishLinks() {
	sort.Slice(t.Links, func(i, j int) bool { return t.Links[i].Link < t.Links[j].Link })
	t.linkIdx = nil
	for _, l := range t.Links {
		t.Frames = append(t.Frames, l.Link) // a tf topic's "frames" are its links
	}
	sim, sys := false, false
	for _, l := range t.Links {
		switch {
		case !l.Stamp.Valid || l.Stamp.MaxNS == 0:
		case l.Stamp.MinNS >= systemTimeNS:
			sys = true
		case l.Stamp.MaxNS < systemTimeNS:
			sim = true
		}
	}
	t.MixedClocks = sim && sys
}

func (t *Topic) observe(m *bagread.Message, frames map[string]map[string]bool, clock *Range) error {
	// Record time is a storage fact: counted even when the payload fails.
	t.RecordTime.add(m.LogTimeNS)
	switch {
	case !t.Decoded:
	case t.Type == cdr.TypeLaserScan || t.Type == ros1msg.TypeLaserScan:
		var h cdr.ScanHeader
		if err := t.wire.ScanPrefix(&h, m.Data, int64(len(m.Data))); err != nil {
			return err
		}
		t.stamp(h.Header.Stamp.Nanoseconds())
		t.frame(frames, h.Header.FrameID)
	case t.Role == string(topics.TF) || t.Role == string(topics.TFStatic):
		if err := t.wire.TF(&t.tf, m.Data); err != nil {
			return err
		}
		for _, tr := range t.tf.Transforms {
			ns := tr.Header.Stamp.Nanoseconds()
			t.stamp(ns)
			t.linkStamp(tr.Header.FrameID+"->"+tr.ChildFrameID, ns)
		}
	case t.Role == string(topics.Clock):
		c, err := t.wire.Clock(m.Data)
		if err != nil {
			return err
		}
		ns := c.Nanoseconds()
		t.stamp(ns)
		clock.add(ns)
	case t.Stamped:
		if err := t.wire.Header(&t.hdr, m.Data, t.Type); err != nil {
			return err
		}
		t.stamp(t.hdr.Stamp.Nanoseconds())
		t.frame(frames, t.hdr.FrameID)
	}
	return nil
}
