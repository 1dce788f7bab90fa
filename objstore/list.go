package objstore

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// List returns every object under prefix loc (all depths), page by page
// as the store hands them out, in key order.
func (s *Store) List(ctx context.Context, loc Location) ([]Info, error) {
	var out []Info
	var token *string
	for {
		s.pages.Add(1)
		var page *s3.ListObjectsV2Output
		err := s.retry(ctx, func(ctx context.Context) error {
			var err error
			in := &s3.ListObjectsV2Input{Bucket: &loc.Bucket, Prefix: &loc.Key, ContinuationToken: token}
			if s.set.ListPage > 0 {
				in.MaxKeys = aws.Int32(int32(s.set.ListPage))
			}
			page, err = s.client.ListObjectsV2(ctx, in)
			return err
		})
		if err != nil {
			return nil, &requestError{object: loc.String(), what: "LIST", err: err}
		}
		for _, o := range page.Contents {
			k := aws.ToString(o.Key)
			if strings.HasSuffix(k, "/") {
				continue // a folder marker
			}
			in := Info{Loc: Location{Bucket: loc.Bucket, Key: k}, Size: aws.ToInt64(o.Size), ETag: aws.ToString(o.ETag)}
			if o.LastModified != nil {
				in.Modified = *o.LastModified
			}
			out = append(out, in)
		}
		if !aws.ToBool(page.IsTruncated) || page.NextContinuationToken == nil {
			return out, nil
		}
		token = page.NextContinuationToken
	}
}
