package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// outputFormats maps an -o file extension to the format it implies.
var outputFormats = map[string]string{".csv": "csv", ".json": "json", ".html": "html", ".htm": "html"}

// chooseFormat decides the output format from --format (set says the user
// gave it) and the -o path: the extension decides unless --format says
// otherwise, and a --format that contradicts a known extension is refused
// (a report.html full of CSV helps nobody). With neither, CSV.
func chooseFormat(format string, set bool, out string) (string, error) {
	switch format {
	case "csv", "json", "html":
	default:
		return "", fmt.Errorf("--format %q: want csv, json or html", format)
	}
	implied := ""
	if out != "" && out != "-" {
		implied = outputFormats[strings.ToLower(filepath.Ext(out))]
	}
	switch {
	case set && implied != "" && implied != format:
		return "", fmt.Errorf("--format %s contradicts -o %s (a .%s name): drop --format, or name the file .%s", format, out, implied, format)
	case set:
		return format, nil
	case implied != "":
		return implied, nil
	}
	return format, nil
}

// atomicFile is an output written to a temporary file beside its target and
// renamed over it only when the whole run succeeded, so a failed or
// interrupted run never leaves a half-written report or destroys the
// previous one.
type atomicFile struct {
	*os.File
	target string
	mode   fs.FileMode
	done   bool
	// direct: the target is not a regular file (-o /dev/null, a FIFO) and
	// is written in place. Renaming over it would replace the device or
	// pipe with a regular file (as root, -o /dev/null did exactly that).
	direct bool
}

// createAtomic starts writing path. The temporary file is created at once,
// before any bag is read, so an unwritable directory fails early.
func createAtomic(path string) (*atomicFile, error) {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return nil, fmt.Errorf("-o %s: is a directory", path)
		}
		if !fi.Mode().IsRegular() {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return nil, err
			}
			return &atomicFile{File: f, target: path, direct: true}, nil
		}
		mode = fi.Mode().Perm() // keep the permissions of the file replaced
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &atomicFile{File: f, target: path, mode: mode}, nil
}

// Commit closes the temporary file and renames it over the target.
func (a *atomicFile) Commit() error {
	if a.done {
		return errors.New("output already finished")
	}
	a.done = true
	if a.direct {
		if err := a.Close(); err != nil {
			return fmt.Errorf("write %s: %w", a.target, err)
		}
		return nil
	}
	tmp := a.Name()
	err := a.Chmod(a.mode)
	if cerr := a.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, a.target)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", a.target, err)
	}
	return nil
}

// Abort removes the temporary file; the target is left as it was. It is a
// no-op after Commit.
func (a *atomicFile) Abort() {
	if a.done {
		return
	}
	a.done = true
	a.Close()
	if !a.direct {
		os.Remove(a.Name())
	}
}
