package bagread

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// TestErrorTexts: file and message errors name the file and, where known,
// the offset (0 included) or rowid.
func TestErrorTexts(t *testing.T) {
	cause := errors.New("cause")
	for _, c := range []struct {
		err  error
		want string
	}{
		{&FileError{Path: "a.mcap", Offset: 0, Op: "read", Err: cause}, "a.mcap: at byte 0: read: cause"},
		{&FileError{Path: "a.mcap", Offset: 17, Op: "read", Err: cause}, "a.mcap: at byte 17: read: cause"},
		{&FileError{Path: "a.mcap", Offset: -1, Op: "read", Err: cause}, "a.mcap: read: cause"},
		{&FileError{Path: "a.mcap", Offset: 5, Err: cause}, "a.mcap: cause"},
		{&TruncatedError{Need: 9, Have: 3}, "record header torn: need 9 bytes, have 3"},
		{&TruncatedError{Opcode: opChunk, Need: 900, Have: 30}, "record opcode 0x06 of 900 bytes runs past end of data (30 bytes left)"},
		{&MessageError{File: "a.mcap", Topic: "/tf", Index: 3, Position: 100, ChunkOffset: -1, Err: cause},
			"a.mcap: topic /tf message 3 (byte 100): cause"},
		{&MessageError{File: "a.mcap", Topic: "/tf", Index: 3, Position: 100, ChunkOffset: 0, Err: cause},
			"a.mcap: topic /tf message 3 (chunk at byte 100, offset 0): cause"},
		{&MessageError{File: "a.mcap", Topic: "/tf", Index: 3, Position: 100, ChunkOffset: 42, Err: cause},
			"a.mcap: topic /tf message 3 (chunk at byte 100, offset 42): cause"},
		{&MessageError{File: "a.db3", Topic: "/tf", Index: 0, Position: 7, Rowid: true, ChunkOffset: -1, Err: cause},
			"a.db3: topic /tf message 0 (rowid 7): cause"},
		{guard("a.mcap", 12, "parse", func() error { panic("boom") }), "a.mcap: at byte 12: parse: mcap library panic: boom"},
		{guard("a.mcap", 12, "parse", func() error { return cause }), "cause"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
	if !errors.Is(&TruncatedError{}, io.ErrUnexpectedEOF) || !errors.Is(&FileError{Err: cause}, cause) || !errors.Is(&MessageError{Err: cause}, cause) {
		t.Error("errors do not unwrap to their cause")
	}
}

// TestSplitGaps: the missing members of a run of split names, and nothing
// when the names are not one run.
func TestSplitGaps(t *testing.T) {
	files := func(names ...string) []File {
		var fs []File
		for _, n := range names {
			fs = append(fs, File{Path: "/bags/x/" + n})
		}
		return fs
	}
	for _, c := range []struct {
		name  string
		files []File
		want  []string
	}{
		{"none", nil, nil},
		{"whole run", files("b_0.db3", "b_1.db3"), nil},
		{"first missing", files("b_1.db3"), []string{"b_0.db3"}},
		{"middle missing", files("b_0.mcap", "b_3.mcap"), []string{"b_1.mcap", "b_2.mcap"}},
		{"compressed", files("b_0.db3.zstd", "b_2.db3.zstd"), []string{"b_1.db3.zstd"}},
		{"other prefix", files("b_0.db3", "c_2.db3"), nil},
		{"other extension", files("b_0.db3", "b_2.mcap"), nil},
		{"not split names", files("b_0.db3", "b.db3"), nil},
		{"index at the cap", files("b_100000.db3", "b_99999.db3")[:1], nil},
		{"index past the cap", files("b_100001.db3"), nil},
	} {
		got := splitGaps(c.files)
		if c.name == "index at the cap" {
			if len(got) != 100000 || got[0] != "b_0.db3" || got[99999] != "b_99999.db3" {
				t.Errorf("%s: %d gaps, want b_0.db3..b_99999.db3", c.name, len(got))
			}
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: gaps %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPartial: a bag is partial when files are missing or cut, topics are
// short, or storage holds fewer messages than metadata.yaml recorded.
func TestPartial(t *testing.T) {
	for _, c := range []struct {
		c    Completeness
		want bool
	}{
		{Completeness{Recorded: -1}, false},
		{Completeness{Recorded: -1, Present: 5}, false},
		{Completeness{Recorded: 0}, false},
		{Completeness{Recorded: 5, Present: 5}, false},
		{Completeness{Recorded: 6, Present: 5}, true},
		{Completeness{Recorded: 4, Present: 5}, false},
		{Completeness{Recorded: -1, FilesMissing: []string{"b_1.db3"}}, true},
		{Completeness{Recorded: -1, FilesCut: []string{"b_1.db3"}}, true},
		{Completeness{Recorded: -1, TopicsShort: []string{"/tf: 1 of 2"}}, true},
	} {
		if got := c.c.Partial(); got != c.want {
			t.Errorf("%+v.Partial() = %v, want %v", c.c, got, c.want)
		}
	}
}

// TestCompleteness: metadata.yaml's file list and counts against storage.
func TestCompleteness(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b_0.db3", "b_2.db3.zstd"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	md := &Metadata{Version: 5, MessageCount: 10, RelativeFilePaths: []string{"b_0.db3", "b_1.db3", "b_2.db3"}}
	files := []File{
		{Path: filepath.Join(dir, "b_0.db3"), Recovery: &Recovery{Offset: 4096, Recovered: 3}},
		{Path: filepath.Join(dir, "b_2.db3.zstd"), Recovery: &Recovery{Offset: -1, WALMessages: 2}},
	}
	topics := []Topic{
		{Name: "/tf", MessageCount: 3, MetadataCount: 4},
		{Name: "/scan", MessageCount: 5, MetadataCount: 5},
		{Name: "/clock", MessageCount: 2, MetadataCount: -1},
	}
	for _, c := range []struct {
		name string
		bag  Bag
		want Completeness
	}{
		{"with metadata", Bag{Path: dir, Metadata: md, Files: files, Topics: topics, MessageCount: 10},
			Completeness{FilesListed: 3, FilesMissing: []string{"b_1.db3"}, FilesCut: []string{files[0].Path},
				Recorded: 10, Present: 10, TopicsShort: []string{"/tf: 3 of 4"}}},
		{"no metadata", Bag{Path: dir, Files: files, MessageCount: 7},
			// b_0.db3 and b_2.db3.zstd are not one run of split names.
			Completeness{FilesCut: []string{files[0].Path}, Recorded: -1, Present: 7}},
		{"metadata rebuilt", Bag{Path: dir, Metadata: md, MetadataReconstructed: true, MetadataProblem: "bad", Files: files[1:], MessageCount: 7},
			Completeness{FilesMissing: []string{"b_0.db3.zstd", "b_1.db3.zstd"}, Recorded: 10, Present: 7, MetadataRebuilt: true, MetadataProblem: "bad"}},
		{"loose file", Bag{Path: files[0].Path, Metadata: md, Files: files[:1], MessageCount: 3},
			Completeness{FilesCut: []string{files[0].Path}, Recorded: 10, Present: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.bag.Completeness(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Completeness() =\n%+v, want\n%+v", got, c.want)
			}
		})
	}
}

// TestProblemString: a problem at byte 0 still gives its offset; one
// without an offset (-1) does not; a skipped one says reading went on.
func TestProblemString(t *testing.T) {
	cause := errors.New("cause")
	for _, c := range []struct {
		p    Problem
		want string
	}{
		{Problem{File: "a.mcap", Offset: 0, Recovered: 0, Err: cause}, "a.mcap: stopped at byte 0 after 0 messages: cause"},
		{Problem{File: "a.mcap", Offset: 90, Recovered: 4, Err: cause}, "a.mcap: stopped at byte 90 after 4 messages: cause"},
		{Problem{File: "a.mcap", Offset: -1, Recovered: 4, Err: cause}, "a.mcap: stopped after 4 messages: cause"},
		{Problem{File: "a.mcap", Offset: 90, Recovered: 4, Skipped: true, Err: cause}, "a.mcap: skipped at byte 90 (reading went on): cause"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// TestResolveListed: metadata before version 4 lists files relative to
// the bag's parent directory, later ones relative to the bag; a listed
// name is also found with or without .zstd.
func TestResolveListed(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "bag")
	for _, p := range []string{filepath.Join(parent, "x.db3"), filepath.Join(dir, "x.db3"), filepath.Join(dir, "y.db3.zstd"), filepath.Join(dir, "z.mcap")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		rel     string
		version int
		want    string
	}{
		{"x.db3", 3, filepath.Join(parent, "x.db3")},
		{"x.db3", 4, filepath.Join(dir, "x.db3")},
		{"bag/x.db3", 3, filepath.Join(parent, "bag", "x.db3")},
		{"other/x.db3", 5, filepath.Join(dir, "x.db3")},
		{"y.db3", 5, filepath.Join(dir, "y.db3.zstd")},
		{"z.mcap.zstd", 5, filepath.Join(dir, "z.mcap")},
		{filepath.Join(dir, "z.mcap"), 5, filepath.Join(dir, "z.mcap")},
		{"w.db3", 5, ""},
	} {
		if got := resolveListed(dir, c.rel, c.version); got != c.want {
			t.Errorf("resolveListed(%q, version %d) = %q, want %q", c.rel, c.version, got, c.want)
		}
	}
}

// TestDiscoverFiles: split files come in numeric split order; of a split
// present both plain and as .zstd, the plain one is kept; several loose
// files without split names are refused.
func TestDiscoverFiles(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  []string
		err   string // after "DIR: "
	}{
		{[]string{"b_10.mcap", "b_2.mcap", "b_0.mcap"}, []string{"b_0.mcap", "b_2.mcap", "b_10.mcap"}, ""},
		{[]string{"b_1.db3.zstd", "b_1.db3", "b_0.db3.zstd"}, []string{"b_0.db3.zstd", "b_1.db3"}, ""},
		{[]string{"b_1.db3", "b_1.db3.zstd"}, []string{"b_1.db3"}, ""},
		{[]string{"x.mcap", "notes.txt"}, []string{"x.mcap"}, ""},
		{[]string{"a_1.db3", "b_1.db3"}, nil, "no metadata.yaml and two storage files for split 1 (a_1.db3, b_1.db3): name one of them"},
		{[]string{"a_0.db3", "a_1.db3.zstd", "b_1.mcap"}, nil, "no metadata.yaml and two storage files for split 1 (b_1.mcap, a_1.db3.zstd): name one of them"},
		{[]string{"x.mcap", "y.db3"}, nil, "no metadata.yaml and 2 unrelated storage files (x.mcap, y.db3): name one of them"},
	} {
		dir := t.TempDir()
		for _, n := range c.names {
			if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := discoverFiles(dir)
		var want []string
		for _, n := range c.want {
			want = append(want, filepath.Join(dir, n))
		}
		if c.err != "" {
			if err == nil || err.Error() != dir+": "+c.err {
				t.Errorf("%v: error %v, want %q", c.names, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%v: %v, %v; want %v", c.names, got, err, want)
		}
	}
}
