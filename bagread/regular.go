package bagread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular marks a path that is not a regular file (a FIFO, socket or
// device): reading one can block for ever or never end, so it is refused
// before anything reads from it.
var ErrNotRegular = errors.New("not a regular file")

// MaxMetadataBytes caps metadata.yaml. Real ones are a few kilobytes (one
// entry per topic and file); the cap keeps a crafted one from costing
// gigabytes of YAML parsing.
const MaxMetadataBytes = 16 << 20

// checkRegular returns an error wrapping ErrNotRegular unless st is a
// regular file.
func checkRegular(st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%w: it is %s", ErrNotRegular, kindOf(st.Mode()))
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.String()
}

// OpenRegular opens path for reading only if it is a regular file, and
// otherwise returns an error wrapping ErrNotRegular. The open itself is
// non-blocking, so a FIFO without a writer cannot hang it; the type is
// checked on the opened file, so a swap between a stat and the open does
// not matter. Callers outside bagread that read bag files (fingerprints)
// use it too.
func OpenRegular(path string) (*os.File, error) {
	return openRegular(path)
}

func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = checkRegular(st)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// readSmallFile reads a regular file of at most limit bytes; a larger one
// is an error that gives its real size and the limit.
func readSmallFile(path string, limit int64) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes: %w (%d bytes is the most a metadata file may have)", path, st.Size(), ErrTooLarge, limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s grew past %d bytes while read: %w", path, limit, ErrTooLarge)
	}
	return data, nil
}
