package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
