package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/bench"

	"github.com/bagclock/bagclock/internal/s3test"
	"github.com/bagclock/bagclock/internal/testenv"
)

// s3Server starts a gateway, points this process's AWS configuration at
// it and forgets any client an earlier test configured.
func s3Server(t *testing.T) *s3test.Server {
	t.Helper()
	srv := s3test.Start(t)
	srv.SetEnv(t, "")
	resetRemote(t)
	return srv
}

func resetRemote(t *testing.T) {
	remote = remoteState{}
	t.Cleanup(func() { remote = remoteState{} })
}

// TestS3InfoAndAnalyzeMatchLocal serves shared bags of every storage kind
// (MCAP and db3 directories, a file-compressed db3, a split bag without
// metadata.yaml, a lone .mcap object) from a real S3 server and checks
// that info --json and analyze --format json say over s3:// exactly what
// they say of the local files, apart from the paths; and that nothing was
// written to the bucket.
func TestS3InfoAndAnalyzeMatchLocal(t *testing.T) {
	shared := testenv.SharedDir(t)
	srv := s3Server(t)
	bags := []string{"evo-nav2-turtlebot-mcap", "tb3-walker-humble-nitesh", "rosbag2-compressed-bag-foxy", "tb3-walker-no-metadata", "jazzy-v9-mcap-chatter"}
	for _, b := range bags {
		srv.PutTree(t, "archive/"+b, filepath.Join(shared, "bags", b))
	}
	lone := filepath.Join(shared, "bags", "rerun-rosbag2-humble-mcap", "rosbag2_2025_09_10-13_03_56_0.mcap")
	srv.PutFile(t, "loose/one.mcap", lone)
	before := srv.Listing(t)

	type pair struct{ local, url string }
	cases := []pair{{lone, srv.URL("loose/one.mcap")}}
	for _, b := range bags {
		cases = append(cases, pair{filepath.Join(shared, "bags", b), srv.URL("archive/" + b)})
	}
	for _, c := range cases {
		for _, args := range [][]string{{"info", "--json"}, {"analyze", "--format", "json"}} {
			lcode, lout, lerr := runCLI(t, append(args, c.local)...)
			rcode, rout, rerr := runCLI(t, append(args, c.url)...)
			if lcode != rcode {
				t.Errorf("%s %v: exit %d locally, %d over s3 (%s)", c.url, args, lcode, rcode, rerr)
				continue
			}
			want := strings.ReplaceAll(lout, c.local, c.url)
			if rout != want {
				t.Errorf("%s %v: output differs from the local run's\n%s", c.url, args, lineDiff(want, rout))
			}
			if args[0] == "analyze" && !strings.Contains(rerr, "from the object store") {
				t.Errorf("%s: analyze does not report the bytes fetched: %s", c.url, rerr)
			}
			_ = lerr
		}
	}
	if after := srv.Listing(t); !slices.Equal(before, after) {
		t.Errorf("the bucket changed:\nbefore %v\nafter  %v", before, after)
	}
}

// TestS3SecretNeverShown runs info and analyze with the right key, a
// wrong secret, a missing key and a missing bucket, and looks for the
// secret in everything they print.
func TestS3SecretNeverShown(t *testing.T) {
	shared := testenv.SharedDir(t)
	srv := s3Server(t)
	srv.PutTree(t, "bag", filepath.Join(shared, "bags", "evo-nav2-turtlebot-mcap"))
	secret := srv.SecretKey
	t.Setenv("BAGCLOCK_S3_ATTEMPTS", "2")
	run := func(wantFail bool, args ...string) string {
		resetRemote(t)
		code, out, errOut := runCLI(t, args...)
		if (code != 0) != wantFail {
			t.Errorf("%v: exit %d\n%s", args, code, errOut)
		}
		if strings.Contains(out+errOut, secret) || strings.Contains(out+errOut, srv.SecretKey[:12]) {
			t.Errorf("%v: the secret key is in the output", args)
		}
		return errOut
	}
	run(false, "analyze", "--format", "json", srv.URL("bag"))
	run(false, "info", srv.URL("bag"))
	run(true, "info", srv.URL("nothing/here"))
	run(true, "analyze", "s3://no-such-bucket/x")
	badSecret := "WRONG" + secret
	t.Setenv("AWS_SECRET_ACCESS_KEY", badSecret)
	msg := run(true, "analyze", srv.URL("bag"))
	if strings.Contains(msg, badSecret) {
		t.Errorf("the wrong secret is in the output")
	}
	if !strings.Contains(msg, "403") || !strings.Contains(msg, "credentials") || !strings.Contains(msg, srv.URL("bag")) {
		t.Errorf("refused credentials: the error does not say so naming the object:\n%s", msg)
	}
	os.Unsetenv("X")
}

// TestS3AnalyzeFetchesFewBytes analyses a camera + lidar MCAP bag
// (internal/bench's sensor bag, 1920x1080 images at 30 Hz, 64x1024 clouds
// at 10 Hz) over s3:// through a counting proxy and holds the bytes the
// proxy served to 5% of the bag, with the same report as the local run;
// then replaces the object while a second analyze reads it, which must be
// an error naming it, not a report.
func TestS3AnalyzeFetchesFewBytes(t *testing.T) {
	srv := s3Server(t)
	bags, err := bench.EnsureSensorBags(t.TempDir(), 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	bag := bags[0] // sensors-mcap
	srv.PutTree(t, "big/"+bag.Name, bag.Dir)
	proxy := newS3Proxy(t, srv.Endpoint)
	srv.SetEnv(t, proxy.srv.URL)
	resetRemote(t)
	url := srv.URL("big/" + bag.Name)
	_, lout, _ := runCLI(t, "analyze", "--format", "json", bag.Dir)
	code, rout, rerr := runCLI(t, "analyze", "--format", "json", url)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, rerr)
	}
	if want := strings.ReplaceAll(lout, bag.Dir, url); rout != want {
		t.Errorf("report differs from the local run's\n%s", lineDiff(want, rout))
	}
	served := proxy.served.Load()
	share := float64(served) / float64(bag.Size)
	t.Logf("bag %d bytes; proxy served %d bytes (%.2f%%) in %d ranged GETs; bagclock says: %s", bag.Size, served, 100*share, proxy.gets.Load(), strings.TrimSpace(rerr))
	if share > 0.05 {
		t.Errorf("analyze fetched %.2f%% of the bag, over the 5%% bound", 100*share)
	}
	// Faults on the ranges read ahead while the messages are read (not the
	// head and tail fetched when the bag is opened): retried to the healthy
	// report, or an error naming the object after the attempts, never a
	// report of part of the bag.
	object := url + "/" + filepath.Base(bag.File)
	dataRange := func(r *http.Request) (start int64, ok bool) {
		var a, b int64
		if _, err := fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-%d", &a, &b); err != nil {
			return 0, false
		}
		return a, a >= 64<<10 && b < bag.Size-1<<20
	}
	for _, c := range []struct {
		name  string
		fault func(n int64, r *http.Request) string
		say   string // "" for the healthy report
	}{
		{"503 on two ranges read ahead", func() func(int64, *http.Request) string {
			var mu sync.Mutex
			faults := 0
			return func(_ int64, r *http.Request) string {
				mu.Lock()
				defer mu.Unlock()
				if _, ok := dataRange(r); ok && faults < 2 {
					faults++
					return "503"
				}
				return ""
			}
		}(), ""},
		{"a range read ahead cut short once", func() func(int64, *http.Request) string {
			var once sync.Once
			return func(_ int64, r *http.Request) string {
				what := ""
				if _, ok := dataRange(r); ok {
					once.Do(func() { what = "short" })
				}
				return what
			}
		}(), ""},
		{"ranges past the middle keep failing", func(_ int64, r *http.Request) string {
			if a, ok := dataRange(r); ok && a > bag.Size/2 {
				return "503"
			}
			return ""
		}, "HTTP 503"},
		{"ranges past the middle stall", func(_ int64, r *http.Request) string {
			if a, ok := dataRange(r); ok && a > bag.Size/2 {
				return "stall"
			}
			return ""
		}, "no complete answer within 1s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("BAGCLOCK_S3_ATTEMPTS", "2")
			t.Setenv("BAGCLOCK_S3_TIMEOUT", "1s")
			resetRemote(t)
			proxy.setFault(c.fault)
			defer proxy.setFault(nil)
			report := filepath.Join(t.TempDir(), "r.json")
			code, _, errOut := runCLI(t, "analyze", "--format", "json", "-o", report, url)
			out, _ := os.ReadFile(report)
			if c.say == "" {
				if code != 0 || string(out) != rout {
					t.Errorf("exit %d, report as the healthy one: %v\n%s", code, string(out) == rout, errOut)
				}
				return
			}
			if code != exitFailure || out != nil || !strings.Contains(errOut, c.say) || !strings.Contains(errOut, object) || !strings.Contains(errOut, "after 2 attempts") {
				t.Errorf("exit %d, report written: %v; want exit 3, no report and an error naming %s saying %q after 2 attempts:\n%s", code, out != nil, object, c.say, errOut)
			}
		})
	}
	t.Run("object changes while its ranges are read", func(t *testing.T) {
		resetRemote(t)
		var once sync.Once
		proxy.setFault(func(_ int64, r *http.Request) string {
			if a, ok := dataRange(r); ok && a > bag.Size/3 {
				once.Do(func() {
					srv.PutBytes(t, "big/"+bag.Name+"/"+filepath.Base(bag.File), bytes.Repeat([]byte("another version "), 1<<20))
				})
			}
			return ""
		})
		defer proxy.setFault(nil)
		report := filepath.Join(t.TempDir(), "r.json")
		code, _, errOut := runCLI(t, "analyze", "--format", "json", "-o", report, url)
		_, statErr := os.Stat(report)
		if code != exitFailure || statErr == nil || !strings.Contains(errOut, "changed while it was read") || !strings.Contains(errOut, object) {
			t.Errorf("exit %d, report written: %v; want exit 3, no report and an error saying %s changed:\n%s", code, statErr == nil, object, errOut)
		}
	})
	t.Run("object changes between listing and reading", func(t *testing.T) {
		resetRemote(t)
		proxy.gets.Store(0)
		var once sync.Once
		proxy.setFault(func(n int64, _ *http.Request) string {
			if n == 3 { // after the head and tail were read
				once.Do(func() { srv.PutBytes(t, "big/"+bag.Name+"/"+filepath.Base(bag.File), []byte("another version")) })
			}
			return ""
		})
		defer proxy.setFault(nil)
		code, _, errOut := runCLI(t, "analyze", "--format", "json", url)
		if code == 0 || !strings.Contains(errOut, "changed while it was read") || !strings.Contains(errOut, object) {
			t.Errorf("exit %d; want an error saying %s changed:\n%s", code, object, errOut)
		}
	})
}

// TestS3Faults puts a fault-injecting proxy in front of the gateway: a
// few 500/503 answers and a cut-short range are retried and the report is
// the healthy one; a server that keeps failing, stalls, or an object that
// changes mid-read is a clear error naming the object, after the bounded
// attempts.
func TestS3Faults(t *testing.T) {
	shared := testenv.SharedDir(t)
	srv := s3Server(t)
	local := filepath.Join(shared, "bags", "evo-nav2-turtlebot-mcap")
	srv.PutTree(t, "bag", local)
	proxy := newS3Proxy(t, srv.Endpoint)
	srv.SetEnv(t, proxy.srv.URL)
	t.Setenv("BAGCLOCK_S3_ATTEMPTS", "3")
	t.Setenv("BAGCLOCK_S3_TIMEOUT", "1s")
	url := srv.URL("bag")
	_, want, _ := runCLI(t, "analyze", "--format", "json", local)
	want = strings.ReplaceAll(want, local, url)
	object := url + "/nav2_turtlebot.mcap"
	cases := []struct {
		name  string
		fault func(n int64, r *http.Request) string
		ok    bool
		say   string
	}{
		{"503 then fine", func(n int64, _ *http.Request) string { return map[bool]string{true: "503"}[n <= 2] }, true, ""},
		{"500 then fine", func(n int64, _ *http.Request) string { return map[bool]string{true: "500"}[n == 1] }, true, ""},
		{"short range then fine", func(n int64, _ *http.Request) string { return map[bool]string{true: "short"}[n == 1] }, true, ""},
		{"always 503", func(int64, *http.Request) string { return "503" }, false, "HTTP 503"},
		{"stall", func(int64, *http.Request) string { return "stall" }, false, "no complete answer within 1s"},
		{"always short", func(int64, *http.Request) string { return "short" }, false, "the answer ended after"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resetRemote(t)
			proxy.gets.Store(0)
			proxy.setFault(c.fault)
			defer proxy.setFault(nil)
			code, out, errOut := runCLI(t, "analyze", "--format", "json", url)
			if c.ok {
				if code != 0 || out != want {
					t.Errorf("exit %d, report as the local one: %v\n%s", code, out == want, errOut)
				}
				return
			}
			if code == 0 || !strings.Contains(errOut, c.say) || !strings.Contains(errOut, object) || !strings.Contains(errOut, "attempts") {
				t.Errorf("exit %d; want an error naming %s saying %q after the attempts:\n%s", code, object, c.say, errOut)
			}
		})
	}
}
