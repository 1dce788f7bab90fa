package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/internal/bench"
	"github.com/bagclock/bagclock/internal/s3test"
	"github.com/bagclock/bagclock/internal/testenv"
)

// indexRows reads out/index.jsonl as generic rows by rel, the last row
// of each bag.
func indexRows(t *testing.T, out string) map[string]map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join(out, "index.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]map[string]any{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		rows[r["rel"].(string)] = r
	}
	return rows
}

// comparable is a row with its local root written as the URL and the
// fields that name where and when the bag is (path, mtime, fingerprint,
// report names) left out.
func comparable(t *testing.T, r map[string]any, localRoot, url string) string {
	t.Helper()
	c := map[string]any{}
	for k, v := range r {
		switch k {
		case "path", "mtime_ns", "fingerprint", "report_html", "report_json":
			continue
		}
		c[k] = v
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), localRoot, url)
}

// sameRows compares two scans row for row.
func sameRows(t *testing.T, local, remote map[string]map[string]any, localRoot, url string) {
	t.Helper()
	if len(local) != len(remote) {
		t.Errorf("local scan %d rows, remote %d", len(local), len(remote))
	}
	for rel, l := range local {
		r, ok := remote[rel]
		if !ok {
			t.Errorf("%s: no row in the remote scan", rel)
			continue
		}
		if a, b := comparable(t, l, localRoot, url), comparable(t, r, localRoot, url); a != b {
			t.Errorf("%s: rows differ\nlocal  %s\nremote %s", rel, a, b)
		}
	}
}

var listingPages = regexp.MustCompile(`\((\d+) listing pages?\)`)

// TestS3ScanMatchesLocal uploads every shared bag (all 61 of
// /work/shared/bags, 33 MB) to a real S3 server and scans the prefix with
// 10 keys per listing page: the index equals a local scan of the same
// files row for row; nothing is written to the bucket; a rerun fetches
// nothing and skips every bag; a replaced object is analysed again, alone,
// with the bytes fetched in the progress lines.
func TestS3ScanMatchesLocal(t *testing.T) {
	shared := filepath.Join(testenv.SharedDir(t), "bags")
	srv := s3Server(t)
	srv.PutTree(t, "archive", shared)
	t.Setenv("BAGCLOCK_S3_LIST_PAGE", "10")
	before := srv.Listing(t)
	url := srv.URL("archive")

	localOut, remoteOut := t.TempDir(), t.TempDir()
	lcode, _, lerr := runCLI(t, "scan", "-q", "-j", "2", "--out", localOut, shared)
	rcode, _, rerr := runCLI(t, "scan", "-q", "-j", "2", "--out", remoteOut, url+"/")
	if lcode != rcode {
		t.Fatalf("exit %d locally, %d over s3:\n%s\n%s", lcode, rcode, lerr, rerr)
	}
	local, remoteRows := indexRows(t, localOut), indexRows(t, remoteOut)
	if len(local) < 60 {
		t.Fatalf("local scan of the shared bags: %d rows", len(local))
	}
	sameRows(t, local, remoteRows, shared, url)
	for rel, r := range remoteRows {
		if p := r["path"].(string); p != url+"/"+rel {
			t.Errorf("%s: path %s, want %s", rel, p, url+"/"+rel)
		}
	}
	m := listingPages.FindStringSubmatch(rerr)
	if n, _ := strconv.Atoi(m[len(m)-1]); m == nil || n < len(before)/10 {
		t.Errorf("want the listing in pages of 10 keys (%d keys): %s", len(before), rerr)
	}
	// The discovery problems are the local scan's, named by URL.
	for _, line := range strings.Split(lerr, "\n") {
		if strings.Contains(line, "not scanned") && !strings.Contains(rerr, strings.ReplaceAll(line, shared, url)) {
			t.Errorf("remote scan lacks the problem %q:\n%s", line, rerr)
		}
	}

	resetRemote(t)
	code, _, again := runCLI(t, "scan", "-q", "-j", "2", "--out", remoteOut, url)
	if code != rcode || !strings.Contains(again, "(0 analysed, "+strconv.Itoa(len(local))+" unchanged)") || !strings.Contains(again, "fetched 0 B") {
		t.Errorf("rerun: exit %d; want every bag unchanged and nothing fetched:\n%s", code, again)
	}

	// Replace one object with a cut copy: only its bag is analysed again.
	key := "archive/evo-nav2-turtlebot-mcap/nav2_turtlebot.mcap"
	data, err := os.ReadFile(filepath.Join(shared, "evo-nav2-turtlebot-mcap", "nav2_turtlebot.mcap"))
	if err != nil {
		t.Fatal(err)
	}
	srv.PutBytes(t, key, data[:len(data)*6/10])
	resetRemote(t)
	e, errb := testEnv()
	cfg := analysis.Config{Sequential: true}
	// The configuration the CLI scans with, so earlier rows are reusable.
	af := analysisFlags(pflag.NewFlagSet("scan", pflag.ContinueOnError))
	if c, err := af.config(); err == nil {
		cfg = c
		cfg.Sequential = true
	}
	runScan(context.Background(), e, scanOptions{roots: []string{url}, out: remoteOut, jobs: 1, cfg: cfg, analyze: analyzeBag, interval: time.Millisecond})
	out := errb.String()
	if !strings.Contains(out, "(1 analysed, "+strconv.Itoa(len(local)-1)+" unchanged)") {
		t.Errorf("after replacing %s: want it alone analysed again:\n%s", key, out)
	}
	if !regexp.MustCompile(`bagclock scan: bags \d+/\d+, fetched [0-9.]+ [KM]iB`).MatchString(out) {
		t.Errorf("no progress line with the bytes fetched:\n%s", out)
	}
	if r := indexRows(t, remoteOut)["evo-nav2-turtlebot-mcap/nav2_turtlebot.mcap"]; r["status"] != "damaged" {
		t.Errorf("the cut object's row: %v\n%s", r, out)
	}

	// The same bytes uploaded again: same size and, on this gateway (an
	// MD5), the same ETag, as a store whose ETags do not follow the
	// content would give any replacement of the same size. Only
	// LastModified tells, and the rerun key holds it: the bag is analysed
	// again, alone.
	listed := srv.Listing(t)
	time.Sleep(1100 * time.Millisecond) // LastModified has whole seconds
	srv.PutBytes(t, key, data[:len(data)*6/10])
	if l := srv.Listing(t); !slices.Equal(l, listed) {
		t.Fatalf("the same bytes again changed the listed size or ETag:\nbefore %v\nafter  %v", listed, l)
	}
	resetRemote(t)
	errb.Reset()
	runScan(context.Background(), e, scanOptions{roots: []string{url}, out: remoteOut, jobs: 1, cfg: cfg, analyze: analyzeBag, interval: time.Millisecond})
	if out := errb.String(); !strings.Contains(out, "(1 analysed, "+strconv.Itoa(len(local)-1)+" unchanged)") {
		t.Errorf("after uploading %s again unchanged but for LastModified: want it alone analysed again:\n%s", key, out)
	}

	before = slices.DeleteFunc(before, func(s string) bool { return strings.HasPrefix(s, key+" ") })
	after := slices.DeleteFunc(srv.Listing(t), func(s string) bool { return strings.HasPrefix(s, key+" ") })
	if !slices.Equal(before, after) {
		t.Errorf("the bucket changed:\nbefore %v\nafter  %v", before, after)
	}
}

// damagedArchive is a small archive of healthy bags and damaged copies
// (an MCAP cut at 60%, a db3 cut in half, a .mcap that is no bag), as
// local files.
func damagedArchive(t *testing.T) string {
	shared := filepath.Join(testenv.SharedDir(t), "bags")
	dir := t.TempDir()
	for _, b := range []string{"evo-nav2-turtlebot-mcap", "tb3-walker-humble-nitesh", "jazzy-v9-mcap-chatter"} {
		c := testenv.CopyTree(t, filepath.Join(shared, b))
		if err := os.Rename(c, filepath.Join(dir, b)); err != nil {
			t.Fatal(err)
		}
	}
	cut := func(src, dst string, frac float64) {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, data[:int(float64(len(data))*frac)], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cut(filepath.Join(shared, "evo-nav2-turtlebot-mcap", "nav2_turtlebot.mcap"), filepath.Join(dir, "damaged", "cut.mcap"), 0.6)
	db3, _ := filepath.Glob(filepath.Join(shared, "tb3-walker-humble-nitesh", "*.db3"))
	if len(db3) != 1 {
		t.Fatalf("db3 of tb3-walker-humble-nitesh: %v", db3)
	}
	cut(db3[0], filepath.Join(dir, "damaged", "cut-db3", filepath.Base(db3[0])), 0.5)
	if err := os.WriteFile(filepath.Join(dir, "damaged", "not-a-bag.mcap"), []byte(strings.Repeat("not a bag\n", 50)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestS3DamagedLikeLocal: a cut MCAP object, a cut db3 object and an
// object that is no bag get the analyze report, the exit code and the
// scan row the same files get on disk.
func TestS3DamagedLikeLocal(t *testing.T) {
	arch := damagedArchive(t)
	srv := s3Server(t)
	srv.PutTree(t, "arch", arch)
	url := srv.URL("arch")
	for _, rel := range []string{"damaged/cut.mcap", "damaged/cut-db3", "damaged/not-a-bag.mcap"} {
		lcode, lout, lerr := runCLI(t, "analyze", "--format", "json", filepath.Join(arch, rel))
		rcode, rout, rerr := runCLI(t, "analyze", "--format", "json", url+"/"+rel)
		if lcode != rcode || strings.ReplaceAll(lout, arch, url) != rout {
			t.Errorf("%s: exit %d locally, %d over s3; reports equal %v\n%s\n%s\n%s", rel, lcode, rcode,
				strings.ReplaceAll(lout, arch, url) == rout, lerr, rerr, lineDiff(strings.ReplaceAll(lout, arch, url), rout))
		}
	}
	localOut, remoteOut := t.TempDir(), t.TempDir()
	runCLI(t, "scan", "-q", "--out", localOut, arch)
	resetRemote(t)
	runCLI(t, "scan", "-q", "--out", remoteOut, url)
	rows := indexRows(t, remoteOut)
	sameRows(t, indexRows(t, localOut), rows, arch, url)
	if rows["damaged/cut.mcap"]["status"] != "damaged" {
		t.Errorf("cut MCAP row: %v", rows["damaged/cut.mcap"])
	}
}

// TestS3ScanFaults: one object that keeps answering 503, stalls, cuts its
// ranges short, refuses the credentials or changes mid-read is an error
// row naming it and saying why, after the bounded attempts; every other
// bag's row is the healthy scan's, and no row is lost from the index. A
// prefix whose listing is refused fails the scan and keeps its rows.
func TestS3ScanFaults(t *testing.T) {
	arch := damagedArchive(t)
	srv := s3Server(t)
	srv.PutTree(t, "arch", arch)
	proxy := newS3Proxy(t, srv.Endpoint)
	srv.SetEnv(t, proxy.srv.URL)
	t.Setenv("BAGCLOCK_S3_ATTEMPTS", "2")
	t.Setenv("BAGCLOCK_S3_TIMEOUT", "1s")
	url := srv.URL("arch")
	out := t.TempDir()
	resetRemote(t)
	code, _, errOut := runCLI(t, "scan", "-q", "-j", "2", "--out", out, url)
	healthy := indexRows(t, out)
	// (the cut db3 is an error row)
	if code != exitFailure || len(healthy) != 6 || healthy["damaged/cut-db3"]["status"] != "error" {
		t.Fatalf("healthy scan: exit %d, %d rows:\n%s", code, len(healthy), errOut)
	}
	const bad = "evo-nav2-turtlebot-mcap/nav2_turtlebot.mcap" // a loose MCAP
	key := "arch/" + bad
	object := srv.URL(key)
	original, err := os.ReadFile(filepath.Join(arch, bad))
	if err != nil {
		t.Fatal(err)
	}
	target := func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/"+key) }
	for _, c := range []struct {
		name, fault, say string
	}{
		{"503", "503", "HTTP 503"},
		{"stall", "stall", "no complete answer within 1s"},
		{"short range", "short", "the answer ended after"},
		{"refused credentials", "403", "refused the credentials"},
		{"changed mid-read", "change", "changed while it was read"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resetRemote(t)
			var once sync.Once
			proxy.setFault(func(n int64, r *http.Request) string {
				if !target(r) {
					return ""
				}
				if c.fault == "change" {
					once.Do(func() { srv.PutBytes(t, key, append([]byte("x"), original...)) })
					return ""
				}
				return c.fault
			})
			defer proxy.setFault(nil)
			if c.fault == "change" {
				defer srv.PutBytes(t, key, original)
			}
			code, _, errOut := runCLI(t, "scan", "-q", "-j", "2", "--force", "--out", out, url)
			rows := indexRows(t, out)
			r := rows[bad]
			msg, _ := r["error"].(string)
			if code != exitFailure || r["status"] != "error" || !strings.Contains(msg, object) || !strings.Contains(msg, c.say) {
				t.Errorf("exit %d; want an error row naming %s saying %q: %v\n%s", code, object, c.say, r, errOut)
			}
			if c.fault != "change" && c.fault != "403" && !strings.Contains(msg, "2 attempts") {
				t.Errorf("error row does not say it retried: %s", msg)
			}
			delete(rows, bad)
			h := map[string]map[string]any{}
			for k, v := range healthy {
				if k != bad {
					h[k] = v
				}
			}
			sameRows(t, h, rows, url, url)
			if strings.Contains(errOut, srv.SecretKey) || strings.Contains(msg, srv.SecretKey) {
				t.Error("the secret key is in the output")
			}
		})
	}
	t.Run("listing refused", func(t *testing.T) {
		resetRemote(t)
		proxy.setRefuse(func(r *http.Request) bool { return r.URL.Query().Has("list-type") })
		defer proxy.setRefuse(nil)
		code, _, errOut := runCLI(t, "scan", "-q", "--out", out, url)
		if code != exitFailure || !strings.Contains(errOut, "LIST") || !strings.Contains(errOut, "403") || !strings.Contains(errOut, "keeps this prefix's earlier rows") {
			t.Errorf("exit %d; want a failed scan saying the listing was refused:\n%s", code, errOut)
		}
		if rows := indexRows(t, out); len(rows) != len(healthy) {
			t.Errorf("index has %d rows after a refused listing, had %d", len(rows), len(healthy))
		}
	})
}

// TestS3SharedConfigProfiles: credentials and the endpoint come from the
// shared config and credentials files (AWS_CONFIG_FILE,
// AWS_SHARED_CREDENTIALS_FILE) of the profile AWS_PROFILE names; the
// default profile's wrong keys are refused with an error naming the
// object and no secret; an unknown profile is a clear error; the
// endpoint, not being AWS, is addressed path-style.
func TestS3SharedConfigProfiles(t *testing.T) {
	shared := filepath.Join(testenv.SharedDir(t), "bags")
	srv := s3test.Start(t)
	srv.PutTree(t, "bag", filepath.Join(shared, "evo-nav2-turtlebot-mcap"))
	proxy := newS3Proxy(t, srv.Endpoint)
	var mu sync.Mutex
	var hosts, paths []string
	proxy.setRefuse(func(r *http.Request) bool {
		mu.Lock()
		hosts, paths = append(hosts, r.Host), append(paths, r.URL.Path)
		mu.Unlock()
		return false
	})
	dir := t.TempDir()
	cfgFile, credFile := filepath.Join(dir, "config"), filepath.Join(dir, "credentials")
	os.WriteFile(cfgFile, []byte("[default]\nregion = us-east-1\nendpoint_url = "+proxy.srv.URL+"\n\n[profile lab]\nregion = us-east-1\nendpoint_url = "+proxy.srv.URL+"\n"), 0o600)
	wrong := "WRONGSECRET" + srv.SecretKey[2:]
	os.WriteFile(credFile, []byte("[default]\naws_access_key_id = "+srv.AccessKey+"\naws_secret_access_key = "+wrong+"\n\n[lab]\naws_access_key_id = "+srv.AccessKey+"\naws_secret_access_key = "+srv.SecretKey+"\n"), 0o600)
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_REGION", "AWS_DEFAULT_REGION"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("AWS_CONFIG_FILE", cfgFile)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", credFile)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("BAGCLOCK_S3_ATTEMPTS", "1")
	local := filepath.Join(shared, "evo-nav2-turtlebot-mcap")
	_, want, _ := runCLI(t, "analyze", "--format", "json", local)
	url := srv.URL("bag")

	t.Setenv("AWS_PROFILE", "lab")
	resetRemote(t)
	code, out, errOut := runCLI(t, "analyze", "--format", "json", url)
	if code != 0 || out != strings.ReplaceAll(want, local, url) {
		t.Errorf("AWS_PROFILE=lab: exit %d, report as the local one %v:\n%s", code, out == strings.ReplaceAll(want, local, url), errOut)
	}
	mu.Lock()
	for i := range hosts {
		if hosts[i] != strings.TrimPrefix(proxy.srv.URL, "http://") || !(paths[i] == "/"+srv.Bucket || strings.HasPrefix(paths[i], "/"+srv.Bucket+"/")) {
			t.Errorf("request to host %s path %s: want path-style (host %s, path /%s/...)", hosts[i], paths[i], proxy.srv.URL, srv.Bucket)
			break
		}
	}
	if len(hosts) == 0 {
		t.Error("no request went to the endpoint of the shared config")
	}
	mu.Unlock()

	os.Unsetenv("AWS_PROFILE")
	resetRemote(t)
	code, out, errOut = runCLI(t, "analyze", url)
	if code == 0 || !strings.Contains(errOut, "403") || !strings.Contains(errOut, url) || strings.Contains(out+errOut, wrong) || strings.Contains(out+errOut, srv.SecretKey) {
		t.Errorf("default profile with a wrong secret: exit %d; want a 403 naming %s without the secret:\n%s", code, url, errOut)
	}

	t.Setenv("AWS_PROFILE", "nosuch")
	resetRemote(t)
	code, _, errOut = runCLI(t, "analyze", url)
	if code == 0 || !strings.Contains(errOut, "nosuch") {
		t.Errorf("unknown profile: exit %d:\n%s", code, errOut)
	}
}

// TestS3ScanFaultMidRead: an object whose ranges fail while its messages
// are read (past its head and tail, fetched when it was opened) is an
// error row naming it after the attempts, not a row of the part read
// before; the other bag's row is as without the fault, and a rerun once
// the store is healthy analyses the failed bag again.
func TestS3ScanFaultMidRead(t *testing.T) {
	srv := s3Server(t)
	bags, err := bench.EnsureSensorBags(t.TempDir(), 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	big := bags[0] // sensors-mcap, 65 MB
	srv.PutTree(t, "arch/"+big.Name, big.Dir)
	nav2 := filepath.Join(testenv.SharedDir(t), "bags", "evo-nav2-turtlebot-mcap")
	srv.PutTree(t, "arch/nav2", nav2)
	proxy := newS3Proxy(t, srv.Endpoint)
	srv.SetEnv(t, proxy.srv.URL)
	t.Setenv("BAGCLOCK_S3_ATTEMPTS", "2")
	t.Setenv("BAGCLOCK_S3_TIMEOUT", "1s")
	url := srv.URL("arch")
	object := url + "/" + big.Name + "/" + filepath.Base(big.File)
	healthyOut, out := t.TempDir(), t.TempDir()
	resetRemote(t)
	if code, _, errOut := runCLI(t, "scan", "-q", "--out", healthyOut, url); code != exitOK {
		t.Fatalf("healthy scan: exit %d\n%s", code, errOut)
	}
	healthy := indexRows(t, healthyOut)
	proxy.setFault(func(_ int64, r *http.Request) string {
		var a, b int64
		if _, err := fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-%d", &a, &b); err == nil &&
			strings.HasSuffix(r.URL.Path, filepath.Base(big.File)) && a > big.Size/2 && b < big.Size-1<<20 {
			return "503"
		}
		return ""
	})
	resetRemote(t)
	code, _, errOut := runCLI(t, "scan", "-q", "--out", out, url)
	proxy.setFault(nil)
	rows := indexRows(t, out)
	r := rows[big.Name]
	msg, _ := r["error"].(string)
	if code != exitFailure || r["status"] != "error" || !strings.Contains(msg, object) || !strings.Contains(msg, "HTTP 503") || !strings.Contains(msg, "after 2 attempts") {
		t.Errorf("exit %d; want an error row naming %s saying HTTP 503 after 2 attempts: %v\n%s", code, object, r, errOut)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2: %v", len(rows), rows)
	}
	sameRows(t, map[string]map[string]any{"nav2": healthy["nav2"]}, map[string]map[string]any{"nav2": rows["nav2"]}, url, url)
	resetRemote(t)
	code, _, errOut = runCLI(t, "scan", "-q", "--out", out, url)
	if code != exitOK || !strings.Contains(errOut, "(1 analysed, 1 unchanged)") {
		t.Errorf("rerun once healthy: exit %d; want the failed bag alone analysed again:\n%s", code, errOut)
	}
	sameRows(t, healthy, indexRows(t, out), url, url)
}
