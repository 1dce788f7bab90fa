package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/repair"
	"github.com/bagclock/bagclock/bagcopy"
	"github.com/bagclock/bagclock/bagread"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:  "fix",
		usage: "fix [flags] BAG -o OUT",
		short: "write a repaired copy of a bag whose stamps are on the wrong clock",
		long: `Analyses BAG, plans a repair and writes a copy to the bag directory OUT in
which the header stamps (and tf transform stamps) that were on the wrong clock
are put on the right one. Then it analyses the copy and prints, per sensor
topic and target frame, the clock classes and emulated MessageFilter drops
before and after, and the sets of each emulated message_filters synchronizer.

What it repairs, and how:
  a node on system time in a sim bag (laser_on_system_clock,
      tf_on_system_clock, sensor_on_system_clock): its stamps are mapped to
      sim time through the recorded /clock against record time, piecewise
      linear and split at /clock jumps (loops, resets)
  a machine whose clock is off (clock_skew, stamps ahead of the recorder):
      its stamps get the offset (and drift) of the lower envelope of record
      time minus stamp, so latency is not counted as offset
  stamps of 0 (zero_stamp): a camera_info beside its image (or the image
      beside its camera_info) takes its partner's stamp, frame by frame;
      otherwise the reference clock at record time minus the topic's typical
      latency; marked as synthesized in the plan and in metadata.yaml's
      custom_data

The reference clock is sim time when the bag has /clock and some topic or tf
link follows it, else the recorder's clock; --reference system maps sim-time
stamps back to system time through /clock instead. Static transforms, topics of
types without a header and everything already on the reference clock are left
as they are. Where the bag cannot support a mapping (sim stamps without
/clock, too few samples, every topic offset alike as in a re-recorded bag) the
plan refuses, with the reason: fix never guesses.

The plan: --dry-run prints it and writes nothing; --plan FILE writes it as
JSON (with the input's sha256); --apply FILE uses a plan you edited (say, an
entry's action set to "leave"). A plan for another bag, or for this one
changed since, is refused.

The copy: MCAP by default (chunked, indexed, with statistics and CRCs; chunk
compression as the input's, zstd for a db3), db3 with --storage sqlite3. One
output file per input file. Only the 8 bytes of each repaired stamp change;
every other byte, schemas, channels, metadata records, attachments and
publish times are kept; record times too unless --record-time. Messages are
written in log-time order. metadata.yaml keeps the input's version,
ros_distro and custom_data and adds bagclock.fix.* provenance. The input is
never modified; OUT is written beside itself under a temporary name and
renamed when complete, and must not exist. A damaged input is repaired as far
as it could be read, and fix says so. ROS 1 bags are refused.

A bag with nothing to repair: fix says so, writes nothing, exits 0.

Examples:
  bagclock fix run.mcap --dry-run
  bagclock fix run/ -o run-fixed
  bagclock fix run/ --plan plan.json --dry-run   (edit plan.json, then)
  bagclock fix run/ --apply plan.json -o run-fixed --storage sqlite3

Exit codes: 0 repaired (or nothing to repair), 1 repaired but the copy still
shows a clock mismatch, drop or zero stamp, 2 usage error, 3 failure (the bag
could not be read, the plan does not fit the bag, writing failed; nothing is
left at OUT).`,
		setup: func(fs *pflag.FlagSet) func(*env, []string) int {
			o := &fixOptions{}
			fs.StringVarP(&o.out, "output", "o", "", "the repaired bag's directory (must not exist)")
			alias(fs, "out", "output")
			fs.BoolVar(&o.dryRun, "dry-run", false, "print the plan and write no bag")
			fs.StringVar(&o.planOut, "plan", "", "write the plan as JSON to this file ('-' is stdout)")
			fs.StringVar(&o.apply, "apply", "", "use this plan (JSON from --plan, maybe edited) instead of making one")
			fs.StringVar(&o.storage, "storage", "mcap", "output storage: mcap or sqlite3")
			fs.StringVar(&o.compression, "compression", "", "MCAP chunk compression: zstd, lz4 or none (default: the input's; zstd for db3)")
			fs.BoolVar(&o.recordTime, "record-time", false, "map record times (log times) to the reference clock too (sim time only; refused when /clock jumps back)")
			fs.StringVar(&o.reference, "reference", "auto", "the clock repaired stamps are put on: auto (sim time when the bag has /clock and something follows it, else the recorder's), sim, or system (sim-time stamps mapped back through /clock)")
			fs.StringVar(&o.consumer, "consumer", "rviz", "consumer whose MessageFilter is emulated for the before/after check (as analyze --consumer)")
			fs.BoolVar(&o.quiet, "quiet", false, "no progress bar")
			return func(e *env, args []string) int {
				if len(args) != 1 {
					fmt.Fprintln(e.stderr, "bagclock fix: need exactly one BAG argument (see --help)")
					return exitUsage
				}
				if err := o.check(); err != nil {
					fmt.Fprintf(e.stderr, "bagclock fix: %v\n", err)
					return exitUsage
				}
				return runFix(e, args[0], o)
			}
		},
	})
}

// fixOptions are fix's flags.
type fixOptions struct {
	out, planOut, apply, storage, compression, consumer, reference string
	dryRun, recordTime, quiet                                      bool
}

func (o *fixOptions) check() error {
	if o.storage != bagcopy.StorageMCAP && o.storage != bagcopy.StorageSQLite3 {
		return fmt.Errorf("--storage %q: want mcap or sqlite3", o.storage)
	}
	switch o.reference {
	case "auto", repair.ClockSim, repair.ClockSystem:
	default:
		return fmt.Errorf("--reference %q: want auto, sim or system", o.reference)
	}
	if o.apply != "" && o.reference != "auto" {
		return errors.New("--reference is for a new plan; an --apply plan names its reference clock itself")
	}
	switch o.compression {
	case "", "zstd", "lz4", "none":
	default:
		return fmt.Errorf("--compression %q: want zstd, lz4 or none", o.compression)
	}
	if o.compression != "" && o.storage == bagcopy.StorageSQLite3 {
		return errors.New("--compression is for MCAP output; rosbag2's db3 is written uncompressed")
	}
	if o.out == "" && !o.dryRun && o.planOut == "" {
		return errors.New("need -o OUT (or --dry-run, or --plan FILE to only write the plan)")
	}
	if o.out != "" && !o.dryRun {
		if _, err := os.Lstat(o.out); err == nil {
			return fmt.Errorf("-o %s already exists: fix writes a new bag directory and never overwrites", o.out)
		}
	}
	if o.planOut != "" && o.planOut == o.apply {
		return errors.New("--plan and --apply name the same file")
	}
	return nil
}

// isROS1 reports whether path is (or holds) a ROS 1 bag.
func isROS1(path string) bool {
	files := []string{path}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*.bag"))
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		var magic [13]byte
		n, _ := io.ReadFull(fh, magic[:])
		fh.Close()
		if bytes.HasPrefix(magic[:n], []byte("#ROSBAG V")) {
			return true
		}
	}
	return false
}

func runFix(e *env, path string, o *fixOptions) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "bagclock fix: "+format+"\n", a...)
		return exitFailure
	}
	if isROS1(path) {
		return fail("%s is a ROS 1 bag: fix writes ROS 2 bags only (convert it with rosbags-convert first)", path)
	}
	// The input's sha256 is taken on a second goroutine while the bag is
	// analysed and copied: it is needed only to check an --apply plan and
	// for the plan's hash, written last.
	bag, openErr := bagread.Open(path, bagOptions())
	var hash *bagHash
	if openErr == nil {
		defer bag.Close()
		hash = hashAsync(bag)
		defer hash.wait() // never leave the goroutine reading a closed bag
	}
	cfg := analysis.Config{Consumer: o.consumer}
	before, err := analyzeBag(path, cfg)
	if err != nil {
		code := fail("%v", err)
		whatToDo(e.stderr, "fix", path, err)
		return code
	}
	if before.Damage != nil && before.Damage.Status == analysis.DamageUnreadable {
		return fail("%s: %s", path, before.Verdict.Sentence)
	}
	if openErr != nil {
		return fail("%v", openErr)
	}
	samples, err := repair.Sample(bag)
	if err != nil {
		return fail("%v", err)
	}
	var plan *repair.Plan
	if o.apply != "" {
		f, err := os.Open(o.apply)
		if err != nil {
			return fail("--apply: %v", err)
		}
		plan, err = repair.Load(f)
		f.Close()
		if err != nil {
			return fail("--apply %s: %v", o.apply, err)
		}
		ref, err := hash.wait()
		if err != nil {
			return fail("%v", err)
		}
		if err := plan.CheckBag(ref, samples); err != nil {
			return fail("--apply %s: %s: %v", o.apply, path, err)
		}
	} else {
		want := ""
		if o.reference != "auto" {
			want = o.reference
		}
		plan = repair.BuildFor(before, samples, repair.BagRef{}, version, want)
		if want == repair.ClockSim && plan.Reference != repair.ClockSim {
			return fail("--reference sim: %s has no /clock to map stamps to sim time with", path)
		}
	}
	if o.recordTime {
		if plan.Reference != repair.ClockSim {
			return fail("--record-time: the reference clock is the recorder's, which record times are on already")
		}
		if len(plan.Clock.Segments) > 1 {
			return fail("--record-time: /clock jumps %d times; record times mapped to sim time would go back, and a bag is written in log-time order", len(plan.Clock.Segments)-1)
		}
	}
	if o.planOut != "" || o.dryRun || !plan.Repairs() {
		// The plan is shown or saved: it names the bag by its hash.
		ref, err := hash.wait()
		if err != nil {
			return fail("%v", err)
		}
		plan.Bag = ref
	}
	if o.planOut != "" {
		if err := writePlan(e, o.planOut, plan); err != nil {
			return fail("--plan: %v", err)
		}
	}
	if o.dryRun || (o.out == "" && o.planOut != "") {
		if o.planOut != "-" {
			if err := plan.WriteText(e.stdout); err != nil {
				return fail("%v", err)
			}
		}
		return exitOK
	}
	if !plan.Repairs() {
		if err := plan.WriteText(e.stdout); err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(e.stderr, "%s: nothing to repair; nothing written\n", path)
		return exitOK
	}
	res, err := writeFixed(e, bag, plan, o, hash.wait)
	if err != nil {
		return fail("%v", err)
	}
	after, err := analyzeBag(o.out, cfg)
	if err != nil {
		return fail("re-analysing %s: %v", o.out, err)
	}
	printFixResult(e.stdout, path, o.out, plan, res, before, after)
	if remaining(after) != "" {
		return exitFindings
	}
	return exitOK
}

// bagHash is the input's hash, taken on its own goroutine.
type bagHash struct {
	done chan struct{}
	ref  repair.BagRef
	err  error
}

func hashAsync(bag *bagread.Bag) *bagHash {
	h := &bagHash{done: make(chan struct{})}
	go func() {
		defer close(h.done)
		h.ref, h.err = repair.HashBag(bag)
	}()
	return h
}

// wait returns the hash once it is taken.
func (h *bagHash) wait() (repair.BagRef, error) {
	<-h.done
	return h.ref, h.err
}

// writePlan writes the plan JSON to path, atomically ('-': stdout).
func writePlan(e *env, path string, plan *repair.Plan) error {
	b, err := plan.JSON()
	if err != nil {
		return err
	}
	if path == "-" {
		_, err := e.stdout.Write(b)
		return err
	}
	f, err := createAtomic(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(b); err != nil {
		return err
	}
	return f.Commit()
}

// remaining names the repairable findings the repaired bag still has.
func remaining(rep *analysis.Report) string {
	var left []string
	for _, f := range rep.Summary.Findings {
		switch f {
		case "clock-mismatch", "drop", "zero-stamp":
			left = append(left, f)
		}
	}
	return strings.Join(left, ", ")
}

// printFixResult prints what was changed, then before and after per
// (topic, target) pair.
func printFixResult(w io.Writer, in, out string, plan *repair.Plan, res *fixResult, before, after *analysis.Report) {
	fmt.Fprintf(w, "%s -> %s: %d of %d messages written, %d stamps mapped, %d synthesized\n",
		in, out, res.written, res.read, res.mapped, res.synthesized)
	for i, e := range plan.Entries {
		if e.Action != repair.ActionMap {
			continue
		}
		d := res.counts[i]
		line := fmt.Sprintf("  %s: %d mapped", e.Subject(), d.Mapped)
		if d.Synthesized > 0 {
			line += fmt.Sprintf(", %d synthesized", d.Synthesized)
			if d.Paired > 0 {
				line += fmt.Sprintf(" (%d from %s)", d.Paired, e.Zero.PairedTopic)
			}
		}
		if d.Unmapped > 0 {
			line += fmt.Sprintf(", %d left as they were (the mapping could not reach them)", d.Unmapped)
		}
		fmt.Fprintln(w, line)
	}
	if res.skipped > 0 || plan.Damage != "" {
		fmt.Fprintf(w, "  damaged input: repaired as far as it was read (%s); %d unreadable messages not written\n", orText(plan.Damage, "messages could not be read"), res.skipped)
	}
	if res.undecodable > 0 {
		fmt.Fprintf(w, "  %d messages of repaired topics could not be decoded and were written unchanged\n", res.undecodable)
	}
	type key struct{ topic, target string }
	afterPairs := map[key]analysis.PairSummary{}
	for _, p := range after.Pairs {
		afterPairs[key{p.Topic, p.TargetFrame}] = p
	}
	fmt.Fprintln(w, "Before -> after (classes; emulated MessageFilter drops):")
	for _, b := range before.Pairs {
		a := afterPairs[key{b.Topic, b.TargetFrame}]
		fmt.Fprintf(w, "  %s -> %s: %s; %d dropped  =>  %s; %d dropped\n", b.Topic, b.TargetFrame,
			counts(b.Classes), pairDrops(b), counts(a.Classes), pairDrops(a))
	}
	printSyncBeforeAfter(w, before, after)
	fmt.Fprintf(w, "Before: %s\nAfter:  %s\n", before.Verdict.Sentence, after.Verdict.Sentence)
	if left := remaining(after); left != "" {
		fmt.Fprintf(w, "The repaired bag still has: %s (see bagclock analyze %s)\n", left, out)
	}
}

// printSyncBeforeAfter prints the sets of each emulated message_filters
// synchronizer (analyze's sync check) in the input and in the copy.
func printSyncBeforeAfter(w io.Writer, before, after *analysis.Report) {
	if len(before.Sync) == 0 {
		return
	}
	key := func(s analysis.SyncSummary) string {
		return s.Source + "|" + s.Policy + "|" + strings.Join(s.Topics, ",")
	}
	afterSync := map[string]analysis.SyncSummary{}
	for _, s := range after.Sync {
		afterSync[key(s)] = s
	}
	fmt.Fprintln(w, "Synchronizers (sets emitted; messages never used):")
	for _, b := range before.Sync {
		line := fmt.Sprintf("  %s %s (%s): %d sets; %d unused", b.Policy, strings.Join(b.Topics, " + "), b.Source, b.Sets, sum64(b.Unused))
		if a, ok := afterSync[key(b)]; ok {
			line += fmt.Sprintf("  =>  %d sets; %d unused", a.Sets, sum64(a.Unused))
		} else {
			line += "  =>  not emulated on the copy"
		}
		fmt.Fprintln(w, line)
	}
}

func sum64(v []int64) int64 {
	var n int64
	for _, x := range v {
		n += x
	}
	return n
}

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// pairDrops counts a pair's dropped messages (every dropped_* outcome).
func pairDrops(p analysis.PairSummary) int {
	n := 0
	keys := make([]string, 0, len(p.Filter))
	for k := range p.Filter {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.HasPrefix(k, "dropped") {
			n += p.Filter[k]
		}
	}
	return n
}
