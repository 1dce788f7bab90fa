package ros1msg_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/ros1msg"
)

// rosbagPeer is Debian's python3-rosbag driven by internal/ros1peer's
// script; a missing peer skips, or fails under BAGCLOCK_REQUIRE_PEERS=1.
func rosbagPeer(t *testing.T) (python, script string) {
	t.Helper()
	python = "/usr/bin/python3"
	script, _ = filepath.Abs("../internal/ros1peer/rosbag_peer.py")
	if err := exec.Command(python, "-c", "import rosbag, sensor_msgs.msg, tf2_msgs.msg, rosgraph_msgs.msg").Run(); err != nil {
		if os.Getenv("BAGCLOCK_REQUIRE_PEERS") == "1" {
			t.Fatalf("BAGCLOCK_REQUIRE_PEERS=1: Debian's python3-rosbag is not installed: %v", err)
		}
		t.Skipf("Debian's python3-rosbag is not installed: %v", err)
	}
	return python, script
}

// peerFields is one message as genpy deserialized it: its type and the
// fields the peer script lists for that type (JSON numbers as float64).
type peerFields struct {
	Topic  string `json:"topic"`
	Type   string `json:"type"`
	Fields any    `json:"fields"`
}

// TestDecodeAgainstRosbag: every message of bags written by Debian's real
// rosbag library (each compression; /tf as tf2_msgs/TFMessage and as the
// legacy tf/tfMessage; stamps zero and on system time) decoded by this
// package gives, field by field, what genpy's own deserializer reads, and
// each connection's message_definition makes exactly the stamped types
// header-first.
func TestDecodeAgainstRosbag(t *testing.T) {
	python, script := rosbagPeer(t)
	dir := t.TempDir()
	cases := []struct{ comp, scenario string }{
		{"none", "healthy"}, {"bz2", "legacy_tf"}, {"lz4", "zero_stamps"}, {"none", "scan_on_system_time"},
	}
	for _, tc := range cases {
		t.Run(tc.comp+"-"+tc.scenario, func(t *testing.T) {
			path := filepath.Join(dir, tc.comp+"-"+tc.scenario+".bag")
			if out, err := exec.Command(python, script, "write", path, tc.comp, tc.scenario).CombinedOutput(); err != nil {
				t.Fatalf("rosbag write: %v\n%s", err, out)
			}
			want := peerDecode(t, python, script, path)
			bag, err := bagread.Open(path, bagread.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer bag.Close()
			for _, tp := range bag.Topics {
				si := ros1msg.StampedFromDefinition(tp.Type, tp.Definition)
				stamped := tp.Type == ros1msg.TypeLaserScan || tp.Type == ros1msg.TypeLog // ROS 1 Log starts with a Header
				if !si.Known || si.Stamped != stamped {
					t.Errorf("%s (%s): %+v, want stamped %v", tp.Name, tp.Type, si, stamped)
				}
			}
			it := bag.Messages(bagread.ReadOptions{})
			defer it.Close()
			i := 0
			types := map[string]int{}
			for ; it.Next(); i++ {
				m := it.Message()
				if i >= len(want) {
					t.Fatalf("more messages than rosbag reads (%d)", len(want))
				}
				w := want[i]
				if m.Topic != w.Topic {
					t.Fatalf("message %d: topic %s, rosbag %s", i, m.Topic, w.Topic)
				}
				got := decodeFields(t, bag.Topic(m.Topic).Type, m.Data)
				if !reflect.DeepEqual(got, w.Fields) {
					t.Fatalf("message %d (%s): decoded %v, genpy %v", i, m.Topic, got, w.Fields)
				}
				types[w.Type]++
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			if i != len(want) {
				t.Errorf("%d messages, rosbag %d", i, len(want))
			}
			if tc.scenario == "legacy_tf" && types[ros1msg.TypeTFLegacy] == 0 {
				t.Errorf("no tf/tfMessage decoded: %v", types)
			}
			t.Logf("%d messages compared: %v", i, types)
		})
	}
}

// decodeFields decodes data as typ and lists the fields as the peer
// script does, JSON-shaped.
func decodeFields(t *testing.T, typ string, data []byte) any {
	t.Helper()
	f := func(v float64) any { return v }
	u := func(v uint32) any { return float64(v) }
	switch typ {
	case ros1msg.TypeTFMessage, ros1msg.TypeTFLegacy:
		var m ros1msg.TFMessage
		in, err := ros1msg.DecodeTFMessageInto(&m, data)
		if err != nil || in.Trailing != 0 {
			t.Fatalf("%s: %v, info %+v", typ, err, in)
		}
		out := []any{}
		for _, x := range m.Transforms {
			tr, q := x.Transform.Translation, x.Transform.Rotation
			out = append(out, []any{u(x.Header.Seq), u(x.Header.Stamp.Sec), u(x.Header.Stamp.Nsec), x.Header.FrameID, x.ChildFrameID,
				f(tr.X), f(tr.Y), f(tr.Z), f(q.X), f(q.Y), f(q.Z), f(q.W)})
		}
		return out
	case ros1msg.TypeClock:
		c, in, err := ros1msg.DecodeClock(data)
		if err != nil || in.Trailing != 0 {
			t.Fatalf("%s: %v, info %+v", typ, err, in)
		}
		return []any{u(c.Clock.Sec), u(c.Clock.Nsec)}
	case ros1msg.TypeLog:
		l, in, err := ros1msg.DecodeLog(data)
		if err != nil || in.Trailing != 0 {
			t.Fatalf("%s: %v, info %+v", typ, err, in)
		}
		topics := []any{}
		for _, s := range l.Topics {
			topics = append(topics, s)
		}
		return []any{u(l.Header.Seq), u(l.Header.Stamp.Sec), u(l.Header.Stamp.Nsec), l.Header.FrameID, float64(l.Level),
			l.Name, l.Msg, l.File, l.Function, u(l.Line), topics}
	case ros1msg.TypeLaserScan:
		var s ros1msg.ScanHeader
		if err := ros1msg.DecodeLaserScanHeaderInto(&s, data); err != nil || s.Info.Trailing != 0 {
			t.Fatalf("%s: %v, info %+v", typ, err, s.Info)
		}
		var h ros1msg.Header
		if err := ros1msg.DecodeHeaderInto(&h, data, typ); err != nil || h != s.Header {
			t.Fatalf("DecodeHeaderInto %+v %v, scan header %+v", h, err, s.Header)
		}
		return []any{u(s.Header.Seq), u(s.Header.Stamp.Sec), u(s.Header.Stamp.Nsec), s.Header.FrameID,
			float64(s.TimeIncrement), float64(s.ScanTime), float64(s.NumRanges), float64(s.NumIntensities)}
	}
	t.Fatalf("type %s not expected", typ)
	return nil
}

func peerDecode(t *testing.T, python, script, bag string) []peerFields {
	t.Helper()
	out, err := exec.Command(python, script, "dump", bag).Output()
	if err != nil {
		t.Fatalf("rosbag dump %s: %v", bag, err)
	}
	var msgs []peerFields
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"summary": true`) {
			continue
		}
		var m peerFields
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	return msgs
}
