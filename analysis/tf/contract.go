package tf

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
	// GenerationPruneAfter: Humble 0.25.6, Jazzy 0.36.0-0.36.3: skip exact
	// copies, prune after inserting. Apart from repeated stamps this is also
	// what ROS 1's tf2 0.7.6 does.
	GenerationPruneAfter
	// GenerationLegacy: Humble <= 0.25.5: always insert, prune after.
	GenerationLegacy
)

// String names the generation.
func (g Generation) String() string {
	switch g {
	case GenerationCurrent:
		return "current"
	case GenerationPruneAfter:
		return "prune-after"
	case GenerationLegacy:
		return "legacy"
	}
	return "Generation(" + itoa(int64(g)) + ")"
}

// Options configures a Buffer. The zero value means tf2's defaults.
type Options struct {
	// CacheTimeNS is the dynamic cache length; 0 (or negative) means 10 s,
	// tf2's BUFFER_CORE_DEFAULT_CACHE_TIME.
	CacheTimeNS int64
	// Generation picks the TimeCache rules; the zero value is the current one.
	Generation Generation
}

// ErrorKind classifies lookup failures like tf2's TF2Error. The numeric
// values are bagclock's own, not tf2's enum values.
type ErrorKind int

const (
	// LookupError: unknown frame, or a loop in the tree (LookupException).
	LookupError ErrorKind = iota + 1
	// ConnectivityError: the frames are in different trees.
	ConnectivityError
	// ExtrapolationError is the generic extrapolation code. This package
	// reports the finer kinds below (the codes tf2's TimeCache computes);
	// use ErrorKind.IsExtrapolation to test for any of them.
	ExtrapolationError
	// InvalidArgumentError: empty frame name or one starting with '/'.
	InvalidArgumentError
	// BackwardExtrapolationError: the time is older than a link's oldest data.
	BackwardExtrapolationError
	// ForwardExtrapolationError: the time is newer than a link's newest data.
	ForwardExtrapolationError
	// NoDataForExtrapolationError: a link has no data, or one entry at
	// another time.
	NoDataForExtrapolationError
)

// IsExtrapolation reports whether k is one of the extrapolation kinds, all
// of which tf2's lookupTransform throws as ExtrapolationException.
func (k ErrorKind) IsExtrapolation() bool {
	switch k {
	case ExtrapolationError, BackwardExtrapolationError, ForwardExtrapolationError, NoDataForExtrapolationError:
		return true
	}
	return false
}

// String names the kind like tf2's TF2Error constants.
func (k ErrorKind) String() string {
	switch k {
	case LookupError:
		return "LOOKUP_ERROR"
	case ConnectivityError:
		return "CONNECTIVITY_ERROR"
	case ExtrapolationError:
		return "EXTRAPOLATION_ERROR"
	case InvalidArgumentError:
		return "INVALID_ARGUMENT_ERROR"
	case BackwardExtrapolationError:
		return "BACKWARD_EXTRAPOLATION_ERROR"
	case ForwardExtrapolationError:
		return "FORWARD_EXTRAPOLATION_ERROR"
	case NoDataForExtrapolationError:
		return "NO_DATA_FOR_EXTRAPOLATION_ERROR"
	}
	return "ErrorKind(" + itoa(int64(k)) + ")"
}

// RejectCode says why SetTransform refused a transform.
type RejectCode int

const (
	// TFSelfTransform: child and parent are the same frame.
	TFSelfTransform RejectCode = iota + 1
	// TFNoChildFrameID: empty child_frame_id.
	TFNoChildFrameID
	// TFNoFrameID: empty header.frame_id.
	TFNoFrameID
	// TFNaNInput: a NaN in translation or rotation.
	TFNaNInput
	// TFDenormalizedQuaternion: |x²+y²+z²+w² − 1| ≥ 0.01.
	TFDenormalizedQuaternion
	// TFOldData: older than the newest cached stamp minus the cache time.
	TFOldData
)

// String returns tf2's tag for the code (the start of its log line).
func (c RejectCode) String() string {
	switch c {
	case TFSelfTransform:
		return "TF_SELF_TRANSFORM"
	case TFNoChildFrameID:
		return "TF_NO_CHILD_FRAME_ID"
	case TFNoFrameID:
		return "TF_NO_FRAME_ID"
	case TFNaNInput:
		return "TF_NAN_INPUT"
	case TFDenormalizedQuaternion:
		return "TF_DENORMALIZED_QUATERNION"
	case TFOldData:
		return "TF_OLD_DATA"
	}
	return "RejectCode(" + itoa(int64(c)) + ")"
}
