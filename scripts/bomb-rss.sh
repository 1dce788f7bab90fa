#!/bin/sh
# Peak RSS of bagclock on full-size decompression bombs (issue 10): an MCAP
# chunk that honestly inflates to 1 GiB, one that declares 1 MiB and
# inflates to 2 GiB without a content size, a MESSAGE-mode db3 of 900 MiB
# rows, a FILE-mode .db3.zstd of four concatenated 1 GiB frames. Runs info,
# analyze and scan -j 2 with the default decode budget and fails when a
# run's peak RSS passes 256 MiB. Needs a few GiB of CPU time, not of RAM.
set -e
cd "$(dirname "$0")/.."
BAGCLOCK_BOMB_RSS=1 go test ./internal/bombs -run TestBombRSS -count=1 -v -timeout 30m
