package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// mdLink is a relative Markdown link target: [text](target) with no scheme.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// mdHeading is an ATX heading line.
var mdHeading = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)

// headingAnchor is the anchor GitHub gives a heading: lower case, every
// character but letters, digits, '-', '_' and spaces dropped, spaces made '-'.
func headingAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchorsOf lists the heading anchors of a Markdown file; a repeated heading
// gets GitHub's -1, -2, ... suffixes.
func anchorsOf(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range mdHeading.FindAllStringSubmatch(text, -1) {
		a := headingAnchor(m[1])
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestDocsLinks: every relative link in README.md, DEVELOPERS.md, docs/ and
// render/ names a file that exists, and every #anchor a heading of its
// target, so moving or renaming a section breaks the test, not the reader.
func TestDocsLinks(t *testing.T) {
	files := append(docFiles(t), "../../README.md", "../../DEVELOPERS.md")
	more, _ := filepath.Glob("../../render/*.md")
	files = append(files, more...)
	texts := map[string]string{}
	read := func(p string) (string, bool) {
		if s, ok := texts[p]; ok {
			return s, true
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return "", false
		}
		texts[p] = string(data)
		return texts[p], true
	}
	checked := 0
	for _, f := range files {
		text, ok := read(f)
		if !ok {
			t.Fatalf("cannot read %s", f)
		}
		// Links inside fenced code are examples, not links.
		var prose strings.Builder
		fenced := false
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				fenced = !fenced
				continue
			}
			if !fenced {
				prose.WriteString(line + "\n")
			}
		}
		for _, m := range mdLink.FindAllStringSubmatch(prose.String(), -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(link, "#")
			target := f
			if path != "" {
				target = filepath.Join(filepath.Dir(f), path)
			}
			checked++
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links to %s: no such file", f, link)
				continue
			}
			if anchor == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			body, _ := read(target)
			if !anchorsOf(body)[anchor] {
				t.Errorf("%s links to %s: %s has no heading with anchor #%s", f, link, target, anchor)
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d relative links found in %d files: is the link pattern still right?", checked, len(files))
	}
}

func TestHeadingAnchor(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Row classes", "row-classes"},
		{"`bagclock analyze`: which node is on the wrong clock", "bagclock-analyze-which-node-is-on-the-wrong-clock"},
		{"Exit codes", "exit-codes"},
		{"JSON (schema_version 5)", "json-schema_version-5"},
	} {
		if got := headingAnchor(c.in); got != c.want {
			t.Errorf("headingAnchor(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if a := anchorsOf("# A\n## A\n"); !a["a"] || !a["a-1"] {
		t.Errorf("repeated heading anchors: %v", a)
	}
}
