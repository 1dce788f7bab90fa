package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// Process-wide resources that must not outlive the process, whatever way
// it ends: the temp directory bagread decompresses FILE-mode bags into and
// the .tmp files of outputs being written.
var scratch struct {
	sync.Mutex
	dir   string          // "" until first needed
	files map[string]bool // .tmp paths being written
}

// scratchDir returns the process's private temp directory, creating it on
// first use ("" lets bagread use its own when that fails).
func scratchDir() string {
	scratch.Lock()
	defer scratch.Unlock()
	if scratch.dir == "" {
		if d, err := os.MkdirTemp("", "bagclock-"); err == nil {
			scratch.dir = d
		}
	}
	return scratch.dir
}

// trackTemp records a .tmp file so a signal removes it; untrackTemp is
// called once it was renamed or removed.
func trackTemp(path string) {
	scratch.Lock()
	defer scratch.Unlock()
	if scratch.files == nil {
		scratch.files = map[string]bool{}
	}
	scratch.files[path] = true
}

func untrackTemp(path string) {
	scratch.Lock()
	defer scratch.Unlock()
	delete(scratch.files, path)
}

// cleanupScratch removes the temp directory and every unfinished .tmp
// file. It is safe to call more than once and from any goroutine.
func cleanupScratch() {
	scratch.Lock()
	defer scratch.Unlock()
	for p := range scratch.files {
		os.Remove(p)
	}
	scratch.files = nil
	if scratch.dir != "" {
		os.RemoveAll(scratch.dir)
		scratch.dir = ""
	}
}

// hardStopAfter is how long a command that honours cancellation (scan)
// gets after the first Ctrl-C or SIGTERM to write what it finished before
// the process is ended anyway; a second signal ends it at once.
const hardStopAfter = 10 * time.Second

// watchSignals cancels the returned context on the first SIGINT or
// SIGTERM. A command that set e.graceful (it stops on its own within a
// second and writes what it finished) keeps running until hardStopAfter or
// a second signal; any other command ends at once. Either way temp files
// are removed and the exit code is exitFailure.
func watchSignals(e *env, stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case s := <-sigs:
			cancel()
			if e.graceful.Load() {
				select {
				case <-done:
					return
				case <-sigs:
				case <-time.After(hardStopAfter):
				}
			}
			fmt.Fprintf(stderr, "bagclock: stopped by %v; unfinished output and temp files removed\n", s)
			cleanupScratch()
			os.Exit(exitFailure)
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// context returns the command's cancellation context (Background in tests
// that build an env by hand).
func (e *env) context() context.Context {
	if e.ctx != nil {
		return e.ctx
	}
	return context.Background()
}

// abandonAfter is how long scan waits, after Ctrl-C or SIGTERM, for the
// bags being analysed before it writes the index without them.
const abandonAfter = 500 * time.Millisecond
