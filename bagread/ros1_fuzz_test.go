package bagread

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// FuzzROS1 reads arbitrary bytes as a ROS 1 bag file in every way
// drainBag reads: nothing may panic or hang, whatever the record lengths,
// compression fields or chunk sizes claim. Seeds are tiny bags written by
// Debian's rosbag in each compression, with and without their index (the
// .bag.active copy), when the peer is installed.
func FuzzROS1(f *testing.F) {
	f.Add([]byte("#ROSBAG V2.0\n"))
	if py, script := "/usr/bin/python3", "../internal/ros1peer/rosbag_peer.py"; exec.Command(py, "-c", "import rosbag").Run() == nil {
		dir := f.TempDir()
		for _, comp := range []string{"none", "bz2", "lz4"} {
			bag := filepath.Join(dir, comp+".bag")
			if err := exec.Command(py, script, "write", bag, comp, "tiny", bag+".active").Run(); err != nil {
				f.Fatalf("rosbag write: %v", err)
			}
			for _, p := range []string{bag, bag + ".active"} {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b)
				}
			}
		}
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "f.bag")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		drainIn(path, dir)
	})
}
