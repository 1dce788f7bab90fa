package objstore

import (
	"fmt"
	"strings"
)

// Scheme is the prefix of the URLs this package reads.
const Scheme = "s3://"

// IsURL reports whether path names an object or prefix in a store.
func IsURL(path string) bool { return strings.HasPrefix(path, Scheme) }

// Location is a bucket and a key (or key prefix) in it.
type Location struct {
	Bucket, Key string
}

// ParseURL splits s3://bucket/key into its parts; the key may be empty
// (the whole bucket) and keeps a trailing slash.
func ParseURL(u string) (Location, error) {
	if !IsURL(u) {
		return Location{}, fmt.Errorf("%q is not an s3:// URL", u)
	}
	rest := strings.TrimPrefix(u, Scheme)
	bucket, key, _ := strings.Cut(rest, "/")
	if bucket == "" {
		return Location{}, fmt.Errorf("%q: no bucket (write s3://BUCKET/KEY)", u)
	}
	return Location{Bucket: bucket, Key: key}, nil
}

// String is the location as an s3:// URL.
func (l Location) String() string { return Scheme + l.Bucket + "/" + l.Key }

// Child is the location of key name under the prefix l names.
func (l Location) Child(name string) Location {
	k := l.Key
	if k != "" && !strings.HasSuffix(k, "/") {
		k += "/"
	}
	return Location{Bucket: l.Bucket, Key: k + name}
}
