// Package mforacle builds the ROS 1 tf2_ros::MessageFilter oracle of
// ../shared/peers/msgfilter-oracle (Debian geometry2 0.7.6) for tests: the
// peer is copied, never built in place, and a missing peer or build tool
// skips (fails under BAGCLOCK_REQUIRE_PEERS=1).
package mforacle

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bagclock/bagclock/internal/testenv"
)

// Build compiles mforacle from a private copy of the peer folder,
// caching the binary by the source's hash (the build takes about a minute).
func Build(t testing.TB) string {
	t.Helper()
	src := filepath.Join(testenv.SharedDir(t), "peers", "msgfilter-oracle")
	code, err := os.ReadFile(filepath.Join(src, "mforacle.cpp"))
	if err != nil {
		testenv.PeerMissing(t, "msgfilter oracle source not found: %v", err)
	}
	for _, tool := range []string{"make", "g++", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.PeerMissing(t, "cannot build the msgfilter oracle: %s not installed (apt-get install -y --no-install-recommends libtf2-ros-dev libsensor-msgs-dev nlohmann-json3-dev g++ pkg-config make)", tool)
		}
	}
	if err := exec.Command("pkg-config", "--exists", "tf2_ros", "roscpp", "message_filters").Run(); err != nil {
		testenv.PeerMissing(t, "cannot build the msgfilter oracle: libtf2-ros-dev not installed (apt-get install -y --no-install-recommends libtf2-ros-dev libsensor-msgs-dev nlohmann-json3-dev g++ pkg-config make)")
	}
	mk, _ := os.ReadFile(filepath.Join(src, "Makefile"))
	cached := ""
	if dir, err := os.UserCacheDir(); err == nil {
		cached = filepath.Join(dir, "bagclock", fmt.Sprintf("mforacle-%x", sha256.Sum256(append(code, mk...))))
		if fi, err := os.Stat(cached); err == nil && fi.Mode().IsRegular() {
			return cached
		}
	}
	dir := testenv.CopyTree(t, src)
	if out, err := exec.Command("make", "-C", dir, "mforacle").CombinedOutput(); err != nil {
		testenv.PeerMissing(t, "cannot build the msgfilter oracle: %v\n%s", err, out)
	}
	bin := filepath.Join(dir, "mforacle")
	if cached != "" && os.MkdirAll(filepath.Dir(cached), 0o755) == nil {
		if data, err := os.ReadFile(bin); err == nil && os.WriteFile(cached+".tmp", data, 0o755) == nil {
			if os.Rename(cached+".tmp", cached) == nil {
				return cached
			}
		}
	}
	return bin
}
