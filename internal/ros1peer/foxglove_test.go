package ros1peer

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/ros1msg"
)

// pubKey names one publisher's stream on a topic. The test bags give each
// connection of a topic its own callerid, so it names a connection in all
// three readers, whose connection ids need not agree.
type pubKey struct{ Topic, Callerid string }

// msgLine is one message as a reader saw it: record time, payload hash,
// and the stamps and frame ids bagclock's analysis reads from it.
type msgLine struct {
	TimeNS int64
	SHA256 string
	Stamps string
}

// connLine is one connection record as a reader saw it. A field a reader
// does not report is left empty and not compared.
type connLine struct {
	Type     string
	MD5Sum   string
	Latching bool
	Count    uint64
}

// reading is everything one reader reported of a bag.
type reading struct {
	msgs  map[pubKey][]msgLine
	conns map[pubKey]connLine
}

func newReading() reading {
	return reading{msgs: map[pubKey][]msgLine{}, conns: map[pubKey]connLine{}}
}

// The normalised stamp texts all three readers are turned into.
func tfStamp(sec, nsec uint32, frame, child string) string {
	return fmt.Sprintf("tf %d.%09d %q>%q", sec, nsec, frame, child)
}
func headerStamp(sec, nsec uint32, frame string, seq uint32) string {
	return fmt.Sprintf("header %d.%09d %q #%d", sec, nsec, frame, seq)
}
func clockStamp(sec, nsec uint32) string { return fmt.Sprintf("clock %d.%09d", sec, nsec) }

// TestROS1AgainstFoxglove reads bags written by Debian's rosbag library
// (no compression, bz2 and lz4 chunks; one connection per topic as
// python's Bag.write makes them, and one per topic and callerid as rosbag
// record does, with two latched /tf_static publishers; /tf as the legacy
// tf/tfMessage, scans stamped 0, scans on system time) with bagclock's
// reader and ROS 1 deserializer, with Foxglove's @foxglove/rosbag and with
// rosbag itself, and requires the same connections (type, md5sum,
// callerid, latching, message count) and, per connection, the same
// messages in the same order: record time, payload hash, and every stamp,
// frame id, child frame id and seq the analysis reads.
//
// The three agree on every message of every bag here but in one respect:
// the order of one connection's messages with the same record time. In
// the bags with one connection per topic, /tf's two publishers write at
// the same record time into one connection. Debian's rosbag yields those
// in file order, the order they were written (its heapq.merge of the
// per-connection indexes is stable), and so does bagclock; @foxglove/rosbag
// merges by a binary heap that compares the time alone and is not stable,
// so it yields ties in an arbitrary order. rosbag is right: the file order
// is the order the recorder received them in. The comparison with
// @foxglove/rosbag therefore sorts each run of equal record times, and
// the test logs how many messages it moved.
//
// They differ too on a
// .bag.active left by a crash (index_pos still 0, no index records):
// neither library reads it (@foxglove/rosbag fails with "no timestamp",
// having found no chunk infos; rosbag raises ROSBagUnindexedException and
// wants `rosbag reindex`), while bagclock reads its complete chunks by a
// linear scan and says so. Neither is wrong: the format leaves an
// unindexed file to reindexing, and the messages bagclock recovers are
// checked here to be exactly the full bag's, connection by connection.
func TestROS1AgainstFoxglove(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node and python on nine generated bags")
	}
	python, script := rosbagPeer(t)
	fox := foxglovePeer(t)
	dir := t.TempDir()
	type bagCase struct{ scenario, comp string }
	var cases []bagCase
	for _, scenario := range []string{"healthy", "several_connections"} {
		for _, comp := range []string{"none", "bz2", "lz4"} {
			cases = append(cases, bagCase{scenario, comp})
		}
	}
	// The other scenarios the ROS 1 tests write, once each.
	cases = append(cases, bagCase{"legacy_tf", "bz2"}, bagCase{"zero_stamps", "lz4"}, bagCase{"scan_on_system_time", "none"})
	for _, tc := range cases {
		scenario, comp := tc.scenario, tc.comp
		t.Run(scenario+"/"+comp, func(t *testing.T) {
			bag := filepath.Join(dir, scenario+"-"+comp+".bag")
			active := bag + ".active"
			if out, err := exec.Command(python, script, "write", bag, comp, scenario, active).CombinedOutput(); err != nil {
				t.Fatalf("rosbag write: %v\n%s", err, out)
			}
			ours := readBagclock(t, bag)
			peer := readFoxglove(t, fox, bag)
			debian := readRosbag(t, python, script, bag)
			if n := countMessages(ours); n < 1000 {
				t.Fatalf("bagclock read only %d messages", n)
			}
			compareReadings(t, "@foxglove/rosbag", ours, peer, true)
			compareReadings(t, "Debian's rosbag", ours, debian, false)
			compareReadings(t, "@foxglove/rosbag against Debian's rosbag:", debian, peer, true)
			checkLayout(t, scenario, ours)
			if n := reorderedTies(ours, peer); n > 0 {
				t.Logf("@foxglove/rosbag yields %d messages in another order than the file's among equal record times", n)
			}

			if err := runFoxglove(fox, active, new(bytes.Buffer)); err == nil {
				t.Errorf("@foxglove/rosbag read the unindexed %s; the test's account of the difference is stale", filepath.Base(active))
			}
			if err := exec.Command(python, script, "dump", active).Run(); err == nil {
				t.Errorf("Debian's rosbag read the unindexed %s; the test's account of the difference is stale", filepath.Base(active))
			}
			recovered := readBagclock(t, active)
			if n := countMessages(recovered); n == 0 || n >= countMessages(ours) {
				t.Errorf("active copy: bagclock recovered %d of %d messages", n, countMessages(ours))
			}
			for k, got := range recovered.msgs {
				if want := ours.msgs[k]; len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
					t.Errorf("active copy, %s from %s: %d messages are not a prefix of the full bag's %d", k.Topic, k.Callerid, len(got), len(want))
				}
			}
		})
	}
}

// checkLayout pins the connection layout each scenario is meant to have, so
// a change of the writer cannot quietly drop what the comparison covers.
func checkLayout(t *testing.T, scenario string, r reading) {
	t.Helper()
	perTopic := map[string]int{}
	for k, c := range r.conns {
		perTopic[k.Topic]++
		if k.Topic == "/tf_static" && !c.Latching {
			t.Errorf("/tf_static from %s is not latching", k.Callerid)
		}
		if k.Topic != "/tf_static" && c.Latching {
			t.Errorf("%s from %s is latching", k.Topic, k.Callerid)
		}
	}
	want := 1
	if scenario == "several_connections" {
		want = 2
	}
	for _, topic := range []string{"/tf", "/tf_static"} {
		if perTopic[topic] != want {
			t.Errorf("%s has %d connections, want %d", topic, perTopic[topic], want)
		}
	}
}

// sortTies returns a copy of msgs (in time order) with each run of equal
// record times sorted by payload hash and stamps.
func sortTies(msgs []msgLine) []msgLine {
	out := slices.Clone(msgs)
	slices.SortStableFunc(out, func(a, b msgLine) int {
		return cmp.Or(cmp.Compare(a.TimeNS, b.TimeNS), cmp.Compare(a.SHA256, b.SHA256), cmp.Compare(a.Stamps, b.Stamps))
	})
	return out
}

// reorderedTies counts the messages whose place differs between two
// readings of one connection (the same messages, ties aside).
func reorderedTies(a, b reading) int {
	n := 0
	for k, am := range a.msgs {
		bm := b.msgs[k]
		for i := range min(len(am), len(bm)) {
			if am[i] != bm[i] {
				n++
			}
		}
	}
	return n
}

func countMessages(r reading) int {
	n := 0
	for _, m := range r.msgs {
		n += len(m)
	}
	return n
}

// compareReadings requires peer to have seen what ours did, connection by
// connection and message by message. With tiesUnordered, messages of one
// connection with the same record time may come in any order among
// themselves (see TestROS1AgainstFoxglove).
func compareReadings(t *testing.T, name string, ours, peer reading, tiesUnordered bool) {
	t.Helper()
	keys := map[pubKey]bool{}
	for k := range ours.conns {
		keys[k] = true
	}
	for k := range peer.conns {
		keys[k] = true
	}
	for k := range keys {
		o, okO := ours.conns[k]
		p, okP := peer.conns[k]
		if !okO || !okP {
			t.Errorf("%s: connection %s from %s: in bagclock's %v, in the peer's %v", name, k.Topic, k.Callerid, okO, okP)
			continue
		}
		if o.MD5Sum == "" || p.MD5Sum == "" { // Debian's rosbag's dump does not report it
			o.MD5Sum, p.MD5Sum = "", ""
		}
		if o != p {
			t.Errorf("%s: connection %s from %s: %+v, peer %+v", name, k.Topic, k.Callerid, o, p)
		}
		om, pm := ours.msgs[k], peer.msgs[k]
		if tiesUnordered {
			om, pm = sortTies(om), sortTies(pm)
		}
		if len(om) != len(pm) {
			t.Errorf("%s: %s from %s: %d messages, peer %d", name, k.Topic, k.Callerid, len(om), len(pm))
		}
		for i := range min(len(om), len(pm)) {
			if om[i] != pm[i] {
				t.Errorf("%s: %s from %s, message %d: %+v, peer %+v", name, k.Topic, k.Callerid, i, om[i], pm[i])
				break
			}
		}
	}
}

// readBagclock reads path with bagread and decodes each message's stamps
// with ros1msg, by the topic's type and its definition.
func readBagclock(t *testing.T, path string) reading {
	t.Helper()
	b, err := bagread.Open(path, bagread.Options{})
	if err != nil {
		t.Fatalf("bagread.Open %s: %v", path, err)
	}
	defer b.Close()
	r := newReading()
	stamped := map[string]bool{}
	for _, tp := range b.Topics {
		stamped[tp.Name] = ros1msg.StampedFromDefinition(tp.Type, tp.Definition).Stamped
		for _, c := range tp.Connections {
			r.conns[pubKey{tp.Name, c.Callerid}] = connLine{Type: tp.Type, MD5Sum: c.MD5Sum, Latching: c.Latching, Count: c.Count}
		}
	}
	it := b.Messages(bagread.ReadOptions{})
	defer it.Close()
	var tfm ros1msg.TFMessage
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			t.Errorf("%s, message %d: %v", m.Topic, m.Index, m.Err)
			continue
		}
		var stamps []string
		switch m.Type {
		case ros1msg.TypeTFMessage, ros1msg.TypeTFLegacy:
			if _, err := ros1msg.DecodeTFMessageInto(&tfm, m.Data); err != nil {
				t.Fatalf("%s, message %d: %v", m.Topic, m.Index, err)
			}
			for _, tr := range tfm.Transforms {
				stamps = append(stamps, tfStamp(tr.Header.Stamp.Sec, tr.Header.Stamp.Nsec, tr.Header.FrameID, tr.ChildFrameID))
			}
		case ros1msg.TypeClock:
			c, _, err := ros1msg.DecodeClock(m.Data)
			if err != nil {
				t.Fatalf("%s, message %d: %v", m.Topic, m.Index, err)
			}
			stamps = append(stamps, clockStamp(c.Clock.Sec, c.Clock.Nsec))
		default:
			if stamped[m.Topic] {
				var h ros1msg.Header
				if err := ros1msg.DecodeHeaderInto(&h, m.Data, m.Type); err != nil {
					t.Fatalf("%s, message %d: %v", m.Topic, m.Index, err)
				}
				stamps = append(stamps, headerStamp(h.Stamp.Sec, h.Stamp.Nsec, h.FrameID, h.Seq))
			}
		}
		sum := sha256.Sum256(m.Data)
		k := pubKey{m.Topic, m.Publisher}
		r.msgs[k] = append(r.msgs[k], msgLine{TimeNS: m.LogTimeNS, SHA256: hex.EncodeToString(sum[:]), Stamps: strings.Join(stamps, "; ")})
	}
	if err := it.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return r
}

// runFoxglove runs foxglove_dump.mjs on path into out.
func runFoxglove(script, path string, out *bytes.Buffer) error {
	var stderr bytes.Buffer
	cmd := exec.Command("node", script, path)
	cmd.Stdout, cmd.Stderr = out, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("node foxglove_dump.mjs %s: %w\n%s", path, err, stderr.Bytes())
	}
	return nil
}

// foxLine is one line foxglove_dump.mjs prints: a message, or the summary.
type foxLine struct {
	Summary     bool    `json:"summary"`
	Topic       string  `json:"topic"`
	Sec         uint32  `json:"sec"`
	Nsec        uint32  `json:"nsec"`
	Callerid    string  `json:"callerid"`
	SHA256      string  `json:"sha256"`
	Stamps      [][]any `json:"stamps"`
	Connections []struct {
		Topic    string `json:"topic"`
		Type     string `json:"type"`
		MD5Sum   string `json:"md5sum"`
		Callerid string `json:"callerid"`
		Latching bool   `json:"latching"`
		Count    uint64 `json:"count"`
	} `json:"connections"`
}

func readFoxglove(t *testing.T, script, path string) reading {
	t.Helper()
	var out bytes.Buffer
	if err := runFoxglove(script, path, &out); err != nil {
		t.Fatal(err)
	}
	r := newReading()
	summaries := 0
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var l foxLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("foxglove_dump.mjs line %d: %v", n, err)
		}
		if l.Summary {
			summaries++
			for _, c := range l.Connections {
				r.conns[pubKey{c.Topic, c.Callerid}] = connLine{Type: c.Type, MD5Sum: c.MD5Sum, Latching: c.Latching, Count: c.Count}
			}
			continue
		}
		stamps, err := foxStamps(l.Stamps)
		if err != nil {
			t.Fatalf("foxglove_dump.mjs line %d: %v", n, err)
		}
		k := pubKey{l.Topic, l.Callerid}
		r.msgs[k] = append(r.msgs[k], msgLine{TimeNS: int64(l.Sec)*1e9 + int64(l.Nsec), SHA256: l.SHA256, Stamps: stamps})
	}
	if summaries != 1 {
		t.Fatalf("foxglove_dump.mjs printed %d summary lines", summaries)
	}
	return r
}

// foxStamps turns the script's stamp arrays ([sec, nsec] a Clock,
// [sec, nsec, frame, seq] a Header, [sec, nsec, frame, child] a transform)
// into the normalised texts.
func foxStamps(raw [][]any) (string, error) {
	var out []string
	for _, s := range raw {
		if len(s) != 2 && len(s) != 4 {
			return "", fmt.Errorf("stamp %v", s)
		}
		sec, ok1 := s[0].(float64)
		nsec, ok2 := s[1].(float64)
		if !ok1 || !ok2 {
			return "", fmt.Errorf("stamp %v", s)
		}
		if len(s) == 2 {
			out = append(out, clockStamp(uint32(sec), uint32(nsec)))
			continue
		}
		frame, _ := s[2].(string)
		switch last := s[3].(type) {
		case string:
			out = append(out, tfStamp(uint32(sec), uint32(nsec), frame, last))
		case float64:
			out = append(out, headerStamp(uint32(sec), uint32(nsec), frame, uint32(last)))
		default:
			return "", fmt.Errorf("stamp %v", s)
		}
	}
	return strings.Join(out, "; "), nil
}

// rosLine is one message line of rosbag_peer.py dump.
type rosLine struct {
	Summary  bool              `json:"summary"`
	Topic    string            `json:"topic"`
	Time     int64             `json:"time"`
	Callerid string            `json:"callerid"`
	Latching bool              `json:"latching"`
	SHA256   string            `json:"sha256"`
	Type     string            `json:"type"`
	Raw      []json.RawMessage `json:"stamps"`
}

// readRosbag reads path with Debian's rosbag. It reports no md5sum, and a
// connection's type and latching as its messages carry them.
func readRosbag(t *testing.T, python, script, path string) reading {
	t.Helper()
	out, err := exec.Command(python, script, "dump", path).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("rosbag dump %s: %v\n%s", path, err, ee.Stderr)
		}
		t.Fatalf("rosbag dump %s: %v", path, err)
	}
	r := newReading()
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var l rosLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("rosbag_peer.py line %d: %v", n, err)
		}
		if l.Summary {
			continue
		}
		stamps, err := rosStamps(l.Raw)
		if err != nil {
			t.Fatalf("rosbag_peer.py line %d: %v", n, err)
		}
		k := pubKey{l.Topic, l.Callerid}
		r.msgs[k] = append(r.msgs[k], msgLine{TimeNS: l.Time, SHA256: l.SHA256, Stamps: stamps})
		c := r.conns[k]
		c.Type, c.Latching = l.Type, l.Latching
		c.Count++
		r.conns[k] = c
	}
	return r
}

// rosStamps turns rosbag_peer.py's stamps ([ns] a Clock, [ns, frame, seq]
// a Header, [ns, frame, child] a transform) into the normalised texts.
func rosStamps(raw []json.RawMessage) (string, error) {
	var out []string
	for _, s := range raw {
		d := json.NewDecoder(bytes.NewReader(s))
		d.UseNumber()
		var v []any
		if err := d.Decode(&v); err != nil || len(v) == 0 {
			return "", fmt.Errorf("stamp %s: %v", s, err)
		}
		num, ok := v[0].(json.Number)
		if !ok {
			return "", fmt.Errorf("stamp %s", s)
		}
		ns, err := num.Int64()
		if err != nil {
			return "", fmt.Errorf("stamp %s: %w", s, err)
		}
		sec, nsec := uint32(ns/1e9), uint32(ns%1e9)
		if len(v) == 1 {
			out = append(out, clockStamp(sec, nsec))
			continue
		}
		if len(v) != 3 {
			return "", fmt.Errorf("stamp %s", s)
		}
		frame, _ := v[1].(string)
		switch last := v[2].(type) {
		case string:
			out = append(out, tfStamp(sec, nsec, frame, last))
		case json.Number:
			seq, err := last.Int64()
			if err != nil {
				return "", fmt.Errorf("stamp %s: %w", s, err)
			}
			out = append(out, headerStamp(sec, nsec, frame, uint32(seq)))
		default:
			return "", fmt.Errorf("stamp %s", s)
		}
	}
	return strings.Join(out, "; "), nil
}
