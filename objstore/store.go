package objstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Settings bound the requests of a Store.
type Settings struct {
	// Timeout bounds one request, headers and body (default 60 s): a
	// stalled server fails the attempt, which is then retried.
	Timeout time.Duration
	// Attempts is how many times a request is tried (default 4).
	Attempts int
	// Backoff is the wait before the second attempt, doubled after each
	// (default 200 ms).
	Backoff time.Duration
	// Parallel bounds the GETs in flight per Store (default 8).
	Parallel int
	// MaxCopyBytes bounds a private copy of an object read whole (db3,
	// file-compressed bags; default 16 GiB).
	MaxCopyBytes int64
	// TempDir is where private copies go (default os.TempDir()).
	TempDir string
	// ListPage is how many keys one ListObjectsV2 page asks for (default:
	// the store's, 1000 on AWS).
	ListPage int
	// AheadBytes bounds what one read pass over an MCAP object holds of
	// the ranges it fetched ahead (default 32 MiB; see plan.go).
	AheadBytes int64
}

// SettingsFromEnv reads BAGCLOCK_S3_TIMEOUT (a Go duration),
// BAGCLOCK_S3_ATTEMPTS, BAGCLOCK_S3_PARALLEL, BAGCLOCK_S3_MAX_COPY and
// BAGCLOCK_S3_AHEAD (bytes) and BAGCLOCK_S3_LIST_PAGE over the defaults.
func SettingsFromEnv() (Settings, error) {
	var s Settings
	if v := os.Getenv("BAGCLOCK_S3_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return s, fmt.Errorf("BAGCLOCK_S3_TIMEOUT=%q: want a duration such as 30s", v)
		}
		s.Timeout = d
	}
	for _, e := range []struct {
		name string
		dst  *int64
	}{{"BAGCLOCK_S3_MAX_COPY", &s.MaxCopyBytes}, {"BAGCLOCK_S3_AHEAD", &s.AheadBytes}} {
		if v := os.Getenv(e.name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return s, fmt.Errorf("%s=%q: want a positive number of bytes", e.name, v)
			}
			*e.dst = n
		}
	}
	for _, e := range []struct {
		name string
		dst  *int
		max  int
	}{{"BAGCLOCK_S3_ATTEMPTS", &s.Attempts, 64}, {"BAGCLOCK_S3_PARALLEL", &s.Parallel, 64}, {"BAGCLOCK_S3_LIST_PAGE", &s.ListPage, 1000}} {
		if v := os.Getenv(e.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 || n > e.max {
				return s, fmt.Errorf("%s=%q: want a number from 1 to %d", e.name, v, e.max)
			}
			*e.dst = n
		}
	}
	return s, nil
}

func (s Settings) withDefaults() Settings {
	if s.Timeout <= 0 {
		s.Timeout = 60 * time.Second
	}
	if s.Attempts <= 0 {
		s.Attempts = 4
	}
	if s.Backoff <= 0 {
		s.Backoff = 200 * time.Millisecond
	}
	if s.Parallel <= 0 {
		s.Parallel = 8
	}
	if s.MaxCopyBytes <= 0 {
		s.MaxCopyBytes = 16 << 30
	}
	if s.AheadBytes <= 0 {
		s.AheadBytes = 32 << 20
	}
	return s
}

// Store is a client of one S3-compatible service with the request budget
// of Settings and counters of what it fetched.
type Store struct {
	client *s3.Client
	set    Settings
	slots  chan struct{}
	// Fetched counts body bytes received, Requests the requests sent.
	fetched, requests atomic.Int64
	// pages counts the listing pages asked for.
	pages atomic.Int64
	// unplanned counts reads of a planned pass that no fetched-ahead
	// range held (plan.go).
	unplanned atomic.Int64
}

// New configures a client from the standard AWS configuration: the
// AWS_* environment variables, the shared config and credentials files,
// AWS_PROFILE, and AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3) for an
// S3-compatible store. A store that is not AWS is addressed path-style
// (http://host/bucket/key), as minio-go and rclone do.
func New(ctx context.Context, set Settings) (*Store, error) {
	set = set.withDefaults()
	// The SDK's buildable client, so AWS_CA_BUNDLE still applies.
	hc := awshttp.NewBuildableClient().WithDialerOptions(func(d *net.Dialer) {
		d.Timeout = 10 * time.Second
	}).WithTransportOptions(func(tr *http.Transport) {
		tr.MaxIdleConnsPerHost = set.Parallel * 2
		// The attempt's own deadline (retry) is what ends a stall; this
		// is a backstop.
		tr.ResponseHeaderTimeout = 2 * set.Timeout
	})
	cfg, err := config.LoadDefaultConfig(ctx, config.WithHTTPClient(hc),
		// Retries are this package's (every error of a ranged read, body
		// included), so the SDK tries once.
		config.WithRetryMaxAttempts(1))
	if err != nil {
		return nil, fmt.Errorf("s3: reading the AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1" // S3-compatible stores ignore it; AWS redirects
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if o.BaseEndpoint != nil && !isAWS(*o.BaseEndpoint) {
			o.UsePathStyle = true
		}
		// Checksums of whole objects do not apply to ranged reads.
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	return &Store{client: client, set: set, slots: make(chan struct{}, set.Parallel)}, nil
}

// isAWS reports whether an endpoint URL is one of AWS's own.
func isAWS(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	h := u.Hostname()
	return strings.HasSuffix(h, ".amazonaws.com") || strings.HasSuffix(h, ".amazonaws.com.cn")
}

// Fetched is the number of object bytes this store has received.
func (s *Store) Fetched() int64 { return s.fetched.Load() }

// ListPages is the number of listing pages this store has asked for.
func (s *Store) ListPages() int64 { return s.pages.Load() }

// Unplanned is the number of reads of planned passes (bagread's read
// plans) that the ranges fetched ahead did not hold, each served by a GET
// of its own: a measure of how well the plans forecast.
func (s *Store) Unplanned() int64 { return s.unplanned.Load() }

// Requests is the number of requests this store has sent.
func (s *Store) Requests() int64 { return s.requests.Load() }

// Settings is the request budget in force.
func (s *Store) Settings() Settings { return s.set }

// retry runs op up to Attempts times, each under Timeout, waiting
// Backoff, 2×Backoff... between; an error that another attempt cannot
// change (permanent) ends it at once.
func (s *Store) retry(ctx context.Context, op func(context.Context) error) error {
	wait := s.set.Backoff
	var err error
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, s.set.Timeout)
		s.requests.Add(1)
		err = op(actx)
		var ne net.Error
		stalled := errors.Is(actx.Err(), context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
		cancel()
		if err == nil {
			return nil
		}
		if stalled && ctx.Err() == nil {
			err = &tryError{err: err, stalled: s.set.Timeout}
		}
		if permanent(err) || ctx.Err() != nil || attempt >= s.set.Attempts {
			return &tryError{err: err, attempts: attempt}
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
		wait *= 2
	}
}

// tryError is the last error of a retried request: how many attempts it
// took, and whether the last one ran out of time.
type tryError struct {
	err      error
	attempts int
	stalled  time.Duration
}

func (e *tryError) Error() string { return e.err.Error() }
func (e *tryError) Unwrap() error { return e.err }
