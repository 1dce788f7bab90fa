package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/bagread"
	"github.com/bagclock/bagclock/cdr"
	"github.com/bagclock/bagclock/render"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:  "analyze",
		usage: "analyze [flags] BAG",
		short: "per-scan stamp differences, clock jumps, filter outcomes and a verdict",
		long: `Replays the tf topics and /clock of BAG through a tf2-exact transform buffer and,
for every sensor message (LaserScan, PointCloud2, Image, Imu, Range, Odometry, ...; --topic
picks any stamped topic) and target frame, reports its stamp minus the latest stamp of
the dynamic transforms on its path, the clock class, and what tf2_ros::MessageFilter
in the chosen consumer (RViz, slam_toolbox, Nav2; per message type) would have done with it. Across the
bag it reports /clock jumps and stalls, time-zero scans and what they cost, stamp skew
per topic and tf link, the tf tree, recorded /rosout drop lines, and a verdict.

How to read diff_s (scan stamp − latest dynamic tf stamp on the path):
  a few ms          same clock: look at the tf tree and frame names instead
  about +1.79e9 s   the laser driver is on system time (filter drops: queue full)
  about −1.79e9 s   a tf publisher is on system time (drops: earlier than the cache)
  stamp 0           the laser never got /clock (tf2 pairs it with the latest pose)
  seconds apart     two machines on system time whose clocks drift

Output formats: csv (one row per scan and target; default, to stdout), json (one
object: scans streamed first, then bag, summary and the rest) and html (one
self-contained page for a bug ticket; needs -o). Without --format the -o extension
(.csv, .json, .html) decides; a --format that contradicts it is refused. -o - is
stdout. A file named by -o is written beside it and renamed only when the run
succeeded: a failed run leaves an existing file untouched.

--topic scan (and --scan-topic scan) means /scan; a topic the bag lacks (or without a header) and a
--target-frame no transform uses are usage errors that list what the bag has.

Examples:
  bagclock analyze testdata/samples/demo -o report.html
  bagclock analyze run_0.mcap --target-frame map --consumer nav2 --format json -o r.json
  bagclock analyze BAG --fail-on drop,clock-mismatch,jump > /dev/null   # CI gate

Exit codes: 0 ok (or nothing named by --fail-on found), 1 --fail-on findings,
2 usage error, 3 the bag could not be analysed.`,
		setup: func(fs *pflag.FlagSet) func(*env, []string) int {
			format := fs.String("format", "csv", "output format: csv, json or html (default: from the -o extension, else csv)")
			out := fs.StringP("output", "o", "", "write to this file (written beside it and renamed when complete; '-' is stdout; required for html; --out is the same flag)")
			alias(fs, "out", "output")
			nodesCSV := fs.String("nodes-csv", "", "also write the nodes-and-clocks table (use_sim_time per node) as CSV to this file")
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
				return runAnalyze(e, args[0], cfg, f, *out, *nodesCSV, flags.failOn)
			}
		},
	})
}

func runAnalyze(e *env, path string, cfg analysis.Config, format, out, nodesCSV string, failOn []string) int {
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
	if err == nil && nodesCSV != "" {
		err = writeNodesCSV(nodesCSV, rep)
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

// writeNodesCSV writes the node table beside the report, atomically.
func writeNodesCSV(path string, rep *analysis.Report) error {
	if path == "-" {
		return errors.New("--nodes-csv needs a file name, not '-'")
	}
	f, err := createAtomic(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := render.NodesCSV(f, rep); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}
