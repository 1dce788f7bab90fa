package analysis

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// TestBadMessagesSkipped: undecodable messages are counted per topic with
// the first error naming file, topic and index; the pass goes on.
func TestBadMessagesSkipped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bag")
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: bagwrite.StorageSQLite3})
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range [][2]string{{"/scan", cdr.TypeLaserScan}, {"/tf", cdr.TypeTFMessage}, {"/clock", cdr.TypeClock}} {
		if err := w.AddTopic(tp[0], tp[1]); err != nil {
			t.Fatal(err)
		}
	}
	garbage := []byte{0, 1, 0, 0, 0xff, 0xff, 0xff, 0x7f}
	scan := cdr.LaserScan{Header: cdr.Header{FrameID: "laser", Stamp: cdr.Time{Sec: 5}}}
	for i, data := range [][]byte{garbage, cdr.AppendLaserScan(nil, &scan, binary.LittleEndian), garbage} {
		topic := []string{"/scan", "/scan", "/tf"}[i]
		if err := w.Write(topic, int64(i+1)*1e9, int64(i+1)*1e9, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rep := analyzeBag(t, dir, Config{}, nil)
	if rep.Summary.Skipped != 2 || len(rep.Skipped) != 2 || rep.Summary.Scans != 1 {
		t.Fatalf("skipped %+v, scans %d", rep.Skipped, rep.Summary.Scans)
	}
	s := rep.Skipped[0]
	if s.Topic != "/scan" || !strings.Contains(s.FirstError, "topic /scan message 0") || !strings.Contains(s.FirstError, ".db3") {
		t.Errorf("first error %q", s.FirstError)
	}
}

// TestSinkErrorStops: a failing sink ends the pass with its error.
func TestSinkErrorStops(t *testing.T) {
	dir := writeCase(t, filepath.Join(t.TempDir(), "bag"), clockCase{name: "same"}, bagwrite.StorageMCAP, 2)
	bag, err := bagread.Open(dir, bagread.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bag.Close()
	boom := errors.New("disk full")
	n := 0
	_, err = analyzeFinished(bag, Config{}, func(*ScanRow) error { n++; return boom })
	if !errors.Is(err, boom) || n != 1 {
		t.Fatalf("err %v after %d rows, want disk full after 1", err, n)
	}
}

// TestSinkErrorAtEnd: a sink that fails on the last row, which the
// filters hand over only when the pass ends, still makes Analyze fail: a
// scan cancelled there must not keep a report that lacks rows.
func TestSinkErrorAtEnd(t *testing.T) {
	dir := writeCase(t, filepath.Join(t.TempDir(), "bag"), clockCase{name: "same"}, bagwrite.StorageMCAP, 2)
	analyze := func(sink ScanSink) (*Report, error) {
		bag, err := bagread.Open(dir, bagread.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer bag.Close()
		return analyzeFinished(bag, Config{}, sink)
	}
	total := 0
	if _, err := analyze(func(*ScanRow) error { total++; return nil }); err != nil || total < 2 {
		t.Fatalf("%d rows, %v", total, err)
	}
	for _, failAt := range []int{1, total / 2, total} {
		boom := errors.New("interrupted")
		n := 0
		_, err := analyze(func(*ScanRow) error {
			if n++; n >= failAt {
				return boom
			}
			return nil
		})
		if !errors.Is(err, boom) {
			t.Errorf("sink failing at row %d of %d: err %v, want %v", failAt, total, err, boom)
		}
	}
}

// TestBoundedSeries: a long bag's report stays bounded: at most 2000
// points per series, outcome buckets capped.
func TestBoundedSeries(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 60 s bag")
	}
	dir := writeCase(t, filepath.Join(t.TempDir(), "bag"), clockCase{name: "loop", loopAtS: 30}, bagwrite.StorageMCAP, 60)
	rep, _ := analyzeDir(t, dir, Config{})
	if len(rep.Series.Clock) > 2*maxBuckets || len(rep.Series.Clock) < 100 {
		t.Errorf("clock series %d points", len(rep.Series.Clock))
	}
	for k, pts := range rep.Series.Diff {
		if len(pts) > 2*maxBuckets {
			t.Errorf("%s: %d points", k, len(pts))
		}
	}
	buckets := map[float64]bool{}
	for _, p := range rep.Series.Outcomes {
		buckets[p.X] = true
	}
	if len(buckets) > maxOutcomeBuckets {
		t.Errorf("%d outcome buckets", len(buckets))
	}
	if rep.Summary.Scans != 1200 || rep.Counts.BackwardJumps != 1 {
		t.Errorf("scans %d backward jumps %d", rep.Summary.Scans, rep.Counts.BackwardJumps)
	}
	// The loop restarts sim time at 120 s: the clock series shows the drop.
	minY, maxY := 1e18, -1e18
	for _, p := range rep.Series.Clock {
		minY, maxY = min(minY, p.Y), max(maxY, p.Y)
	}
	if minY != 120 || maxY < 149.9 {
		t.Errorf("clock series range %g..%g", minY, maxY)
	}
}

// TestBadStampedInput: issue 9's bad input, in both storage formats. An
// Imu payload shorter than its header and one whose frame_id has invalid
// bytes are skipped and counted on their topic with the first error
// (file, topic, message index); the other Imu messages still get rows. A
// header-first type whose bag definition does not parse is listed as not
// analysed with the reason, and naming it with --topic is an error.
func TestBadStampedInput(t *testing.T) {
	imuMsg := func(sec int32, frame string) []byte {
		b := cdr.AppendLaserScan(nil, &cdr.LaserScan{Header: cdr.Header{Stamp: cdr.Time{Sec: sec}, FrameID: frame}}, binary.LittleEndian)
		return append(b, make([]byte, 300)...) // an Imu's fixed fields after the header
	}
	const brokenDef = "std_msgs/Header header\nfloat64 x\n" +
		"================================================================================\n" +
		"MSG: std_msgs/Header\nbuiltin_interfaces/Time\n"
	for _, storage := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
		t.Run(storage, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bag")
			w, err := bagwrite.Create(dir, bagwrite.Options{Storage: storage})
			if err != nil {
				t.Fatal(err)
			}
			for _, tp := range []bagwrite.Topic{{Name: "/imu", Type: "sensor_msgs/msg/Imu"},
				{Name: "/custom", Type: "my_pkg/msg/Custom", Definition: brokenDef}} {
				if err := w.AddTopicWith(tp); err != nil {
					t.Fatal(err)
				}
			}
			for i, data := range [][]byte{
				imuMsg(10, "imu_link"),
				imuMsg(11, "imu_link")[:10], // shorter than its header
				imuMsg(12, "imu_link"),
				imuMsg(13, "bad\xff\xfeframe"), // invalid bytes in frame_id
				imuMsg(14, "imu_link"),
			} {
				at := int64(i+1) * 1e9
				if err := w.Write("/imu", at, at, data); err != nil {
					t.Fatal(err)
				}
				if err := w.Write("/custom", at+1, at+1, imuMsg(20, "c")); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			bag, err := bagread.Open(dir, bagread.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer bag.Close()
			rows := 0
			rep, err := analyzeFinished(bag, Config{}, func(*ScanRow) error { rows++; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if rep.Summary.Skipped != 2 || len(rep.Skipped) != 1 || rep.Skipped[0].Topic != "/imu" || rep.Skipped[0].Count != 2 {
				t.Fatalf("skipped %+v (total %d), want 2 on /imu", rep.Skipped, rep.Summary.Skipped)
			}
			if fe := rep.Skipped[0].FirstError; !strings.Contains(fe, "topic /imu message 1") || !strings.Contains(fe, filepath.Base(bag.Files[0].Path)) {
				t.Errorf("first error %q does not name the file, topic and message", fe)
			}
			if rows != 3 || rep.Summary.Scans != 3 {
				t.Errorf("%d rows of %d messages, want the 3 good Imu messages", rows, rep.Summary.Scans)
			}
			var custom *TopicSummary
			for i := range rep.Topics {
				if rep.Topics[i].Topic == "/custom" {
					custom = &rep.Topics[i]
				}
			}
			if custom == nil || custom.Role != TopicNotAnalysed || !strings.Contains(custom.Reason, "does not parse") {
				t.Errorf("/custom: %+v, want not analysed because its definition does not parse", custom)
			}
			if rep.Verdict.Sentence == "" {
				t.Error("no verdict")
			}
			if _, err := analyzeFinished(bag, Config{Topics: []string{"/custom"}}, nil); err == nil || !strings.Contains(err.Error(), "does not parse") {
				t.Errorf("--topic /custom: %v, want an error with the reason", err)
			}
		})
	}
}
