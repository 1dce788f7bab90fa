package tf

import (
	"math"
	"sort"
)

// DefaultCacheTimeNS is tf2's BUFFER_CORE_DEFAULT_CACHE_TIME (10 s).
const DefaultCacheTimeNS int64 = 10_000_000_000

// maxGraphDepth is tf2's MAX_GRAPH_DEPTH, the loop guard of tree walks.
const maxGraphDepth = 1000

// quaternionTolerance is tf2's QUATERNION_NORMALIZATION_TOLERANCE (10e-3).
const quaternionTolerance = 10e-3

type cacheKind uint8

const (
	noCache      cacheKind = iota // a frame named only as a parent: a root
	staticCache                   // tf2's StaticCache: one entry, ignores time
	dynamicCache                  // tf2's TimeCache
)

// frameData is one interned frame and the cache of its link to its parent.
type frameData struct {
	name      string
	kind      cacheKind
	static    entry
	dyn       timeCache
	authority string
}

// Buffer is a transform buffer with tf2 BufferCore semantics.
//
// Lookups (LookupTransform, CanTransform, LatestCommonTime, Path, ...) only
// read the buffer and may run concurrently with each other; SetTransform and
// Clear need exclusive access, as with a map.
type Buffer struct {
	cacheTime int64
	gen       Generation
	ids       map[string]uint32
	frames    []frameData // index = frame id; 0 is tf2's reserved NO_PARENT
	// recent are the ids SetTransform met last (0: none): a tf stream
	// names the same few frames over and over, and comparing a name with
	// a few is cheaper than hashing it. Only SetTransform writes it.
	recent     [4]uint32
	nextRecent int
}

// NewBuffer returns an empty buffer.
func NewBuffer(opts Options) *Buffer {
	ct := opts.CacheTimeNS
	if ct <= 0 {
		ct = DefaultCacheTimeNS
	}
	return &Buffer{
		cacheTime: ct,
		gen:       opts.Generation,
		ids:       make(map[string]uint32),
		frames:    []frameData{{name: "NO_PARENT"}},
	}
}

// CacheTimeNS returns the effective cache length.
func (b *Buffer) CacheTimeNS() int64 { return b.cacheTime }

// Generation returns the TimeCache rules in use.
func (b *Buffer) Generation() Generation { return b.gen }

func stripSlash(s string) string {
	if len(s) > 0 && s[0] == '/' {
		return s[1:]
	}
	return s
}

func (b *Buffer) lookupOrInsert(name string) uint32 {
	for _, id := range b.recent {
		if id != 0 && b.frames[id].name == name {
			return id
		}
	}
	id, ok := b.ids[name]
	if !ok {
		id = uint32(len(b.frames))
		b.frames = append(b.frames, frameData{name: name})
		b.ids[name] = id
	}
	b.recent[b.nextRecent] = id
	b.nextRecent = (b.nextRecent + 1) % len(b.recent)
	return id
}

// SetTransform inserts t as tf2's setTransform(t, authority, static) would:
// one leading '/' is stripped from both frame names, the transform is
// validated, the child's cache is created (or replaced when it was of the
// other kind: a frame flips between static and dynamic, losing its history)
// and the entry is inserted under the buffer's Generation rules.
//
// It returns nil when the transform was stored or was an exact copy of a
// cached entry (tf2 returns true for both), else a *RejectError whose Text
// is tf2's log line: TF_SELF_TRANSFORM, TF_NO_CHILD_FRAME_ID, TF_NO_FRAME_ID,
// TF_NAN_INPUT, TF_DENORMALIZED_QUATERNION (nothing is stored or interned),
// or TF_OLD_DATA (both frames are interned, as in tf2). Callers emulating
// tf2's transformable requests re-test them only after a nil return.
func (b *Buffer) SetTransform(t Stamped, authority string, static bool) error {
	parent := stripSlash(t.Parent)
	child := stripSlash(t.Child)
	tr, q := t.Transform.Translation, t.Transform.Rotation
	norm2 := q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z
	if child == parent || child == "" || parent == "" ||
		math.IsNaN(tr.X) || math.IsNaN(tr.Y) || math.IsNaN(tr.Z) ||
		math.IsNaN(q.X) || math.IsNaN(q.Y) || math.IsNaN(q.Z) || math.IsNaN(q.W) ||
		!(math.Abs(norm2-1) < quaternionTolerance) {
		return validationError(parent, child, authority, tr, q, norm2)
	}

	cid := b.lookupOrInsert(child)
	want := dynamicCache
	if static {
		want = staticCache
	}
	if f := &b.frames[cid]; f.kind != want {
		// tf2 allocates a fresh cache of the requested kind.
		f.kind = want
		f.dyn = timeCache{}
	}
	pid := b.lookupOrInsert(parent)
	f := &b.frames[cid]
	e := entry{stamp: t.Stamp, rot: q, trans: tr, parent: pid}
	if static {
		f.static = e
	} else if !f.dyn.insert(&e, b.cacheTime, b.gen) {
		return &RejectError{Code: TFOldData, Text: "TF_OLD_DATA ignoring data from the past for frame " + child +
			" at time " + DisplayTime(t.Stamp) + " according to authority " + authority +
			"\nPossible reasons are listed at http://wiki.ros.org/tf/Errors%20explained"}
	}
	f.authority = authority
	return nil
}

// validationError builds tf2's ERROR lines for every failed check, in the
// order setTransformImpl runs them.
func validationError(parent, child, authority string, tr Vec3, q Quat, norm2 float64) error {
	var errs []RejectError
	if child == parent {
		errs = append(errs, RejectError{Code: TFSelfTransform, Text: `TF_SELF_TRANSFORM: Ignoring transform from authority "` +
			authority + `" with frame_id and  child_frame_id "` + child + `" because they are the same`})
	}
	if child == "" {
		errs = append(errs, RejectError{Code: TFNoChildFrameID, Text: `TF_NO_CHILD_FRAME_ID: Ignoring transform from authority "` +
			authority + `" because child_frame_id not set `})
	}
	if parent == "" {
		errs = append(errs, RejectError{Code: TFNoFrameID, Text: `TF_NO_FRAME_ID: Ignoring transform with child_frame_id "` +
			child + `"  from authority "` + authority + `" because frame_id not set`})
	}
	if math.IsNaN(tr.X) || math.IsNaN(tr.Y) || math.IsNaN(tr.Z) ||
		math.IsNaN(q.X) || math.IsNaN(q.Y) || math.IsNaN(q.Z) || math.IsNaN(q.W) {
		errs = append(errs, RejectError{Code: TFNaNInput, Text: `TF_NAN_INPUT: Ignoring transform for child_frame_id "` +
			child + `" from authority "` + authority + `" because of a nan value in the transform (` +
			cf(tr.X) + " " + cf(tr.Y) + " " + cf(tr.Z) + ") (" +
			cf(q.X) + " " + cf(q.Y) + " " + cf(q.Z) + " " + cf(q.W) + ")"})
	}
	if !(math.Abs(norm2-1) < quaternionTolerance) {
		errs = append(errs, RejectError{Code: TFDenormalizedQuaternion, Text: `TF_DENORMALIZED_QUATERNION: Ignoring transform for child_frame_id "` +
			child + `" from authority "` + authority + `" because of an invalid quaternion in the transform (` +
			cf(q.X) + " " + cf(q.Y) + " " + cf(q.Z) + " " + cf(q.W) + ")"})
	}
	first := errs[0]
	first.Also = errs[1:]
	if len(first.Also) == 0 {
		first.Also = nil
	}
	return &first
}

// HasFrame reports whether the frame is known (named as child or parent of
// any transform ever set, as tf2 interns ids; Clear keeps them).
func (b *Buffer) HasFrame(frame string) bool {
	_, ok := b.ids[frame]
	return ok
}

// Clear drops all dynamic data and keeps static links and frame ids, like
// BufferCore::clear, which tf2_ros::Buffer calls on a backward jump of ROS
// time. rclpy's buffer never calls it (geometry2#606): to model rclpy, do not
// call Clear.
func (b *Buffer) Clear() {
	for i := range b.frames {
		b.frames[i].dyn.clear()
	}
}

// Frames returns every known frame name, sorted.
func (b *Buffer) Frames() []string {
	names := make([]string, 0, len(b.ids))
	for n := range b.ids {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Authority returns the authority of the last transform stored for the
// child frame ("" if none).
func (b *Buffer) Authority(child string) string {
	if id, ok := b.ids[child]; ok {
		return b.frames[id].authority
	}
	return ""
}

// CacheLen is tf2's getListLength for the frame's link: the number of cached
// dynamic entries, 1 for a static link, 0 for a root or unknown frame.
func (b *Buffer) CacheLen(frame string) int {
	id, ok := b.ids[frame]
	if !ok {
		return 0
	}
	switch f := &b.frames[id]; f.kind {
	case staticCache:
		return 1
	case dynamicCache:
		return f.dyn.n
	}
	return 0
}

// Stats summarises the buffer's size.
type Stats struct {
	// Frames is the number of interned frames.
	Frames int
	// StaticLinks and DynamicLinks count frames with each kind of cache.
	StaticLinks, DynamicLinks int
	// Entries is the number of cached dynamic entries.
	Entries int
	// MaxEntries is the longest single dynamic cache.
	MaxEntries int
	// CapacityEntries is the number of entry slots allocated (ring storage).
	CapacityEntries int
}

// Stats reports the buffer's current size.
func (b *Buffer) Stats() Stats {
	s := Stats{Frames: len(b.frames) - 1}
	for i := 1; i < len(b.frames); i++ {
		f := &b.frames[i]
		switch f.kind {
		case staticCache:
			s.StaticLinks++
		case dynamicCache:
			s.DynamicLinks++
			s.Entries += f.dyn.n
			s.MaxEntries = max(s.MaxEntries, f.dyn.n)
		}
		s.CapacityEntries += len(f.dyn.buf)
	}
	return s
}

// Log lines tf2_ros::Buffer prints (WARN) before clearing on a time jump.
const (
	JumpBackMessage         = "Detected jump back in time. Clearing TF buffer."
	TimeSourceChangeMessage = "Detected time source change. Clearing TF buffer."
)

// ClearOnJump applies tf2_ros::Buffer's (C++) time-jump callback to a step
// of ROS time by deltaNS: its jump threshold fires on any backward step
// (min_backward = −1 ns) and never on forward ones, and the callback calls
// Clear. It reports whether the buffer was cleared. rclpy's buffer has no
// such callback (geometry2#606): to model it, do not call ClearOnJump.
func (b *Buffer) ClearOnJump(deltaNS int64) bool {
	if deltaNS >= 0 {
		return false
	}
	b.Clear()
	return true
}
