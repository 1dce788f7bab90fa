// Package tf is an in-memory transform buffer that behaves like tf2's
// BufferCore as of Jazzy: per-child time caches with tf2's insert, prune and
// lookup rules, static links, interpolation, time 0 as latest common time,
// and tf2's error kinds and message texts.
package tf

import "errors"

// Times are int64 nanoseconds in whatever clock the stamps use; 0 means
// "latest" to lookups, as in tf2.

// Vec3 is a translation.
type Vec3 struct{ X, Y, Z float64 }

// Quat is a rotation quaternion.
type Quat struct{ X, Y, Z, W float64 }

// Transform is a rigid transform: rotation then translation.
type Transform struct {
	Translation Vec3
	Rotation    Quat
}

// Stamped is a transform from Child frame coordinates into Parent frame
// coordinates at Stamp (tf2's TransformStamped: Parent = header.frame_id).
type Stamped struct {
	Parent, Child string
	Stamp         int64
	Transform     Transform
}

// Generation selects which TimeCache insert/prune rules apply.
type Generation int

const (
	// GenerationCurrent: prune before insert, keep same-stamp entries unless
	// identical (Rolling >= 0.37.1, Jazzy >= 0.36.4, Humble >= 0.25.7).
	GenerationCurrent Generation = iota
	// GenerationPruneAfter: Humble 0.25.6, Jazzy 0.36.0-0.36.3.
	GenerationPruneAfter
	// GenerationLegacy: Humble <= 0.25.5: always insert, prune after.
	GenerationLegacy
)

// Options configures a Buffer. The zero value means tf2's defaults.
type Options struct {
	// CacheTimeNS is the dynamic cache length; 0 means 10 s.
	CacheTimeNS int64
	Generation  Generation
}

// ErrorKind classifies lookup failures like tf2's TF2Error.
type ErrorKind int

const (
	LookupError ErrorKind = iota + 1
	ConnectivityError
	ExtrapolationError
	InvalidArgumentError
	BackwardExtrapolationError
	ForwardExtrapolationError
	NoDataForExtrapolationError
)

// RejectCode says why SetTransform refused a transform.
type RejectCode int

const (
	TFSelfTransform RejectCode = iota + 1
	TFNoChildFrameID
	TFNoFrameID
	TFNaNInput
	TFDenormalizedQuaternion
	TFOldData
)

var errPlaceholder = errors.New("tf: not implemented")
