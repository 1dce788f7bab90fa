package analysis

import "github.com/bagclock/bagclock/bagread"

// FinishForTest is verdict.Finish. The tests of this package cannot import
// analysis/verdict (it imports analysis), so verdictbridge_test.go, in the
// external test package, sets it before any test runs.
var FinishForTest func(*Report)

// analyzeFinished is Analyze followed by the verdict, as cmd/bagclock
// runs them: the tests of this package that read a verdict go through it.
func analyzeFinished(bag *bagread.Bag, cfg Config, sink ScanSink) (*Report, error) {
	rep, err := Analyze(bag, cfg, sink)
	if rep != nil {
		if FinishForTest == nil {
			panic("analysis: FinishForTest not set (verdictbridge_test.go)")
		}
		FinishForTest(rep)
	}
	return rep, err
}
