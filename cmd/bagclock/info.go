package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/bagclock/bagclock/analysis/inventory"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:  "info",
		usage: "info [--wide] [--format text|json] BAG",
		short: "what a bag holds: files, topics, rates, stamp ranges, recovery",
		long: `Prints everything 'ros2 bag info' prints (files, size, storage, duration, start,
end, per-topic type, count, serialization format, QoS) plus what it lacks: per-topic
rate, the record-time range of every topic, the header-stamp range and frame ids of
every stamped topic (any type whose first field is std_msgs/Header: known types, or
the bag's own definition says so) and of TFMessage and Clock topics, the /clock range, how much of a crashed bag was recovered, and the
number of undecodable messages per topic.

BAG is a bag directory (with or without metadata.yaml), or a single .db3, .mcap,
.db3.zstd or .mcap.zstd file. The bag is never modified.

The default layout fits 100 columns: sizes in KiB/MiB/GiB, the duration
with hours and minutes, rates in Hz between a topic's first and last record
time, record times as seconds after the bag's start. --wide prints one table
with every column and exact stamps; --format json (or --json) prints one
object with sizes in bytes and times in nanoseconds.

Stamps print as seconds with 9 decimals (never tf2_echo's unpadded
sec.nanosec).

Examples:
  bagclock info testdata/samples/demo
  bagclock info --wide testdata/samples/demo
  bagclock info --format json run_0.mcap | jq '.topics[] | {name, count}'`,
		setup: func(fs *pflag.FlagSet) func(*env, []string) int {
			format := fs.String("format", "text", "output format: text or json")
			asJSON := fs.Bool("json", false, "print one JSON object (same as --format json)")
			wide := fs.Bool("wide", false, "text in one wide table with every column and exact stamps")
			budgetFlag(fs)
			return func(e *env, args []string) int {
				if len(args) != 1 {
					fmt.Fprintln(e.stderr, "bagclock info: need exactly one BAG argument (see --help)")
					return exitUsage
				}
				if *format != "text" && *format != "json" {
					fmt.Fprintf(e.stderr, "bagclock info: --format %q: want text or json\n", *format)
					return exitUsage
				}
				if *asJSON && fs.Changed("format") && *format != "json" {
					fmt.Fprintf(e.stderr, "bagclock info: --json contradicts --format %s\n", *format)
					return exitUsage
				}
				mode := "text"
				switch {
				case *asJSON || *format == "json":
					mode = "json"
				case *wide:
					mode = "wide"
				}
				return runInfo(e, args[0], mode)
			}
		},
	})
}

func runInfo(e *env, path string, mode string) int {
	bag, err := openBag(path, bagOptions())
	if err != nil {
		fmt.Fprintf(e.stderr, "bagclock info: %v\n", err)
		whatToDo(e.stderr, "info", path, err)
		return exitFailure
	}
	defer bag.Close()
	rep, err := inventory.Build(bag)
	if rep == nil {
		fmt.Fprintf(e.stderr, "bagclock info: %v\n", err)
		return exitFailure
	}
	switch mode {
	case "json":
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if werr := enc.Encode(rep); werr != nil {
			fmt.Fprintf(e.stderr, "bagclock info: %v\n", werr)
			return exitFailure
		}
	case "wide":
		printInfoWide(e.stdout, rep)
	default:
		printInfo(e.stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "bagclock info: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// seconds formats nanoseconds as seconds with 9 decimals, sign-correct.
func seconds(ns int64) string {
	sign := ""
	u := uint64(ns)
	if ns < 0 {
		sign = "-"
		u = uint64(-ns)
	}
	return fmt.Sprintf("%s%d.%09d", sign, u/1e9, u%1e9)
}

// stampText adds a UTC date to plausible wall-clock stamps only: sim time
// near zero is not a date.
func stampText(ns int64) string {
	const year2000 = 946684800 * int64(time.Second)
	if ns >= year2000 && ns < 1<<62 {
		return fmt.Sprintf("%s s (%s)", seconds(ns), time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05.000 UTC"))
	}
	return seconds(ns) + " s"
}

func rangeText(r inventory.Range) string {
	if !r.Valid {
		return "-"
	}
	return seconds(r.MinNS) + " .. " + seconds(r.MaxNS)
}

// printInfoWide writes the full `info --wide` layout: one table with every
// column, exact stamps and sizes in bytes.
func printInfoWide(w io.Writer, r *inventory.Report) {
	fmt.Fprintf(w, "Bag:               %s\n", r.Path)
	fmt.Fprintf(w, "Storage id:        %s\n", r.Storage)
	if r.MetadataVersion > 0 {
		fmt.Fprintf(w, "Metadata version:  %d", r.MetadataVersion)
		if r.ROSDistro != "" {
			fmt.Fprintf(w, " (ros_distro %s)", r.ROSDistro)
		}
		fmt.Fprintln(w)
	}
	if r.MetadataReconstructed {
		fmt.Fprintf(w, "Metadata:          reconstructed from storage (%s)\n", r.MetadataProblem)
	}
	if r.CompressionFormat != "" || r.CompressionMode != "" {
		fmt.Fprintf(w, "Compression:       %s %s\n", r.CompressionFormat, r.CompressionMode)
	}
	fmt.Fprintf(w, "Files:             ")
	for i, f := range r.Files {
		if i > 0 {
			fmt.Fprintf(w, "                   ")
		}
		fmt.Fprintf(w, "%s (%d bytes, %d messages)\n", f.Path, f.Size, f.MessageCount)
	}
	if len(r.Files) == 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Bag size:          %d bytes\n", r.SizeBytes)
	fmt.Fprintf(w, "Messages:          %d\n", r.Messages)
	if r.Messages == 0 {
		fmt.Fprintf(w, "Duration:          0.000000000 s (empty bag)\n")
	} else {
		fmt.Fprintf(w, "Duration:          %s s\n", seconds(r.DurationNS))
		fmt.Fprintf(w, "Start:             %s\n", stampText(r.StartNS))
		fmt.Fprintf(w, "End:               %s\n", stampText(r.EndNS))
	}
	if r.Clock.Valid {
		fmt.Fprintf(w, "/clock range:      %s s\n", rangeText(r.Clock))
	}
	for _, rec := range r.Recovery {
		fmt.Fprintf(w, "Recovered:         %s\n", rec)
	}
	if r.Undecodable > 0 {
		fmt.Fprintf(w, "Undecodable:       %d messages (see per topic)\n", r.Undecodable)
	}
	fmt.Fprintf(w, "\nTopics (%d):\n", len(r.Topics))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  NAME\tTYPE\tCOUNT\tRATE (Hz)\tFORMAT\tRECORD TIME (s)\tHEADER STAMP (s)\tUNDECODABLE")
	for _, t := range r.Topics {
		rate := fmt.Sprintf("%.2f", t.RateHz)
		if t.RateApprox {
			rate = "~" + rate
		}
		rec, hdr := rangeText(t.RecordTime), "-"
		if t.Decoded {
			hdr = rangeText(t.HeaderStamp)
			if t.ZeroStamps > 0 {
				hdr += fmt.Sprintf(" (%d zero)", t.ZeroStamps)
			}
		}
		count := fmt.Sprintf("%d", t.Count)
		if t.MetadataCount >= 0 && uint64(t.MetadataCount) != t.Count {
			count += fmt.Sprintf(" (metadata says %d)", t.MetadataCount)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", t.Name, t.Type, count, rate, t.SerializationFormat, rec, hdr, t.Undecodable)
	}
	tw.Flush()
	for _, t := range r.Topics {
		if len(t.QoS) > 0 {
			fmt.Fprintf(w, "  QoS %s: %s\n", t.Name, qosText(t))
		}
	}
	for _, t := range r.Topics {
		switch {
		case t.Stamped && len(t.Frames) > 0:
			fmt.Fprintf(w, "  frames %s: %s\n", t.Name, framesText(t.Frames))
		case isTF(t) && len(t.Frames) > 0:
			fmt.Fprintf(w, "  links %s: %s\n", t.Name, framesText(t.Frames))
			if t.MixedClocks {
				fmt.Fprintf(w, "  %s\n", linkStampsText(t))
			}
		case t.Role == "not_analysed":
			fmt.Fprintf(w, "  not analysed %s: %s\n", t.Name, t.StampReason)
		}
	}
	for _, t := range r.Topics {
		if t.FirstError != "" {
			fmt.Fprintf(w, "  first error on %s: %s\n", t.Name, t.FirstError)
		}
	}
}
