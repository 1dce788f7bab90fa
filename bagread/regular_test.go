package bagread

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/bombs"
)

// openWithin runs Open and fails the test if it has not returned within
// the deadline (a FIFO without a writer blocks a plain open for ever).
func openWithin(t *testing.T, path string, deadline time.Duration) (*Bag, error) {
	t.Helper()
	type result struct {
		b   *Bag
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := Open(path, Options{TempDir: t.TempDir()})
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-time.After(deadline):
		t.Fatalf("Open(%s) still blocked after %v", path, deadline)
		return nil, nil
	}
}

func TestOpenRefusesNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"p.mcap", "p.db3", "p.db3.zstd"} {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	cases := []struct{ path, kind string }{
		{filepath.Join(dir, "p.mcap"), "FIFO"},
		{filepath.Join(dir, "p.db3"), "FIFO"},
		{filepath.Join(dir, "p.db3.zstd"), "FIFO"},
		{"/dev/zero", "character device"},
	}
	// /dev/null too, where it is one (some sandboxes make it a regular file).
	if st, err := os.Stat("/dev/null"); err == nil && st.Mode()&os.ModeCharDevice != 0 {
		cases = append(cases, struct{ path, kind string }{"/dev/null", "character device"})
	}
	for _, c := range cases {
		b, err := openWithin(t, c.path, 5*time.Second)
		if err == nil {
			b.Close()
			t.Errorf("Open(%s) succeeded, want an error", c.path)
			continue
		}
		// Named by path, with no offset: nothing was read.
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), c.kind) || !strings.HasPrefix(err.Error(), c.path+": open: not a regular file: it is ") {
			t.Errorf("Open(%s) = %v, want ErrNotRegular naming the file and %q", c.path, err, c.kind)
		}
	}
}

// TestBagDirWithFIFOs: a bag directory whose metadata.yaml and listed
// storage file are FIFOs must not hang either; the FIFOs are skipped and
// the error says nothing usable was found.
func TestBagDirWithFIFOs(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "metadata.yaml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "b_0.mcap"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := openWithin(t, dir, 5*time.Second)
	if err == nil {
		b.Close()
		t.Fatal("Open of a bag of FIFOs succeeded")
	}
	if !strings.Contains(err.Error(), "no storage files") || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("error %q should say no storage file was found and why metadata.yaml was unusable", err)
	}
}

// TestMetadataCap: a metadata.yaml over MaxMetadataBytes is refused before
// parsing, with its real size in the message.
func TestMetadataCap(t *testing.T) {
	dir := t.TempDir()
	seed := filepath.Join(dir, "b_0.mcap")
	writeMCAP(t, seed, genSpec{n: 4})
	md := filepath.Join(dir, "metadata.yaml")
	f, err := os.Create(md)
	if err != nil {
		t.Fatal(err)
	}
	const size = MaxMetadataBytes + 1
	if err := f.Truncate(size); err != nil { // sparse: no 16 MiB written
		t.Fatal(err)
	}
	f.Close()
	b, err := Open(dir, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatalf("a bag with an oversized metadata.yaml should still open from storage: %v", err)
	}
	defer b.Close()
	if !b.MetadataReconstructed || !strings.Contains(b.MetadataProblem, strconv.Itoa(size)) ||
		!strings.Contains(b.MetadataProblem, ErrTooLarge.Error()) {
		t.Errorf("MetadataProblem = %q, want the size %d and %q", b.MetadataProblem, size, ErrTooLarge)
	}
	if _, err := readMetadataFile(md); !errors.Is(err, ErrTooLarge) {
		t.Errorf("readMetadataFile = %v, want ErrTooLarge", err)
	}
}

// TestReadSmallFileBoundary: a file of exactly the limit is read whole;
// one byte more is refused with its size and the limit.
func TestReadSmallFileBoundary(t *testing.T) {
	const limit = 10
	for _, c := range []struct {
		size    int
		wantErr string
	}{
		{0, ""},
		{limit - 1, ""},
		{limit, ""},
		{limit + 1, " is 11 bytes: size exceeds limit (10 bytes is the most a metadata file may have)"},
	} {
		p := filepath.Join(t.TempDir(), "metadata.yaml")
		want := []byte(strings.Repeat("x", c.size))
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readSmallFile(p, limit)
		if c.wantErr != "" {
			if err == nil || err.Error() != p+c.wantErr || !errors.Is(err, ErrTooLarge) {
				t.Errorf("%d bytes: error %v, want %q", c.size, err, p+c.wantErr)
			}
			continue
		}
		if err != nil || string(got) != string(want) {
			t.Errorf("%d bytes: read %d bytes, error %v; want all of them", c.size, len(got), err)
		}
	}
}

// TestPrivateDir: a FILE-mode .zstd file is decompressed into a
// bagread-* directory under Options.TempDir, removed by Close.
func TestPrivateDir(t *testing.T) {
	src := filepath.Join(t.TempDir(), "b_0.db3")
	writeDB3(t, src, 3, 4, false)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "b_0.db3.zstd")
	if err := os.WriteFile(p, bombs.Compress(data), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	b, err := Open(p, Options{TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(tmp)
	if len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), "bagread-") || b.MessageCount != 4 {
		t.Errorf("while open: temp dir holds %v, %d messages; want one bagread-* dir and 4", entries, b.MessageCount)
	}
	b.Close()
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("after Close: temp dir holds %v", entries)
	}
}

// TestNotStorage: a file that is no storage file is refused in the user's
// words, as a FileError without offset.
func TestNotStorage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, data, want string // want after "PATH: not a ROS bag: "
	}{
		{"e.mcap", "", "the file is empty (0 bytes), not a sqlite3 (.db3), MCAP or ROS 1 (.bag) file"},
		{"metadata.yaml", "version: 5\n", "this is a bag's metadata.yaml; pass the directory that holds it (" + dir + ")"},
		{"copy.yaml", "rosbag2_bagfile_information:\n", "this is a bag's metadata.yaml; pass the directory that holds it (" + dir + ")"},
		{"x.bin", "hello, world", "it is neither a sqlite3 (.db3), an MCAP nor a ROS 1 (.bag) file (it does not start with any of their signatures)"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := Open(p, Options{TempDir: t.TempDir()})
		if err == nil {
			b.Close()
		}
		var fe *FileError
		if want := p + ": not a ROS bag: " + c.want; err == nil || err.Error() != want || !errors.Is(err, ErrNotABag) || !errors.As(err, &fe) || fe.Offset != -1 {
			t.Errorf("Open(%s) = %v, want %q", c.name, err, want)
		}
	}
}

// TestTopicsWithoutMetadata: without metadata.yaml a topic's metadata
// count is unknown (-1); its type, format and QoS come from storage.
func TestTopicsWithoutMetadata(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.mcap")
	writeMCAP(t, p, genSpec{chunked: true, n: 6})
	b, err := Open(p, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tp := b.Topic("/tf")
	if tp == nil || tp.MetadataCount != -1 || tp.MessageCount != 2 || tp.Type != "tf2_msgs/msg/TFMessage" || tp.SerializationFormat != "cdr" ||
		len(tp.QoS) != 1 || tp.QoS[0].Depth != 10 || tp.QoS[0].Reliability != "best_effort" {
		t.Errorf("/tf: %+v", tp)
	}
}
