package crosscheck

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/testenv"
)

// sharedBags lists every bag under ../shared/bags as paths relative to it.
// A directory holding storage files is one bag when it has a metadata.yaml
// or all its files share one stem (split parts name_0, name_1, ...);
// otherwise (rosbag2's rosbag2_cpp/test bags) each file is a bag of its own.
// Directories holding only a metadata.yaml (reindex targets) are not bags.
func sharedBags(t *testing.T) (root string, bags []string) {
	t.Helper()
	root = filepath.Join(testenv.SharedDir(t), "bags")
	bags, err := listBags(root)
	if err != nil {
		t.Fatalf("listing %s: %v", root, err)
	}
	if len(bags) == 0 {
		t.Fatalf("no bags found under %s", root)
	}
	return root, bags
}

// listBags does the walking for sharedBags.
func listBags(root string) ([]string, error) {
	var bags []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return err
		}
		var files []string
		stems := map[string]bool{}
		hasMetadata := false
		for _, e := range entries {
			switch {
			case e.IsDir():
			case e.Name() == "metadata.yaml":
				hasMetadata = true
			case isStorageFile(e.Name()):
				files = append(files, e.Name())
				stems[splitStem.ReplaceAllString(e.Name(), "")] = true
			}
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case len(files) == 0:
		case hasMetadata || len(stems) == 1:
			bags = append(bags, rel)
		default:
			for _, f := range files {
				bags = append(bags, rel+"/"+f)
			}
		}
		return nil
	})
	return bags, err
}

// splitStem matches what follows a split bag's common stem.
var splitStem = regexp.MustCompile(`(_\d+)?\.(db3|mcap)(\.zstd)?$`)

func isStorageFile(name string) bool {
	name = strings.TrimSuffix(name, ".zstd")
	return strings.HasSuffix(name, ".db3") || strings.HasSuffix(name, ".mcap")
}

// openBag opens a bag with bagread (which copies WAL bags itself).
func openBag(t *testing.T, path string) *bagread.Bag {
	t.Helper()
	b, err := bagread.Open(path, bagread.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatalf("bagread.Open(%s): %v", path, err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// kind classifies ROS type names, old ("rosgraph_msgs/Clock") and new
// ("rosgraph_msgs/msg/Clock") spellings alike.
func kind(typ string) string {
	switch strings.Replace(typ, "/msg/", "/", 1) {
	case "sensor_msgs/LaserScan":
		return cdr.TypeLaserScan
	case "tf2_msgs/TFMessage":
		return cdr.TypeTFMessage
	case "rosgraph_msgs/Clock":
		return cdr.TypeClock
	case "rcl_interfaces/Log":
		return cdr.TypeLog
	}
	return ""
}

// decodedTopics returns the names of a bag's LaserScan, TFMessage and Clock
// topics that hold messages.
func decodedTopics(b *bagread.Bag) []string {
	var names []string
	for _, tp := range b.Topics {
		if k := kind(tp.Type); k != "" && k != cdr.TypeLog && tp.MessageCount > 0 {
			names = append(names, tp.Name)
		}
	}
	sort.Strings(names)
	return names
}

// record is one decoded message (one per transform for TFMessage) in the
// shape dump.mjs prints, so both decoders' outputs compare field by field.
type record struct {
	Topic          string
	Kind           string
	LogTime        int64
	PublishTime    int64
	HasPublishTime bool
	Stamp          int64 // header stamp (scan, transform) or clock value
	Frame, Child   string
	Index, Count   int // transform index and n_transforms (peer summary: messages on the topic)
	NRanges, NInt  int
	// Scan: angle_min, angle_max, angle_increment, time_increment,
	// scan_time, range_min, range_max; transform: t x y z, q x y z w.
	F          [7]float64
	RangeFirst float64 // NaN when absent or not finite (JSON null)
	RangesSum  float64 // NaN when not finite (JSON null)
	// RangesHash, IntensitiesHash: SHA-256 (hex) of the full arrays as
	// little-endian float32, every NaN as 0x7fc00000 (see scanHash).
	RangesHash, IntensitiesHash string
}

// scanHash is what testdata/scanhash.mjs computes on the peer's side.
func scanHash(values []float32) string {
	buf := make([]byte, 4*len(values))
	for i, v := range values {
		bits := math.Float32bits(v)
		if v != v {
			bits = 0x7fc00000
		}
		binary.LittleEndian.PutUint32(buf[4*i:], bits)
	}
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:])
}

// finiteOrNaN maps ±Inf to NaN: JSON has neither, dump.mjs prints null.
func finiteOrNaN(v float64) float64 {
	if math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}

// readRecords reads the given topics of b in order and decodes them. Any
// message that fails to decode fails the test, naming file, topic, index
// and the decoder's field and offset.
func readRecords(t *testing.T, b *bagread.Bag, topics []string, order bagread.Order) []record {
	t.Helper()
	types := map[string]string{}
	for _, tp := range b.Topics {
		types[tp.Name] = kind(tp.Type)
	}
	it := b.Messages(bagread.ReadOptions{Topics: topics, Order: order})
	defer it.Close()
	var recs []record
	var tf cdr.TFMessage
	for it.Next() {
		m := it.Message()
		where := func() string {
			file := "?"
			if m.FileIndex >= 0 && m.FileIndex < len(b.Files) {
				file = b.Files[m.FileIndex].Path
			}
			return file + ": topic " + m.Topic + ", message " + strconv.FormatUint(m.Index, 10)
		}
		if m.Err != nil {
			t.Errorf("%s: not recovered: %v", where(), m.Err)
			continue
		}
		base := record{Topic: m.Topic, Kind: types[m.Topic], LogTime: m.LogTimeNS,
			PublishTime: m.PublishTimeNS, HasPublishTime: m.HasPublishTime}
		switch base.Kind {
		case cdr.TypeLaserScan:
			var s cdr.LaserScan
			info, err := cdr.DecodeLaserScanInto(&s, m.Data)
			if err != nil {
				t.Errorf("%s: %v", where(), err)
				continue
			}
			checkLayout(t, where, info)
			h, err := cdr.DecodeLaserScanHeader(m.Data)
			if err != nil || h.Header != s.Header || h.NumRanges != len(s.Ranges) || h.NumIntensities != len(s.Intensities) {
				t.Errorf("%s: header fast path %+v (err %v) disagrees with full decode", where(), h, err)
			}
			base.Stamp = s.Header.Stamp.Nanoseconds()
			base.Frame = s.Header.FrameID
			base.NRanges, base.NInt = len(s.Ranges), len(s.Intensities)
			for i, v := range []float32{s.AngleMin, s.AngleMax, s.AngleIncrement, s.TimeIncrement, s.ScanTime, s.RangeMin, s.RangeMax} {
				base.F[i] = finiteOrNaN(float64(v))
			}
			base.RangeFirst = math.NaN()
			if len(s.Ranges) > 0 {
				base.RangeFirst = finiteOrNaN(float64(s.Ranges[0]))
			}
			sum := 0.0 // in order, in float64, as dump.mjs sums
			for _, r := range s.Ranges {
				sum += float64(r)
			}
			base.RangesSum = finiteOrNaN(sum)
			base.RangesHash, base.IntensitiesHash = scanHash(s.Ranges), scanHash(s.Intensities)
			recs = append(recs, base)
		case cdr.TypeTFMessage:
			info, err := cdr.DecodeTFMessageInto(&tf, m.Data)
			if err != nil {
				t.Errorf("%s: %v", where(), err)
				continue
			}
			checkLayout(t, where, info)
			for i, tr := range tf.Transforms {
				r := base
				r.Stamp = tr.Header.Stamp.Nanoseconds()
				r.Frame, r.Child = tr.Header.FrameID, tr.ChildFrameID
				r.Index, r.Count = i, len(tf.Transforms)
				p, q := tr.Transform.Translation, tr.Transform.Rotation
				r.F = [7]float64{p.X, p.Y, p.Z, q.X, q.Y, q.Z, q.W}
				for j := range r.F {
					r.F[j] = finiteOrNaN(r.F[j])
				}
				recs = append(recs, r)
			}
		case cdr.TypeClock:
			c, info, err := cdr.DecodeClockInfo(m.Data)
			if err != nil {
				t.Errorf("%s: %v", where(), err)
				continue
			}
			checkLayout(t, where, info)
			base.Stamp = c.Clock.Nanoseconds()
			recs = append(recs, base)
		}
	}
	if err := it.Err(); err != nil {
		t.Errorf("%s: iteration: %v", b.Path, err)
	}
	for _, p := range it.Problems() {
		t.Logf("%s: file %s stopped early at byte %d after %d messages: %v", b.Path, p.File, p.Offset, p.Recovered, p.Err)
	}
	return recs
}

// checkLayout holds real messages to what cdr.md §6.5 found in every
// shared bag: the decoded fields fill the message exactly, strings end in
// NUL, and the encapsulation is little-endian plain CDR.
func checkLayout(t *testing.T, where func() string, info cdr.Info) {
	t.Helper()
	if !layoutCheck(info) {
		t.Errorf("%s: layout %+v, want CDR_LE, no trailing bytes, NUL-terminated strings", where(), info)
	}
}

// layoutCheck is what checkLayout requires; generated-bag tests relax the
// byte order.
var layoutCheck = func(info cdr.Info) bool {
	return info.Trailing == 0 && info.StringsWithoutNUL == 0 && info.Encapsulation == cdr.CDRLE
}
