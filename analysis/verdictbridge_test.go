package analysis_test

import (
	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/verdict"
)

// The in-package tests read verdicts through analysis.FinishForTest: this
// external test file may import analysis/verdict, they may not.
func init() { analysis.FinishForTest = verdict.Finish }
