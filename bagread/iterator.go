package bagread

// Iterator streams messages. Use it like database/sql.Rows:
//
//	it := bag.Messages(opts)
//	defer it.Close()
//	for it.Next() { m := it.Message(); ... }
//	if err := it.Err(); err != nil { ... }
type Iterator struct {
	msg Message
	err error
}

// Open opens a bag directory, a .db3, .mcap, .db3.zstd or .mcap.zstd file.
func Open(path string, opts Options) (*Bag, error) { return nil, ErrNotImplemented }

// Close releases files and removes temporary copies.
func (b *Bag) Close() error { return nil }

// Messages starts a read. Damage that ends a file early is not an error:
// it is reported in File.Recovery and Iterator.Problems, and iteration goes
// on with the next file.
func (b *Bag) Messages(opts ReadOptions) *Iterator { return &Iterator{err: ErrNotImplemented} }

// Next advances to the next message; false at the end or on a fatal error.
func (it *Iterator) Next() bool { return false }

// Message returns the current message (valid until the next Next).
func (it *Iterator) Message() *Message { return &it.msg }

// Err returns the fatal error that ended iteration, if any.
func (it *Iterator) Err() error { return it.err }

// Problems lists the damage met so far (truncated files, unreadable WAL...)
// as data, one entry per file that stopped early.
func (it *Iterator) Problems() []Problem { return nil }

// Close ends the iteration.
func (it *Iterator) Close() error { return nil }

// Problem is a file that could not be read to its end.
type Problem struct {
	FileIndex int
	File      string
	Offset    int64
	Err       error
	Recovered uint64
}
