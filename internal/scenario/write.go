package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/bagclock/bagclock/internal/bagwrite"
)

// Write generates the spec's bag into the bag directory dir (which must
// not exist or be empty) and returns dir.
func Write(dir string, spec Spec, opts bagwrite.Options) (string, error) {
	w, err := bagwrite.Create(dir, opts)
	if err != nil {
		return "", fmt.Errorf("scenario %s: %w", spec.Name, err)
	}
	for _, tp := range spec.Topics() {
		if err := w.AddTopic(tp[0], tp[1]); err != nil {
			return "", fmt.Errorf("scenario %s: %w", spec.Name, err)
		}
	}
	err = Generate(spec, func(r *Record) error {
		return w.Write(r.Topic, r.LogTimeNS, r.PublishTimeNS, r.Data)
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("scenario %s: writing %s: %w", spec.Name, dir, err)
	}
	return dir, nil
}

// Sample is one committed sample bag: where it goes under the samples
// root, which case, and how it is written.
type Sample struct {
	Dir  string // relative to the samples root, e.g. "mcap/both_sim"
	Spec Spec
	Opts bagwrite.Options
}

// Samples lists the bags under testdata/samples: every case in both
// storages at sample size, the README's demo bag, and a few storage
// variants of one case for the reader's tests.
func Samples() []Sample {
	var out []Sample
	for _, name := range Names() {
		spec, _ := Get(name) // every name in Names is known
		spec = spec.Sample()
		out = append(out,
			Sample{Dir: filepath.Join("mcap", name), Spec: spec, Opts: bagwrite.Options{Storage: bagwrite.StorageMCAP}},
			Sample{Dir: filepath.Join("sqlite3", name), Spec: spec, Opts: bagwrite.Options{Storage: bagwrite.StorageSQLite3}})
	}
	out = append(out, SensorSamples()...)
	demo, _ := Get(Demo)
	out = append(out, Sample{Dir: "demo", Spec: demo.Sample(), Opts: bagwrite.Options{Storage: bagwrite.StorageMCAP}})
	v, _ := Get(LaserSystemTFSim)
	v = v.Sample()
	// Under a second is enough to exercise a storage variant.
	v.Duration = 800 * time.Millisecond
	variants := []struct {
		name string
		opts bagwrite.Options
	}{
		{"mcap-zstd-chunks", bagwrite.Options{ChunkCompression: "zstd", ChunkSize: 16 << 10}},
		{"mcap-lz4-chunks", bagwrite.Options{ChunkCompression: "lz4", ChunkSize: 16 << 10}},
		{"mcap-unchunked", bagwrite.Options{NoChunking: true}},
		{"mcap-split", bagwrite.Options{SplitEvery: 500 * time.Millisecond}},
		{"mcap-file-zstd", bagwrite.Options{Compression: "zstd"}},
		{"mcap-crashed", bagwrite.Options{Crash: true, ChunkSize: 16 << 10, TruncateTail: 200}},
		{"mcap-humble-v5", bagwrite.Options{MetadataVersion: 5}},
		{"sqlite3-humble-v5", bagwrite.Options{Storage: bagwrite.StorageSQLite3, MetadataVersion: 5}},
		{"sqlite3-split", bagwrite.Options{Storage: bagwrite.StorageSQLite3, SplitEvery: 500 * time.Millisecond}},
		{"sqlite3-file-zstd", bagwrite.Options{Storage: bagwrite.StorageSQLite3, Compression: "zstd"}},
		{"sqlite3-message-zstd", bagwrite.Options{Storage: bagwrite.StorageSQLite3, Compression: "zstd", CompressionMode: bagwrite.CompressionModeMessage}},
		{"sqlite3-crashed", bagwrite.Options{Storage: bagwrite.StorageSQLite3, Crash: true}},
	}
	for _, vr := range variants {
		out = append(out, Sample{Dir: filepath.Join("variants", vr.name), Spec: v, Opts: vr.opts})
	}
	return out
}

// WriteSamples writes every sample and every multi-robot sample under
// root, replacing what is there.
func WriteSamples(root string) error {
	clear := func(dir string) error {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("scenario: clearing %s: %w", dir, err)
		}
		return nil
	}
	for _, s := range Samples() {
		dir := filepath.Join(root, s.Dir)
		if err := clear(dir); err != nil {
			return err
		}
		if _, err := Write(dir, s.Spec, s.Opts); err != nil {
			return err
		}
	}
	for _, s := range RobotsSamples() {
		dir := filepath.Join(root, s.Dir)
		if err := clear(dir); err != nil {
			return err
		}
		if _, err := WriteMulti(dir, s.Specs, s.Opts); err != nil {
			return err
		}
	}
	return nil
}

// LargeSamples lists the benchmark bags: the Large case (600 s, 20 Hz
// scans of 1080 ranges and intensities, 100 Hz tf, 100 Hz /clock) as
// uncompressed MCAP, zstd-chunked MCAP and db3. factor > 1 makes them that
// many times longer, in directories named huge-* instead of large-*.
func LargeSamples(factor int) []Sample {
	spec, _ := Get(Large) // Large is a known case
	prefix := "large"
	if factor > 1 {
		spec = spec.Scale(factor)
		prefix = "huge"
	}
	return []Sample{
		{Dir: prefix + "-mcap", Spec: spec, Opts: bagwrite.Options{Storage: bagwrite.StorageMCAP}},
		{Dir: prefix + "-mcap-zstd", Spec: spec, Opts: bagwrite.Options{Storage: bagwrite.StorageMCAP, ChunkCompression: "zstd"}},
		{Dir: prefix + "-db3", Spec: spec, Opts: bagwrite.Options{Storage: bagwrite.StorageSQLite3}},
	}
}

// SensorSamples lists the issue 9 samples, in both storages: the five clock
// cases of the motivating experiment with a PointCloud2 lidar, an Imu and
// a camera beside the laser (sensors/<storage>/<case>), a namespaced robot
// and tf topics without slash (sensors/<storage>/both_sim_robot1,
// both_sim_tf_no_slash), and the tf-tree cases (tree/<storage>/<case>),
// all with sensors.
func SensorSamples() []Sample {
	var out []Sample
	add := func(group, dir string, spec Spec) {
		for _, st := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
			out = append(out, Sample{Dir: filepath.Join(group, st, dir), Spec: spec, Opts: bagwrite.Options{Storage: st}})
		}
	}
	get := func(name string) Spec {
		s, _ := Get(name) // known names
		s = s.Sample()
		s.Sensors = true
		return s
	}
	for _, name := range []string{BothSim, LaserSystemTFSim, LaserSimTFSystem, LaserZeroStamp, Skew2500ms} {
		add("sensors", name, get(name))
	}
	ns := get(BothSim)
	ns.Namespace = "/robot1"
	add("sensors", BothSim+"_robot1", ns)
	slash := get(BothSim)
	slash.NoSlash = true
	add("sensors", BothSim+"_tf_no_slash", slash)
	for _, name := range TreeNames() {
		add("tree", name, get(name))
	}
	return out
}
