package analysis

import (
	"fmt"

	"github.com/bagclock/bagclock/analysis/wire"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
)

// The replay reads and decodes on one goroutine and analyses on another:
// on a 2-core machine reading an uncompressed MCAP costs about what the
// analysis does, so running them side by side is most of what keeps
// analyze close to a bare read. Messages still reach the analysis one at
// a time and in record order, so results do not depend on scheduling.

// Batches of 1024 messages, four in flight: with 256 the hand-overs (a
// goroutine wake-up each) cost a fifth of the analysis. A variable so
// tests can make batches tiny.
var aheadBatchSize = 1024

// deferTFWhen says, from the number of batches waiting for the analysis
// when the reader starts one, whether the analysis decodes that batch's tf
// (see produce). A variable so tests can fix either side.
var deferTFWhen = func(waiting int) bool { return waiting == 0 }

const aheadBatches = 4 // batches in flight: bounds memory, lets both sides run

// decoded is one message read ahead of the analysis, decoded: headers of
// the analysed topics (their arrays are most of a bag's bytes and are never
// copied), /clock and tf (into the slot's own TFMessage, whose frame-name
// strings are reused from one decode to the next). Raw-hook bytes are
// copied into msg.Data (reusing the slot's buffer) for the analysis.
type decoded struct {
	msg   bagread.Message
	topic *topicState // nil for a topic the replay does not read
	err   error       // decode error; msg.Err holds a read error
	clock int64
	scan  cdr.ScanHeader // LaserScan topics: arrays checked against the full size
	hdr   cdr.Header     // every analysed topic
	tf    cdr.TFMessage  // tf and tf_static topics
	raw   []byte
	// tfRaw: a tf message whose payload was copied into tfBytes, not
	// decoded (decodeOne with an arena); the analysis decodes it
	// (analyzer.tfOf).
	tfRaw   bool
	tfBytes []byte
}

type aheadBatch struct {
	items []decoded
	n     int
	// arena holds the tf payloads handed over undecoded, one after the
	// other: one buffer a batch, not one a slot.
	arena []byte
}

// decodeAhead runs the reading side of the replay.
type decodeAhead struct {
	it     *bagread.Iterator
	topics *topicTable
	// dec is the reader's decoder (its ROS 1 scratch is not a slot's:
	// 136 bytes less in each of the 4096 slots, 0.55 MB of fresh pages).
	dec  wire.Decoder
	full chan *aheadBatch
	free chan *aheadBatch
	stop chan struct{}
}

// startDecodeAhead starts reading it on a new goroutine. The caller takes
// batches with next, gives each back with recycle, and must call close;
// it.Err and it.Problems may be read once next has returned nil.
func startDecodeAhead(it *bagread.Iterator, topics *topicTable) *decodeAhead {
	d := &decodeAhead{
		it:     it,
		topics: topics,
		full:   make(chan *aheadBatch, aheadBatches),
		free:   make(chan *aheadBatch, aheadBatches),
		stop:   make(chan struct{}),
	}
	for range aheadBatches {
		// 64 kB holds a batch's tf on the benchmark bags (about 460
		// messages of 100 bytes); a heavier tf grows it once.
		d.free <- &aheadBatch{items: make([]decoded, aheadBatchSize), arena: make([]byte, 0, 64<<10)}
	}
	go d.produce()
	return d
}

func (d *decodeAhead) produce() {
	defer close(d.full)
	for {
		var b *aheadBatch
		select {
		case b = <-d.free:
		case <-d.stop:
			return
		}
		b.n, b.arena = 0, b.arena[:0]
		more := true
		// Which side decodes this batch's tf: with no batch waiting the
		// analysis keeps up, so the reader (the longer half on an
		// uncompressed MCAP: 38 against 20-25 ms a pass) hands the
		// payloads over and the analysis decodes them; with one waiting
		// the reader decodes. Either way the same decoder gives the same
		// values, so only the split of the work depends on scheduling.
		var arena *[]byte
		if deferTFWhen(len(d.full)) {
			arena = &b.arena
		}
		for b.n < len(b.items) {
			if more = d.it.Next(); !more {
				break
			}
			m := d.it.Message()
			decodeOne(&b.items[b.n], &d.dec, m, d.topics.find(m.Topic), true, arena)
			b.n++
		}
		if b.n > 0 {
			select {
			case d.full <- b:
			case <-d.stop:
				return
			}
		}
		if !more {
			return
		}
	}
}

// decodeOne fills x from m, a message of topic ts, decoding with dec
// (which keeps no reference into x). With own, the bytes
// of raw-hook topics are copied, for a reader that moves on before
// the analysis sees them; without, they alias m.Data (the analysis runs
// before the next Next). With own and an arena, a tf message's bytes are
// appended to the arena undecoded (x.tfRaw, x.tfBytes): the arena must
// not be reused before x is consumed.
func decodeOne(x *decoded, dec *wire.Decoder, m *bagread.Message, ts *topicState, own bool, arena *[]byte) {
	x.msg, x.err, x.topic, x.tfRaw = *m, nil, ts, false
	x.msg.Data = nil
	if m.Err != nil || ts == nil {
		return
	}
	dec.ROS1 = ts.ros1
	switch ts.role {
	case roleClock:
		if ts.ros1 {
			var t cdr.Time
			t, x.err = dec.Clock(m.Data)
			x.clock = t.Nanoseconds()
		} else {
			x.clock, x.err = decodeClockNS(m.Data)
		}
	case roleStamped:
		if ts.laser {
			x.err = dec.ScanPrefix(&x.scan, m.Data, m.Size)
			x.hdr = x.scan.Header
		} else {
			x.err = dec.Header(&x.hdr, m.Data, ts.typ)
			if x.err != nil && m.Prefix {
				// A header longer than the prefix is not a short message.
				x.err = fmt.Errorf("%w (the first %d of %d bytes were read)", x.err, len(m.Data), m.Size)
			}
		}
	case roleTF, roleTFStatic:
		if own && arena != nil {
			n := len(*arena)
			*arena = append(*arena, m.Data...)
			x.tfBytes, x.tfRaw = (*arena)[n:len(*arena):len(*arena)], true
			return
		}
		x.err = dec.TF(&x.tf, m.Data)
	case roleTimeOnly:
		// Record times only: no payload was read, unless a check wants
		// the header.
		if ts.header {
			x.err = dec.Header(&x.hdr, m.Data, ts.typ)
		}
	default:
		x.msg.Data = m.Data
		if own {
			x.raw = append(x.raw[:0], m.Data...)
			x.msg.Data = x.raw
		}
	}
}

// next returns the next batch, or nil when the read is over.
func (d *decodeAhead) next() *aheadBatch { return <-d.full }

// recycle hands a consumed batch back to the reader.
func (d *decodeAhead) recycle(b *aheadBatch) { d.free <- b }

// close stops the reader (if still running) and waits for it.
func (d *decodeAhead) close() {
	close(d.stop)
	for range d.full {
	}
}
