package objstore

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/bagread"
)

// ListedBag is one bag found under a prefix, with its objects as the
// listing described them: the ETags its reads are then conditional on,
// and what the scan's index is keyed on.
type ListedBag struct {
	// URL names the bag: its prefix (no trailing slash) or its object.
	URL string
	// Rel is the bag's path below the scanned prefix, as bagread.Discover
	// gives it below a local root.
	Rel string
	// Meta is the bag's metadata.yaml, nil when it has none.
	Meta *Info
	// Objects are its storage objects in split order; WAL the leftover
	// sqlite -wal object of a .db3, by the .db3's key.
	Objects []Info
	WAL     map[string]Info
	// Storage is the storage the names say (bagread.StorageMCAP ...), ""
	// when mixed.
	Storage string
}

// All is every object of the bag: metadata.yaml, storage and -wal
// objects, by key.
func (b ListedBag) All() []Info {
	var out []Info
	if b.Meta != nil {
		out = append(out, *b.Meta)
	}
	out = append(out, b.Objects...)
	for _, w := range b.WAL {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Loc.Key < out[j].Loc.Key })
	return out
}

// Discovery is what Discover found under one prefix.
type Discovery struct {
	Bags     []ListedBag
	Problems []bagread.DiscoverProblem
}

// Discover lists everything under root (an s3:// prefix, or one object)
// page by page and finds its bags by the rules bagread.Discover applies
// to a local folder tree (bagread.LayoutOf): each "folder" of keys is a
// bag directory, a split recording, or loose storage objects. A root that
// is itself a bag gets the last part of its key as Rel, as a local root
// folder gets its base name. Only ListObjectsV2 (and one HeadObject for a
// root that names an object) is sent.
func (s *Store) Discover(ctx context.Context, root string) (*Discovery, error) {
	loc, err := ParseURL(root)
	if err != nil {
		return nil, err
	}
	prefix := loc.Key
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	all, err := s.List(ctx, Location{Bucket: loc.Bucket, Key: prefix})
	if err != nil {
		return nil, err
	}
	rootName := path.Base(strings.TrimSuffix(loc.Key, "/"))
	if loc.Key == "" {
		rootName = loc.Bucket
	}
	if len(all) == 0 {
		if loc.Key == "" || strings.HasSuffix(loc.Key, "/") {
			return nil, fmt.Errorf("%s: no object under this prefix", root)
		}
		in, err := s.Stat(ctx, loc)
		if err != nil {
			if statusOf(err) == 404 {
				return nil, fmt.Errorf("%s: no such object, and no object under this prefix", root)
			}
			return nil, err
		}
		if bagread.StorageFromName(rootName) == "" {
			return nil, fmt.Errorf("%s: %w: not named like a storage file (.db3, .mcap, .zstd)", root, bagread.ErrNotABag)
		}
		return &Discovery{Bags: []ListedBag{{URL: in.Loc.String(), Rel: rootName, Objects: []Info{in},
			Storage: bagread.StorageFromName(rootName)}}}, nil
	}
	// The folder tree of the keys, relative to the prefix.
	files := map[string][]Info{}
	subdirs := map[string]map[string]bool{"": {}}
	for _, in := range all {
		rel := strings.TrimPrefix(in.Loc.Key, prefix)
		dir := path.Dir(rel)
		if dir == "." {
			dir = ""
		}
		files[dir] = append(files[dir], in)
		for d := dir; d != ""; {
			parent := path.Dir(d)
			if parent == "." {
				parent = ""
			}
			if subdirs[parent] == nil {
				subdirs[parent] = map[string]bool{}
			}
			subdirs[parent][d] = true
			d = parent
		}
	}
	d := &Discovery{}
	var visit func(dir string)
	visit = func(dir string) {
		d.folder(loc.Bucket, prefix, dir, rootName, files[dir])
		var kids []string
		for k := range subdirs[dir] {
			kids = append(kids, k)
		}
		sort.Strings(kids)
		for _, k := range kids {
			visit(k)
		}
	}
	visit("")
	return d, nil
}

// folder finds the bags among the objects directly in one folder dir
// (relative to prefix).
func (d *Discovery) folder(bucket, prefix, dir, rootName string, objs []Info) {
	sort.Slice(objs, func(i, j int) bool { return objs[i].Loc.Key < objs[j].Loc.Key })
	var storage []Info
	var names []string
	var meta *Info
	wal := map[string]Info{}
	for _, in := range objs {
		name := path.Base(in.Loc.Key)
		switch {
		case bagread.StorageFromName(name) != "":
			storage = append(storage, in)
			names = append(names, name)
		case name == "metadata.yaml":
			m := in
			meta = &m
		case strings.HasSuffix(name, "-wal"):
			wal[strings.TrimSuffix(in.Loc.Key, "-wal")] = in
		}
	}
	folderURL := Scheme + bucket + "/" + strings.TrimSuffix(prefix+dir, "/")
	layout := bagread.LayoutOf(names, meta != nil)
	if layout.Problem != "" {
		d.Problems = append(d.Problems, bagread.DiscoverProblem{Path: folderURL, Err: fmt.Errorf("%s", layout.Problem)})
	}
	walOf := func(objs []Info) map[string]Info {
		m := map[string]Info{}
		for _, o := range objs {
			if w, ok := wal[o.Loc.Key]; ok {
				m[o.Loc.Key] = w
			}
		}
		return m
	}
	bagRel := dir
	if bagRel == "" {
		bagRel = rootName
	}
	if layout.Bag {
		kind := ""
		for i, n := range names {
			if k := bagread.StorageFromName(n); i == 0 {
				kind = k
			} else if k != kind {
				kind = ""
			}
		}
		objs := append([]Info(nil), storage...)
		SortSplits(objs)
		d.Bags = append(d.Bags, ListedBag{URL: folderURL, Rel: bagRel, Meta: meta, Objects: objs, WAL: walOf(objs), Storage: kind})
	}
	for i, in := range storage {
		if !contains(layout.Loose, names[i]) {
			continue
		}
		rel := names[i]
		if dir != "" {
			rel = dir + "/" + names[i]
		}
		one := []Info{in}
		d.Bags = append(d.Bags, ListedBag{URL: in.Loc.String(), Rel: rel, Objects: one, WAL: walOf(one), Storage: bagread.StorageFromName(names[i])})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// OpenListed opens a bag Discover found, from the objects as listed: no
// further listing or HeadObject, and every read conditional on the
// listed ETag, so what is analysed is what the index keys on, or an
// error (ErrChanged).
func OpenListed(ctx context.Context, s *Store, b ListedBag, opts bagread.Options) (*bagread.Bag, error) {
	return s.openObjects(ctx, b.URL, b.Meta, b.Objects, b.WAL, opts)
}
