package analysis

// Defaults of Config, each written once here in nanoseconds (the unit the
// replay works in); flags and documents that quote them in seconds convert
// from these. The tf cache length is tf.DefaultCacheTimeNS, which every
// preset that does not set its own uses.
const (
	// DefaultMaxAgeNS is the age (reference clock − header stamp) above
	// which a message counts as stale when Config.MaxAgeNS is 0:
	// safety-relevant consumers (Nav2's collision monitor among them) drop
	// data older than about half a second.
	DefaultMaxAgeNS = int64(500_000_000)
	// DefaultJumpMinForwardNS is the least forward jump of /clock or of
	// the stamps reported when Config.JumpMinForwardNS is 0 (auto: 10× the
	// median tick, never less than this).
	DefaultJumpMinForwardNS = int64(1_000_000_000)
)
