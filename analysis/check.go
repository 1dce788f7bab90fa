package analysis

import (
	"sort"

	"github.com/bagclock/bagclock/analysis/tf"

	"github.com/bagclock/bagclock/bagread"
)

// How the analysis is put together, and how to add a check.
//
// One replay loop (replay.go, type analyzer) reads the bag once in record
// order and dispatches each message by its topic's role (topicstate.go).
// Three parts everything else builds on are fields of the analyzer:
//
//   - a.tf (tfreplay.go): the tf2 buffer, the MessageFilter group, the tf
//     tree's parents and per-link statistics (linkStats, numbered by id);
//   - a.clock (clock.go): the /clock value in force, jumps, stalls and the
//     real-time factor;
//   - a.rows (rows.go): per analysed topic and target frame, one row per
//     message: stamp − latest dynamic tf stamp, class, emulated
//     MessageFilter outcome; per-pair summaries for the verdict.
//
// Everything else is a check: a type in its own file that implements
// check (finish) and any of the hook interfaces below, and registers
// itself from an init function:
//
//	func init() { registerCheck(rankMyCheck, "my-check", newMyCheck) }
//
// The replay calls the hooks of every registered check, in rank order, as
// the messages come: clockHook after the /clock state took a /clock
// message; linkHook for each transform of a tf message before it enters
// the buffer; tfHook after a whole tf message is in the buffer; stampedHook
// for each decoded message of an analysed topic (before its rows);
// recordHook for each message of the record-time-only topics (every other
// topic, read without its payload); rawHook for each raw message of the
// topic role it names. After the last
// message the rows are finished, then every check's finish in rank order
// writes its part of the Report; findings and the verdict come last.
//
// Rules for a check: state per topic or per link in slices indexed by
// topicState.id / linkStats.id (the hot path never hashes names); memory
// bounded by a constant per topic or link, never by the bag length (keep
// counts exact and lists capped, as maxJumpsKept does); no allocation per
// message on the steady path (the replay is benchmarked: go test -run '^$'
// -bench 'Analyze|Read' ./analysis). Tests: a generated bag per case in
// both storage formats, asserting the check's output.
//
// tf-tree diagnoses (clock family per link, offsets to the recorder,
// stale links, repeated or conflicting static data) belong in
// tftree_*.go files: a linkHook sees every transform with its linkStats,
// and finish reads a.tf.sortedLinks() and a.rep.TFTree (built by
// tftree.go, rank rankTFTree).

// check is one analysis fed by the replay loop.
type check interface {
	// finish writes the check's results into a.rep once the bag is read.
	finish(a *analyzer)
}

// clockHook sees each decoded /clock message after a.clock took it.
type clockHook interface {
	onClock(a *analyzer, m *bagread.Message, clockNS int64)
}

// linkHook sees each transform of a tf message (after its link statistics
// are updated, before the buffer stores it).
type linkHook interface {
	onLink(a *analyzer, m *bagread.Message, l *linkStats, st *tf.Stamped)
}

// tfHook sees each tf message after its transforms are in the buffer;
// stored is false when the buffer refused all of them.
type tfHook interface {
	onTF(a *analyzer, m *bagread.Message, stored bool)
}

// stampedHook sees each decoded message of an analysed topic, after its
// targets are decided and before its rows are made.
type stampedHook interface {
	onStamped(a *analyzer, s *stampedMsg)
}

// headerHook sees the header stamp of each message of an analysed topic
// and of the record-time-only topics a check asked headers of
// (topicState.header), before anything else is done with it: a header
// never filled in (stamp 0, no frame) included; err is the decode error
// (the message is skipped).
type headerHook interface {
	onHeader(a *analyzer, m *bagread.Message, ts *topicState, stampNS int64, err error)
}

// recordHook sees each message of the record-time-only topics (no
// payload: m.Data is empty, m.Size the stored length).
type recordHook interface {
	onRecord(a *analyzer, m *bagread.Message, ts *topicState)
}

// rawHook sees the raw bytes of each message on the topics of one role
// (m.Data is valid during the call only).
type rawHook interface {
	role() topicRole
	onRaw(a *analyzer, m *bagread.Message)
}

// Ranks order the checks' hooks and finishes. Leave gaps for new checks.
const (
	rankSkew       = 100
	rankStampJumps = 200
	rankZeroStamp  = 300
	rankTFTree     = 400
	rankRosout     = 500
	rankSync       = 600
)

type checkMaker struct {
	rank int
	name string
	make func(a *analyzer) check
}

var checkMakers []checkMaker

// registerCheck adds a check to every analysis; call it from an init
// function. make may return nil to leave a bag out (e.g. nothing to check).
func registerCheck(rank int, name string, make func(a *analyzer) check) {
	checkMakers = append(checkMakers, checkMaker{rank, name, make})
}

// registerChecks makes the registered checks for this bag and files their
// hooks.
func (a *analyzer) registerChecks() {
	makers := append([]checkMaker(nil), checkMakers...)
	sort.SliceStable(makers, func(i, j int) bool {
		if makers[i].rank != makers[j].rank {
			return makers[i].rank < makers[j].rank
		}
		return makers[i].name < makers[j].name
	})
	for _, mk := range makers {
		c := mk.make(a)
		if c == nil {
			continue
		}
		a.checks = append(a.checks, c)
		if h, ok := c.(clockHook); ok {
			a.clockHooks = append(a.clockHooks, h)
		}
		if h, ok := c.(linkHook); ok {
			a.linkHooks = append(a.linkHooks, h)
		}
		if h, ok := c.(tfHook); ok {
			a.tfHooks = append(a.tfHooks, h)
		}
		if h, ok := c.(stampedHook); ok {
			a.stampedHooks = append(a.stampedHooks, h)
		}
		if h, ok := c.(headerHook); ok {
			a.headerHooks = append(a.headerHooks, h)
		}
		if h, ok := c.(recordHook); ok {
			a.recordHooks = append(a.recordHooks, h)
		}
		if h, ok := c.(rawHook); ok {
			for _, ts := range a.topics.list {
				if ts.role == h.role() {
					ts.raw = append(ts.raw, h)
				}
			}
		}
	}
}
