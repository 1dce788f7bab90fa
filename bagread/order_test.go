package bagread

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestOrders: a bag of two files whose times overlap is read file after
// file in RecordOrder and merged by time in TimeOrder, and a topic filter
// keeps the order it filters.
func TestOrders(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b_0.mcap", "b_1.mcap"} {
		writeMCAP(t, filepath.Join(dir, n), genSpec{chunked: true, chunkSize: 256, n: 4})
	}
	b, err := Open(dir, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const s = 1_000_000_000
	const step = 10_000_000
	for _, c := range []struct {
		name string
		opts ReadOptions
		want []int64
	}{
		{"record order", ReadOptions{Order: RecordOrder},
			[]int64{s, s + step, s + 2*step, s + 3*step, s, s + step, s + 2*step, s + 3*step}},
		{"time order", ReadOptions{Order: TimeOrder},
			[]int64{s, s, s + step, s + step, s + 2*step, s + 2*step, s + 3*step, s + 3*step}},
		{"record order, /scan", ReadOptions{Order: RecordOrder, Topics: []string{"/scan"}},
			[]int64{s, s + 3*step, s, s + 3*step}},
		{"time order, /scan", ReadOptions{Order: TimeOrder, Topics: []string{"/scan"}},
			[]int64{s, s, s + 3*step, s + 3*step}},
	} {
		t.Run(c.name, func(t *testing.T) {
			msgs, probs, errs := collect(t, b, c.opts)
			var got []int64
			for _, m := range msgs {
				got = append(got, m.logTime)
			}
			if !slices.Equal(got, c.want) || len(probs)+len(errs) > 0 {
				t.Errorf("log times %v (problems %v, errors %v), want %v", got, probs, errs, c.want)
			}
		})
	}
}

// TestProblemsInFileOrder: in RecordOrder each file's problems are kept
// as it ends, so they come in file order: the cut first file's before the
// problem of the second, which is gone by the time it is read.
func TestProblemsInFileOrder(t *testing.T) {
	dir := t.TempDir()
	first, second := filepath.Join(dir, "b_0.mcap"), filepath.Join(dir, "b_1.mcap")
	writeMCAP(t, first, genSpec{chunked: true, chunkSize: 256, n: 12})
	writeMCAP(t, second, genSpec{chunked: true, chunkSize: 256, n: 4})
	data, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(first, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Open(dir, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := os.Remove(second); err != nil {
		t.Fatal(err)
	}
	_, probs, _ := collect(t, b, ReadOptions{Order: RecordOrder})
	want := []string{
		first + ": stopped at byte 1974 after 8 messages: MCAP truncated at byte 1974: recovered 8 messages: record opcode 0x06 of 565 bytes runs past end of data (300 bytes left)",
		second + ": stopped after 0 messages: open " + second + ": no such file or directory",
	}
	var got []string
	for _, p := range probs {
		got = append(got, p.String())
	}
	if !slices.Equal(got, want) || probs[0].FileIndex != 0 || probs[1].FileIndex != 1 || probs[1].Offset != -1 {
		t.Errorf("problems\n%q, want\n%q", got, want)
	}
}

// TestBagTimeRange: a bag's time range spans its files' ranges; a file
// without messages adds nothing to it.
func TestBagTimeRange(t *testing.T) {
	const s, step = 1_000_000_000, 10_000_000
	for _, c := range []struct {
		counts     []int
		start, end int64
	}{
		{[]int{4, 8}, s, s + 7*step},
		{[]int{8, 4}, s, s + 7*step},
		{[]int{0, 4}, s, s + 3*step},
		{[]int{4, 0}, s, s + 3*step},
		{[]int{0, 0}, 0, 0},
		// Negative: that many messages, the fourth 95 ms early (the
		// file's first and its last is the third).
		{[]int{4, -4}, s + 3*step - 95_000_000, s + 3*step},
		{[]int{-4, 4}, s + 3*step - 95_000_000, s + 3*step},
	} {
		dir := t.TempDir()
		for i, n := range c.counts {
			writeMCAP(t, filepath.Join(dir, "b_"+itoa(int64(i))+".mcap"), genSpec{chunked: true, n: max(n, -n), jitter: n < 0})
		}
		b, err := Open(dir, Options{TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if b.StartNS != c.start || b.EndNS != c.end {
			t.Errorf("files of %v messages: bag %d..%d, want %d..%d", c.counts, b.StartNS, b.EndNS, c.start, c.end)
		}
		b.Close()
	}
}

// TestMetadataClaims: metadata.yaml's counts are compared with storage,
// topic by topic and in total; a topic only it lists is added with a
// warning; its compression mode is taken unless NONE.
func TestMetadataClaims(t *testing.T) {
	for _, c := range []struct {
		mode, wantFormat, wantMode string
	}{{"NONE", "", ""}, {"message", "zstd", "MESSAGE"}} {
		dir := t.TempDir()
		writeMCAP(t, filepath.Join(dir, "b_0.mcap"), genSpec{chunked: true, n: 6})
		md := `rosbag2_bagfile_information:
  version: 5
  storage_identifier: mcap
  relative_file_paths: [b_0.mcap]
  message_count: 7
  compression_format: zstd
  compression_mode: ` + c.mode + `
  topics_with_message_count:
    - topic_metadata: {name: /scan, type: sensor_msgs/msg/LaserScan, serialization_format: cdr, offered_qos_profiles: ""}
      message_count: 2
    - topic_metadata: {name: /tf, type: tf2_msgs/msg/TFMessage, serialization_format: cdr, offered_qos_profiles: ""}
      message_count: 3
    - topic_metadata: {name: /gone, type: std_msgs/msg/Empty, serialization_format: cdr, offered_qos_profiles: "- history: 1\n  depth: 5\n"}
      message_count: 1
`
		if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := Open(dir, Options{TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"topic /tf: metadata.yaml says 3 messages, storage has 2",
			"topic /gone is in metadata.yaml but not in storage",
			"topic /gone: metadata.yaml says 1 messages, storage has 0",
			"metadata.yaml says 7 messages, storage has 6",
		}
		if !slices.Equal(b.Warnings, want) || b.CompressionFormat != c.wantFormat || b.CompressionMode != c.wantMode {
			t.Errorf("mode %s: warnings %q, compression %q %q; want %q, %q %q", c.mode, b.Warnings, b.CompressionFormat, b.CompressionMode, want, c.wantFormat, c.wantMode)
		}
		gone, scan := b.Topic("/gone"), b.Topic("/scan")
		if gone == nil || gone.Type != "std_msgs/msg/Empty" || gone.MetadataCount != 1 || len(gone.QoS) != 1 || gone.QoS[0].Depth != 5 ||
			scan == nil || scan.MetadataCount != 2 || scan.MessageCount != 2 {
			t.Errorf("mode %s: /gone %+v, /scan %+v", c.mode, gone, scan)
		}
		b.Close()
	}
}
