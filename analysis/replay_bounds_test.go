package analysis

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/internal/bagwrite"
)

// Boundary tests of the replay loop's small helpers (issue 15): the plot
// x axis, the progress estimate and the skipped-message record.

// TestReplayX: x counts from the bag's start; a bag without a start time
// starts at its first message.
func TestReplayX(t *testing.T) {
	for _, tc := range []struct {
		name      string
		start     int64
		msgs      int
		log       int64
		want      float64
		wantStart int64
	}{
		{"start known, first message", 5e9, 1, 7e9, 2, 5e9},
		{"start known, later message", 5e9, 3, 7e9, 2, 5e9},
		{"no start, first message", 0, 1, 7e9, 0, 7e9},
		{"no start, later message", 0, 2, 7e9, 7, 0},
	} {
		a := &analyzer{startNS: tc.start, msgs: tc.msgs}
		if got := a.x(tc.log); got != tc.want || a.startNS != tc.wantStart {
			t.Errorf("%s: x = %g, start %d; want %g, %d", tc.name, got, a.startNS, tc.want, tc.wantStart)
		}
	}
}

// TestReplayProgress: bytes done are the earlier files' sizes plus the
// share of the current one: its byte offset for MCAP (at most its size),
// the rowid's share of its messages for sqlite.
func TestReplayProgress(t *testing.T) {
	files := []bagread.File{
		{Size: 100, Storage: bagread.StorageMCAP},
		{Size: 1000, Storage: bagread.StorageSQLite3, MessageCount: 10},
		{Size: 50, Storage: bagread.StorageSQLite3},
	}
	sizes := []int64{100, 1000, 50}
	a := &analyzer{bag: &bagread.Bag{Files: files}}
	for _, tc := range []struct {
		file int
		pos  int64
		want int64
	}{
		{0, 0, 0},
		{0, 30, 30},
		{0, 99, 99},
		{0, 100, 100},
		{0, 101, 100},
		{1, 0, 100},
		{1, 4, 500},
		{1, 10, 1100},
		{1, 11, 1100},
		{2, 3, 1100},
		{3, 0, 1150},
		{-1, 5, 0},
	} {
		m := &bagread.Message{FileIndex: tc.file, Position: tc.pos}
		if got := a.progress(m, sizes); got != tc.want {
			t.Errorf("file %d position %d: progress %d, want %d", tc.file, tc.pos, got, tc.want)
		}
	}
}

// TestReplaySkip: a topic's skipped messages are counted and its first
// error kept, naming the file when the message has one.
func TestReplaySkip(t *testing.T) {
	me := &bagread.MessageError{File: "b.db3", Topic: "/scan", Index: 4, Err: errors.New("short")}
	for _, tc := range []struct {
		name string
		file int
		err  error
		want string
	}{
		{"first file", 0, errors.New("bad"), "a.db3: topic /scan message 7: bad"},
		{"last file", 1, errors.New("bad"), "b.db3: topic /scan message 7: bad"},
		{"past the files", 2, errors.New("bad"), ": topic /scan message 7: bad"},
		{"no file", -1, errors.New("bad"), ": topic /scan message 7: bad"},
		{"reader's error", 1, fmt.Errorf("reading: %w", me), "reading: " + me.Error()},
	} {
		a := &analyzer{bag: &bagread.Bag{Files: []bagread.File{{Path: "a.db3"}, {Path: "b.db3"}}}, skipped: map[string]*Skipped{}}
		m := &bagread.Message{Topic: "/scan", FileIndex: tc.file, Index: 7}
		a.skip(m, tc.err)
		a.skip(m, errors.New("second"))
		s := a.skipped["/scan"]
		if s == nil || s.Count != 2 || s.FirstError != tc.want {
			t.Errorf("%s: skipped %+v, want 2 with first error %q", tc.name, s, tc.want)
		}
	}
}

// TestReplayReadProblems: a file that cannot be read when the replay comes
// to it is a problem of the report, read ahead or sequentially.
func TestReplayReadProblems(t *testing.T) {
	for _, sequential := range []bool{false, true} {
		dir, files := writeSplit(t, bagwrite.StorageMCAP, 3*time.Second, time.Second)
		if len(files) < 2 {
			t.Fatalf("want a split bag, got %q", files)
		}
		bag, err := bagread.Open(dir, bagread.Options{TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(files[1], 0); err != nil {
			t.Fatal(err)
		}
		rep, err := analyzeFinished(bag, Config{Sequential: sequential}, nil)
		bag.Close()
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range rep.Bag.Problems {
			found = found || strings.Contains(p, filepath.Base(files[1]))
		}
		if !found {
			t.Errorf("sequential %v: problems %q name no %s", sequential, rep.Bag.Problems, filepath.Base(files[1]))
		}
	}
}

// TestReplayProgressCalls: Progress hears every 1024th message with the
// bytes done by then; without Progress the replay runs on. The first
// message of a bag without a start time sets it, read or not.
func TestReplayProgressCalls(t *testing.T) {
	for _, withProgress := range []bool{false, true} {
		var calls []int64
		a := &analyzer{bag: &bagread.Bag{Files: []bagread.File{{Size: 1 << 20, Storage: bagread.StorageMCAP}}}, skipped: map[string]*Skipped{}}
		if withProgress {
			a.cfg.Progress = func(done int64) { calls = append(calls, done) }
		}
		sizes := []int64{1 << 20}
		for i := 1; i <= 2100; i++ {
			x := &decoded{msg: bagread.Message{LogTimeNS: int64(i) * 1e9, Position: int64(i) * 100}}
			if err := a.replay(x, sizes); err != nil {
				t.Fatal(err)
			}
			if i == 1 {
				if got := a.x(x.msg.LogTimeNS); got != 0 || a.startNS != 1e9 {
					t.Fatalf("first message: x %g, start %d; want 0, 1e9", got, a.startNS)
				}
			}
		}
		want := []int64(nil)
		if withProgress {
			want = []int64{102400, 204800}
		}
		if fmt.Sprint(calls) != fmt.Sprint(want) {
			t.Errorf("progress %v: calls %v, want %v", withProgress, calls, want)
		}
	}
}
