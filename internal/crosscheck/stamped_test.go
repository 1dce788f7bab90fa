package crosscheck

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/analysis/topics"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/testenv"
)

// Header stamps and frame ids of every stamped type, and ParameterEvent
// contents, against Foxglove's decoder (dump.mjs prints header_stamp_ns
// and frame_id for any decoded message with a header, and
// /parameter_events as stamp_ns, node and new/changed/deleted lists).

// hdrLine is one stamped message: ours from cdr.DecodeHeaderInto, the
// peer's from its line.
type hdrLine struct {
	log, stamp int64
	frame      string
}

// peLine is one ParameterEvent, its values rendered canonically.
type peLine struct {
	log, stamp int64
	node       string
	params     string
}

// minStampedCompared is the least number of stamped messages (TFMessage
// aside) compared on the shared bags: 40,504 when this was written (Imu
// 26,523, Odometry 8,614, JointState 3,992, LaserScan 1,034, 44 types in
// all); wantStampedTypes must each appear.
const minStampedCompared = 40504

var wantStampedTypes = []string{
	"sensor_msgs/msg/Imu", "sensor_msgs/msg/LaserScan", "sensor_msgs/msg/JointState", "nav_msgs/msg/Odometry",
	"sensor_msgs/msg/PointCloud2", "sensor_msgs/msg/Image", "sensor_msgs/msg/CameraInfo",
	"geometry_msgs/msg/PoseWithCovarianceStamped", "diagnostic_msgs/msg/DiagnosticArray", "stereo_msgs/msg/DisparityImage",
	"sensor_msgs/Imu", "sensor_msgs/Image", // the old pkg/Type spelling
}

// TestPeerStampedHeaders compares, on every shared bag, the header of
// every message of every topic bagclock classifies as stamped with
// dump.mjs, and every /parameter_events message. Per type, the number of
// messages compared must be the number the peer printed.
func TestPeerStampedHeaders(t *testing.T) {
	dump := peerJS(t)
	root, bags := sharedBags(t)
	oursByType, peerByType, noDefByType := map[string]int{}, map[string]int{}, map[string]int{}
	failedSeen := map[string]bool{}
	events := 0
	for _, bag := range bags {
		t.Run(bag, func(t *testing.T) {
			path := filepath.Join(root, filepath.FromSlash(bag))
			b := openBag(t, path)
			var stamped, params []string
			typeOf := map[string]string{}
			for _, ti := range topics.Classify(b) {
				typeOf[ti.Name] = ti.Type
				switch ti.Role {
				case topics.Stamped:
					stamped = append(stamped, ti.Name)
				case topics.ParameterEvents:
					params = append(params, ti.Name)
				}
			}
			if len(stamped)+len(params) == 0 {
				t.Skip("no stamped or parameter-event topics")
			}
			oursH, oursP := readStamped(t, b, typeOf, stamped, params)
			peer := runPeerStamped(t, dump, path, b, append(append([]string{}, stamped...), params...))
			for _, name := range stamped {
				o, p := oursH[name], peer.hs[name]
				typ := typeOf[name]
				if n := peer.noHdr[name]; n > 0 {
					t.Errorf("%s (%s): the peer printed %d messages without a header", name, typ, n)
				}
				if why, ok := peer.failed[name]; ok {
					key := bag + " " + name
					failedSeen[key] = true
					if _, known := peerFails[key]; !known {
						t.Errorf("%s (%s): dump.mjs failed: %s", name, typ, why)
					} else {
						t.Logf("%s (%s): not comparable, dump.mjs fails (%s): %s; bagclock read %d headers", name, typ, peerFails[key], why, len(o))
					}
					continue
				}
				if n := peer.undecoded[name]; n > 0 {
					if _, known := peerNoDefinition[typ]; !known || n != len(o) || len(p) > 0 {
						t.Errorf("%s (%s): the peer could not decode %d messages (bagclock read %d headers)", name, typ, n, len(o))
					}
					noDefByType[typ] += n
					continue
				}
				compareHeaders(t, name, o, p)
				oursByType[typ] += len(o)
				peerByType[typ] += len(p)
			}
			for _, name := range params {
				comparePE(t, name, oursP[name], peer.ps[name])
				events += len(peer.ps[name])
			}
		})
	}
	total := 0
	var lines []string
	for typ, n := range peerByType {
		total += n
		lines = append(lines, fmt.Sprintf("%s %d", typ, n))
		if oursByType[typ] != n {
			t.Errorf("%s: %d headers from bagclock, %d from the peer", typ, oursByType[typ], n)
		}
	}
	sort.Strings(lines)
	t.Logf("stamped messages compared per type: %s; %d parameter events", strings.Join(lines, ", "), events)
	if total < minStampedCompared {
		t.Errorf("only %d stamped messages compared, want at least %d", total, minStampedCompared)
	}
	for _, typ := range wantStampedTypes {
		if peerByType[typ] == 0 {
			t.Errorf("no %s message compared", typ)
		}
	}
	if events == 0 {
		t.Error("no parameter event compared")
	}
	for typ := range peerNoDefinition {
		if noDefByType[typ] == 0 {
			t.Errorf("%s: listed as undecodable by the peer, but no such message seen", typ)
		}
	}
	for key := range peerFails {
		if !failedSeen[key] {
			t.Errorf("%s: listed as failing in dump.mjs, but it did not fail", key)
		}
	}
	t.Logf("headers the peer has no definition for (compared by count only): %v", noDefByType)
}

// peerNoDefinition lists the stamped types dump.mjs prints as
// decoded:false in the shared bags: no definition in the bag (sqlite
// schema 3) and none in Foxglove's ros2jazzy set. Their messages are
// counted on both sides but cannot be compared field by field.
var peerNoDefinition = map[string]string{
	"gazebo_msgs/msg/PerformanceMetrics": "Gazebo-classic type, not in @foxglove/rosmsg-msgs-common",
}

// peerFails lists "bag topic" where dump.mjs stops with an error: these
// Humble-era sensor_msgs/Range messages (no trailing variance, schema-3
// db3 without definitions) are read with Jazzy's Range, which ends with
// float32 variance, so the peer runs off the end of every message.
var peerFails = map[string]string{
	"ait-rosbag2-tools/multi_topic.bag /range": "Humble Range read with Jazzy's definition",
	"ait-rosbag2-tools/range.bag /range":       "Humble Range read with Jazzy's definition",
}

// readStamped decodes the header of every message of the stamped topics
// and every ParameterEvent of params, in record-time order.
func readStamped(t *testing.T, b *bagread.Bag, typeOf map[string]string, stamped, params []string) (map[string][]hdrLine, map[string][]peLine) {
	t.Helper()
	isParam := map[string]bool{}
	for _, p := range params {
		isParam[p] = true
	}
	hs, ps := map[string][]hdrLine{}, map[string][]peLine{}
	var h cdr.Header
	it := b.Messages(bagread.ReadOptions{Topics: append(append([]string{}, stamped...), params...), Order: bagread.TimeOrder})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		if m.Err != nil {
			t.Errorf("%s message %d: not recovered: %v", m.Topic, m.Index, m.Err)
			continue
		}
		if isParam[m.Topic] {
			ev, err := cdr.DecodeParameterEvent(m.Data)
			if err != nil {
				t.Errorf("%s message %d: %v", m.Topic, m.Index, err)
				continue
			}
			ps[m.Topic] = append(ps[m.Topic], peLine{log: m.LogTimeNS, stamp: ev.Stamp.Nanoseconds(), node: ev.Node, params: oursParams(&ev)})
			continue
		}
		if err := cdr.DecodeHeaderInto(&h, m.Data, typeOf[m.Topic]); err != nil {
			t.Errorf("%s message %d: %v", m.Topic, m.Index, err)
			continue
		}
		hs[m.Topic] = append(hs[m.Topic], hdrLine{log: m.LogTimeNS, stamp: h.Stamp.Nanoseconds(), frame: h.FrameID})
	}
	if err := it.Err(); err != nil {
		t.Errorf("%s: %v", b.Path, err)
	}
	return hs, ps
}

// runPeerStamped runs dump.mjs on a private copy of the bag (per storage
// file where it cannot take the directory, as runPeerOnBag does).
func runPeerStamped(t *testing.T, dump, path string, b *bagread.Bag, names []string) peerStamped {
	t.Helper()
	cp := testenv.CopyTree(t, path)
	perFile := func() [][]string {
		var targets [][]string
		for _, f := range b.Files {
			target := filepath.Join(cp, filepath.Base(f.Path))
			if st, err := os.Stat(cp); err == nil && !st.IsDir() {
				target = cp
			}
			args := []string{target}
			if f.Storage == bagread.StorageMCAP && strings.HasSuffix(target, ".zstd") {
				args[0] = testenv.Unzstd(t, target)
			}
			if f.Storage == bagread.StorageMCAP && (!f.Indexed || f.Compression != "") {
				args = append(args, "--reader", "stream")
			}
			targets = append(targets, args)
		}
		return targets
	}
	var outs [][]byte
	failed := map[string]string{}
	if peerReadsWhole(b) {
		out, err := dumpOut(dump, []string{cp}, names)
		if err == nil {
			outs = append(outs, out)
		} else {
			t.Logf("dump.mjs on the bag failed, retrying per storage file: %v", err)
		}
	}
	if outs == nil {
		for _, args := range perFile() {
			out, err := dumpOut(dump, args, names)
			if err == nil {
				outs = append(outs, out)
				continue
			}
			// One type the peer cannot read stops it: retry topic by
			// topic and keep the failures for the caller to judge.
			t.Logf("%v\nretrying topic by topic", err)
			for _, name := range names {
				out, err := dumpOut(dump, args, []string{name})
				if err != nil {
					failed[name] = firstPeerError(err)
					continue
				}
				outs = append(outs, out)
			}
		}
	}
	hs, ps := map[string][]hdrLine{}, map[string][]peLine{}
	noHdr, undecoded := map[string]int{}, map[string]int{}
	for _, out := range outs {
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for n := 1; sc.Scan(); n++ {
			var raw map[string]json.RawMessage
			if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
				t.Fatalf("dump.mjs line %d: %v", n, err)
			}
			var topic string
			json.Unmarshal(raw["topic"], &topic)
			logNS, err := strconv.ParseInt(string(raw["log_time_ns"]), 10, 64)
			if err != nil {
				t.Fatalf("dump.mjs line %d: log_time_ns %s", n, raw["log_time_ns"])
			}
			if _, ok := raw["node"]; ok {
				ps[topic] = append(ps[topic], peerPE(t, logNS, raw))
				continue
			}
			if string(raw["decoded"]) == "false" {
				undecoded[topic]++
				continue
			}
			st, ok := raw["header_stamp_ns"]
			if !ok {
				noHdr[topic]++
				continue
			}
			stamp, err := strconv.ParseInt(string(st), 10, 64)
			if err != nil {
				t.Fatalf("dump.mjs line %d: header_stamp_ns %s", n, st)
			}
			var frame string
			json.Unmarshal(raw["frame_id"], &frame)
			hs[topic] = append(hs[topic], hdrLine{log: logNS, stamp: stamp, frame: frame})
		}
	}
	return peerStamped{hs, ps, noHdr, undecoded, failed}
}

// peerStamped is what dump.mjs printed for one bag, by topic: headers,
// parameter events, decoded messages without a header, messages it had no
// definition for, and topics it failed on (with its error).
type peerStamped struct {
	hs        map[string][]hdrLine
	ps        map[string][]peLine
	noHdr     map[string]int
	undecoded map[string]int
	failed    map[string]string
}

// firstPeerError keeps the JavaScript error line of a dump.mjs failure.
func firstPeerError(err error) string {
	for _, l := range strings.Split(err.Error(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "dump.mjs: ") {
			return strings.TrimSpace(l)
		}
	}
	return err.Error()
}

// dumpOut runs dump.mjs on args[0] (further args are its flags).
func dumpOut(dump string, args, names []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{dump, args[0], "--topics", strings.Join(names, ",")}, args[1:]...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("node dump.mjs %s: %v\n%s", args[0], err, stderr.Bytes())
	}
	return out, nil
}

// compareHeaders sorts both sides the same way (readers break log-time
// ties differently) and requires equal counts, stamps and frame ids. The
// peer decodes strings as UTF-8 with replacement, so ours is compared
// after the same replacement.
func compareHeaders(t *testing.T, topic string, ours, peer []hdrLine) {
	t.Helper()
	// Frames with invalid UTF-8 come from the peer with U+FFFD in place.
	for i := range ours {
		ours[i].frame = strings.ToValidUTF8(ours[i].frame, "\uFFFD")
	}
	compareSorted(t, topic, "headers", ours, peer, func(a, b hdrLine) int {
		return cmp.Or(cmp.Compare(a.log, b.log), cmp.Compare(a.stamp, b.stamp), strings.Compare(a.frame, b.frame))
	})
}

func comparePE(t *testing.T, topic string, ours, peer []peLine) {
	t.Helper()
	compareSorted(t, topic, "events", ours, peer, func(a, b peLine) int {
		return cmp.Or(cmp.Compare(a.log, b.log), strings.Compare(a.node, b.node), strings.Compare(a.params, b.params))
	})
}

// compareSorted sorts both sides by order and reports a count mismatch and
// the first five differing lines (what is compared: whole lines).
func compareSorted[T comparable](t *testing.T, topic, what string, ours, peer []T, order func(a, b T) int) {
	t.Helper()
	slices.SortStableFunc(ours, order)
	slices.SortStableFunc(peer, order)
	if len(ours) != len(peer) {
		t.Errorf("%s: %d %s from bagclock, %d from the peer", topic, len(ours), what, len(peer))
	}
	bad := 0
	for i := range min(len(ours), len(peer)) {
		if ours[i] != peer[i] {
			if bad < 5 {
				t.Errorf("%s, %s %d:\nbagclock %+v\npeer     %+v", topic, what, i, ours[i], peer[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d %s differ", topic, bad, len(peer), what)
	}
}

// Parameter values are rendered as "list:name=type:value;" with numbers
// as float64 text: dump.mjs turns int64 values into JavaScript numbers,
// so both sides are compared at double precision; NaN and infinities are
// JSON null there.
func oursParams(ev *cdr.ParameterEvent) string {
	var b strings.Builder
	for k, l := range [][]cdr.Parameter{ev.NewParameters, ev.ChangedParameters, ev.DeletedParameters} {
		for _, p := range l {
			fmt.Fprintf(&b, "%d:%s=%d:%s;", k, strings.ToValidUTF8(p.Name, "\uFFFD"), p.Value.Type, oursValue(&p.Value))
		}
	}
	return b.String()
}

func num(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func oursValue(v *cdr.ParameterValue) string {
	var parts []string
	switch v.Type {
	case cdr.ParameterBool:
		return strconv.FormatBool(v.BoolValue)
	case cdr.ParameterInteger:
		return num(float64(v.IntegerValue))
	case cdr.ParameterDouble:
		return num(v.DoubleValue)
	case cdr.ParameterString:
		return strconv.Quote(strings.ToValidUTF8(v.StringValue, "\uFFFD"))
	case cdr.ParameterByteArray:
		for _, x := range v.ByteArrayValue {
			parts = append(parts, strconv.Itoa(int(x)))
		}
	case cdr.ParameterBoolArray:
		for _, x := range v.BoolArrayValue {
			parts = append(parts, strconv.FormatBool(x))
		}
	case cdr.ParameterIntegerArray:
		for _, x := range v.IntegerArrayValue {
			parts = append(parts, num(float64(x)))
		}
	case cdr.ParameterDoubleArray:
		for _, x := range v.DoubleArrayValue {
			parts = append(parts, num(x))
		}
	case cdr.ParameterStringArray:
		for _, x := range v.StringArrayValue {
			parts = append(parts, strconv.Quote(strings.ToValidUTF8(x, "\uFFFD")))
		}
	default:
		return "null"
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func peerPE(t *testing.T, logNS int64, raw map[string]json.RawMessage) peLine {
	t.Helper()
	stamp, err := strconv.ParseInt(string(raw["stamp_ns"]), 10, 64)
	if err != nil {
		t.Fatalf("dump.mjs: stamp_ns %s", raw["stamp_ns"])
	}
	var node string
	json.Unmarshal(raw["node"], &node)
	var b strings.Builder
	for k, key := range []string{"new", "changed", "deleted"} {
		var ps []struct {
			Name  string          `json:"name"`
			Type  int             `json:"type"`
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(raw[key], &ps); err != nil {
			t.Fatalf("dump.mjs: %s: %v", key, err)
		}
		for _, p := range ps {
			fmt.Fprintf(&b, "%d:%s=%d:%s;", k, p.Name, p.Type, peerValue(t, p.Type, p.Value))
		}
	}
	return peLine{log: logNS, stamp: stamp, node: node, params: b.String()}
}

func peerValue(t *testing.T, typ int, v json.RawMessage) string {
	t.Helper()
	one := func(typ int, v json.RawMessage) string {
		switch string(v) {
		case "null":
			return "null"
		}
		switch typ {
		case 1, 6:
			return string(v)
		case 4, 9:
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				t.Fatalf("dump.mjs: string value %s", v)
			}
			return strconv.Quote(s)
		default:
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				t.Fatalf("dump.mjs: number value %s", v)
			}
			return num(f)
		}
	}
	if typ < 5 || typ > 9 {
		if typ < 1 || typ > 9 {
			return "null"
		}
		return one(typ, v)
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(v, &elems); err != nil {
		t.Fatalf("dump.mjs: array value %s", v)
	}
	parts := make([]string, len(elems))
	for i, e := range elems {
		parts[i] = one(typ, e)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
