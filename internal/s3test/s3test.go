// Package s3test starts a real S3-compatible server for tests: the Versity
// S3 Gateway (versitygw, posix backend) on 127.0.0.1 with a random port,
// serving a temp directory, with one bucket. Tests upload bags through
// the S3 API and point bagclock at it with the standard AWS variables.
// A missing gateway skips the test, or fails it under
// BAGCLOCK_REQUIRE_PEERS=1 (.ci/run installs it).
package s3test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/bagclock/bagclock/internal/testenv"
)

// Install is how .ci/run installs the gateway.
const Install = "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// Server is a running gateway with one bucket.
type Server struct {
	// Endpoint is http://127.0.0.1:PORT.
	Endpoint string
	// Bucket exists and is empty at start.
	Bucket string
	// AccessKey and SecretKey are the root user's (random per server).
	AccessKey, SecretKey string
	// Dir is the posix backend's root (the bucket is Dir/Bucket).
	Dir    string
	client *s3.Client
	pid    int
}

// CPUTime is the processor time the gateway has used so far (user and
// system, from /proc; 0 where there is none): benchmarks report the
// server's share of a request.
func (s *Server) CPUTime() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.pid))
	if err != nil {
		return 0
	}
	// Fields after the command name, which may hold spaces: utime and
	// stime are the 12th and 13th, in clock ticks (100 per second on
	// Linux).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+st) * 10 * time.Millisecond
}

// Binary finds versitygw on PATH or in $(go env GOPATH)/bin.
func Binary() (string, bool) {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, true
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		return "", false
	}
	for _, d := range filepath.SplitList(strings.TrimSpace(string(out))) {
		p := filepath.Join(d, "bin", "versitygw")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// freePort asks the kernel for a free loopback port.
func freePort(tb testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Start runs a gateway for the test's lifetime and creates its bucket.
func Start(tb testing.TB) *Server {
	tb.Helper()
	bin, ok := Binary()
	if !ok {
		testenv.PeerMissing(tb, "versitygw not installed (%s)", Install)
	}
	s := &Server{Bucket: "bags", AccessKey: "AK" + randomHex(9), SecretKey: "SK" + randomHex(18), Dir: tb.TempDir()}
	var lastErr error
	for try := 0; try < 3; try++ {
		port := freePort(tb)
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		cmd := exec.Command(bin, "--port", addr, "--quiet", "--keep-alive", "posix", s.Dir)
		// Keys through the environment, never on a command line.
		cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID="+s.AccessKey, "ROOT_SECRET_ACCESS_KEY="+s.SecretKey)
		// The gateway dies with the test process, even one killed by a
		// timeout, so no server outlives its test.
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		var logBuf bytes.Buffer
		cmd.Stdout, cmd.Stderr = &logBuf, &logBuf
		if err := cmd.Start(); err != nil {
			tb.Fatalf("start versitygw: %v", err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		if err := waitListening(addr, exited); err != nil {
			cmd.Process.Kill()
			lastErr = fmt.Errorf("versitygw on %s: %v\n%s", addr, err, logBuf.String())
			continue
		}
		tb.Cleanup(func() {
			cmd.Process.Kill()
			<-exited
		})
		s.Endpoint = "http://" + addr
		s.pid = cmd.Process.Pid
		s.client = s3.New(s3.Options{
			Region: "us-east-1", BaseEndpoint: aws.String(s.Endpoint), UsePathStyle: true,
			Credentials: credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
		})
		if _, err := s.client.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: &s.Bucket}); err != nil {
			tb.Fatalf("create bucket: %v", err)
		}
		return s
	}
	tb.Fatal(lastErr)
	return nil
}

func waitListening(addr string, exited <-chan error) error {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("exited: %v", err)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("not listening after 20 s")
}

// Env is the environment that points an AWS client (bagclock) at the
// server with its credentials, and away from the user's own config.
func (s *Server) Env(endpoint string) []string {
	if endpoint == "" {
		endpoint = s.Endpoint
	}
	return []string{
		"AWS_ENDPOINT_URL=" + endpoint, "AWS_ACCESS_KEY_ID=" + s.AccessKey, "AWS_SECRET_ACCESS_KEY=" + s.SecretKey,
		"AWS_REGION=us-east-1", "AWS_CONFIG_FILE=/nonexistent", "AWS_SHARED_CREDENTIALS_FILE=/nonexistent",
		"AWS_EC2_METADATA_DISABLED=true", "AWS_PROFILE=",
	}
}

// SetEnv sets Env for the rest of the test (in this process).
func (s *Server) SetEnv(tb testing.TB, endpoint string) {
	for _, kv := range s.Env(endpoint) {
		k, v, _ := strings.Cut(kv, "=")
		tb.Setenv(k, v)
	}
	tb.Setenv("AWS_PROFILE", "")
	os.Unsetenv("AWS_PROFILE")
}

// URL is the s3:// URL of key in the bucket.
func (s *Server) URL(key string) string { return "s3://" + s.Bucket + "/" + key }

// PutFile uploads one local file as key through the S3 API.
func (s *Server) PutFile(tb testing.TB, key, path string) {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := s.client.PutObject(context.Background(), &s3.PutObjectInput{Bucket: &s.Bucket, Key: &key, Body: f}); err != nil {
		tb.Fatalf("upload %s: %v", key, err)
	}
}

// PutBytes uploads data as key.
func (s *Server) PutBytes(tb testing.TB, key string, data []byte) {
	tb.Helper()
	if _, err := s.client.PutObject(context.Background(), &s3.PutObjectInput{Bucket: &s.Bucket, Key: &key, Body: bytes.NewReader(data)}); err != nil {
		tb.Fatalf("upload %s: %v", key, err)
	}
}

// PutTree uploads every regular file under dir as prefix/relative-path.
func (s *Server) PutTree(tb testing.TB, prefix, dir string) {
	tb.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		s.PutFile(tb, strings.TrimSuffix(prefix, "/")+"/"+filepath.ToSlash(rel), p)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// Listing is every key of the bucket with its ETag and size, sorted: two
// listings are equal when nothing was written.
func (s *Server) Listing(tb testing.TB) []string {
	tb.Helper()
	var out []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &s.Bucket})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			tb.Fatalf("list: %v", err)
		}
		for _, o := range page.Contents {
			out = append(out, fmt.Sprintf("%s %s %d", aws.ToString(o.Key), aws.ToString(o.ETag), aws.ToInt64(o.Size)))
		}
	}
	sort.Strings(out)
	return out
}
