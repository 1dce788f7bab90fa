package ros1peer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bagclock/bagclock/internal/testenv"
)

// rosbagPeer returns the python and script that drive Debian's
// python3-rosbag; a missing library skips, or fails under
// BAGCLOCK_REQUIRE_PEERS=1.
func rosbagPeer(t *testing.T) (python, script string) {
	t.Helper()
	python = "/usr/bin/python3"
	script, err := filepath.Abs("rosbag_peer.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(python, "-c", "import rosbag, sensor_msgs.msg, tf2_msgs.msg, rosgraph_msgs.msg").Run(); err != nil {
		testenv.PeerMissing(t, "Debian's python3-rosbag is not installed (apt-get install python3-rosbag python3-roslz4 python3-sensor-msgs python3-tf2-msgs python3-rosgraph-msgs): %v", err)
	}
	return python, script
}

// foxglovePeer returns the path of a runnable foxglove_dump.mjs. Its
// node_modules come from `npm ci` against js/package-lock.json (exact
// versions), installed once into $BAGCLOCK_PEER_CACHE or <user cache
// dir>/bagclock-peers/ros1js-<hash of the lockfile> and reused; the script
// is refreshed on every run. A missing node or npm skips, or fails under
// BAGCLOCK_REQUIRE_PEERS=1; a failing install fails.
func foxglovePeer(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.PeerMissing(t, "%s not found: the @foxglove/rosbag peer needs Node.js 20-22 with npm: %v", tool, err)
		}
	}
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		testenv.PeerMissing(t, "node --version: %v", err)
	}
	var major int
	if _, err := fmt.Sscanf(string(out), "v%d", &major); err != nil || major < 20 || major > 22 {
		testenv.PeerMissing(t, "node %s found; js/package.json requires Node.js >=20 <23", strings.TrimSpace(string(out)))
	}
	lock, err := os.ReadFile(filepath.Join("js", "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(lock)
	base := os.Getenv("BAGCLOCK_PEER_CACHE")
	if base == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			testenv.PeerMissing(t, "no cache directory for the peer install: %v", err)
		}
		base = filepath.Join(cache, "bagclock-peers")
	}
	dir := filepath.Join(base, "ros1js-"+hex.EncodeToString(sum[:8]))
	marker := filepath.Join(dir, "node_modules", "@foxglove", "rosbag", "package.json")
	if _, err := os.Stat(marker); err != nil {
		func() {
			unlock := lockInstall(t, base)
			defer unlock()
			if _, err := os.Stat(marker); err != nil {
				npmCI(t, base, dir)
			}
		}()
	}
	b, err := os.ReadFile(filepath.Join("js", "foxglove_dump.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "foxglove_dump.mjs")
	if old, _ := os.ReadFile(script); !bytes.Equal(old, b) {
		if err := os.WriteFile(script, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return script
}

// npmCI installs js/ into a fresh directory beside dir and renames it into
// place, so an interrupted install never leaves a half-filled cache.
func npmCI(t *testing.T, base, dir string) {
	t.Helper()
	tmp, err := os.MkdirTemp(base, "install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range []string{"package.json", "package-lock.json", "foxglove_dump.mjs"} {
		b, err := os.ReadFile(filepath.Join("js", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", tmp, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(dir); serr != nil { // not a concurrent install that won
			t.Fatal(err)
		}
	}
}

// lockInstall takes an exclusive flock on base/install.lock (the lock the
// ROS 2 peer's install takes too), so concurrent test processes install
// one at a time.
func lockInstall(t *testing.T, base string) func() {
	t.Helper()
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(base, "install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("lock %s: %v", f.Name(), err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}
