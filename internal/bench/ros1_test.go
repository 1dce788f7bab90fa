package bench

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/bagread"
)

// ros1Version changes whenever the generated ROS 1 bags would change.
const ros1Version = "bagclock-bench ros1 v1"

// ros1Seconds is the length of the ROS 1 benchmark bag: 600 s of the large
// scenario's rates is about 117 MB uncompressed.
const ros1Seconds = 600

// ros1Bag returns a ROS 1 bag of seconds written by Debian's rosbag
// (internal/ros1peer/rosbag_peer.py large) with the given chunk
// compression, generated into the cache once. A machine without
// python3-rosbag skips the benchmark.
func ros1Bag(tb testing.TB, comp string, seconds int) Bag {
	tb.Helper()
	python := "/usr/bin/python3"
	script, err := filepath.Abs("../ros1peer/rosbag_peer.py")
	if err != nil {
		tb.Fatal(err)
	}
	name := fmt.Sprintf("ros1-%s-%ds", comp, seconds)
	path := filepath.Join(CacheDir(), "ros1", name+".bag")
	marker := path + ".complete"
	if data, err := os.ReadFile(marker); err != nil || string(data) != ros1Version {
		if err := exec.Command(python, "-c", "import rosbag, sensor_msgs.msg, tf2_msgs.msg, rosgraph_msgs.msg, roslz4").Run(); err != nil {
			tb.Skipf("the ROS 1 benchmark bags are written by Debian's python3-rosbag (with python3-roslz4), not installed: %v", err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		tmp := path + ".tmp"
		if out, err := exec.Command(python, script, "large", tmp, comp, fmt.Sprint(seconds)).CombinedOutput(); err != nil {
			tb.Fatalf("rosbag_peer.py large %s: %v\n%s", name, err, out)
		}
		if err := os.Rename(tmp, path); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(marker, []byte(ros1Version), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return Bag{Name: name, Dir: path, File: path, Size: st.Size()}
}

// ros1Messages is how many messages rosbag_peer.py large writes on Topics.
func ros1Messages(seconds int) int { return seconds*100*2 + seconds*20 + 1 }

// BenchmarkROS1 measures analyze on ROS 1 bags written by Debian's rosbag
// beside the baselines of issue 25 in the same run: the uncompressed bag
// against a raw read of its bytes, the bz2 and lz4 bags against
// decompressing their chunks alone. Ratios are printed at the end.
func BenchmarkROS1(b *testing.B) {
	for _, comp := range []string{"none", "lz4", "bz2"} {
		bag := ros1Bag(b, comp, ros1Seconds)
		key := "ros1-" + comp
		want := ros1Messages(ros1Seconds)
		b.Run(key+"/analyze", func(b *testing.B) {
			b.SetBytes(bag.Size)
			b.ReportAllocs()
			for range b.N {
				rb, err := bagread.Open(bag.File, bagread.Options{})
				if err != nil {
					b.Fatal(err)
				}
				rep, err := analysis.Analyze(rb, analysis.Config{}, nil)
				rb.Close()
				if err != nil {
					b.Fatal(err)
				}
				if rep == nil {
					b.Fatal("nil report")
				}
			}
			record(b, key+"/analyze")
		})
		b.Run(key+"/bagread", func(b *testing.B) {
			b.SetBytes(bag.Size)
			b.ReportAllocs()
			for range b.N {
				n, bad, _, err := readDecoded(bag.File)
				if err != nil {
					b.Fatal(err)
				}
				if bad != 0 || n != want {
					b.Fatalf("read %d messages (%d undecodable), want %d", n, bad, want)
				}
			}
			record(b, key+"/bagread")
		})
		b.Run(key+"/raw", func(b *testing.B) {
			b.SetBytes(bag.Size)
			buf := make([]byte, 1<<20)
			for range b.N {
				n, err := RawRead(bag.File, buf)
				if err != nil || n != bag.Size {
					b.Fatalf("read %d of %d bytes: %v", n, bag.Size, err)
				}
			}
			record(b, key+"/raw")
		})
		if comp != "none" {
			b.Run(key+"/chunks", func(b *testing.B) {
				b.SetBytes(bag.Size)
				b.ReportAllocs()
				var d ROS1Chunks
				for range b.N {
					n, err := d.Decompress(bag.File)
					if err != nil || n == 0 {
						b.Fatalf("decompressed %d bytes: %v", n, err)
					}
				}
				record(b, key+"/chunks")
			})
		}
	}
}

// TestROS1PeakRSS runs read and analyze on the ROS 1 bag and on one five
// times longer, each in a fresh process, and checks that the peak RSS
// stays under the bound TestPeakRSS sets: memory flat in bag size. It
// runs only in benchmark runs (-bench ROS1); with -huge the longer bag is
// ten times longer.
func TestROS1PeakRSS(t *testing.T) {
	f := flag.Lookup("test.bench")
	if f == nil || f.Value.String() == "" || !regexp.MustCompile(strings.Split(f.Value.String(), "/")[0]).MatchString("BenchmarkROS1") {
		t.Skip("peak RSS is measured only in ROS 1 benchmark runs (-bench ROS1)")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status on this system")
	}
	long := 5 * ros1Seconds
	if *huge {
		long = 10 * ros1Seconds
	}
	const largestMessage = 8 << 10
	limitKB := int64((64<<20 + largestMessage) / 1024)
	for _, comp := range []string{"none", "lz4", "bz2"} {
		for _, seconds := range []int{ros1Seconds, long} {
			bag := ros1Bag(t, comp, seconds)
			for _, mode := range []string{"read", "analyze"} {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), "BAGCLOCK_RSS_CHILD="+bag.File)
				if mode == "analyze" {
					cmd.Env = append(cmd.Env, "BAGCLOCK_RSS_ANALYZE=1")
				}
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Errorf("%s %s: %v\n%s", bag.Name, mode, err, out)
					continue
				}
				var kb int64
				if _, err := fmt.Sscanf(strings.TrimSpace(string(out)), "VmHWM %d", &kb); err != nil {
					t.Errorf("%s %s: unexpected output %q", bag.Name, mode, out)
					continue
				}
				line := fmt.Sprintf("peak RSS %-18s %-7s %6.1f MiB (bag %.0f MB; limit %.1f MiB)", bag.Name, mode, float64(kb)/1024, float64(bag.Size)/1e6, float64(limitKB)/1024)
				measuredMu.Lock()
				rssLines = append(rssLines, line)
				measuredMu.Unlock()
				t.Log(line)
				if kb > limitKB {
					t.Errorf("%s %s: peak RSS %d kB over the bound %d kB", bag.Name, mode, kb, limitKB)
				}
			}
		}
	}
}
