// Package sweeptest runs the archive sweeps of docs/scan.md under real schedulers: the
// Slurm job array on a single-node cluster started from Debian's slurm-wlm
// and munge, and GNU parallel over three "hosts". The sweeps are read from
// docs/scan.md's fenced blocks (README.md shows copies of two), so the docs show
// exactly what is tested.
// The package has no code outside its tests.
package sweeptest
