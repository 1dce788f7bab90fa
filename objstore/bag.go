package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bagclock/bagclock/bagread"
)

// maxMetadataBytes bounds a bag's metadata.yaml.
const maxMetadataBytes = 16 << 20

// OpenBag opens the bag at an s3:// URL: a single storage object
// (s3://b/run.mcap), or a prefix that holds a rosbag2 directory's files
// (s3://b/runs/run1, with or without a trailing slash: metadata.yaml and
// its storage files, or the storage files alone). Plain MCAP objects are
// read in place by range; db3 and file-compressed objects are copied to
// a private temporary directory (at most MaxCopyBytes) that the bag's
// Close removes.
func OpenBag(ctx context.Context, s *Store, url string, opts bagread.Options) (*bagread.Bag, error) {
	loc, err := ParseURL(url)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(url, "/")
	var objects []Info
	var meta *Info
	var wal map[string]Info
	if loc.Key != "" && !strings.HasSuffix(loc.Key, "/") {
		in, err := s.Stat(ctx, loc)
		switch {
		case err == nil:
			if path.Base(loc.Key) == "metadata.yaml" {
				return nil, fmt.Errorf("%s: %w: this is a bag's metadata.yaml; pass the prefix that holds it (%s)", url, bagread.ErrNotABag, Scheme+loc.Bucket+"/"+path.Dir(loc.Key))
			}
			objects = []Info{in}
		case statusOf(err) == 404:
		default:
			return nil, err
		}
	}
	if objects == nil {
		objects, meta, wal, err = s.bagObjects(ctx, loc)
		if err != nil {
			return nil, err
		}
	}
	return s.openObjects(ctx, name, meta, objects, wal, opts)
}

// bagObjects lists the objects directly under prefix loc and picks the
// bag's storage files: those metadata.yaml lists, else those named like
// storage files, in rosbag2's split order, and the -wal objects of its
// .db3 files by their keys.
func (s *Store) bagObjects(ctx context.Context, loc Location) ([]Info, *Info, map[string]Info, error) {
	dir := loc
	if dir.Key != "" && !strings.HasSuffix(dir.Key, "/") {
		dir.Key += "/"
	}
	all, err := s.List(ctx, dir)
	if err != nil {
		return nil, nil, nil, err
	}
	var here []Info
	var meta *Info
	wal := map[string]Info{}
	for _, in := range all {
		rel := strings.TrimPrefix(in.Loc.Key, dir.Key)
		if strings.Contains(rel, "/") {
			continue
		}
		if rel == "metadata.yaml" {
			m := in
			meta = &m
			continue
		}
		if strings.HasSuffix(rel, ".db3-wal") {
			wal[strings.TrimSuffix(in.Loc.Key, "-wal")] = in
		}
		if IsStorageName(rel) {
			here = append(here, in)
		}
	}
	if len(all) == 0 {
		return nil, nil, nil, fmt.Errorf("%s: no such object, and no object under this prefix", loc)
	}
	if meta == nil && len(here) == 0 {
		return nil, nil, nil, fmt.Errorf("%s: %w: no metadata.yaml and no storage objects (.db3, .mcap, .zstd) directly under this prefix", loc, bagread.ErrNotABag)
	}
	SortSplits(here)
	return here, meta, wal, nil
}

// storageName matches the names of bag storage files.
var storageName = regexp.MustCompile(`\.(db3|mcap)(\.zstd)?$`)

// IsStorageName reports whether a file name is a storage file's.
func IsStorageName(name string) bool { return storageName.MatchString(name) }

var splitIndex = regexp.MustCompile(`_(\d+)\.(db3|mcap)(\.zstd)?$`)

// SortSplits orders a bag's objects as rosbag2 numbers its splits
// (name_0, name_1, ... name_10), other names by name.
func SortSplits(objs []Info) {
	idx := func(in Info) int {
		if m := splitIndex.FindStringSubmatch(in.Loc.Key); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				return n
			}
		}
		return -1
	}
	sort.SliceStable(objs, func(i, j int) bool {
		a, b := idx(objs[i]), idx(objs[j])
		if a != b {
			return a < b
		}
		return objs[i].Loc.Key < objs[j].Loc.Key
	})
}

// openObjects reads metadata.yaml, picks the files it lists (warning of
// those missing), and opens them through bagread; a .db3's leftover -wal
// object (wal, by the .db3's key) is copied beside its private copy.
func (s *Store) openObjects(ctx context.Context, name string, meta *Info, objects []Info, wal map[string]Info, opts bagread.Options) (*bagread.Bag, error) {
	var mdBytes []byte
	var warnings []string
	if meta != nil {
		b, err := s.readSmall(ctx, *meta, maxMetadataBytes)
		if err != nil {
			return nil, err
		}
		mdBytes = b
		if md, err := bagread.ParseMetadata(b); err == nil && len(md.RelativeFilePaths) > 0 {
			byName := map[string]Info{}
			for _, o := range objects {
				byName[path.Base(o.Loc.Key)] = o
			}
			var listed []Info
			for _, rel := range md.RelativeFilePaths {
				base := path.Base(filepath.ToSlash(rel))
				o, ok := byName[base]
				if !ok {
					o, ok = byName[strings.TrimSuffix(base, ".zstd")]
				}
				if !ok {
					o, ok = byName[base+".zstd"]
				}
				if !ok {
					warnings = append(warnings, fmt.Sprintf("%s/metadata.yaml: file %q listed in metadata.yaml not found", name, rel))
					continue
				}
				listed = append(listed, o)
			}
			if len(listed) > 0 {
				objects = listed
			}
		}
	}
	tmp := ""
	release := func() error {
		if tmp == "" {
			return nil
		}
		return os.RemoveAll(tmp)
	}
	var sources []bagread.Source
	for _, in := range objects {
		src := bagread.Source{Name: in.Loc.String(), Size: in.Size}
		if strings.HasSuffix(in.Loc.Key, ".mcap") {
			o, err := s.Open(ctx, in)
			if err != nil {
				release()
				return nil, err
			}
			src.ReaderAt = o
		} else {
			if tmp == "" {
				dir := s.set.TempDir
				if dir == "" {
					dir = opts.TempDir
				}
				d, err := os.MkdirTemp(dir, "bagclock-s3-")
				if err != nil {
					return nil, fmt.Errorf("cannot create a directory for private copies: %w", err)
				}
				tmp = d
			}
			p := filepath.Join(tmp, fmt.Sprintf("%d-%s", len(sources), path.Base(in.Loc.Key)))
			if err := s.copyTo(ctx, in, p); err != nil {
				release()
				return nil, err
			}
			if w, ok := wal[in.Loc.Key]; ok {
				if err := s.copyTo(ctx, w, p+"-wal"); err != nil {
					release()
					return nil, err
				}
			}
			src.LocalPath = p
		}
		sources = append(sources, src)
	}
	b, err := bagread.OpenSources(name, mdBytes, sources, opts, release)
	if err != nil {
		return nil, err
	}
	b.Warnings = append(warnings, b.Warnings...)
	return b, nil
}

// readSmall fetches a whole small object.
func (s *Store) readSmall(ctx context.Context, in Info, limit int64) ([]byte, error) {
	if in.Size > limit {
		return nil, fmt.Errorf("%s: %d bytes: %w (limit %d)", in.Loc, in.Size, ErrTooLarge, limit)
	}
	o := &Object{store: s, info: in}
	b := make([]byte, in.Size)
	if in.Size == 0 {
		return b, nil
	}
	if err := o.fetch(ctx, b, 0); err != nil {
		return nil, err
	}
	return b, nil
}

// copyPiece is the size of each ranged GET of a private copy.
const copyPiece = 8 << 20

// copyTo copies an object to a new private file at p, by pieces fetched
// Parallel at a time (at most Parallel pieces in memory), each
// conditional on the object's ETag; a copy over MaxCopyBytes is refused
// before anything is fetched, and the first failed piece ends the copy.
func (s *Store) copyTo(ctx context.Context, in Info, p string) error {
	if in.Size > s.set.MaxCopyBytes {
		return fmt.Errorf("%s: %d bytes: %w (limit %d bytes, BAGCLOCK_S3_MAX_COPY); db3 and compressed bags are read from a local copy", in.Loc, in.Size, ErrTooLarge, s.set.MaxCopyBytes)
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("%s: private copy: %w", in.Loc, err)
	}
	err = s.copyPieces(ctx, in, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
		var re *requestError
		if errors.As(err, &re) {
			return err
		}
		return fmt.Errorf("%s: private copy: %w", in.Loc, err)
	}
	return nil
}

// copyPieces writes the object's bytes into f, piece by piece, several
// pieces fetched at once.
func (s *Store) copyPieces(ctx context.Context, in Info, f *os.File) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o := &Object{store: s, info: in}
	pieces := (in.Size + copyPiece - 1) / copyPiece
	var (
		next  atomic.Int64
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
		cancel()
	}
	for range min(int64(s.set.Parallel), pieces) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, min(copyPiece, in.Size))
			for i := next.Add(1) - 1; i < pieces && ctx.Err() == nil; i = next.Add(1) - 1 {
				off := i * copyPiece
				q := buf[:min(copyPiece, in.Size-off)]
				err := o.fetch(ctx, q, off)
				if err == nil {
					_, err = f.WriteAt(q, off)
				}
				if err != nil {
					fail(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if first == nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return first
}

var _ io.ReaderAt = (*Object)(nil)
