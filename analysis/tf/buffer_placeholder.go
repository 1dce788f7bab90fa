package tf

// Buffer is the transform buffer. Methods are the contract; placeholder
// bodies are replaced by the implementation.
type Buffer struct{}

// NewBuffer returns an empty buffer.
func NewBuffer(opts Options) *Buffer { return &Buffer{} }

// CacheTimeNS returns the effective cache length.
func (b *Buffer) CacheTimeNS() int64 { return 10_000_000_000 }

// SetTransform inserts t as tf2's setTransform(t, authority, static) would.
// It returns nil when the transform was stored (or was an exact duplicate),
// else a *RejectError (TF_OLD_DATA, TF_NAN_INPUT ...). Callers that emulate
// tf2's transformable requests re-test them only after a nil return.
func (b *Buffer) SetTransform(t Stamped, authority string, static bool) error { return errPlaceholder }

// LookupTransform returns the transform that maps source-frame coordinates
// into the target frame at time t (0 = latest common time). Errors are
// *Error values with tf2's kind and message text.
func (b *Buffer) LookupTransform(target, source string, t int64) (Stamped, error) {
	return Stamped{}, errPlaceholder
}

// CanTransform reports whether LookupTransform would succeed.
func (b *Buffer) CanTransform(target, source string, t int64) bool { return false }

// CanTransformErr is CanTransform with tf2's error (nil on success).
func (b *Buffer) CanTransformErr(target, source string, t int64) error { return errPlaceholder }

// LatestCommonTime is tf2's getLatestCommonTime: 0 for all-static paths.
func (b *Buffer) LatestCommonTime(target, source string) (int64, error) { return 0, errPlaceholder }

// HasFrame reports whether the frame is known (named as child or parent of
// any transform ever set, as tf2 interns ids).
func (b *Buffer) HasFrame(frame string) bool { return false }

// Clear drops all dynamic data and keeps static links, like
// BufferCore::clear after a backward jump of ROS time.
func (b *Buffer) Clear() {}

// Link is one edge on the path between two frames, as it stands now.
type Link struct {
	Parent, Child string
	Static        bool
	// NewestNS and OldestNS are the newest and oldest cached stamps of a
	// dynamic link (0 for static links).
	NewestNS, OldestNS int64
}

// Path returns the links from source up to the common ancestor and from
// target up to it (newest parents, as getLatestCommonTime walks), or an
// error when the frames are not connected.
func (b *Buffer) Path(target, source string) ([]Link, error) { return nil, errPlaceholder }

// Frames returns every known frame name, sorted.
func (b *Buffer) Frames() []string { return nil }

// Error is a lookup failure; its message text is built only when Error()
// is called.
type Error struct {
	Kind ErrorKind
	msg  func() string
}

func (e *Error) Error() string {
	if e.msg == nil {
		return "tf error"
	}
	return e.msg()
}

// RejectError is a refused SetTransform.
type RejectError struct {
	Code RejectCode
	Text string
}

func (e *RejectError) Error() string { return e.Text }
