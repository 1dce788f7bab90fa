package bagread

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rosbagPeer is Debian's python3-rosbag driven by internal/ros1peer's
// script; a missing peer skips, or fails under BAGCLOCK_REQUIRE_PEERS=1.
func rosbagPeer(t *testing.T) (python, script string) {
	t.Helper()
	python = "/usr/bin/python3"
	script, _ = filepath.Abs("../internal/ros1peer/rosbag_peer.py")
	if err := exec.Command(python, "-c", "import rosbag, sensor_msgs.msg, tf2_msgs.msg, rosgraph_msgs.msg").Run(); err != nil {
		if os.Getenv("BAGCLOCK_REQUIRE_PEERS") == "1" {
			t.Fatalf("BAGCLOCK_REQUIRE_PEERS=1: Debian's python3-rosbag (with python3-sensor-msgs, python3-tf2-msgs) is not installed: %v", err)
		}
		t.Skipf("Debian's python3-rosbag is not installed (apt-get install python3-rosbag python3-sensor-msgs python3-tf2-msgs): %v", err)
	}
	return python, script
}

type peerMsg struct {
	Topic    string `json:"topic"`
	Time     int64  `json:"time"`
	Callerid string `json:"callerid"`
	SHA256   string `json:"sha256"`
}

func peerDump(t *testing.T, python, script, bag string) []peerMsg {
	t.Helper()
	out, err := exec.Command(python, script, "dump", bag).Output()
	if err != nil {
		t.Fatalf("rosbag dump %s: %v", bag, err)
	}
	var msgs []peerMsg
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"summary": true`) {
			continue
		}
		var m peerMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// TestROS1AgainstRosbag: bags written by the real rosbag library in every
// compression, with two callerids written on /tf and a latched /tf_static, read
// back message by message (topic, record time, callerid, payload hash)
// against what rosbag itself reads; the .bag.active copy taken before
// close (no index) is read by the linear scan and is a prefix of it.
func TestROS1AgainstRosbag(t *testing.T) {
	python, script := rosbagPeer(t)
	dir := t.TempDir()
	for _, comp := range []string{"none", "bz2", "lz4"} {
		t.Run(comp, func(t *testing.T) {
			bag := filepath.Join(dir, comp+".bag")
			active := bag + ".active"
			if out, err := exec.Command(python, script, "write", bag, comp, "healthy", active).CombinedOutput(); err != nil {
				t.Fatalf("rosbag write: %v\n%s", err, out)
			}
			want := peerDump(t, python, script, bag)
			if len(want) < 1000 {
				t.Fatalf("rosbag read back only %d messages", len(want))
			}
			got, b := readROS1(t, bag)
			if b.Files[0].Recovery != nil || !b.Files[0].Indexed {
				t.Errorf("closed bag: Indexed %v, Recovery %+v", b.Files[0].Indexed, b.Files[0].Recovery)
			}
			compareROS1(t, got, want, false)
			if b.MessageCount != uint64(len(want)) {
				t.Errorf("MessageCount %d, rosbag reads %d", b.MessageCount, len(want))
			}
			// python rosbag files both /tf publishers under one connection
			// (the first callerid; its summary says 1 connection), and the
			// per-message callerids above agree with it.
			tfTopic := b.Topic("/tf")
			if tfTopic == nil || len(tfTopic.Connections) != 1 || tfTopic.Type != "tf2_msgs/TFMessage" || tfTopic.SerializationFormat != SerializationROS1 {
				t.Errorf("/tf topic: %+v", tfTopic)
			}
			if st := b.Topic("/tf_static"); st == nil || len(st.Connections) != 1 || !st.Connections[0].Latching || st.Connections[0].Callerid != "/robot_state_publisher" {
				t.Errorf("/tf_static topic: %+v", st)
			}

			gotActive, ba := readROS1(t, active)
			rec := ba.Files[0].Recovery
			if rec == nil || !strings.Contains(rec.Reason, "linear scan") || !strings.Contains(rec.Reason, "index_pos is 0") {
				t.Errorf("active copy: Recovery %+v", rec)
			}
			if len(gotActive) == 0 || len(gotActive) >= len(want) || ba.MessageCount != uint64(len(gotActive)) {
				t.Errorf("active copy: %d messages read (MessageCount %d), full bag %d", len(gotActive), ba.MessageCount, len(want))
			}
			compareROS1(t, gotActive, want, true)

			// A file cut in its index section and one cut mid-chunk: the
			// scan reads every complete chunk.
			data, err := os.ReadFile(bag)
			if err != nil {
				t.Fatal(err)
			}
			cut := filepath.Join(dir, comp+"-cut.bag")
			if err := os.WriteFile(cut, data[:len(data)*2/3], 0o644); err != nil {
				t.Fatal(err)
			}
			gotCut, bc := readROS1(t, cut)
			if bc.Files[0].Recovery == nil || len(gotCut) == 0 || len(gotCut) >= len(want) {
				t.Errorf("cut file: %d messages, Recovery %+v", len(gotCut), bc.Files[0].Recovery)
			}
			compareROS1(t, gotCut, want, true)
		})
	}
}

func readROS1(t *testing.T, path string) ([]peerMsg, *Bag) {
	t.Helper()
	b, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open %s: %v", path, err)
	}
	t.Cleanup(func() { b.Close() })
	if b.Storage != StorageROS1 {
		t.Fatalf("Storage %q", b.Storage)
	}
	it := b.Messages(ReadOptions{})
	defer it.Close()
	var out []peerMsg
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			t.Errorf("message error: %v", m.Err)
			continue
		}
		h := sha256.Sum256(m.Data)
		out = append(out, peerMsg{Topic: m.Topic, Time: m.LogTimeNS, Callerid: m.Publisher, SHA256: hex.EncodeToString(h[:])})
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out, b
}

// compareROS1 compares got with want in order (rosbag reads an indexed bag
// in time order; the script writes in time order, so both are file order),
// or with a prefix of want.
func compareROS1(t *testing.T, got, want []peerMsg, prefix bool) {
	t.Helper()
	if !prefix && len(got) != len(want) {
		t.Errorf("%d messages, rosbag reads %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("message %d: got %+v, rosbag %+v", i, got[i], want[i])
		}
	}
}
