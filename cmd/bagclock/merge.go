package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/bagclock/bagclock/analysis/archive"
)

func init() {
	register(&command{
		name:  "merge",
		usage: "merge --out DIR SCAN_OUT...",
		short: "join the outputs of sharded scans into one index",
		long: `Merge reads index.jsonl from each SCAN_OUT (the --out directories of
'bagclock scan --shard I/N' runs), copies their per-bag reports into --out
and writes one index.html, index.csv and index.jsonl there, identical to
what a single unsharded scan would have written. --out may be one of the
SCAN_OUT directories.

Exit codes: 0 ok; 1 a bag had findings named by --fail-on; 3 a bag could not
be analysed, or an input or output could not be read or written.`,
		setup: setupMerge,
	})
}

func setupMerge(fs *pflag.FlagSet) func(*env, []string) int {
	out := fs.StringP("out", "o", "", "output directory for the merged index (required; --output is the same flag)")
	alias(fs, "output", "out")
	var failOn []string
	fs.StringSliceVar(&failOn, "fail-on", nil, "exit 1 when any bag had any of these: "+strings.Join(failOnKinds, ", ")+" (comma-separated)")
	return func(e *env, args []string) int {
		if *out == "" || len(args) == 0 {
			fmt.Fprintf(e.stderr, "bagclock merge: need --out DIR and at least one SCAN_OUT\nRun 'bagclock merge --help' for usage.\n")
			return exitUsage
		}
		for _, k := range failOn {
			if !contains(failOnKinds, k) {
				fmt.Fprintf(e.stderr, "bagclock merge: --fail-on %q: unknown category\n", k)
				return exitUsage
			}
		}
		return runMerge(e, *out, args, failOn)
	}
}

func runMerge(e *env, out string, inputs []string, failOn []string) int {
	logf := func(format string, args ...any) { fmt.Fprintf(e.stderr, "bagclock merge: "+format+"\n", args...) }
	if err := os.MkdirAll(filepath.Join(out, "reports"), 0o755); err != nil {
		logf("%v", err)
		return exitFailure
	}
	var sets [][]archive.Row
	failed := false
	for _, in := range inputs {
		latest, err := readIndexFile(filepath.Join(in, "index.jsonl"), logf)
		if err == nil && len(latest) == 0 {
			err = fmt.Errorf("%s: no index.jsonl rows", in)
		}
		if err != nil {
			logf("%v", err)
			failed = true
			sets = append(sets, nil)
			continue
		}
		rows := make([]archive.Row, 0, len(latest))
		for _, r := range latest {
			rows = append(rows, r)
		}
		archive.SortRows(rows)
		sets = append(sets, rows)
	}
	rows, conflicts := archive.Merge(sets...)
	for _, c := range conflicts {
		logf("%s is in several inputs with different rows; kept the one from %s", c.Path, inputs[c.Chosen])
	}
	// Copy each kept row's reports from the input it came from.
	from := map[string]int{}
	for i := len(sets) - 1; i >= 0; i-- {
		for _, r := range sets[i] {
			from[r.Path] = i
		}
	}
	for _, c := range conflicts {
		from[c.Path] = c.Chosen
	}
	for _, r := range rows {
		src := inputs[from[r.Path]]
		for _, rel := range []string{r.ReportHTML, r.ReportJSON} {
			if rel == "" {
				continue
			}
			if err := copyReport(filepath.Join(src, filepath.FromSlash(rel)), filepath.Join(out, filepath.FromSlash(rel))); err != nil {
				logf("%v", err)
				failed = true
			}
		}
	}
	written, err := writeIndex(out, rows, indexPage("bagclock index merged from "+strings.Join(inputs, ", "), nil))
	if err != nil {
		logf("%v", err)
		failed = true
	}
	t := archive.Summarize(rows)
	findings := 0
	for _, r := range rows {
		if len(failOn) > 0 && r.HasFinding(failOn) {
			findings++
		}
	}
	notAnalysed := ""
	if t.NotAnalysed > 0 {
		notAnalysed = fmt.Sprintf(", %d not analysed (an interrupted scan; rerun it and merge again)", t.NotAnalysed)
	}
	fmt.Fprintf(e.stderr, "bagclock merge: %d inputs, %d bags: %d ok, %d damaged, %d errors%s, %d with findings; %d conflicts; %s\n",
		len(inputs), t.Bags, t.OK, t.Damaged, t.Errors, notAnalysed, t.WithFindings, len(conflicts), written)
	switch {
	case failed || t.Errors > 0:
		return exitFailure
	case findings > 0:
		return exitFindings
	}
	return exitOK
}

// copyReport copies one report file unless src and dst are the same file.
func copyReport(src, dst string) error {
	if si, err := os.Stat(src); err == nil {
		if di, err := os.Stat(dst); err == nil && os.SameFile(si, di) {
			return nil
		}
	}
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("copy report: %w", err)
	}
	defer in.Close()
	return writeFileAtomic(dst, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		if err != nil {
			return errors.Join(fmt.Errorf("copy %s", src), err)
		}
		return nil
	})
}
