package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/internal/hugeheap"
	"github.com/bagclock/bagclock/render"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:  "analyze",
		usage: "analyze [flags] BAG",
		short: "per-scan stamp differences, clock jumps, filter outcomes and a verdict",
		long: `Replays the tf topics and /clock of BAG through a tf2-exact transform buffer
and, for every sensor message (LaserScan, PointCloud2, Image, Imu, Range,
Odometry, ...; --topic picks any stamped topic) and target frame, reports its
stamp minus the latest stamp of the dynamic transforms on its path (diff_s),
its clock class, and what tf2_ros::MessageFilter in the chosen consumer (RViz,
slam_toolbox, Nav2; per message type) would have done with it. Across the bag
it reports /clock jumps and stalls, zero stamps, skew and age per topic and tf
link, the tf tree, the nodes and their use_sim_time, and a verdict: one
headline, its evidence, and commands that confirm it on the robot.

Target frame: odom by default; the root of the tree (map) when the topic is
in odom already with a dynamic link above it, or when the bag has no odom
(the report says so). --target-frame is never overridden.

The headline (JSON verdict.class), what it means, what to do:
  damage (leads any headline)  the bag is cut, split files are missing or
      messages were skipped: only what was read is judged
  laser_on_system_clock  diff about +1.79e9 s: a driver ignores
      use_sim_time; set use_sim_time:=true on the node the verdict names
  tf_on_system_clock  diff about -1.79e9 s: a tf publisher
      (robot_state_publisher, odometry) is on system time; the same fix
  sensor_on_system_clock  stamps on system time while /clock runs sim
      time, on a path tf cannot judge (static links only, or none): the
      driver ignores use_sim_time; the same fix
  zero_stamp  stamps 0: a sim-time driver published before /clock (or no
      /clock at all); start /clock first, check QoS and ROS_DOMAIN_ID
  clock_skew  seconds apart on one clock: two machines out of sync; run
      chronyc tracking on both
  missing_link  the frame never connects to the target in the bag's tf: a
      missing static transform or URDF link, not a clock problem
      (no_transform: not connected when the messages came)
  frame_not_in_tree, no_tf, empty_frame_id  the bag lacks what a consumer
      needs (a transform naming the frame, any tf, a frame_id); record it
  target_not_in_tree, target_is_frame, static_only  the target frame
      shows nothing here; choose another with --target-frame
  clock_jump_back  /clock went back (simulator reset, looping bag): every
      sim-time node clears its tf buffer; expected when you reset or loop
  same_clock_drops  one clock, yet messages dropped: check the stalest link
      the headline names, the frame names and the queue size
  time, tf_tree:KIND  a time or tf-tree finding leads (stale data, a wall
      timer under sim time, a clock step, a stale or conflicting link, a
      tree offset from the recorder): the headline names the fix
  sync  a message_filters synchronizer over the bag's cameras (or --sync)
      never fires: the headline says why (see Synchronizers below)
  empty_topic, no_sensor_messages  nothing to check per message
  no_problem  one clock, nothing dropped: not a clock fault

Start-up is not a fault: a message stamped before the first transform on
its path, or dropped within one cache time (10 s) of sim time after /clock
jumps back while the cleared buffer refills, keeps its filter outcome but
counts as start-up: one evidence line, JSON startup_drops, not a drop.

--fail-on KINDS (comma-separated) makes the exit code 1 when any was found:
  drop            messages the filter dropped, start-up drops excluded
  clock-mismatch  stamps an epoch apart from tf (or seconds apart on a
                  tenth of a topic's messages), a tf link on another clock
  jump            /clock or header stamps jump
  zero-stamp      messages stamped 0
  skew            stamps at a constant offset from record time or tf
  damage          the bag is cut, partial, or messages were skipped
  tf-tree         stale links, stamps going back or repeated, static
                  links published with different values
  wall-timer      a sim-time topic published by a wall timer
  clock-step      the system clock stepped during the recording
  stuck-zero      a topic stamped 0 for its life or until /clock
  stale           messages older than --max-age
  missing-link    a frame never connected to its target. Not part of drop:
                  the bag cannot tell a URDF gap from an unrecorded
                  /tf_static, and no clock or queue fix saves them; name it
                  to gate on it
  sync            a message_filters synchronizer that never fires, or
                  leaves most messages unused

Synchronizers: each image with its camera_info (image_transport's
ExactTime, queue 10) and each camera's depth with its colour image
(depth_image_proc's ApproximateTime, queue 5) are fed the recorded stamps
in record order through an emulation of ROS 2 message_filters; --sync
TOPIC,TOPIC[,...] (repeatable) names your own, with --sync-policy,
--sync-queue and, for ApproximateTime, --sync-max-interval,
--sync-lower-bound and --sync-age-penalty. JSON sync[] has the sets, the
stamp spread in a set, the unused messages, the offsets between the topics
and, when one never fires, why; --sync-csv FILE writes them as CSV. A
--sync topic the bag lacks is a usage error listing the stamped topics.

Output formats: csv (one row per scan and target; default, to stdout), json
(one object: scans streamed first, then bag, summary and the rest) and html
(one self-contained page for a bug ticket; needs -o). Without --format the
-o extension (.csv, .json, .html) decides; a --format that contradicts it is
refused. -o - is stdout. A file named by -o is written beside it and renamed
only when the run succeeded: a failed run leaves an existing file untouched.

--topic scan (and --scan-topic scan) means /scan; a topic the bag lacks (or
without a header) and a --target-frame no transform uses are usage errors
that list what the bag has.

Examples:
  bagclock analyze testdata/samples/demo -o report.html
  bagclock analyze run.mcap --target-frame map --consumer nav2 -o r.json
  bagclock analyze BAG --fail-on drop,clock-mismatch,jump -o /dev/null

Exit codes: 0 ok (or nothing named by --fail-on found), 1 a --fail-on
finding, 2 usage error, 3 the bag could not be analysed (unreadable, or no
message could be read).`,
		setup: func(fs *pflag.FlagSet) func(*env, []string) int {
			format := fs.String("format", "csv", "output format: csv, json or html (default: from the -o extension, else csv)")
			out := fs.StringP("output", "o", "", "write to this file (written beside it and renamed when complete; '-' is stdout; required for html; --out is the same flag)")
			alias(fs, "out", "output")
			nodesCSV := fs.String("nodes-csv", "", "also write the nodes-and-clocks table (use_sim_time per node) as CSV to this file")
			syncCSV := fs.String("sync-csv", "", "also write the emulated synchronizers (one row per synchronizer and topic: sets, unused messages, stamp offsets) as CSV to this file")
			flags := analysisFlags(fs)
			return func(e *env, args []string) int {
				if len(args) != 1 {
					fmt.Fprintln(e.stderr, "bagclock analyze: need exactly one BAG argument (see --help)")
					return exitUsage
				}
				cfg, err := flags.config()
				if err != nil {
					fmt.Fprintf(e.stderr, "bagclock analyze: %v\n", err)
					return exitUsage
				}
				f, err := chooseFormat(*format, fs.Changed("format"), *out)
				if err != nil {
					fmt.Fprintf(e.stderr, "bagclock analyze: %v\n", err)
					return exitUsage
				}
				if f == "html" && *out == "" {
					fmt.Fprintln(e.stderr, "bagclock analyze: --format html needs -o FILE (or -o - for stdout)")
					return exitUsage
				}
				return runAnalyze(e, args[0], cfg, f, *out, sideCSVs{nodes: *nodesCSV, sync: *syncCSV}, flags.failOn)
			}
		},
	})
}

// sideCSVs are the tables analyze writes beside its report ("" = none).
type sideCSVs struct{ nodes, sync string }

func runAnalyze(e *env, path string, cfg analysis.Config, format, out string, side sideCSVs, failOn []string) int {
	// One pass allocates about 10 MiB on the 117 MB benchmark bag: at
	// GOGC 400 (as scan) it is collected once at most, and its pages are
	// huge ones where the kernel gives them only on request (hugeheap.AdviseBlock:
	// 32 MiB of address space, so the pass fits).
	// Together 10-20% of analyze's CPU there; a few MiB of peak RSS.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	hugeheap.AdviseBlock(32 << 20)
	var w io.Writer = e.stdout
	var file *atomicFile
	if out != "" && out != "-" {
		f, err := createAtomic(out)
		if err != nil {
			fmt.Fprintf(e.stderr, "bagclock analyze: %v\n", err)
			return exitFailure
		}
		// Abort is a no-op once committed: any other way out leaves the
		// previous -o file as it was.
		defer f.Abort()
		file = f
		w = f
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	rep, err := writeReport(bw, path, cfg, format)
	if ferr := bw.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(e.stderr, "bagclock analyze: %v\n", ue)
		return exitUsage
	}
	if err == nil && rep != nil && rep.Damage != nil && rep.Damage.Status == analysis.DamageUnreadable {
		// Nothing could be read: a failure, not a clean bill of health
		// (a CI gate must not pass it).
		fmt.Fprintf(e.stderr, "bagclock analyze: %s: %s\n", path, rep.Verdict.Sentence)
		for _, n := range rep.Damage.Notes[1:] {
			fmt.Fprintf(e.stderr, "  %s\n", n)
		}
		return exitFailure
	}
	if err == nil && side.nodes != "" {
		err = writeSideCSV("nodes-csv", side.nodes, rep, render.NodesCSV)
	}
	if err == nil && side.sync != "" {
		err = writeSideCSV("sync-csv", side.sync, rep, render.SyncCSV)
	}
	if err == nil && file != nil {
		err = file.Commit()
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "bagclock analyze: %v\n", err)
		if rep == nil {
			whatToDo(e.stderr, "analyze", path, err)
		}
		return exitFailure
	}
	summarize(e.stderr, path, rep)
	reportFetched(e.stderr, "analyze", path)
	if findingsMatch(rep, failOn) {
		return exitFindings
	}
	return exitOK
}

// checkSelection resolves --scan-topic names and checks --target-frame
// against the bag before anything is analysed or written.
func checkSelection(bag *bagread.Bag, cfg *analysis.Config) error {
	topics, err := resolveTopics(bag, "--scan-topic", cfg.ScanTopics, cdr.TypeLaserScan)
	if err != nil {
		return err
	}
	cfg.ScanTopics = topics
	if cfg.Topics, err = resolveStampedTopics(bag, cfg.Topics); err != nil {
		return err
	}
	if err := resolveSyncTopics(bag, cfg.Sync); err != nil {
		return err
	}
	frames, err := checkFrames(bag, cfg.TargetFrames)
	if err != nil {
		return err
	}
	cfg.TargetFrames = frames
	return nil
}

// writeReport analyses the bag at path and writes it to w in format.
func writeReport(w io.Writer, path string, cfg analysis.Config, format string) (*analysis.Report, error) {
	switch format {
	case "csv":
		cw := render.NewCSV(w)
		rep, err := analyzeBagChecked(path, cfg, checkSelection, cw.Row)
		if err != nil {
			return rep, err
		}
		return rep, cw.Flush()
	case "json":
		// The report's encoders are built beside the pass, not after it.
		go render.WarmJSON()
		jw := render.NewJSON(w)
		rep, err := analyzeBagChecked(path, cfg, checkSelection, jw.Row)
		var ue *usageError
		if errors.As(err, &ue) {
			return nil, err // nothing was analysed: write nothing
		}
		// Close the JSON object even after a failure, so what was written
		// stays valid JSON.
		ferr := jw.Finish(rep)
		if err != nil {
			return rep, err
		}
		return rep, ferr
	default:
		rep, err := analyzeBagChecked(path, cfg, checkSelection)
		if err != nil {
			return rep, err
		}
		return rep, render.HTML(w, rep)
	}
}

// summarize prints the verdict and counts on stderr, so a terminal user sees
// the answer even when the data went to a file or a pipe.
func summarize(w io.Writer, path string, rep *analysis.Report) {
	if rep == nil {
		return
	}
	s := rep.Summary
	fmt.Fprintf(w, "%s: %s\n", path, s.Verdict)
	fmt.Fprintf(w, "  %s analysed, %s; classes: %s; filter: %s; %s; %s stamped 0; %s skipped\n",
		nOf(s.Scans, "message"), nOf(s.Rows, "row"), counts(s.Classes), counts(s.Filter), nOf(rep.Counts.ClockJumps, "clock jump"), nOf(s.ZeroStampScans, "message"), nOf(s.Skipped, "message"))
}

// nOf is "1 message", "2 messages".
func nOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// counts prints a count map as "a 3, b 1", largest first; "none" when
// empty.
func counts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	return render.CountText(m)
}

// writeSideCSV writes one of the tables beside the report (--flag),
// atomically.
func writeSideCSV(flag, path string, rep *analysis.Report, write func(io.Writer, *analysis.Report) error) error {
	if path == "-" {
		return fmt.Errorf("--%s needs a file name, not '-'", flag)
	}
	f, err := createAtomic(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f, rep); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}
