package main

import (
	"fmt"
	"sync/atomic"

	"github.com/bagclock/bagclock/analysis"
	"github.com/bagclock/bagclock/analysis/verdict"
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
	bag, err := openBag(path, opts)
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
	var rep *analysis.Report
	if sink == nil || cfg.Sequential {
		// Analysis errors name the bag or file themselves.
		rep, err = analysis.Analyze(bag, cfg, sink)
	} else {
		p := newRowPipe(sink)
		rep, err = analysis.Analyze(bag, cfg, p.row)
		if perr := p.close(); err == nil && perr != nil {
			err = fmt.Errorf("writing row: %w", perr)
		}
	}
	// The one place a report gets its verdict, partial reports included:
	// analysis hands over the finished report, the verdict reads it.
	if rep != nil {
		verdict.Finish(rep)
	}
	return rep, err
}

// rowPipe hands rows to a sink on a goroutine of its own, in batches, so
// that formatting and writing them (a sixth of an analyze pass over a
// bag of small scans) runs beside the analysis instead of inside it. The
// analysis reuses its rows, so each is copied; the sink sees them in
// order. A sink error reaches the analysis at its next row (which then
// stops, as it would have at the failing one) or at close.
type rowPipe struct {
	sink  analysis.ScanSink
	batch []analysis.ScanRow
	full  chan []analysis.ScanRow
	free  chan []analysis.ScanRow
	done  chan struct{}
	err   atomic.Pointer[error]
}

// Batches of 256 rows, four in flight: a hand-over per 256 rows, and at
// most about a quarter MiB of rows waiting.
const (
	rowPipeBatch   = 256
	rowPipeBatches = 4
)

func newRowPipe(sink analysis.ScanSink) *rowPipe {
	p := &rowPipe{sink: sink, full: make(chan []analysis.ScanRow, rowPipeBatches),
		free: make(chan []analysis.ScanRow, rowPipeBatches), done: make(chan struct{})}
	for range rowPipeBatches - 1 {
		p.free <- make([]analysis.ScanRow, 0, rowPipeBatch)
	}
	p.batch = make([]analysis.ScanRow, 0, rowPipeBatch)
	go p.drain()
	return p
}

// row is the analysis' sink: it queues a copy of r.
func (p *rowPipe) row(r *analysis.ScanRow) error {
	if e := p.err.Load(); e != nil {
		return *e
	}
	p.batch = append(p.batch, *r)
	if len(p.batch) == rowPipeBatch {
		p.full <- p.batch
		p.batch = (<-p.free)[:0]
	}
	return nil
}

func (p *rowPipe) drain() {
	defer close(p.done)
	for b := range p.full {
		if p.err.Load() == nil {
			for i := range b {
				if err := p.sink(&b[i]); err != nil {
					p.err.Store(&err)
					break
				}
			}
		}
		p.free <- b
	}
}

// close hands over the last rows, waits for the sink to take them all and
// returns its first error.
func (p *rowPipe) close() error {
	if len(p.batch) > 0 {
		p.full <- p.batch
		p.batch = nil
	}
	close(p.full)
	<-p.done
	if e := p.err.Load(); e != nil {
		return *e
	}
	return nil
}
