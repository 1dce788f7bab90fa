package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"

	"github.com/bagclock/bagclock/analysis/archive"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/objstore"
)

// scanRoots is what scan found under its roots, local folders and s3://
// prefixes alike.
type scanRoots struct {
	// roots are the roots whose bags are all known (absolute paths,
	// URLs without a trailing slash): index rows under a root that could
	// not be listed are kept, not dropped as gone.
	roots    []string
	bags     []bagJob
	problems []error
	// unlisted counts s3:// roots whose listing failed.
	unlisted int
}

// rootURL is an s3:// root as index rows are compared with it.
func rootURL(u string) string {
	if strings.Count(u, "/") == 2 { // s3://bucket
		return u
	}
	return strings.TrimSuffix(u, "/")
}

// discoverRemote lists one s3:// root and adds its bags as jobs; the
// listing is kept so each bag is then read at the ETags it was listed
// with, which the index row keys on.
func (sr *scanRoots) discoverRemote(ctx context.Context, root string) {
	s, err := remoteStore()
	var d *objstore.Discovery
	if err == nil {
		d, err = s.Discover(ctx, root)
	}
	if err != nil {
		sr.problems = append(sr.problems, fmt.Errorf("%w (the index keeps this prefix's earlier rows)", err))
		sr.unlisted++
		return
	}
	sr.roots = append(sr.roots, rootURL(root))
	for _, p := range d.Problems {
		sr.problems = append(sr.problems, p)
	}
	for _, lb := range d.Bags {
		lb := lb
		st := archive.Stat{}
		for _, in := range lb.All() {
			st.SizeBytes += in.Size
			if m := in.Modified.UnixNano(); m > st.ModTimeNS {
				st.ModTimeNS = m
			}
		}
		remote.listed.Store(lb.URL, lb)
		sr.bags = append(sr.bags, bagJob{
			found: bagread.Discovered{Path: lb.URL, Root: root, Rel: lb.Rel, IsDir: lb.Meta != nil || len(lb.Objects) > 1, Storage: lb.Storage},
			path:  lb.URL, stat: st, listed: &lb,
		})
	}
}

// listedFingerprint keys a listed bag's row on what the store says of
// each object: name, size and ETag. A changed object gets a new ETag, so
// a rerun analyses it again; nothing is fetched to compute it.
func listedFingerprint(lb *objstore.ListedBag) string {
	h := sha256.New()
	for _, in := range lb.All() {
		fmt.Fprintf(h, "%s\x00%d\x00%s\x00", path.Base(in.Loc.Key), in.Size, in.ETag)
	}
	return "etag-" + hex.EncodeToString(h.Sum(nil)[:12])
}
