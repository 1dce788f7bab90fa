package crosscheck

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/testenv"
)

// peerJS returns the path of a runnable dump.mjs (Foxglove's decoders, see
// ../shared/peers/README.md), skipping the test when there is none (see
// findPeer). With BAGCLOCK_REQUIRE_PEERS=1 (for CI) a missing peer fails.
func peerJS(t *testing.T) string {
	t.Helper()
	dump, why := findPeer(t)
	if why != "" {
		if os.Getenv("BAGCLOCK_REQUIRE_PEERS") == "1" {
			t.Fatalf("BAGCLOCK_REQUIRE_PEERS=1: %s", why)
		}
		t.Skip(why)
	}
	return dump
}

// findPeer returns dump.mjs's path, or why the peer cannot run here.
// node_modules is installed once with `npm ci` (about 2 minutes:
// better-sqlite3 compiles) into $BAGCLOCK_PEER_CACHE or
// <user cache dir>/bagclock-peers/js-<hash of package-lock.json> and
// reused by later runs; the scripts are refreshed on every run. A failing
// install fails the test.
func findPeer(t *testing.T) (dump, why string) {
	t.Helper()
	if testing.Short() {
		return "", "peer cross-check skipped under -short (runs node on every shared bag)"
	}
	src := filepath.Join(testenv.SharedDir(t), "peers", "js")
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", fmt.Sprintf("%s not found: the Foxglove peer needs Node.js 20-22 with npm (e.g. NodeSource nodejs 20) plus python3, make and g++ for better-sqlite3: %v", tool, err)
		}
	}
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "", fmt.Sprintf("node --version: %v", err)
	}
	var major int
	if _, err := fmt.Sscanf(string(out), "v%d", &major); err != nil || major < 20 || major > 22 {
		return "", fmt.Sprintf("node %s found; the peer's package.json requires Node.js >=20 <23 (Debian bookworm's nodejs is 18: use NodeSource 20)", strings.TrimSpace(string(out)))
	}
	lock, err := os.ReadFile(filepath.Join(src, "package-lock.json"))
	if err != nil {
		t.Fatalf("peer: %v", err)
	}
	sum := sha256.Sum256(lock)
	base := os.Getenv("BAGCLOCK_PEER_CACHE")
	if base == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Sprintf("no cache directory for the peer install: %v", err)
		}
		base = filepath.Join(cache, "bagclock-peers")
	}
	dir := filepath.Join(base, "js-"+hex.EncodeToString(sum[:8]))
	marker := filepath.Join(dir, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node")
	if _, err := os.Stat(marker); err != nil {
		// One install at a time: concurrent test processes (several
		// packages, several checkouts) wait for the first instead of
		// each compiling better-sqlite3, which on a loaded 2-core machine
		// made every install outlast the test timeout.
		// The unlock is deferred: a failed install ends the test with
		// t.Fatal (runtime.Goexit), and a lock left held would block the
		// next test of this process on its own flock forever.
		func() {
			unlock := lockPeerInstall(t, base)
			defer unlock()
			if _, err := os.Stat(marker); err != nil {
				installPeer(t, src, base, dir)
			}
		}()
	}
	// Refresh the scripts (cheap) so changed scripts are always used; ours
	// (testdata/dumplog.mjs) goes beside them to find node_modules.
	for _, f := range [][2]string{
		{filepath.Join(src, "dump.mjs"), "dump.mjs"},
		{filepath.Join(src, "package.json"), "package.json"},
		{filepath.Join("testdata", "dumplog.mjs"), "bagclock-dumplog.mjs"},
		{filepath.Join("testdata", "scanhash.mjs"), "bagclock-scanhash.mjs"},
	} {
		b, err := os.ReadFile(f[0])
		if err != nil {
			t.Fatalf("peer: %v", err)
		}
		if old, _ := os.ReadFile(filepath.Join(dir, f[1])); !bytes.Equal(old, b) {
			if err := os.WriteFile(filepath.Join(dir, f[1]), b, 0o644); err != nil {
				t.Fatalf("peer: %v", err)
			}
		}
	}
	return filepath.Join(dir, "dump.mjs"), ""
}

// installPeer runs npm ci in a fresh directory beside dir and renames it
// into place, so an interrupted or concurrent install never leaves a
// half-filled cache behind.
func installPeer(t *testing.T, src, base, dir string) {
	t.Helper()
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatalf("peer: %v", err)
	}
	tmp, err := os.MkdirTemp(base, "install-")
	if err != nil {
		t.Fatalf("peer: %v", err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range []string{"package.json", "package-lock.json", "dump.mjs"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatalf("peer: %v", err)
		}
		if err := os.WriteFile(filepath.Join(tmp, f), b, 0o644); err != nil {
			t.Fatalf("peer: %v", err)
		}
	}
	t.Logf("installing the Foxglove peer into %s (npm ci, about 2 minutes)", dir)
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("peer: npm ci in %s: %v\n%s", tmp, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(dir); serr != nil { // not a concurrent install that won
			t.Fatalf("peer: %v", err)
		}
	}
	t.Logf("peer installed in %v", time.Since(start).Round(time.Second))
}

// runPeer runs dump.mjs on target (through testdata/scanhash.mjs, which
// adds the hashes of every scan's full ranges and intensities) and parses
// its lines into records. With topics nil the peer decodes every topic and
// picks by itself which are LaserScan, TFMessage and Clock: the lines of
// any other type are left out.
func runPeer(t *testing.T, dump, target string, topics []string, extra ...string) ([]record, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	hashes := filepath.Join(t.TempDir(), "scanhashes")
	args := []string{filepath.Join(filepath.Dir(dump), "bagclock-scanhash.mjs"), target}
	summary := len(topics) == 1 && topics[0] == peerSummaryOnly
	switch {
	case summary:
		// A topic no bag can have ("//" is not a valid name): the peer
		// decodes nothing and counts every topic in its summary.
		args = append(args, "--topics", "//none", "--summary")
	case topics != nil:
		args = append(args, "--topics", strings.Join(topics, ","))
	}
	args = append(args, extra...)
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Env = append(os.Environ(), "BAGCLOCK_SCAN_HASHES="+hashes)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("node dump.mjs %s: %v\n%s", target, err, stderr.Bytes())
	}
	if summary {
		return parsePeerSummary(target, stderr.Bytes())
	}
	hb, err := os.ReadFile(hashes)
	if err != nil {
		return nil, fmt.Errorf("scan hashes of %s: %v", target, err)
	}
	hashLines := strings.Split(strings.TrimSuffix(string(hb), "\n"), "\n")
	if len(hb) == 0 {
		hashLines = nil
	}
	var recs []record
	scans := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for n := 1; sc.Scan(); n++ {
		if topics == nil {
			var head struct{ Type string }
			if err := json.Unmarshal(sc.Bytes(), &head); err != nil {
				return nil, fmt.Errorf("dump.mjs %s line %d: %v", target, n, err)
			}
			if k := kind(head.Type); k == "" || k == cdr.TypeLog {
				continue
			}
		}
		r, err := parsePeerLine(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("dump.mjs %s line %d: %v: %s", target, n, err, sc.Bytes())
		}
		if r.Kind == cdr.TypeLaserScan {
			if scans >= len(hashLines) {
				return nil, fmt.Errorf("dump.mjs %s: scan line %d has no ranges/intensities hash (%d hashes)", target, n, len(hashLines))
			}
			var nr, ni int
			if _, err := fmt.Sscanf(hashLines[scans], "%d %s %d %s", &nr, &r.RangesHash, &ni, &r.IntensitiesHash); err != nil || nr != r.NRanges || ni != r.NInt {
				return nil, fmt.Errorf("dump.mjs %s: hash line %q for a scan of %d/%d values (%v)", target, hashLines[scans], r.NRanges, r.NInt, err)
			}
			scans++
		}
		recs = append(recs, r)
	}
	if scans != len(hashLines) {
		return nil, fmt.Errorf("dump.mjs %s: %d scan lines, %d hashes", target, scans, len(hashLines))
	}
	return recs, sc.Err()
}

// peerSummaryOnly as the only topic makes runPeer return the peer's
// summary: one record per topic with Topic, Kind and Count (messages).
const peerSummaryOnly = "\x00summary"

// parsePeerSummary reads the {"summary":{"by_topic":{...}}} line dump.mjs
// prints last on stderr with --summary.
func parsePeerSummary(target string, stderr []byte) ([]record, error) {
	lines := strings.Split(strings.TrimSpace(string(stderr)), "\n")
	var s struct {
		Summary struct {
			ByTopic map[string]struct {
				Type  string `json:"type"`
				Count int    `json:"count"`
			} `json:"by_topic"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
		return nil, fmt.Errorf("dump.mjs --summary on %s: %v: %s", target, err, stderr)
	}
	var recs []record
	for topic, v := range s.Summary.ByTopic {
		recs = append(recs, record{Topic: topic, Kind: kind(v.Type), Count: v.Count})
	}
	return recs, nil
}

// parsePeerLine reads one dump.mjs line. Integers are parsed as int64
// (they exceed 2^53), floats as float64: float32 fields were widened
// exactly by JavaScript and print as the shortest float64 that
// round-trips, so they compare exactly. null (NaN, ±Inf) becomes NaN.
func parsePeerLine(line []byte) (record, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return record{}, err
	}
	var r record
	var firstErr error
	str := func(k string) string {
		var s string
		if v, ok := raw[k]; ok {
			if err := json.Unmarshal(v, &s); err != nil && firstErr == nil {
				firstErr = fmt.Errorf("%s: %v", k, err)
			}
		}
		return s
	}
	i64 := func(k string) int64 {
		v, ok := raw[k]
		if !ok {
			if firstErr == nil {
				firstErr = fmt.Errorf("missing %s", k)
			}
			return 0
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("%s: %v", k, err)
		}
		return n
	}
	f64 := func(v json.RawMessage) float64 {
		if string(v) == "null" {
			return math.NaN()
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return f
	}
	r.Topic = str("topic")
	r.Kind = kind(str("type"))
	r.LogTime = i64("log_time_ns")
	if _, ok := raw["publish_time_ns"]; ok {
		r.PublishTime, r.HasPublishTime = i64("publish_time_ns"), true
	}
	switch r.Kind {
	case cdr.TypeLaserScan:
		r.Stamp = i64("header_stamp_ns")
		r.Frame = str("frame_id")
		r.NRanges, r.NInt = int(i64("n_ranges")), int(i64("n_intensities"))
		for i, k := range []string{"angle_min", "angle_max", "angle_increment", "time_increment", "scan_time", "range_min", "range_max"} {
			r.F[i] = f64(raw[k])
		}
		r.RangeFirst = f64(raw["range_first"])
		r.RangesSum = f64(raw["ranges_sum"])
	case cdr.TypeTFMessage:
		r.Stamp = i64("header_stamp_ns")
		r.Frame, r.Child = str("frame_id"), str("child_frame_id")
		r.Index, r.Count = int(i64("index")), int(i64("n_transforms"))
		var tv, qv []json.RawMessage
		if err := json.Unmarshal(raw["t"], &tv); err != nil || len(tv) != 3 {
			return r, fmt.Errorf("t: %v", raw["t"])
		}
		if err := json.Unmarshal(raw["q"], &qv); err != nil || len(qv) != 4 {
			return r, fmt.Errorf("q: %v", raw["q"])
		}
		for i, v := range append(tv, qv...) {
			r.F[i] = f64(v)
		}
	case cdr.TypeClock:
		r.Stamp = i64("clock_ns")
	default:
		return r, fmt.Errorf("undecoded type %s", str("type"))
	}
	return r, firstErr
}

// sortRecords orders records independently of how each reader breaks ties
// between equal log times.
func sortRecords(recs []record) {
	sort.SliceStable(recs, func(i, j int) bool {
		a, b := &recs[i], &recs[j]
		if a.LogTime != b.LogTime {
			return a.LogTime < b.LogTime
		}
		if a.Stamp != b.Stamp {
			return a.Stamp < b.Stamp
		}
		if a.Frame != b.Frame {
			return a.Frame < b.Frame
		}
		if a.Child != b.Child {
			return a.Child < b.Child
		}
		return a.Index < b.Index
	})
}

// diffRecord names the first field where ours and the peer's differ.
func diffRecord(ours, peer *record) string {
	same := func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
	switch {
	case ours.LogTime != peer.LogTime:
		return fmt.Sprintf("log_time_ns %d vs %d", ours.LogTime, peer.LogTime)
	case peer.HasPublishTime && (!ours.HasPublishTime || ours.PublishTime != peer.PublishTime):
		return fmt.Sprintf("publish_time_ns %d (present %v) vs %d", ours.PublishTime, ours.HasPublishTime, peer.PublishTime)
	case ours.Stamp != peer.Stamp:
		return fmt.Sprintf("stamp %d vs %d", ours.Stamp, peer.Stamp)
	case ours.Frame != peer.Frame || ours.Child != peer.Child:
		return fmt.Sprintf("frames %q->%q vs %q->%q", ours.Frame, ours.Child, peer.Frame, peer.Child)
	case ours.Index != peer.Index || ours.Count != peer.Count:
		return fmt.Sprintf("transform %d of %d vs %d of %d", ours.Index, ours.Count, peer.Index, peer.Count)
	case ours.NRanges != peer.NRanges || ours.NInt != peer.NInt:
		return fmt.Sprintf("ranges/intensities %d/%d vs %d/%d", ours.NRanges, ours.NInt, peer.NRanges, peer.NInt)
	case !same(ours.RangeFirst, peer.RangeFirst):
		return fmt.Sprintf("range_first %v vs %v", ours.RangeFirst, peer.RangeFirst)
	case peer.RangesHash != "" && ours.RangesHash != peer.RangesHash:
		return fmt.Sprintf("full ranges differ (sha256 %.12s vs %.12s)", ours.RangesHash, peer.RangesHash)
	case peer.IntensitiesHash != "" && ours.IntensitiesHash != peer.IntensitiesHash:
		return fmt.Sprintf("full intensities differ (sha256 %.12s vs %.12s)", ours.IntensitiesHash, peer.IntensitiesHash)
	}
	for i := range ours.F {
		if !same(ours.F[i], peer.F[i]) {
			return fmt.Sprintf("float field %d: %v vs %v", i, ours.F[i], peer.F[i])
		}
	}
	// Both sum the same float32 values in float64 in the same order, so the
	// sums should agree exactly; allow rounding noise all the same.
	if !same(ours.RangesSum, peer.RangesSum) &&
		!(math.Abs(ours.RangesSum-peer.RangesSum) <= 1e-9*math.Max(1, math.Abs(peer.RangesSum))) {
		return fmt.Sprintf("ranges_sum %v vs %v", ours.RangesSum, peer.RangesSum)
	}
	return ""
}

// compareWithPeer checks ours against the peer's output, topic by topic.
func compareWithPeer(t *testing.T, ours, peer []record) {
	t.Helper()
	byTopic := func(recs []record) map[string][]record {
		m := map[string][]record{}
		for _, r := range recs {
			m[r.Topic] = append(m[r.Topic], r)
		}
		for _, rs := range m {
			sortRecords(rs)
		}
		return m
	}
	o, p := byTopic(ours), byTopic(peer)
	for topic, ps := range p {
		ob := o[topic]
		if len(ob) != len(ps) {
			t.Errorf("%s: %d records from bagclock, %d from the peer", topic, len(ob), len(ps))
		}
		bad := 0
		for i := range min(len(ob), len(ps)) {
			if d := diffRecord(&ob[i], &ps[i]); d != "" {
				if bad < 5 {
					t.Errorf("%s record %d (log time %d): %s", topic, i, ps[i].LogTime, d)
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d records differ", topic, bad, len(ps))
		} else {
			t.Logf("%s: %d records identical", topic, len(ps))
		}
	}
	for topic, ob := range o {
		if _, ok := p[topic]; !ok {
			t.Errorf("%s: %d records from bagclock, none from the peer", topic, len(ob))
		}
	}
}

// tally counts, per topic kind, the bags and messages the peer decoded and
// bagclock matched.
type tally struct {
	bags, messages, transforms, fullScans int
}

// comparePeerChoice runs the peer on every topic of the bag and lets it say
// which are LaserScan, TFMessage and Clock; bagclock reads those topics
// and the ones it decodes itself (a topic only one side decodes is a
// disagreement). It returns what the peer decoded, per kind.
func comparePeerChoice(t *testing.T, dump, path string, b *bagread.Bag, read func([]string) []record) map[string]tally {
	t.Helper()
	// First the peer's own list of topics and types (nothing decoded: it
	// would choke on types it has no definition for), then the values of
	// the LaserScan, TFMessage and Clock topics it names.
	seen := map[string]bool{}
	var topics []string
	messages := map[string]int{}
	for _, r := range runPeerOnBag(t, dump, path, b, []string{peerSummaryOnly}) {
		if r.Kind != "" && r.Kind != cdr.TypeLog && r.Count > 0 {
			seen[r.Topic] = true
			topics = append(topics, r.Topic)
			messages[r.Topic] += r.Count
		}
	}
	var peer []record
	if len(topics) > 0 {
		sort.Strings(topics)
		peer = runPeerOnBag(t, dump, path, b, topics)
	}
	decoded := map[string]int{}
	for _, r := range peer {
		if r.Index == 0 {
			decoded[r.Topic]++
		}
	}
	for _, tp := range topics {
		if decoded[tp] != messages[tp] {
			t.Errorf("%s: the peer counts %d messages, decoded %d", tp, messages[tp], decoded[tp])
		}
	}
	for _, tp := range decodedTopics(b) {
		if !seen[tp] {
			seen[tp] = true
			topics = append(topics, tp)
		}
	}
	var ours []record
	if len(topics) > 0 {
		ours = read(topics)
	}
	compareWithPeer(t, ours, peer)
	out := map[string]tally{}
	for _, r := range peer {
		k := out[r.Kind]
		k.bags = 1
		k.transforms++
		if r.Index == 0 {
			k.messages++
		}
		if r.RangesHash != "" {
			k.fullScans++
		}
		out[r.Kind] = k
	}
	return out
}

// sharedFloor is what the shared bags held when this test was written, per
// kind, counted from the peer's output: a run that compares fewer bags or
// messages has lost some (a bag the peer or bagclock no longer reads, a
// topic nobody picks).
var sharedFloor = map[string]tally{
	cdr.TypeLaserScan: {bags: 15, messages: 1034},
	cdr.TypeTFMessage: {bags: 16, messages: 15469, transforms: 23798},
	cdr.TypeClock:     {bags: 9, messages: 1702},
}

// TestPeerFoxglove decodes the LaserScan, TFMessage and Clock topics of
// every shared bag with bagclock and with Foxglove's decoders and requires
// identical values: stamps as int64, floats exactly, frame ids, counts,
// full ranges and intensities. The peer picks the topics; how many bags and
// messages were compared per kind is checked against sharedFloor.
func TestPeerFoxglove(t *testing.T) {
	dump := peerJS(t)
	root, bags := sharedBags(t)
	total := map[string]tally{}
	failed := 0
	for _, bag := range bags {
		t.Run(bag, func(t *testing.T) {
			path := filepath.Join(root, filepath.FromSlash(bag))
			b := openBag(t, path)
			got := comparePeerChoice(t, dump, path, b, func(topics []string) []record {
				return readRecords(t, b, topics, bagread.TimeOrder)
			})
			if t.Failed() {
				failed++
				return
			}
			for k, v := range got {
				s := total[k]
				s.bags += v.bags
				s.messages += v.messages
				s.transforms += v.transforms
				s.fullScans += v.fullScans
				total[k] = s
			}
		})
	}
	for _, k := range []string{cdr.TypeLaserScan, cdr.TypeTFMessage, cdr.TypeClock} {
		got, floor := total[k], sharedFloor[k]
		t.Logf("%s: %d bags, %d messages (%d records, %d scans with full ranges/intensities) identical", k, got.bags, got.messages, got.transforms, got.fullScans)
		if got.bags < floor.bags || got.messages < floor.messages || got.transforms < floor.transforms || got.bags == 0 {
			t.Errorf("%s: compared %d bags and %d messages (%d records), want at least %d bags, %d messages (%d records)", k, got.bags, got.messages, got.transforms, floor.bags, floor.messages, floor.transforms)
		}
	}
	if got := total[cdr.TypeLaserScan]; got.fullScans != got.messages {
		t.Errorf("%d of %d scans compared with full ranges and intensities", got.fullScans, got.messages)
	}
	t.Logf("%d of %d bags compared without a difference", len(bags)-failed, len(bags))
}

// runPeerOnBag runs dump.mjs on a private copy of the bag (SQLite rewrites
// a WAL bag's -shm even read-only). When dump.mjs cannot take the bag
// directory (unparsable metadata.yaml), it is run on each storage file
// bagread found.
func runPeerOnBag(t *testing.T, dump, path string, b *bagread.Bag, topics []string) []record {
	t.Helper()
	cp := testenv.CopyTree(t, path)
	if !peerReadsWhole(b) {
		return runPeerPerFile(t, dump, cp, path, b, topics)
	}
	recs, err := runPeer(t, dump, cp, topics)
	if err == nil {
		return recs
	}
	t.Logf("dump.mjs on the bag failed, retrying per storage file: %v", err)
	return runPeerPerFile(t, dump, cp, path, b, topics)
}

// peerReadsWhole reports whether dump.mjs can take the bag as it is: it
// cannot read FILE-compressed MCAP (.mcap.zstd), and its default indexed
// MCAP reader yields nothing for a file without chunk indexes.
func peerReadsWhole(b *bagread.Bag) bool {
	for _, f := range b.Files {
		if f.Storage == bagread.StorageMCAP && (f.Compression != "" || !f.Indexed) {
			return false
		}
	}
	return true
}

// runPeerPerFile runs dump.mjs on each storage file of the copy cp: an
// .mcap.zstd is first decompressed (with klauspost/compress, not bagread)
// and unindexed MCAP is read with the peer's stream reader.
func runPeerPerFile(t *testing.T, dump, cp, path string, b *bagread.Bag, topics []string) []record {
	t.Helper()
	var recs []record
	st, err := os.Stat(cp)
	if err != nil || !st.IsDir() {
		t.Fatalf("peer: cannot retry %s per file", path)
	}
	for _, f := range b.Files {
		// bagread may report a private copy's path: take the name only.
		target := filepath.Join(cp, filepath.Base(f.Path))
		var extra []string
		if f.Storage == bagread.StorageMCAP && strings.HasSuffix(target, ".zstd") {
			target = testenv.Unzstd(t, target)
		}
		if f.Storage == bagread.StorageMCAP && (!f.Indexed || f.Compression != "") {
			extra = append(extra, "--reader", "stream")
		}
		r, err := runPeer(t, dump, target, topics, extra...)
		if err != nil {
			t.Fatalf("peer: %v", err)
		}
		recs = append(recs, r...)
	}
	return recs
}

// TestPeerRepoSamples runs the same comparison on the generated sample
// bags committed under the repository's testdata/ (the clock-case
// scenarios), so every bag bagclock ships is checked against Foxglove too.
func TestPeerRepoSamples(t *testing.T) {
	root := filepath.Join(testenv.RepoRoot(t), "testdata")
	bags, err := listBags(root)
	if err != nil || len(bags) == 0 {
		t.Fatalf("no sample bags under %s (%v)", root, err)
	}
	dump := peerJS(t)
	scans := 0
	for _, bag := range bags {
		t.Run(bag, func(t *testing.T) {
			path := filepath.Join(root, filepath.FromSlash(bag))
			b := openBag(t, path)
			got := comparePeerChoice(t, dump, path, b, func(topics []string) []record {
				return readRecordsAnyOrder(t, b, topics) // generators may write big endian
			})
			if got[cdr.TypeLaserScan].messages == 0 {
				t.Errorf("the peer decoded no LaserScan in a generated sample")
			}
			scans += got[cdr.TypeLaserScan].fullScans
		})
	}
	if scans == 0 {
		t.Errorf("no scans compared with full ranges and intensities")
	}
}
