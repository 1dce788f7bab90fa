package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
)

// writeMan prints the manual page bagclock(1) in roff: the command list and
// every command's --help, so the page cannot say other than the help does
// (`bagclock help man > /usr/local/share/man/man1/bagclock.1` installs it).
func writeMan(w io.Writer) {
	var b strings.Builder
	b.WriteString(".TH BAGCLOCK 1 \"\" \"bagclock " + manEscape(version) + "\" \"User Commands\"\n")
	b.WriteString(".SH NAME\nbagclock \\- find clock and transform-timing faults in ROS 2 bags\n")
	b.WriteString(".SH SYNOPSIS\n.B bagclock\n.I command\n[flags] [arguments]\n")
	b.WriteString(".SH DESCRIPTION\n")
	var list bytes.Buffer
	usage(&list)
	manVerbatim(&b, list.String())
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	b.WriteString(".SH COMMANDS\n")
	for _, n := range names {
		c := commands[n]
		var out bytes.Buffer
		e := &env{stdout: &out, stderr: io.Discard, stdin: strings.NewReader("")}
		fs := newFlagSet(c, e)
		c.setup(fs)
		fs.Usage()
		fmt.Fprintf(&b, ".SS %s\n", manEscape("bagclock "+n))
		manVerbatim(&b, out.String())
	}
	b.WriteString(".SH EXIT STATUS\n")
	manVerbatim(&b, "0 the command ran; nothing named by --fail-on was found\n"+
		"1 the command ran and found something named by --fail-on\n"+
		"2 usage error: unknown command or flag, missing argument, bad value\n"+
		"3 failure: a bag or an output could not be read or written\n")
	b.WriteString(".SH SEE ALSO\nREADME.md and docs/ in the bagclock source tree.\n")
	io.WriteString(w, b.String())
}

// manVerbatim writes text as a no-fill block, each line kept as printed.
func manVerbatim(b *strings.Builder, text string) {
	b.WriteString(".nf\n")
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString(manEscape(line) + "\n")
	}
	b.WriteString(".fi\n")
}

// manEscape keeps roff from reading text as requests or escapes: a
// backslash is \e, and a line starting with . or ' gets a zero-width \&.
func manEscape(s string) string {
	s = strings.ReplaceAll(s, "\\", "\\e")
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = "\\&" + s
	}
	return s
}
