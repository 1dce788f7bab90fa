package crosscheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/testenv"
)

// logRecord is one decoded rcl_interfaces/msg/Log in dumplog.mjs's shape.
type logRecord struct {
	Topic    string `json:"topic"`
	LogTime  int64  `json:"log_time_ns"`
	Stamp    int64  `json:"stamp_ns"`
	Level    uint8  `json:"level"`
	Name     string `json:"name"`
	Msg      string `json:"msg"`
	File     string `json:"file"`
	Function string `json:"function"`
	Line     uint32 `json:"line"`
}

// readLogs decodes every Log message of b. Besides decoding, each message
// must fill its bytes exactly (rmw writes no trailing bytes for Log, whose
// last field is a 4-aligned uint32), end its strings with NUL and carry one
// of the five severity levels.
func readLogs(t *testing.T, b *bagread.Bag) []logRecord {
	t.Helper()
	var topics []string
	for _, tp := range b.Topics {
		if kind(tp.Type) == cdr.TypeLog && tp.MessageCount > 0 {
			topics = append(topics, tp.Name)
		}
	}
	if len(topics) == 0 {
		return nil
	}
	it := b.Messages(bagread.ReadOptions{Topics: topics, Order: bagread.TimeOrder})
	defer it.Close()
	var recs []logRecord
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			t.Errorf("%s message %d: not recovered: %v", m.Topic, m.Index, m.Err)
			continue
		}
		l, info, err := cdr.DecodeLogInfo(m.Data)
		if err != nil {
			t.Errorf("%s message %d: %v", m.Topic, m.Index, err)
			continue
		}
		if info.Trailing != 0 || info.StringsWithoutNUL != 0 {
			t.Errorf("%s message %d: layout %+v, want exact size and NUL-terminated strings", m.Topic, m.Index, info)
		}
		switch l.Level {
		case cdr.LogDebug, cdr.LogInfo, cdr.LogWarn, cdr.LogError, cdr.LogFatal:
		default:
			t.Errorf("%s message %d: level %d", m.Topic, m.Index, l.Level)
		}
		recs = append(recs, logRecord{Topic: m.Topic, LogTime: m.LogTimeNS, Stamp: l.Stamp.Nanoseconds(),
			Level: l.Level, Name: l.Name, Msg: l.Msg, File: l.File, Function: l.Function, Line: l.Line})
	}
	if err := it.Err(); err != nil {
		t.Errorf("iteration: %v", err)
	}
	return recs
}

// TestRosout decodes every /rosout (rcl_interfaces/msg/Log) message of the
// shared bags and, when the Foxglove peer is available, compares every
// field with @foxglove/rosmsg2-serialization's decode.
func TestRosout(t *testing.T) {
	root, bags := sharedBags(t)
	total := 0
	dump, why := findPeer(t)
	if why != "" {
		if os.Getenv("BAGCLOCK_REQUIRE_PEERS") == "1" {
			t.Fatalf("BAGCLOCK_REQUIRE_PEERS=1: %s", why)
		}
		t.Logf("decoding only, no peer comparison: %s", why)
	}
	for _, bag := range bags {
		t.Run(bag, func(t *testing.T) {
			path := filepath.Join(root, filepath.FromSlash(bag))
			b := openBag(t, path)
			ours := readLogs(t, b)
			if len(ours) == 0 {
				t.Skip("no Log messages")
			}
			total += len(ours)
			if dump == "" {
				return
			}
			cp := testenv.CopyTree(t, path)
			var peer []logRecord
			for _, f := range b.Files {
				target := cp
				if !strings.HasSuffix(cp, filepath.Base(f.Path)) {
					target = filepath.Join(cp, filepath.Base(f.Path))
				}
				recs, err := runLogPeer(filepath.Join(filepath.Dir(dump), "bagclock-dumplog.mjs"), target)
				if err != nil {
					t.Fatal(err)
				}
				peer = append(peer, recs...)
			}
			compareLogs(t, ours, peer)
		})
	}
	t.Logf("%d Log messages decoded", total)
}

func runLogPeer(script, target string) ([]logRecord, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, target)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("node dumplog.mjs %s: %v\n%s", target, err, stderr.Bytes())
	}
	var recs []logRecord
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var r logRecord // int64 fields: encoding/json parses integers exactly
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("dumplog.mjs %s: %v: %s", target, err, sc.Bytes())
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}

func compareLogs(t *testing.T, ours, peer []logRecord) {
	t.Helper()
	order := func(rs []logRecord) {
		sort.SliceStable(rs, func(i, j int) bool {
			if rs[i].LogTime != rs[j].LogTime {
				return rs[i].LogTime < rs[j].LogTime
			}
			if rs[i].Stamp != rs[j].Stamp {
				return rs[i].Stamp < rs[j].Stamp
			}
			return rs[i].Msg < rs[j].Msg
		})
	}
	order(ours)
	order(peer)
	if len(ours) != len(peer) {
		t.Errorf("%d Log messages from bagclock, %d from the peer", len(ours), len(peer))
	}
	bad := 0
	for i := range min(len(ours), len(peer)) {
		if ours[i] != peer[i] {
			if bad < 5 {
				t.Errorf("Log %d differs:\nbagclock %+v\npeer     %+v", i, ours[i], peer[i])
			}
			bad++
		}
	}
	if bad == 0 {
		t.Logf("%d Log messages identical", len(peer))
	}
}
