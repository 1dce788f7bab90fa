// Command baggen writes the scenario bags bagclock is tested and
// benchmarked on: any clock case in either storage format, every case at
// once, the committed samples, or the large benchmark bags.
//
//	go run ./cmd/baggen --case laser_system_tf_sim --storage mcap -o DIR
//	go run ./cmd/baggen --case both_system --noise-seed 7 --robot-offset 40ms -o DIR
//	go run ./cmd/baggen --all -o DIR
//	go run ./cmd/baggen --robots both_sim,laser_system_tf_sim --sensors -o DIR
//	go run ./cmd/baggen --samples testdata/samples
//	go run ./cmd/baggen --large -o DIR    (about 120 MB per bag)
//	go run ./cmd/baggen --huge -o DIR     (10x: about 1.2 GB per bag)
//	go run ./cmd/baggen --sensor-bench -o DIR  (camera + 3D lidar, about 2.2 GB per bag)
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bagclock/bagclock/internal/bagwrite"
	"github.com/bagclock/bagclock/internal/bench"
	"github.com/bagclock/bagclock/internal/scenario"
	"github.com/spf13/pflag"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = `baggen writes generated rosbag2 bags.

Usage:
  baggen --case NAME [--storage mcap|sqlite3] [--sample] [storage flags] -o DIR
                                        noise (--case): --noise-seed N draws a healthy robot's
                                        noise; --rate-jitter, --loss, --tf-delay, --robot-offset,
                                        --backlog, --stall, --burst, --republish-behind and
                                        --clock-step set knobs one by one (on top of the draw)
  baggen --all [--sample] -o DIR        every case in both formats: DIR/<storage>/<case>
  baggen --samples DIR                  the bags committed under testdata/samples
  baggen --large [-o DIR]               benchmark bags (mcap, mcap zstd chunks, db3), reused
                                        if present (default DIR: $TMPDIR/bagclock-bench)
  baggen --huge [-o DIR]                the same, 10x longer
  baggen --sensor-bench [--duration D] [-o DIR]
                                        camera + 3D-lidar benchmark bags (mcap, db3), 11 s
                                        (about 2.2 GB each) unless --duration; reused if present
  baggen --robots CASE,CASE[,...] [--sensors] [--sample] [--storage mcap|sqlite3] -o DIR
                                        one bag of several robots, robot N of case N under
                                        /robotN (/robotN/tf, /robotN/scan, ...); /clock and
                                        /rosout shared
  baggen --time-case NAME [--storage mcap|sqlite3] -o DIR
                                        a case of the time checks (see --list)
  baggen --list                         case names and what they model

Flags:
`

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("baggen", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	var (
		caseName    = fs.String("case", "", "scenario to write (see --list)")
		timeCase    = fs.String("time-case", "", "time-check scenario to write (see --list)")
		robots      = fs.StringSlice("robots", nil, "cases of the robots of one multi-robot bag, robot N under /robotN (see --list)")
		all         = fs.Bool("all", false, "write every case in both storage formats")
		samples     = fs.String("samples", "", "write the committed sample set into this directory")
		large       = fs.Bool("large", false, "write the ~120 MB benchmark bags")
		huge        = fs.Bool("huge", false, "write the 10x (~1.2 GB each) benchmark bags")
		sensorBench = fs.Bool("sensor-bench", false, "write the camera + 3D-lidar benchmark bags (~2.2 GB each)")
		list        = fs.Bool("list", false, "list the cases")
		out         = fs.StringP("output", "o", "", "output bag directory (--case) or parent directory")
		sample      = fs.Bool("sample", false, "write the short sample-size version of the case")
		storage     = fs.String("storage", "mcap", "storage: mcap or sqlite3")
		chunk       = fs.String("chunk-compression", "none", "MCAP chunk compression: none, zstd, lz4")
		chunkSize   = fs.Int64("chunk-size", 0, "MCAP chunk size in bytes (0: 768 KiB)")
		noChunk     = fs.Bool("no-chunking", false, "MCAP without chunks or indexes (rosbag2 fastwrite)")
		noSummary   = fs.Bool("no-summary", false, "MCAP with an empty summary section")
		comp        = fs.String("compression", "", "rosbag2 compression format: zstd")
		compMode    = fs.String("compression-mode", "", "rosbag2 compression mode: FILE or MESSAGE (default FILE)")
		split       = fs.Duration("split", 0, "start a new file after this much record time (e.g. 10s)")
		crash       = fs.Bool("crash", false, "leave the bag as a killed recorder does (no metadata.yaml, unfinished last file)")
		truncate    = fs.Int64("truncate", 0, "cut this many bytes off the last storage file")
		walTail     = fs.Int("wal-tail", 0, "sqlite3: leave the last N messages only in a -wal file")
		metaVer     = fs.Int("metadata-version", 9, "metadata.yaml version: 5 (Humble) or 9 (Jazzy)")
		seconds     = fs.Duration("duration", 0, "override the case's duration")
		sensors     = fs.Bool("sensors", false, "add a PointCloud2 lidar, an Imu and a camera Image beside the laser (on the laser driver's clock)")
		namespace   = fs.String("namespace", "", "record the robot's topics under this namespace (e.g. /robot1: /robot1/tf, /robot1/scan)")
		noSlash     = fs.Bool("tf-no-slash", false, "name the tf topics tf and tf_static, without the leading slash")
		nf          = noiseFlags(fs)
	)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "baggen: unexpected arguments %v\n", fs.Args())
		return 2
	}
	opts := bagwrite.Options{
		Storage: *storage, ChunkCompression: *chunk, ChunkSize: *chunkSize, NoChunking: *noChunk,
		NoSummary: *noSummary, Compression: *comp, CompressionMode: strings.ToUpper(*compMode),
		SplitEvery: *split, Crash: *crash, TruncateTail: *truncate, WALTail: *walTail, MetadataVersion: *metaVer,
	}
	modes := 0
	for _, on := range []bool{*caseName != "", *timeCase != "", len(*robots) > 0, *all, *samples != "", *large, *huge, *sensorBench, *list} {
		if on {
			modes++
		}
	}
	if modes != 1 {
		fmt.Fprintln(stderr, "baggen: give exactly one of --case, --time-case, --robots, --all, --samples, --large, --huge, --sensor-bench, --list")
		fs.Usage()
		return 2
	}
	var err error
	switch {
	case *list:
		listCases(stdout)
	case *timeCase != "":
		if *out == "" {
			return usageError(stderr, "--time-case needs -o DIR (the bag directory to create)")
		}
		c, terr := scenario.GetTimeCase(*timeCase)
		if terr != nil {
			return usageError(stderr, terr.Error())
		}
		if _, err = scenario.WriteTimeCase(*out, c, opts); err == nil {
			fmt.Fprintf(stdout, "%s: time case %s, %.0f s\n", *out, c.Name, c.DurS)
		}
	case len(*robots) > 0:
		if *out == "" {
			return usageError(stderr, "--robots needs -o DIR (the bag directory to create)")
		}
		specs, rerr := scenario.RobotsOf(*robots)
		if rerr != nil {
			return usageError(stderr, rerr.Error())
		}
		for i := range specs {
			if *sample {
				specs[i] = specs[i].Sample()
			}
			if *seconds > 0 {
				specs[i].Duration = *seconds
			}
			specs[i].Sensors = *sensors
		}
		err = writeRobots(stdout, *out, specs, opts)
	case *samples != "":
		err = scenario.WriteSamples(*samples)
		if err == nil {
			fmt.Fprintf(stdout, "wrote %d sample bags under %s\n", len(scenario.Samples())+len(scenario.RobotsSamples()), *samples)
		}
	case *large || *huge:
		factor := 1
		if *huge {
			factor = 10
		}
		dir := *out
		if dir == "" {
			dir = bench.CacheDir()
		}
		// Shared with the Go benchmarks: bags already there (and made by
		// this generator version) are reused.
		var bags []bench.Bag
		bags, err = bench.EnsureBags(dir, factor)
		for _, b := range bags {
			fmt.Fprintf(stdout, "%s\t%s\t%d bytes\n", b.Name, b.File, b.Size)
		}
	case *sensorBench:
		dir := *out
		if dir == "" {
			dir = bench.CacheDir()
		}
		d := bench.DefaultSensorDuration
		if *seconds > 0 {
			d = *seconds
		}
		var bags []bench.Bag
		bags, err = bench.EnsureSensorBags(dir, d)
		for _, b := range bags {
			fmt.Fprintf(stdout, "%s\t%s\t%d bytes\n", b.Name, b.File, b.Size)
		}
	case *all:
		if *out == "" {
			return usageError(stderr, "--all needs -o DIR")
		}
		var list []scenario.Sample
		for _, name := range append(scenario.Names(), scenario.Demo) {
			spec, _ := scenario.Get(name)
			if *sample {
				spec = spec.Sample()
			}
			for _, st := range []string{bagwrite.StorageMCAP, bagwrite.StorageSQLite3} {
				o := opts
				o.Storage = st
				if st == bagwrite.StorageSQLite3 {
					o.ChunkCompression, o.NoChunking, o.NoSummary = "", false, false
				}
				list = append(list, scenario.Sample{Dir: filepath.Join(st, name), Spec: spec, Opts: o})
			}
		}
		err = writeAll(stdout, *out, list)
	default:
		if *out == "" {
			return usageError(stderr, "--case needs -o DIR (the bag directory to create)")
		}
		spec, gerr := scenario.Get(*caseName)
		if gerr != nil {
			return usageError(stderr, gerr.Error())
		}
		if *sample {
			spec = spec.Sample()
		}
		if *seconds > 0 {
			spec.Duration = *seconds
		}
		spec.Sensors, spec.Namespace, spec.NoSlash = *sensors, *namespace, *noSlash
		n, nerr := nf.noise(fs, spec.Duration)
		if nerr != nil {
			return usageError(stderr, nerr.Error())
		}
		spec.Noise = n
		err = writeOne(stdout, *out, spec, opts)
	}
	if err != nil {
		fmt.Fprintf(stderr, "baggen: %v\n", err)
		return 1
	}
	return 0
}

func usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "baggen: %s\n", msg)
	return 2
}

func writeAll(stdout io.Writer, root string, list []scenario.Sample) error {
	for _, s := range list {
		dir := filepath.Join(root, s.Dir)
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		if err := writeOne(stdout, dir, s.Spec, s.Opts); err != nil {
			return err
		}
	}
	return nil
}

func writeOne(stdout io.Writer, dir string, spec scenario.Spec, opts bagwrite.Options) error {
	start := time.Now()
	if _, err := scenario.Write(dir, spec, opts); err != nil {
		return err
	}
	var size int64
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			size += info.Size()
		}
		return nil
	})
	tr := spec.Truth()
	noise := ""
	if spec.Noise != nil {
		noise = fmt.Sprintf(", noise %v", *spec.Noise)
	}
	fmt.Fprintf(stdout, "%s: %s, %.1f MB, %d scans, class %s, %d backward jumps, %d zero-stamp scans%s (%.1fs)\n",
		dir, spec.Name, float64(size)/1e6, tr.Scans, tr.Class, tr.BackwardJumps, tr.ZeroStampScans, noise, time.Since(start).Seconds())
	return nil
}

// writeRobots writes a multi-robot bag and says per robot what it holds.
func writeRobots(stdout io.Writer, dir string, specs []scenario.Spec, opts bagwrite.Options) error {
	if _, err := scenario.WriteMulti(dir, specs, opts); err != nil {
		return err
	}
	for _, s := range specs {
		tr := s.Truth()
		fmt.Fprintf(stdout, "%s: %s laser %s tf %s, %d scans, class %s\n",
			dir, s.Namespace, s.Laser.Clock, s.TF.Clock, tr.Scans, tr.Class)
	}
	return nil
}

func listCases(w io.Writer) {
	names := append(append(append(append(scenario.Names(), scenario.TreeNames()...), scenario.Demo, scenario.Large), scenario.VerdictNames()...), scenario.SyncNames()...)
	for _, name := range names {
		s, _ := scenario.Get(name)
		tr := s.Truth()
		clock := "no /clock"
		if s.ClockHz > 0 {
			clock = fmt.Sprintf("/clock %g Hz", s.ClockHz)
		}
		if s.ClockNotRecorded {
			clock = "/clock not recorded"
		}
		tree := ""
		if len(tr.TFFindings) > 0 {
			tree = fmt.Sprintf("; tf tree: %s", strings.Join(tr.TFFindings, ", "))
		}
		if about := scenario.SyncAbout(name); about != "" {
			tree += "; camera: " + about
		}
		fmt.Fprintf(w, "%-20s laser %-6s tf %-6s %s, %s; expect %s, %d backward jumps, %d zero-stamp scans%s\n",
			name, s.Laser.Clock, s.TF.Clock, s.Duration, clock, tr.Class, tr.BackwardJumps, tr.ZeroStampScans, tree)
	}
	fmt.Fprintln(w, "time cases (--time-case):")
	for _, c := range scenario.TimeCases() {
		fmt.Fprintf(w, "  %s\n", c.Name)
	}
}
