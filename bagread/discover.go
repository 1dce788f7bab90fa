package bagread

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Discovered is one bag found by Discover: a bag directory (with or without
// metadata.yaml; a split bag is one directory) or a loose storage file.
type Discovered struct {
	// Path is the bag as reached from its root (Root joined with the
	// relative path); pass it to Open.
	Path string
	// Root is the argument of Discover the bag was found under.
	Root string
	// Rel is Path relative to Root with forward slashes; when Root is
	// itself the bag, its base name. It does not depend on where the
	// archive is mounted, so it is the key for sharding.
	Rel string
	// IsDir is true for a bag directory, false for a loose file.
	IsDir bool
	// Files are the files whose content makes up the bag: storage files,
	// metadata.yaml and sqlite -wal files, sorted. Entries may be broken
	// (a dangling symlink, a directory named like a storage file): Open
	// then reports the failure. The -shm file is left out on purpose:
	// SQLite rewrites it on every open, so it says nothing about content.
	Files []string
	// Storage is the storage guessed from file names (StorageSQLite3,
	// StorageMCAP or "" when mixed).
	Storage string
}

// DiscoverProblem is something Discover could not look into: an unreadable
// folder, a symlink loop, a dangling link, a metadata.yaml without storage.
// Discovery goes on past it.
type DiscoverProblem struct {
	Path string
	Err  error
}

func (p DiscoverProblem) Error() string { return fmt.Sprintf("%s: %v", p.Path, p.Err) }

// Discovery is the result of Discover.
type Discovery struct {
	Bags     []Discovered
	Problems []DiscoverProblem
}

// readDir is os.ReadDir; tests replace it to simulate unreadable folders
// (they run as root, where chmod 000 does not stop reading).
var readDir = os.ReadDir

// Discover walks each root recursively, following symlinks, and lists the
// bags under it in a stable order (roots in order, names sorted). A root
// may itself be a bag directory or a storage file. A directory is visited
// once even when several links or roots reach it; a link back to one of
// its own ancestors is reported as a loop. Nothing is opened beyond
// directory listings and stat calls.
func Discover(roots ...string) *Discovery {
	d := &discoverer{visited: map[string]string{}, out: &Discovery{}}
	for _, root := range roots {
		d.root(root)
	}
	return d.out
}

type discoverer struct {
	// visited maps the real path of every directory and loose file seen to
	// the path it was first reached by.
	visited map[string]string
	out     *Discovery
}

func (d *discoverer) problem(path string, format string, args ...any) {
	d.out.Problems = append(d.out.Problems, DiscoverProblem{Path: path, Err: fmt.Errorf(format, args...)})
}

func (d *discoverer) root(root string) {
	root = filepath.Clean(root)
	st, err := os.Stat(root)
	if err != nil {
		d.out.Problems = append(d.out.Problems, DiscoverProblem{Path: root, Err: err})
		return
	}
	base := filepath.Base(root)
	if abs, err := filepath.Abs(root); err == nil {
		base = filepath.Base(abs)
	}
	if !st.IsDir() {
		d.looseFile(root, root, base)
		return
	}
	d.dir(root, root, "", nil, base)
}

func (d *discoverer) looseFile(root, path, rel string) {
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		if first, seen := d.visited[real]; seen {
			d.problem(path, "same file as %s, scanned once", first)
			return
		}
		d.visited[real] = path
	}
	files := []string{path}
	if wal := path + "-wal"; isFile(wal) {
		files = append(files, wal)
	}
	d.out.Bags = append(d.out.Bags, Discovered{
		Path: path, Root: root, Rel: rel, Files: files, Storage: storageFromName(filepath.Base(path)),
	})
}

// entry is one classified directory entry.
type entry struct {
	name string
	path string
}

// dir visits one directory. rel is its path below root ("" for the root),
// ancestors the real paths of the directories above it, rootName the
// relative name to give a root that is itself a bag.
func (d *discoverer) dir(root, path, rel string, ancestors []string, rootName string) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		d.problem(path, "resolve: %w", err)
		return
	}
	for _, a := range ancestors {
		if a == real {
			d.problem(path, "symlink loop: leads back to %s", real)
			return
		}
	}
	if first, seen := d.visited[real]; seen {
		d.problem(path, "same directory as %s, scanned once", first)
		return
	}
	d.visited[real] = path
	entries, err := readDir(path)
	if err != nil {
		d.problem(path, "unreadable folder: %w", err)
		if len(entries) == 0 {
			return
		}
	}
	var storage, ros1, subdirs []entry
	var hasMeta bool
	wal := map[string]string{}
	for _, e := range entries {
		name := e.Name()
		p := filepath.Join(path, name)
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			st, err := os.Stat(p)
			switch {
			case err != nil && storageFromName(name) != "":
				// A broken storage file still makes a bag: its
				// analysis says what is wrong with it.
			case err != nil:
				d.problem(p, "dangling symlink: %w", err)
				continue
			default:
				isDir = st.IsDir()
			}
		}
		switch {
		case storageFromName(name) == StorageROS1 && !isDir:
			// A ROS 1 bag is a bag on its own wherever it lies: ROS 1
			// has no metadata joining files, and rosbag record --split
			// writes each split as a complete bag. (A directory named
			// x.bag is a rosbag2 bag directory, below.)
			ros1 = append(ros1, entry{name, p})
		case storageFromName(name) != "" && storageFromName(name) != StorageROS1:
			storage = append(storage, entry{name, p})
		case name == "metadata.yaml" && !isDir:
			hasMeta = true
		case strings.HasSuffix(name, "-wal") && !isDir:
			wal[strings.TrimSuffix(name, "-wal")] = p
		case isDir:
			subdirs = append(subdirs, entry{name, p})
		}
	}
	bagRel := rel
	if bagRel == "" {
		bagRel = rootName
	}
	withWAL := func(files []string, names ...string) []string {
		for _, n := range names {
			if w, ok := wal[n]; ok {
				files = append(files, w)
			}
		}
		return files
	}
	var names []string
	for _, s := range storage {
		names = append(names, s.name)
	}
	layout := LayoutOf(names, hasMeta)
	if layout.Problem != "" {
		d.problem(path, "%s", layout.Problem)
	}
	if layout.Bag {
		var files []string
		if hasMeta {
			files = append(files, filepath.Join(path, "metadata.yaml"))
		}
		for _, s := range storage {
			files = append(files, s.path)
		}
		d.addDir(root, path, bagRel, withWAL(files, names...), storage)
	}
	loose := ros1
	for _, s := range storage {
		if layout.isLoose(s.name) {
			loose = append(loose, s)
		}
	}
	sort.Slice(loose, func(i, j int) bool { return loose[i].name < loose[j].name })
	for _, s := range loose {
		r := s.name
		if rel != "" {
			r = rel + "/" + s.name
		}
		d.looseFile(root, s.path, r)
	}
	for _, s := range subdirs {
		r := s.name
		if rel != "" {
			r = rel + "/" + s.name
		}
		d.dir(root, s.path, r, append(ancestors[:len(ancestors):len(ancestors)], real), rootName)
	}
}

func (d *discoverer) addDir(root, path, rel string, files []string, storage []entry) {
	sort.Strings(files)
	kind := ""
	for i, s := range storage {
		k := storageFromName(s.name)
		if i == 0 {
			kind = k
		} else if k != kind {
			kind = ""
		}
	}
	d.out.Bags = append(d.out.Bags, Discovered{Path: path, Root: root, Rel: rel, IsDir: true, Files: files, Storage: kind})
}

// Layout is how discovery reads the files directly in one folder.
type Layout struct {
	// Bag: the folder is one bag of all its storage files (with its
	// metadata.yaml, when it has one).
	Bag bool
	// Loose lists the storage files that are bags on their own.
	Loose []string
	// Problem is a note for the user ("" when none): metadata.yaml with
	// no storage beside it, several recordings without metadata.yaml.
	Problem string
}

func (l Layout) isLoose(name string) bool {
	for _, n := range l.Loose {
		if n == name {
			return true
		}
	}
	return false
}

// LayoutOf applies Discover's rules to the storage file names of one
// folder (see StorageFromName) and whether it holds metadata.yaml: a
// folder with metadata.yaml and storage is one bag; without metadata.yaml
// it is one bag when its files are the splits of one recording, else
// each file is a bag. Object stores (package objstore) list their
// "folders" by the same rules.
func LayoutOf(storage []string, hasMeta bool) Layout {
	switch {
	case hasMeta && len(storage) > 0:
		return Layout{Bag: true}
	case hasMeta:
		return Layout{Problem: "metadata.yaml but no .db3/.mcap file beside it: not scanned"}
	case len(storage) == 0:
		return Layout{}
	}
	entries := make([]entry, len(storage))
	for i, n := range storage {
		entries[i] = entry{name: n}
	}
	if oneRecording(entries) {
		return Layout{Bag: true}
	}
	l := Layout{Loose: append([]string(nil), storage...)}
	if hasSplitName(entries) {
		l.Problem = "several recordings and no metadata.yaml: each storage file scanned on its own"
	}
	return l
}

// StorageFromName is the storage a file name says (StorageSQLite3,
// StorageMCAP, StorageROS1), "" for a name that is no storage file's.
func StorageFromName(name string) string { return storageFromName(name) }

// oneRecording reports whether the storage files of a directory without
// metadata.yaml are the splits of one recording (name_0.db3, name_1.db3,
// ... with an optional .zstd, one prefix), which Open reconstructs from the
// directory. A file not named like a split is a loose file: a folder of
// loose .mcap recordings is not one bag.
func oneRecording(storage []entry) bool {
	prefix := ""
	for i, s := range storage {
		m := splitName.FindStringSubmatch(s.name)
		if m == nil {
			return false
		}
		p := m[1] + "." + m[3]
		if i == 0 {
			prefix = p
		} else if p != prefix {
			return false
		}
	}
	return true
}

func hasSplitName(storage []entry) bool {
	for _, s := range storage {
		if splitName.MatchString(s.name) {
			return true
		}
	}
	return false
}
