package main

import (
	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/bagread"
)

// analyzeBag opens the bag at path, replays it through the analysis and
// hands every (scan, target) row to each sink. It is the one pipeline
// shared by `analyze` and `scan`.
func analyzeBag(path string, cfg analysis.Config, sinks ...analysis.ScanSink) (*analysis.Report, error) {
	return analyzeBagChecked(path, cfg, nil, sinks...)
}

// analyzeBagChecked is analyzeBag with check run on the opened bag before the
// analysis: it may adjust cfg (resolve names) or refuse it.
func analyzeBagChecked(path string, cfg analysis.Config, check func(*bagread.Bag, *analysis.Config) error, sinks ...analysis.ScanSink) (*analysis.Report, error) {
	// Analysis needs topic counts only as hints (is /clock there at all),
	// so a full count of each db3 is skipped when metadata.yaml agrees.
	opts := bagOptions()
	opts.MetadataTopicCounts, opts.Sequential = true, cfg.Sequential
	bag, err := bagread.Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer bag.Close()
	if check != nil {
		if err := check(bag, &cfg); err != nil {
			return nil, err
		}
	}
	var sink analysis.ScanSink
	switch len(sinks) {
	case 0:
	case 1:
		sink = sinks[0]
	default:
		sink = func(r *analysis.ScanRow) error {
			for _, s := range sinks {
				if err := s(r); err != nil {
					return err
				}
			}
			return nil
		}
	}
	// Analysis errors name the bag or file themselves.
	return analysis.Analyze(bag, cfg, sink)
}
