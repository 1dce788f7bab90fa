// Package tf is an in-memory transform buffer that behaves like tf2's
// BufferCore as of Jazzy: per-child time caches with tf2's insert, prune and
// lookup rules, static links, interpolation, time 0 as latest common time,
// and tf2's error kinds and message texts.
//
// Times are int64 nanoseconds in whatever clock the stamps use; 0 means
// "latest" to lookups, as in tf2.
//
// # Model
//
// Frame names are interned to small integers; each child frame owns one
// cache of its link to its parent: a static cache (one entry, answers any
// time with that time as the stamp) or a time cache (entries sorted by
// stamp in a ring that is reused once the cache window is full, so memory
// is bounded by the window, not by the bag). A message of the other kind
// replaces the cache, as ROS 2 does. Insertion follows the chosen
// Generation of tf2's TimeCache::insertData (see Generation; the default is
// the current one: prune before inserting, keep a same-stamp entry unless
// it is an exact copy, reject stamps older than newest − cache time as
// TF_OLD_DATA).
//
// Lookups reproduce walkToTopParent and getLatestCommonTime step by step,
// including their quirks: a failing link above the common ancestor does not
// matter, a failing source-side link is reported only if the target walk
// does not reach the source walk's end, the parent at time t is the older
// neighbour's, neighbours with different parents are not interpolated,
// translation is (1−r)·a + r·b and rotation tf2's slerp (shortest path, no
// renormalisation), time 0 walks at the latest common time of the links'
// newest entries, and a dynamic link emptied by Clear ends that walk.
// Arithmetic follows tf2's LinearMath operation by operation.
//
// # Errors
//
// Lookups fail with *Error. Its Kind is the TimeCache's own classification
// for extrapolation (forward, backward, no data); tf2's lookupTransform
// throws plain ExtrapolationException for all three (see Error.Exception)
// and Humble has only the generic code. The text, built only when Error()
// is called, is Jazzy's byte for byte, with times printed as tf2's
// displayTimePoint does (see DurationToSec). SetTransform refusals are
// *RejectError values with tf2's log lines.
//
// # ROS 1
//
// The package is checked against Debian's tf2 (ROS 1 geometry2 0.7.6) by a
// differential test (oracle_test.go). ROS 1 differs in: rejecting any
// repeated stamp (TF_REPEATED_DATA); pruning after insertion (as
// GenerationPruneAfter); keeping a frame's first cache kind; message
// wording (the extrapolation amount, 9 decimals, validation texts, the
// TF_SELF_TRANSFORM spacing, and a single-entry text cut to "is in the
// buffe"); unsigned 32-bit seconds instead of tf2's int32 durationToSec.
package tf
