package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/objstore"
)

// remote is the process's one object-store client, made on first use of
// an s3:// path, with the bytes of the bags it opened.
var remote remoteState

type remoteState struct {
	once      sync.Once
	store     *objstore.Store
	err       error
	bagsBytes atomic.Int64
	// listed holds the bags scan listed (objstore.ListedBag by URL):
	// they are opened from their listing, not looked up again.
	listed sync.Map
}

// remoteStore is the object-store client configured the AWS way
// (docs/s3.md).
func remoteStore() (*objstore.Store, error) {
	remote.once.Do(func() {
		set, err := objstore.SettingsFromEnv()
		if err != nil {
			remote.err = err
			return
		}
		remote.store, remote.err = objstore.New(context.Background(), set)
	})
	return remote.store, remote.err
}

// openBag opens a local bag or an s3:// one.
func openBag(path string, opts bagread.Options) (*bagread.Bag, error) {
	if !objstore.IsURL(path) {
		return bagread.Open(path, opts)
	}
	s, err := remoteStore()
	if err != nil {
		return nil, err
	}
	if v, ok := remote.listed.Load(path); ok {
		lb := v.(objstore.ListedBag)
		// All of the bag's objects (metadata.yaml and -wal too): the
		// share fetched is of what a download would have cost.
		for _, in := range lb.All() {
			remote.bagsBytes.Add(in.Size)
		}
		return objstore.OpenListed(context.Background(), s, lb, opts)
	}
	b, err := objstore.OpenBag(context.Background(), s, path, opts)
	if err != nil {
		return nil, err
	}
	remote.bagsBytes.Add(b.SizeBytes())
	return b, nil
}

// fetchedLine is what the object store sent for the bags opened so far,
// against their size; "" when no s3:// bag was opened.
func fetchedLine() string {
	if remote.store == nil {
		return ""
	}
	got, total := remote.store.Fetched(), remote.bagsBytes.Load()
	share := 0.0
	if total > 0 {
		share = 100 * float64(got) / float64(total)
	}
	line := fmt.Sprintf("fetched %s of %s from the object store (%.2f%%) in %d requests", humanSize(got), humanSize(total), share, remote.store.Requests())
	if n := remote.store.ListPages(); n > 0 {
		line += fmt.Sprintf(" (%s)", plural(n, "listing page"))
	}
	return line
}

// reportFetched prints fetchedLine for an s3:// path.
func reportFetched(w io.Writer, cmd, path string) {
	if objstore.IsURL(path) {
		if l := fetchedLine(); l != "" {
			fmt.Fprintf(w, "bagclock %s: %s: %s\n", cmd, path, l)
		}
	}
}
