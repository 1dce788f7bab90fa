package main

import (
	"fmt"
	"sort"

	"github.com/bagclock/bagclock/analysis/topics"
	"github.com/bagclock/bagclock/bagread"
)

// resolveStampedTopics resolves --topic names ("scan" means "/scan") to
// the bag's topics and rejects a topic whose messages have no header,
// listing the stamped topics the bag has.
func resolveStampedTopics(bag *bagread.Bag, names []string) ([]string, error) {
	if names == nil {
		return nil, nil
	}
	var stamped []string
	for _, ti := range topics.Classify(bag) {
		if ti.Role == topics.Stamped {
			stamped = append(stamped, ti.Name)
		}
	}
	sort.Strings(stamped)
	out := make([]string, 0, len(names))
	for _, name := range names {
		t := lookupTopic(bag, name)
		if t == nil {
			return nil, &usageError{fmt.Sprintf("--topic %q: the bag has no such topic; %s", name, listing(name, stamped, "stamped topics"))}
		}
		if ti := topics.Of(t.Name, t.Type, t.DefinitionEncoding, t.Definition); ti.Role != topics.Stamped {
			return nil, &usageError{fmt.Sprintf("--topic %q: %s (%s) has no header to analyse (%s); %s", name, t.Name, t.Type, ti.Stamp.Reason, listing(name, stamped, "stamped topics"))}
		}
		out = append(out, t.Name)
	}
	return out, nil
}
