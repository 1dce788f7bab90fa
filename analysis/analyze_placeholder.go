package analysis

import (
	"errors"

	"github.com/bagclock/bagclock/bagread"
)

// Analyze replays bag and streams rows to sink (which may be nil).
func Analyze(bag *bagread.Bag, cfg Config, sink ScanSink) (*Report, error) {
	return nil, errors.New("analysis: not implemented")
}
