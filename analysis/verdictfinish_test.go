package analysis

import "github.com/bagclock/bagclock/bagread"

// analyzeFinished is Analyze followed by the verdict, as cmd/bagclock
// runs them: the tests of this package that read a verdict go through it.
func analyzeFinished(bag *bagread.Bag, cfg Config, sink ScanSink) (*Report, error) {
	rep, err := Analyze(bag, cfg, sink)
	if rep != nil {
		Finish(rep)
	}
	return rep, err
}
