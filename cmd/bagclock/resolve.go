package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/bagread"
)

// usageError is a flag value that does not fit the bag (a topic or frame it
// lacks): exit 2, like any other usage error, and not a failure to read.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// typeIs matches a topic type, also in the pre-Dashing spelling without
// "/msg/".
func typeIs(typ, want string) bool {
	return typ == want || strings.Replace(want, "/msg/", "/", 1) == typ
}

// resolveTopics maps the names given to flag onto the bag's topics: an exact
// name, or the name with a leading slash added ("scan" is "/scan", as ros2
// topic resolves it in the root namespace). A name the bag lacks, or a topic
// of the wrong type, is a usageError listing the topics that would do and
// the closest match.
func resolveTopics(bag *bagread.Bag, flag string, names []string, wantType string) ([]string, error) {
	if names == nil {
		return nil, nil
	}
	var fitting []string
	for _, t := range bag.Topics {
		if typeIs(t.Type, wantType) {
			fitting = append(fitting, t.Name)
		}
	}
	sort.Strings(fitting)
	out := make([]string, 0, len(names))
	for _, name := range names {
		t := lookupTopic(bag, name)
		if t == nil {
			return nil, &usageError{fmt.Sprintf("%s %q: the bag has no such topic; %s", flag, name, listing(name, fitting, wantType+" topics"))}
		}
		if !typeIs(t.Type, wantType) {
			return nil, &usageError{fmt.Sprintf("%s %q: topic %s has type %s, not %s; %s", flag, name, t.Name, t.Type, wantType, listing(name, fitting, wantType+" topics"))}
		}
		out = append(out, t.Name)
	}
	return out, nil
}

// checkFrames reads the bag's tf and rejects a target frame no transform
// uses, listing the frames there are and the closest one. A leading slash
// is ignored, as tf2 ignores it.
func checkFrames(bag *bagread.Bag, targets []string) ([]string, error) {
	if len(targets) == 0 {
		return targets, nil
	}
	frames, err := analysis.TFFrames(bag)
	if err != nil {
		return nil, err
	}
	known := make(map[string]bool, len(frames))
	for _, f := range frames {
		known[f] = true
	}
	out := make([]string, 0, len(targets))
	for _, t := range targets {
		f := strings.TrimPrefix(t, "/")
		if !known[f] {
			return nil, &usageError{fmt.Sprintf("--target-frame %q: no transform in the bag uses this frame; %s", t, listing(f, frames, "tf frames"))}
		}
		out = append(out, f)
	}
	return out, nil
}

// listing says what the bag has, the closest match first.
func listing(name string, have []string, what string) string {
	if len(have) == 0 {
		return "the bag has no " + what
	}
	s := ""
	if c := closest(name, have); c != "" {
		s = fmt.Sprintf("did you mean %q? ", c)
	}
	const show = 40
	list := have
	more := ""
	if len(list) > show {
		list, more = list[:show], fmt.Sprintf(" and %d more", len(have)-show)
	}
	return fmt.Sprintf("%sthe bag's %s (%d): %s%s", s, what, len(have), strings.Join(list, ", "), more)
}

// closest returns the candidate nearest to name by edit distance (ignoring
// case and a leading slash), or "" when none is near enough to be a typo.
func closest(name string, cands []string) string {
	norm := func(s string) string { return strings.ToLower(strings.TrimPrefix(s, "/")) }
	n := norm(name)
	best, bestD := "", -1
	for _, c := range cands {
		d := editDistance(n, norm(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	// A third of the name (at least 2 edits) is a typo; more is another name,
	// unless one contains the other (scan vs front/scan).
	limit := len([]rune(n)) / 3
	if limit < 2 {
		limit = 2
	}
	if bestD >= 0 && bestD <= limit {
		return best
	}
	for _, c := range cands {
		if n != "" && strings.Contains(norm(c), n) {
			return c
		}
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b (runes).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// lookupTopic finds a topic by name; "scan" finds "/scan".
func lookupTopic(bag *bagread.Bag, name string) *bagread.Topic {
	t := bag.Topic(name)
	if t == nil && !strings.HasPrefix(name, "/") {
		t = bag.Topic("/" + name)
	}
	return t
}
