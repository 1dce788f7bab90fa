package bagread

import (
	"errors"
	"fmt"
	"io"
)

// ErrOrphanMessage marks a sqlite message whose topic_id is not in the
// topics table (rosbag2 can delete topic rows; its own reader drops such
// messages silently with an inner join).
var ErrOrphanMessage = errors.New("topic_id not in topics table")

// ErrNotABag marks a path that holds no bag: an empty or foreign file, a
// metadata.yaml given instead of its directory, or a directory without
// storage files.
var ErrNotABag = errors.New("not a ROS bag")

// ErrTooLarge marks a record, chunk or message whose claimed size exceeds
// Options.MaxRecordBytes.
var ErrTooLarge = errors.New("size exceeds limit")

// FileError is a failure tied to one storage file and, where known, a byte
// offset in it (Offset < 0 when there is none).
type FileError struct {
	Path   string
	Offset int64
	Op     string // what was being done, e.g. "read chunk" ("" when the cause says it all)
	Err    error
}

// Error names the file, the offset when known, and the operation.
func (e *FileError) Error() string {
	if e.Op == "" {
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	}
	if e.Offset >= 0 {
		return fmt.Sprintf("%s: at byte %d: %s: %v", e.Path, e.Offset, e.Op, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", e.Path, e.Op, e.Err)
}

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// TruncatedError says a record ran past the end of the data: the file was
// cut. It unwraps to io.ErrUnexpectedEOF.
type TruncatedError struct {
	Opcode byte   // MCAP opcode of the torn record (0 for the record header)
	Need   uint64 // bytes the record claims, as read from the file
	Have   int64  // bytes that were left
}

// Error says which record was torn and by how much.
func (e *TruncatedError) Error() string {
	if e.Opcode == 0 {
		return fmt.Sprintf("record header torn: need %d bytes, have %d", e.Need, e.Have)
	}
	return fmt.Sprintf("record opcode 0x%02x of %d bytes runs past end of data (%d bytes left)", e.Opcode, e.Need, e.Have)
}

// Unwrap returns io.ErrUnexpectedEOF.
func (e *TruncatedError) Unwrap() error { return io.ErrUnexpectedEOF }

// MessageError is a failure of one message: it names the file, topic,
// per-topic index and position (sqlite rowid or MCAP byte offset).
type MessageError struct {
	File     string
	Topic    string
	Index    uint64
	Position int64
	// Rowid is true when Position is a sqlite rowid, false for an MCAP
	// byte offset (of the chunk, for chunked files; ChunkOffset then is
	// the message's offset inside the decompressed chunk, else -1).
	Rowid       bool
	ChunkOffset int64
	Err         error
}

// Error reads "file: topic T message N (rowid R | byte B): cause".
func (e *MessageError) Error() string {
	where := fmt.Sprintf("byte %d", e.Position)
	if e.ChunkOffset >= 0 {
		where = fmt.Sprintf("chunk at byte %d, offset %d", e.Position, e.ChunkOffset)
	}
	if e.Rowid {
		where = fmt.Sprintf("rowid %d", e.Position)
	}
	return fmt.Sprintf("%s: topic %s message %d (%s): %v", e.File, e.Topic, e.Index, where, e.Err)
}

// Unwrap returns the underlying error.
func (e *MessageError) Unwrap() error { return e.Err }

// guard runs f and turns a panic inside it (the mcap library has known
// ones on corrupt input) into a FileError naming path and offset.
func guard(path string, offset int64, op string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &FileError{Path: path, Offset: offset, Op: op, Err: fmt.Errorf("mcap library panic: %v", r)}
		}
	}()
	return f()
}
