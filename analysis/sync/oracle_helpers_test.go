package sync

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// oCase is one stream for the differential test: a configuration and its
// messages in receive order.
type oCase struct {
	name string
	cfg  Config
	msgs []Message
}

// oDrop is a message that left a synchronizer unused (or is still in it).
type oDrop struct{ stream, index, event int64 }

// oSet is one emitted set.
type oSet struct {
	stamps, indices []int64
	event           int64
}

// oResult is what one synchronizer did with one stream, in the oracle's
// terms.
type oResult struct {
	sets            []oSet
	drops, pending  []oDrop
	received, inSet []int64
	dropped, unrep  []int64
	err             string
	errEvent        int64
}

const apt = "apt-get install -y --no-install-recommends libmessage-filters-dev libroscpp-dev libsensor-msgs-dev nlohmann-json3-dev g++ pkg-config make"

// buildSyncOracle compiles the sync oracle from a private copy of the peer
// folder, runs its own tests (make check), and compiles testdata/
// syncbatch.cpp beside it; the binary is cached by the sources' hash.
func buildSyncOracle(t *testing.T) string {
	t.Helper()
	src := filepath.Join(testenv.SharedDir(t), "peers", "sync-oracle")
	code, err := os.ReadFile(filepath.Join(src, "syncoracle.cpp"))
	if err != nil {
		testenv.PeerMissing(t, "sync oracle source not found: %v", err)
	}
	for _, tool := range []string{"make", "g++", "pkg-config", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.PeerMissing(t, "cannot build the sync oracle: %s not installed (%s)", tool, apt)
		}
	}
	if err := exec.Command("pkg-config", "--exists", "message_filters", "roscpp", "sensor_msgs").Run(); err != nil {
		testenv.PeerMissing(t, "cannot build the sync oracle: libmessage-filters-dev not installed (%s)", apt)
	}
	mk, _ := os.ReadFile(filepath.Join(src, "Makefile"))
	batch, err := os.ReadFile(filepath.Join("testdata", "syncbatch.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	cached := ""
	if dir, err := os.UserCacheDir(); err == nil {
		sum := sha256.Sum256(slices.Concat(code, mk, batch))
		cached = filepath.Join(dir, "bagclock", fmt.Sprintf("syncbatch-%x", sum))
		if fi, err := os.Stat(cached); err == nil && fi.Mode().IsRegular() {
			return cached
		}
	}
	dir := testenv.CopyTree(t, src)
	cmd := exec.Command("make", "-C", dir, "check")
	cmd.Env = append(os.Environ(), "ROS_MASTER_URI=http://127.0.0.1:1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sync oracle: make check failed: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "syncbatch.cpp"), batch, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "syncbatch")
	sh := `g++ -O2 -std=c++17 -Wno-unused-function -DMF_VERSION="\"$(pkg-config --modversion message_filters)\"" ` +
		`$(pkg-config --cflags message_filters roscpp sensor_msgs) -I. -o syncbatch syncbatch.cpp ` +
		`$(pkg-config --libs message_filters roscpp sensor_msgs)`
	cmd = exec.Command("sh", "-c", sh)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sync oracle: building syncbatch: %v\n%s", err, out)
	}
	if cached != "" && os.MkdirAll(filepath.Dir(cached), 0o755) == nil {
		if data, err := os.ReadFile(bin); err == nil && os.WriteFile(cached+".tmp", data, 0o755) == nil {
			if os.Rename(cached+".tmp", cached) == nil {
				return cached
			}
		}
	}
	return bin
}

// configLine is the oracle's config object for c.
func configLine(c Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"policy":%q,"queue_size":%d,"streams":%d`, c.Policy, c.QueueSize, c.Topics)
	if c.Policy == Approximate {
		if c.MaxIntervalNS != DurationMax {
			fmt.Fprintf(&b, `,"max_interval_duration_ns":%d`, c.MaxIntervalNS)
		}
		if c.LowerBoundsNS != nil {
			b.WriteString(`,"inter_message_lower_bound_ns":[`)
			for i, v := range c.LowerBoundsNS {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.FormatInt(v, 10))
			}
			b.WriteByte(']')
		}
		if c.AgePenalty != DefaultAgePenalty {
			fmt.Fprintf(&b, `,"age_penalty":%s`, strconv.FormatFloat(c.AgePenalty, 'g', -1, 64))
		}
	}
	if c.Reset {
		b.WriteString(`,"reset":true`)
	}
	b.WriteByte('}')
	return b.String()
}

// runOracle runs every case through one syncbatch process.
func runOracle(t *testing.T, bin string, cases []oCase) []oResult {
	t.Helper()
	var in bytes.Buffer
	for n, c := range cases {
		fmt.Fprintf(&in, "{\"case\":%d}\n%s\n", n, configLine(c.cfg))
		for _, m := range c.msgs {
			fmt.Fprintf(&in, "{\"stream\":%d,\"stamp_ns\":%d,\"recv_ns\":%d,\"index\":%d}\n", m.Topic, m.StampNS, m.RecvNS, m.Index)
		}
	}
	cmd := exec.Command(bin, filepath.Join(t.TempDir(), "case.jsonl"))
	cmd.Env = append(os.Environ(), "ROS_MASTER_URI=http://127.0.0.1:1")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("syncbatch: %v\n%s", err, tail(stderr.String()))
	}
	res := make([]oResult, len(cases))
	cur := -1
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var l map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("syncbatch output %q: %v", sc.Text(), err)
		}
		num := func(k string) int64 {
			var v int64
			json.Unmarshal(l[k], &v)
			return v
		}
		arr := func(k string) []int64 {
			var v []int64
			json.Unmarshal(l[k], &v)
			return v
		}
		if _, ok := l["case"]; ok {
			cur = int(num("case"))
			continue
		}
		if cur < 0 {
			t.Fatalf("syncbatch: output before the first case: %s", sc.Text())
		}
		r := &res[cur]
		_, isSummary := l["sets"]
		switch {
		case l["set"] != nil:
			r.sets = append(r.sets, oSet{stamps: arr("stamps_ns"), indices: arr("indices"), event: num("at_event")})
		case l["drop"] != nil:
			r.drops = append(r.drops, oDrop{num("stream"), num("index"), num("at_event")})
		case l["pending"] != nil && !isSummary:
			r.pending = append(r.pending, oDrop{num("stream"), num("index"), -1})
		case l["error"] != nil && !isSummary:
			json.Unmarshal(l["error"], &r.err)
			r.errEvent = num("at_event")
		case isSummary:
			if l["accounting_error"] != nil {
				t.Errorf("case %d (%s): the oracle flags an accounting error", cur, cases[cur].name)
			}
			r.received, r.inSet, r.dropped, r.unrep = arr("received"), arr("in_sets"), arr("dropped"), arr("unrepresentable")
		}
	}
	if cur != len(cases)-1 {
		t.Fatalf("syncbatch stopped after case %d of %d\n%s", cur, len(cases), tail(stderr.String()))
	}
	return res
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

// runOurs replays a case through this package; tweak may change the Sync
// before the first message.
func runOurs(c oCase, flavor Flavor, tweak func(*Sync)) oResult {
	cfg := c.cfg
	cfg.Flavor = flavor
	if flavor == FlavorROS2 {
		cfg.Reset = false
	}
	s, err := New(cfg)
	if err != nil {
		return oResult{err: "config: " + err.Error()}
	}
	if tweak != nil {
		tweak(s)
	}
	var r oResult
	s.OnSet = func(set Set) {
		r.sets = append(r.sets, oSet{stamps: slices.Clone(set.StampsNS), indices: slices.Clone(set.Indices), event: set.Event})
	}
	s.OnDrop = func(d Drop) { r.drops = append(r.drops, oDrop{int64(d.Topic), d.Index, d.Event}) }
	for _, m := range c.msgs {
		if err := s.Add(m); err != nil {
			var re *RangeError
			if e, ok := err.(*RangeError); ok {
				re = e
				r.err = re.What
			} else {
				r.err = err.Error()
			}
			r.errEvent = s.Events() - 1
			// The oracle sees what an add() dropped only when it returns.
			r.drops = slices.DeleteFunc(r.drops, func(d oDrop) bool { return d.event == r.errEvent })
			break
		}
	}
	k := cfg.Topics
	r.received, r.inSet, r.dropped, r.unrep = make([]int64, k), make([]int64, k), make([]int64, k), make([]int64, k)
	for i := 0; i < k; i++ {
		r.received[i], r.inSet[i], r.unrep[i], r.dropped[i] = s.Received[i], s.InSets[i], s.Unrepresentable[i], s.DroppedTotal(i)
	}
	if r.err == "" {
		s.Pending(func(topic int, _, index int64) { r.pending = append(r.pending, oDrop{int64(topic), index, -1}) })
	}
	return r
}

func sortDrops(d []oDrop) []oDrop {
	d = slices.Clone(d)
	slices.SortFunc(d, func(a, b oDrop) int {
		if a.stream != b.stream {
			return int(a.stream - b.stream)
		}
		if a.index != b.index {
			if a.index < b.index {
				return -1
			}
			return 1
		}
		return int(a.event - b.event)
	})
	return d
}

// diff describes the first difference between two results ("" if none).
// With aborted results only what happened up to the exception counts.
func diff(a, b oResult) string {
	if a.err != b.err || (a.err != "" && a.errEvent != b.errEvent) {
		return fmt.Sprintf("exception %q at event %d against %q at event %d", a.err, a.errEvent, b.err, b.errEvent)
	}
	n := min(len(a.sets), len(b.sets))
	for i := 0; i < n; i++ {
		x, y := a.sets[i], b.sets[i]
		if !slices.Equal(x.stamps, y.stamps) || !slices.Equal(x.indices, y.indices) || x.event != y.event {
			return fmt.Sprintf("set %d: stamps %v indices %v at event %d against stamps %v indices %v at event %d",
				i, x.stamps, x.indices, x.event, y.stamps, y.indices, y.event)
		}
	}
	if len(a.sets) != len(b.sets) {
		return fmt.Sprintf("%d sets against %d", len(a.sets), len(b.sets))
	}
	if x, y := sortDrops(a.drops), sortDrops(b.drops); !slices.Equal(x, y) {
		return fmt.Sprintf("drops %v against %v", firstDiff(x, y), firstDiff(y, x))
	}
	if a.err == "" {
		if x, y := sortDrops(a.pending), sortDrops(b.pending); !slices.Equal(x, y) {
			return fmt.Sprintf("pending %v against %v", x, y)
		}
		if !slices.Equal(a.received, b.received) || !slices.Equal(a.inSet, b.inSet) || !slices.Equal(a.dropped, b.dropped) || !slices.Equal(a.unrep, b.unrep) {
			return fmt.Sprintf("counts received %v in sets %v dropped %v unrepresentable %v against %v %v %v %v",
				a.received, a.inSet, a.dropped, a.unrep, b.received, b.inSet, b.dropped, b.unrep)
		}
	}
	return ""
}

func firstDiff(x, y []oDrop) []oDrop {
	var out []oDrop
	for _, d := range x {
		if !slices.Contains(y, d) {
			out = append(out, d)
			if len(out) == 3 {
				break
			}
		}
	}
	return out
}

func dumpCase(c oCase) string {
	var b strings.Builder
	b.WriteString(configLine(c.cfg) + "\n")
	for _, m := range c.msgs {
		fmt.Fprintf(&b, "{\"stream\":%d,\"stamp_ns\":%d,\"recv_ns\":%d,\"index\":%d}\n", m.Topic, m.StampNS, m.RecvNS, m.Index)
	}
	return b.String()
}
