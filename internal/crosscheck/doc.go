// Package crosscheck holds tests only: they read every bag in ../shared/bags
// through bagread, decode LaserScan, TFMessage, Clock and Log with cdr, and
// compare the results with the facts in ../shared/bags/PROVENANCE.md and
// with Foxglove's JavaScript decoder (../shared/peers/js/dump.mjs).
//
// The peer test needs Node.js 20–22 with npm, and python3, make and g++ for
// better-sqlite3's native build; it installs the peer's npm packages once
// into the user cache directory (bagclock-peers/js-<lockfile hash>) and
// skips when node or npm is missing or under -short.
package crosscheck
