package analysis

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// Tests of TFFrames, the frame list a caller checks --target-frame
// against before the analysis (issue 15).

// framesBag writes a bag whose topics each hold the given messages, each
// message a list of (parent, child) transforms; raw holds undecodable
// payloads per topic. Every topic is a tf2_msgs/TFMessage topic unless
// its name starts with /other.
func framesBag(t *testing.T, storage string, topics []string, msgs map[string][][][2]string, raw map[string][][]byte) *bagread.Bag {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bag")
	w, err := bagwrite.Create(dir, bagwrite.Options{Storage: storage})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range topics {
		typ := cdr.TypeTFMessage
		if strings.HasPrefix(name, "/other") {
			typ = cdr.TypeClock
		}
		if err := w.AddTopic(name, typ); err != nil {
			t.Fatal(err)
		}
	}
	logNS := int64(1_000_000_000)
	for _, name := range topics {
		for _, data := range raw[name] {
			logNS++
			if err := w.Write(name, logNS, logNS, data); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range msgs[name] {
			var tm cdr.TFMessage
			for _, l := range m {
				tm.Transforms = append(tm.Transforms, cdr.TransformStamped{Header: cdr.Header{FrameID: l[0]}, ChildFrameID: l[1],
					Transform: cdr.Transform{Rotation: cdr.Quaternion{W: 1}}})
			}
			logNS++
			if err := w.Write(name, logNS, logNS, cdr.AppendTFMessage(nil, &tm, binary.LittleEndian)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	bag, err := bagread.Open(dir, bagread.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bag.Close() })
	return bag
}

func TestTFFramesList(t *testing.T) {
	for _, tc := range []struct {
		name   string
		topics []string
		msgs   map[string][][][2]string
		raw    map[string][][]byte
		want   []string // nil: no tf topic
	}{
		{"no tf topic", []string{"/other"}, nil, nil, nil},
		{"leading slashes and empty names dropped, sorted, once each", []string{"/tf", "/tf_static", "/robot1/tf"},
			map[string][][][2]string{
				"/tf":        {{{"/odom", "base_link"}}, {{"odom", "/base_link"}, {"", "orphan"}}},
				"/tf_static": {{{"base_link", "laser"}, {"base_link", ""}}},
				"/robot1/tf": {{{"map", "odom"}}},
			}, nil,
			[]string{"base_link", "laser", "map", "odom", "orphan"}},
		{"undecodable message skipped", []string{"/tf"},
			map[string][][][2]string{"/tf": {{{"odom", "base_link"}}}},
			map[string][][]byte{"/tf": {{0, 1, 0, 0, 0xff}}},
			[]string{"base_link", "odom"}},
		{"other types not read", []string{"/tf", "/other"},
			map[string][][][2]string{"/tf": {{{"odom", "base_link"}}}, "/other": {{{"x", "y"}}}}, nil,
			[]string{"base_link", "odom"}},
	} {
		bag := framesBag(t, bagwrite.StorageMCAP, tc.topics, tc.msgs, tc.raw)
		got, err := TFFrames(bag)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if (got == nil) != (tc.want == nil) || strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: TFFrames = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTFFramesLimit: reading stops after the first message that brings
// the names known to maxListedFrames; one name short, the next message
// is read too.
func TestTFFramesLimit(t *testing.T) {
	var pairs [][2]string
	for i := 0; i < maxListedFrames/2; i++ {
		pairs = append(pairs, [2]string{fmt.Sprintf("p%05d", i), fmt.Sprintf("c%05d", i)})
	}
	for _, tc := range []struct {
		name  string
		first [][2]string
		want  int
	}{
		{"limit reached by the first message", pairs, maxListedFrames},
		{"one name short", append(append([][2]string(nil), pairs[1:]...), [2]string{"p_last", ""}), maxListedFrames + 1},
	} {
		bag := framesBag(t, bagwrite.StorageMCAP, []string{"/tf"}, map[string][][][2]string{"/tf": {tc.first, {{"x", "y"}}}}, nil)
		got, err := TFFrames(bag)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.want {
			t.Errorf("%s: %d frames, want %d", tc.name, len(got), tc.want)
		}
	}
}
