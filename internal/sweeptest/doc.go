// Package sweeptest runs README's archive sweeps under real schedulers: the
// Slurm job array on a single-node cluster started from Debian's slurm-wlm
// and munge, and GNU parallel over three "hosts". The sweeps are read from
// README.md's fenced blocks, so the README shows exactly what is tested.
// The package has no code outside its tests.
package sweeptest
