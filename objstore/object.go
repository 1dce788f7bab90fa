package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Info is what a listing or HeadObject says about an object.
type Info struct {
	Loc      Location
	Size     int64
	ETag     string // as the store quotes it
	Modified time.Time
}

// Stat asks the store for one object's size and ETag.
func (s *Store) Stat(ctx context.Context, loc Location) (Info, error) {
	var out *s3.HeadObjectOutput
	err := s.retry(ctx, func(ctx context.Context) error {
		var err error
		out, err = s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &loc.Bucket, Key: &loc.Key})
		return err
	})
	if err != nil {
		return Info{}, &requestError{object: loc.String(), what: "HEAD", err: err}
	}
	in := Info{Loc: loc, Size: aws.ToInt64(out.ContentLength), ETag: aws.ToString(out.ETag)}
	if out.LastModified != nil {
		in.Modified = *out.LastModified
	}
	return in, nil
}

// edgeBytes is how much of each end of an MCAP object Open fetches in its
// first two requests: the tail holds footer and summary (chunk indexes,
// statistics) of a bag of thousands of chunks, the head its header.
const (
	tailBytes = 1 << 20
	headBytes = 64 << 10
)

// Object reads one object by ranged GETs, each conditional on the ETag
// it had when opened (If-Match), so a changed object is an error
// (ErrChanged), never a mix of two versions. Its first and last bytes
// are fetched once and kept. Safe for concurrent use.
type Object struct {
	store      *Store
	info       Info
	head, tail []byte // bytes [0, len(head)) and [size-len(tail), size)
	kept       kept   // pieces of finished read passes (plan.go)
}

// Open stats an object and fetches its two ends.
func (s *Store) Open(ctx context.Context, in Info) (*Object, error) {
	o := &Object{store: s, info: in}
	if in.Size <= tailBytes+headBytes {
		all := make([]byte, in.Size)
		if err := o.fetch(ctx, all, 0); err != nil {
			return nil, err
		}
		o.head, o.tail = all, all
		return o, nil
	}
	o.head = make([]byte, headBytes)
	o.tail = make([]byte, tailBytes)
	// Side by side: the summary is needed first, the header right after.
	headErr := make(chan error, 1)
	go func() { headErr <- o.fetch(ctx, o.head, 0) }()
	tailErr := o.fetch(ctx, o.tail, in.Size-tailBytes)
	if err := <-headErr; tailErr == nil && err != nil {
		return nil, err
	}
	if tailErr != nil {
		return nil, tailErr
	}
	return o, nil
}

// Info is the object as opened.
func (o *Object) Info() Info { return o.info }

// ReadAt reads len(p) bytes at off: from the kept ends when they hold
// them, else by one ranged GET.
func (o *Object) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%s: read at negative offset %d", o.info.Loc, off)
	}
	if off >= o.info.Size {
		return 0, io.EOF
	}
	n := len(p)
	var eof error
	if rest := o.info.Size - off; int64(n) > rest {
		n, eof = int(rest), io.EOF
	}
	if n == 0 {
		return 0, eof
	}
	q := p[:n]
	switch tailStart := o.info.Size - int64(len(o.tail)); {
	case off+int64(n) <= int64(len(o.head)):
		copy(q, o.head[off:])
	case off >= tailStart:
		copy(q, o.tail[off-tailStart:])
	default:
		if err := o.fetch(context.Background(), q, off); err != nil {
			return 0, err
		}
	}
	return n, eof
}

// fetch fills p from offset off by one ranged GET (retried).
func (o *Object) fetch(ctx context.Context, p []byte, off int64) error {
	s := o.store
	s.slots <- struct{}{}
	defer func() { <-s.slots }()
	rng := fmt.Sprintf("bytes=%d-%d", off, off+int64(len(p))-1)
	loc := o.info.Loc
	err := s.retry(ctx, func(ctx context.Context) error {
		in := &s3.GetObjectInput{Bucket: &loc.Bucket, Key: &loc.Key, Range: &rng}
		if o.info.ETag != "" {
			in.IfMatch = &o.info.ETag
		}
		out, err := s.client.GetObject(ctx, in)
		if err != nil {
			if statusOf(err) == 412 {
				return errors.Join(ErrChanged, err)
			}
			return err
		}
		defer out.Body.Close()
		if et := aws.ToString(out.ETag); o.info.ETag != "" && et != "" && et != o.info.ETag {
			return ErrChanged // a store that ignores If-Match
		}
		if cr := aws.ToString(out.ContentRange); cr != "" && !strings.HasPrefix(cr, strings.Replace(rng, "=", " ", 1)+"/") {
			return fmt.Errorf("the store answered range %q for %q", cr, rng)
		}
		got, err := io.ReadFull(out.Body, p)
		s.fetched.Add(int64(got))
		if err != nil {
			return fmt.Errorf("the answer ended after %d of %d bytes: %w", got, len(p), err)
		}
		return nil
	})
	if err != nil {
		return &requestError{object: loc.String(), what: "GET " + rng, err: err}
	}
	return nil
}
