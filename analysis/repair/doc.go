// Package repair plans the repair of a bag whose stamps are on the wrong
// clock: for every stamped topic and tf link, which clock its stamps are
// on, which clock they should be on, the mapping that takes them there and
// how well the bag supports it, or why they are left as they are.
//
// The facts come from two places: the finished analysis report (which
// topics are skewed, /clock jumps, damage) and one sampling pass over the
// bag (Sample) that fits the mappings: /clock against record time,
// piecewise linear and split at /clock jumps (ClockMap), and the lower
// envelope of record time − stamp per topic or link (Envelope). Build
// turns both into a Plan; a Patcher applies a plan to one message's bytes,
// changing only the 8 bytes of each stamp it maps.
//
// The package never guesses: where the bag cannot support a mapping (sim
// stamps without /clock, too few samples) the plan refuses with the reason.
package repair
