package main

import (
	"fmt"
	"sort"

	"github.com/bagclock/bagclock/analysis"
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

// resolveSyncTopics resolves the --sync synchronizers' topic names (with or
// without the leading slash); a topic the bag lacks, or one without a
// header, is a usage error listing the bag's stamped topics.
func resolveSyncTopics(bag *bagread.Bag, specs []analysis.SyncSpec) error {
	var stamped []string
	for _, ti := range topics.Classify(bag) {
		if ti.Role == topics.Stamped {
			stamped = append(stamped, ti.Name)
		}
	}
	sort.Strings(stamped)
	for si := range specs {
		for i, name := range specs[si].Topics {
			t := lookupTopic(bag, name)
			if t == nil {
				return &usageError{fmt.Sprintf("--sync %q: the bag has no such topic; %s", name, listing(name, stamped, "stamped topics"))}
			}
			if ti := topics.Of(t.Name, t.Type, t.DefinitionEncoding, t.Definition); ti.Role != topics.Stamped {
				return &usageError{fmt.Sprintf("--sync %q: %s (%s) has no header stamp to synchronize on (%s); %s", name, t.Name, t.Type, ti.Stamp.Reason, listing(name, stamped, "stamped topics"))}
			}
			specs[si].Topics[i] = t.Name
		}
	}
	return nil
}
