// Command bagclock finds clock and transform-timing faults in ROS 2 bags.
//
// Subcommands register themselves in init functions (one file each); main
// only dispatches and owns the single os.Exit.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/spf13/pflag"

	// First of the project's packages to initialise: the heap that the
	// initialisers after it allocate from asks for huge pages.
	_ "github.com/bagclock/bagclock/internal/hugeheap"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// Exit codes, documented in README.md.
const (
	exitOK       = 0 // ran, and nothing named by --fail-on was found
	exitFindings = 1 // ran, and --fail-on findings were found
	exitUsage    = 2 // bad flags or arguments
	exitFailure  = 3 // could not do the job (unreadable bag, I/O error)
)

// helpWidth is the widest line --help prints: an 80-column terminal.
const helpWidth = 80

// command is one subcommand.
type command struct {
	name  string
	usage string // e.g. "info [--json] BAG"
	short string // one line for the command list
	long  string // paragraphs for --help
	// setup registers flags on fs and returns the function that runs the
	// command with the remaining arguments.
	setup func(fs *pflag.FlagSet) func(env *env, args []string) int
}

// env carries the process's streams so commands can be tested with buffers.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	// isTerminal reports whether stderr is a terminal (progress bars).
	isTerminal bool
	// ctx is cancelled by Ctrl-C or SIGTERM (nil: never).
	ctx context.Context
	// graceful is set by a command that stops on its own within a second
	// of ctx's cancellation and writes what it finished (see watchSignals).
	graceful atomic.Bool
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() {
	e := &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin, isTerminal: stderrIsTerminal()}
	ctx, stop := watchSignals(e, os.Stderr)
	e.ctx = ctx
	code := run(os.Args[1:], e)
	stop()
	cleanupScratch()
	os.Exit(code)
}

func stderrIsTerminal() bool {
	fi, err := os.Stderr.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func run(args []string, e *env) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		if len(args) > 1 && args[1] == "man" {
			writeMan(e.stdout)
			return exitOK
		}
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				fs := newFlagSet(c, e)
				c.setup(fs)
				fs.Usage()
				return exitOK
			}
		}
		usage(e.stdout)
		return exitOK
	case "--version", "version":
		fmt.Fprintf(e.stdout, "bagclock %s\n", version)
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "bagclock: unknown command %q\n\n", args[0])
		usage(e.stderr)
		return exitUsage
	}
	fs := newFlagSet(c, e)
	runFn := c.setup(fs)
	if err := fs.Parse(args[1:]); err != nil {
		if err == pflag.ErrHelp {
			return exitOK
		}
		fmt.Fprintf(e.stderr, "bagclock %s: %v\nRun 'bagclock %s --help' for usage.\n", c.name, err, c.name)
		return exitUsage
	}
	return runFn(e, fs.Args())
}

func newFlagSet(c *command, e *env) *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.SortFlags = false
	fs.Usage = func() {
		w := e.stdout
		fmt.Fprintf(w, "Usage: bagclock %s\n\n%s\n", c.usage, wrapText(strings.TrimSpace(c.long), helpWidth))
		if fs.HasFlags() {
			fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsagesWrapped(helpWidth))
		}
	}
	return fs
}

// wrapText fits help text into width columns: paragraphs (runs of lines
// that start in column 0) are refilled; an indented line that is too long
// (a table row, an example) wraps under its own indentation plus four.
// Text that fits is left exactly as written.
func wrapText(s string, width int) string {
	var out []string
	var para []string
	flush := func() {
		long := false
		for _, l := range para {
			long = long || utf8.RuneCountInString(l) > width
		}
		if long {
			out = append(out, fill(strings.Join(para, " "), "", "", width)...)
		} else {
			out = append(out, para...)
		}
		para = nil
	}
	for _, line := range strings.Split(s, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case trimmed == "":
			flush()
			out = append(out, "")
		case len(trimmed) == len(line):
			para = append(para, line)
		case utf8.RuneCountInString(line) <= width:
			flush()
			out = append(out, line)
		default:
			// Cut at the last space that fits, keeping the line's own
			// spacing (table columns) in the part that stays.
			flush()
			indent := line[:len(line)-len(trimmed)]
			r := []rune(line)
			for len(r) > width {
				cut := strings.LastIndex(string(r[:width+1]), " ")
				if cut <= len(indent) {
					break
				}
				out = append(out, strings.TrimRight(string(r)[:cut], " "))
				r = []rune(indent + "    " + strings.TrimLeft(string(r)[cut:], " "))
			}
			out = append(out, string(r))
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// fill breaks words into lines of at most width columns (a single longer
// word keeps its own line).
func fill(text, first, rest string, width int) []string {
	var lines []string
	cur := first
	empty := true
	for _, word := range strings.Fields(text) {
		if !empty && utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) > width {
			lines = append(lines, cur)
			cur, empty = rest, true
		}
		if !empty {
			cur += " "
		}
		cur += word
		empty = false
	}
	return append(lines, cur)
}

func usage(w io.Writer) {
	fmt.Fprintf(w, `bagclock finds clock and transform-timing faults in ROS 2 bags (rosbag2).

Usage: bagclock <command> [flags] [arguments]

Commands:
`)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprint(w, wrapText(fmt.Sprintf("  %-10s %s", n, commands[n].short), helpWidth)+"\n")
	}
	fmt.Fprintf(w, `
Run 'bagclock <command> --help' for a command's flags and examples, and
'bagclock help man' for all of it as a manual page.
Exit codes: 0 ok, 1 findings named by --fail-on, 2 usage error, 3 failure.
`)
}
