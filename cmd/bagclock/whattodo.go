package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bagclock/bagclock/bagread"
)

// whatToDo follows an error about the BAG argument of command with what
// the user can do about it: the bags inside a folder of bags, the
// directory of a metadata.yaml, what a BAG argument may be.
func whatToDo(w io.Writer, command, path string, err error) {
	switch {
	case suggestBagsInside(w, path):
	case filepath.Base(path) == "metadata.yaml" && errors.Is(err, bagread.ErrNotABag):
		fmt.Fprintf(w, "Try: bagclock %s %s\n", command, filepath.Dir(path))
	case errors.Is(err, fs.ErrNotExist) && !exists(path):
		fmt.Fprintf(w, "Check the path. BAG is a bag directory (what 'ros2 bag record' wrote) or one .db3, .mcap,\n.db3.zstd or .mcap.zstd file.\n")
	case errors.Is(err, fs.ErrPermission):
		fmt.Fprintf(w, "bagclock only reads bags, but it needs read permission on every file of one.\n")
	case errors.Is(err, bagread.ErrNotABag):
		fmt.Fprintf(w, "BAG is a bag directory (what 'ros2 bag record' wrote) or one .db3, .mcap, .db3.zstd or\n.mcap.zstd file.\n")
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// suggestBagsInside helps the common mistake of pointing at a folder of
// bags: it lists the bags found below path and suggests `scan`.
// It reports whether it printed anything.
func suggestBagsInside(w io.Writer, path string) bool {
	d := bagread.Discover(path)
	if len(d.Bags) == 0 || (len(d.Bags) == 1 && d.Bags[0].Path == path) {
		return false
	}
	fmt.Fprintf(w, "%s holds %d bags; name one of them, or run 'bagclock scan %s --out DIR':\n", path, len(d.Bags), path)
	for i, b := range d.Bags {
		if i == 10 {
			fmt.Fprintf(w, "  ... and %d more\n", len(d.Bags)-10)
			break
		}
		fmt.Fprintf(w, "  %s\n", b.Path)
	}
	return true
}
