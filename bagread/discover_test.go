package bagread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// tree builds files under dir: "a/b.db3" makes a file, "a/" a directory,
// "l -> target" a symlink (target relative to the link's directory).
func tree(t *testing.T, dir string, specs ...string) {
	t.Helper()
	for _, s := range specs {
		if link, target, ok := strings.Cut(s, " -> "); ok {
			p := filepath.Join(dir, link)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		p := filepath.Join(dir, s)
		if strings.HasSuffix(s, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// summary renders a discovery as comparable lines, paths relative to dir.
func summary(t *testing.T, dir string, d *Discovery) (bags, problems []string) {
	t.Helper()
	rel := func(p string) string {
		r, err := filepath.Rel(dir, p)
		if err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(r)
	}
	for _, b := range d.Bags {
		var files []string
		for _, f := range b.Files {
			files = append(files, filepath.Base(f))
		}
		kind := "file"
		if b.IsDir {
			kind = "dir"
		}
		bags = append(bags, rel(b.Path)+" rel="+b.Rel+" "+kind+" "+b.Storage+" ["+strings.Join(files, ",")+"]")
	}
	for _, p := range d.Problems {
		problems = append(problems, rel(p.Path))
	}
	return bags, problems
}

func TestDiscover(t *testing.T) {
	cases := []struct {
		name     string
		files    []string
		root     string // below the temp dir; "" = the temp dir
		bags     []string
		problems []string
	}{
		{
			name:  "split bag with metadata is one bag",
			files: []string{"run/metadata.yaml", "run/run_0.db3", "run/run_1.db3", "run/run_2.db3"},
			bags:  []string{"run rel=run dir sqlite3 [metadata.yaml,run_0.db3,run_1.db3,run_2.db3]"},
		},
		{
			name:  "split bag without metadata is one bag",
			files: []string{"a/b/rec_0.mcap", "a/b/rec_1.mcap"},
			bags:  []string{"a/b rel=a/b dir mcap [rec_0.mcap,rec_1.mcap]"},
		},
		{
			name:  "FILE-compressed bag beside its uncompressed copy",
			files: []string{"z/metadata.yaml", "z/z_0.db3.zstd", "z/z_0.db3"},
			bags:  []string{"z rel=z dir sqlite3 [metadata.yaml,z_0.db3,z_0.db3.zstd]"},
		},
		{
			name:  "loose files among other files are one bag each",
			files: []string{"day/notes.txt", "day/a.mcap", "day/b.mcap", "day/c.db3", "day/c.db3-wal", "day/c.db3-shm"},
			bags: []string{
				"day/a.mcap rel=day/a.mcap file mcap [a.mcap]",
				"day/b.mcap rel=day/b.mcap file mcap [b.mcap]",
				"day/c.db3 rel=day/c.db3 file sqlite3 [c.db3,c.db3-wal]",
			},
		},
		{
			name:  "lone split file without metadata makes its directory a bag; wal kept, shm left out",
			files: []string{"w/rec_0.db3", "w/rec_0.db3-wal", "w/rec_0.db3-shm"},
			bags:  []string{"w rel=w dir sqlite3 [rec_0.db3,rec_0.db3-wal]"},
		},
		{
			name:  "lone file not named like a split is a loose file",
			files: []string{"w/sample.db3", "w/sample.db3-wal", "w/sample.db3-shm"},
			bags:  []string{"w/sample.db3 rel=w/sample.db3 file sqlite3 [sample.db3,sample.db3-wal]"},
		},
		{
			name:     "two recordings without metadata: reported, each file on its own",
			files:    []string{"m/x_0.db3", "m/y_0.db3"},
			bags:     []string{"m/x_0.db3 rel=m/x_0.db3 file sqlite3 [x_0.db3]", "m/y_0.db3 rel=m/y_0.db3 file sqlite3 [y_0.db3]"},
			problems: []string{"m"},
		},
		{
			name:     "metadata.yaml alone is reported, not a bag",
			files:    []string{"target/metadata.yaml", "ok/ok_0.db3"},
			bags:     []string{"ok rel=ok dir sqlite3 [ok_0.db3]"},
			problems: []string{"target"},
		},
		{
			name:     "symlink loop reported, bags found once",
			files:    []string{"arch/b1/b1_0.mcap", "arch/b1/metadata.yaml", "arch/sub/loop -> .."},
			root:     "arch",
			bags:     []string{"arch/b1 rel=b1 dir mcap [b1_0.mcap,metadata.yaml]"},
			problems: []string{"arch/sub/loop"},
		},
		{
			name:     "linked bag dir followed once, second link reported",
			files:    []string{"store/r/r_0.db3", "arch/link1 -> ../store/r", "arch/link2 -> ../store/r"},
			root:     "arch",
			bags:     []string{"arch/link1 rel=link1 dir sqlite3 [r_0.db3]"},
			problems: []string{"arch/link2"},
		},
		{
			name:     "dangling storage link still makes a bag; other dangling links reported",
			files:    []string{"d/metadata.yaml", "d/d_0.db3 -> gone.db3", "d/extra -> nowhere"},
			bags:     []string{"d rel=d dir sqlite3 [d_0.db3,metadata.yaml]"},
			problems: []string{"d/extra"},
		},
		{
			name:  "storage file that is a directory still makes a bag",
			files: []string{"s/metadata.yaml", "s/s_0.mcap/"},
			bags:  []string{"s rel=s dir mcap [metadata.yaml,s_0.mcap]"},
		},
		{
			name:  "root that is itself a bag takes its base name",
			files: []string{"only/metadata.yaml", "only/only_0.mcap"},
			root:  "only",
			bags:  []string{"only rel=only dir mcap [metadata.yaml,only_0.mcap]"},
		},
		{
			name:  "root that is a loose file",
			files: []string{"f/x.mcap"},
			root:  "f/x.mcap",
			bags:  []string{"f/x.mcap rel=x.mcap file mcap [x.mcap]"},
		},
		{
			name:     "missing root reported",
			root:     "absent",
			problems: []string{"absent"},
		},
		{
			name:  "ROS 1 bags and a crash's .bag.active among ROS 2 bags, each on its own",
			files: []string{"day/a.mcap", "day/old.bag", "day/run.bag.active", "day/z.db3", "day/notes.bag.txt"},
			bags: []string{
				"day/a.mcap rel=day/a.mcap file mcap [a.mcap]",
				"day/old.bag rel=day/old.bag file rosbag_v2 [old.bag]",
				"day/run.bag.active rel=day/run.bag.active file rosbag_v2 [run.bag.active]",
				"day/z.db3 rel=day/z.db3 file sqlite3 [z.db3]",
			},
		},
		{
			name:  "a ROS 1 bag beside a split rosbag2 recording joins neither",
			files: []string{"s/rec_0.db3", "s/rec_1.db3", "s/rec_0.bag"},
			bags: []string{
				"s rel=s dir sqlite3 [rec_0.db3,rec_1.db3]",
				"s/rec_0.bag rel=s/rec_0.bag file rosbag_v2 [rec_0.bag]",
			},
		},
		{
			name:  "a ROS 1 bag inside a rosbag2 bag directory is not one of its files",
			files: []string{"r/metadata.yaml", "r/r_0.mcap", "r/legacy.bag"},
			bags: []string{
				"r rel=r dir mcap [metadata.yaml,r_0.mcap]",
				"r/legacy.bag rel=r/legacy.bag file rosbag_v2 [legacy.bag]",
			},
		},
		{
			name:  "rosbag record --split files are one bag each",
			files: []string{"t/run_2024-01-01-10-00-00_0.bag", "t/run_2024-01-01-10-00-00_1.bag"},
			bags: []string{
				"t/run_2024-01-01-10-00-00_0.bag rel=t/run_2024-01-01-10-00-00_0.bag file rosbag_v2 [run_2024-01-01-10-00-00_0.bag]",
				"t/run_2024-01-01-10-00-00_1.bag rel=t/run_2024-01-01-10-00-00_1.bag file rosbag_v2 [run_2024-01-01-10-00-00_1.bag]",
			},
		},
		{
			name:     "metadata.yaml beside only ROS 1 bags: reported, the bags still found",
			files:    []string{"m1/metadata.yaml", "m1/x.bag"},
			bags:     []string{"m1/x.bag rel=m1/x.bag file rosbag_v2 [x.bag]"},
			problems: []string{"m1"},
		},
		{
			name:  "a directory named x.bag is a rosbag2 bag directory",
			files: []string{"x.bag/metadata.yaml", "x.bag/x_0.db3"},
			bags:  []string{"x.bag rel=x.bag dir sqlite3 [metadata.yaml,x_0.db3]"},
		},
		{
			name:  "mixed storage kinds in one dir with metadata",
			files: []string{"mix/metadata.yaml", "mix/a_0.db3", "mix/a_1.mcap"},
			bags:  []string{"mix rel=mix dir  [a_0.db3,a_1.mcap,metadata.yaml]"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tree(t, dir, tc.files...)
			d := Discover(filepath.Join(dir, tc.root))
			bags, problems := summary(t, dir, d)
			if !reflect.DeepEqual(bags, tc.bags) {
				t.Errorf("bags:\n got %q\nwant %q", bags, tc.bags)
			}
			if !reflect.DeepEqual(problems, tc.problems) {
				t.Errorf("problems:\n got %q\nwant %q (%v)", problems, tc.problems, d.Problems)
			}
		})
	}
}

func TestDiscoverUnreadableFolder(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, "a/a_0.db3", "locked/l_0.db3", "z/z_0.mcap")
	locked := filepath.Join(dir, "locked")
	orig := readDir
	t.Cleanup(func() { readDir = orig })
	readDir = func(name string) ([]fs.DirEntry, error) {
		if name == locked {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		return orig(name)
	}
	d := Discover(dir)
	bags, problems := summary(t, dir, d)
	want := []string{"a rel=a dir sqlite3 [a_0.db3]", "z rel=z dir mcap [z_0.mcap]"}
	if !reflect.DeepEqual(bags, want) || !reflect.DeepEqual(problems, []string{"locked"}) {
		t.Fatalf("bags %q problems %q", bags, problems)
	}
	if !errors.Is(d.Problems[0].Err, fs.ErrPermission) {
		t.Errorf("problem %v does not wrap the permission error", d.Problems[0])
	}
}

func TestDiscoverOverlappingRoots(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, "a/b/b_0.db3", "a/c.mcap")
	d := Discover(filepath.Join(dir, "a"), filepath.Join(dir, "a", "b"))
	bags, problems := summary(t, dir, d)
	want := []string{"a/c.mcap rel=c.mcap file mcap [c.mcap]", "a/b rel=b dir sqlite3 [b_0.db3]"}
	if !reflect.DeepEqual(bags, want) || len(problems) != 1 {
		t.Fatalf("bags %q problems %q", bags, problems)
	}
}

// TestDiscoverSharedBags checks discovery against the layout of the real
// bags in ../shared/bags, as PROVENANCE.md describes it.
func TestDiscoverSharedBags(t *testing.T) {
	root := filepath.Join(testenv.SharedDir(t), "bags")
	d := Discover(root)
	got := map[string]Discovered{}
	for _, b := range d.Bags {
		if _, dup := got[b.Rel]; dup {
			t.Errorf("bag %s found twice", b.Rel)
		}
		got[b.Rel] = b
	}
	want := []struct {
		rel   string
		isDir bool
		files int
	}{
		{"tb3-walker-humble-nitesh", true, 2},
		{"tb3-walker-no-metadata", true, 1},                   // no metadata.yaml
		{"tb3-unclean-wal-no-metadata", true, 2},              // db3 + wal, shm left out
		{"rosbag2-reindex-test-bags/multiple_files", true, 3}, // split, no metadata
		{"rosbag2-reindex-test-bags/file_compression", true, 4},
		{"rosbag2-compressed-bag-foxy", true, 2},
		{"zstd-file-compressed-humble", true, 3},
		{"rosbag2-cdr-test-v1", true, 4}, // metadata + two db3 + wal
		{"ait-rosbag2-tools/range.bag", true, 2},
		{"evo-nav2-turtlebot-mcap/nav2_turtlebot.mcap", false, 1},
		{"rosbag2-head/rosbag2_py/test/resources/mcap/wbag", true, 6},
	}
	for _, w := range want {
		b, ok := got[w.rel]
		if !ok {
			t.Errorf("bag %s not discovered", w.rel)
			continue
		}
		if b.IsDir != w.isDir || len(b.Files) != w.files {
			t.Errorf("%s: dir=%v files=%v, want dir=%v and %d files", w.rel, b.IsDir, b.Files, w.isDir, w.files)
		}
	}
	// The reindex fixtures hold metadata.yaml files without storage.
	var targets []string
	for _, p := range d.Problems {
		if strings.Contains(p.Path, "target_metadata") {
			targets = append(targets, filepath.Base(p.Path))
		}
	}
	sort.Strings(targets)
	if want := []string{"file_compression", "message_compression", "multiple_files"}; !reflect.DeepEqual(targets, want) {
		t.Errorf("target_metadata problems %q, want %q (all: %v)", targets, want, d.Problems)
	}
	// Every discovered bag must be one Open accepts or rejects by itself:
	// a directory Open would refuse as "unrelated storage files" means
	// discovery grouped wrongly.
	for _, b := range d.Bags {
		if !b.IsDir || isFile(filepath.Join(b.Path, "metadata.yaml")) {
			continue
		}
		if _, err := discoverFiles(b.Path); err != nil {
			t.Errorf("%s: discovered as one bag but bagread sees: %v", b.Rel, err)
		}
	}
	t.Logf("%d bags, %d problems under %s", len(d.Bags), len(d.Problems), root)
}

// TestDiscoverDot: a bag given as "." is named after its directory; a
// loose file given twice (once through a symlink) is scanned once.
func TestDiscoverDot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run7")
	tree(t, dir, "metadata.yaml", "run7_0.db3", "x.mcap", "y.mcap -> x.mcap")
	t.Chdir(dir)
	d := Discover(".")
	if len(d.Bags) != 1 || d.Bags[0].Rel != "run7" || d.Bags[0].Path != "." || len(d.Problems) != 0 {
		t.Errorf("Discover(\".\") = %+v, want the bag run7 at .", d)
	}
	d = Discover("x.mcap", "y.mcap")
	if len(d.Bags) != 1 || d.Bags[0].Rel != "x.mcap" || len(d.Problems) != 1 ||
		d.Problems[0].Error() != "y.mcap: same file as x.mcap, scanned once" {
		t.Errorf("Discover(x.mcap, y.mcap) = %+v, want x.mcap once and a problem for y.mcap", d)
	}
}

// TestDiscoverPartlyReadableFolder: a folder whose listing fails part way
// is a problem, and the entries listed before the failure are still used.
func TestDiscoverPartlyReadableFolder(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, "part/p_0.db3", "part/p_1.db3")
	part := filepath.Join(dir, "part")
	orig := readDir
	t.Cleanup(func() { readDir = orig })
	readDir = func(name string) ([]fs.DirEntry, error) {
		es, err := orig(name)
		if name == part && err == nil {
			return es[:1], &fs.PathError{Op: "readdirent", Path: name, Err: fs.ErrPermission}
		}
		return es, err
	}
	d := Discover(dir)
	bags, problems := summary(t, dir, d)
	want := []string{"part rel=part dir sqlite3 [p_0.db3]"}
	if !reflect.DeepEqual(bags, want) || !reflect.DeepEqual(problems, []string{"part"}) {
		t.Fatalf("bags %q problems %q", bags, problems)
	}
}
