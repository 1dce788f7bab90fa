#!/usr/bin/env bash
# bench-scan.sh: time `bagclock scan` over a 20-bag archive of generated
# bags with -j 1 and -j 2 in the same run and print the speed-up.
# Target (issue 4): -j 2 at least 1.7x faster than -j 1 on a 2-core machine.
#
# Usage: scripts/bench-scan.sh [WORKDIR]   (default: a fresh temp dir, removed at exit)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-}
if [[ -z "$work" ]]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/bin"

echo "building bagclock and baggen ..."
(cd "$repo" && go build -o "$work/bin/bagclock" ./cmd/bagclock && go build -o "$work/bin/baggen" ./cmd/baggen)

# Bags long enough (default 120 s each) that per-bag fixed costs (process
# setup, index fsync) do not hide the parallel part.
duration=${BAGCLOCK_BENCH_DURATION:-120s}
archive="$work/archive-$duration"
if [[ ! -d "$archive" ]]; then
	echo "generating 20 bags into $archive ..."
	cases=(both_sim both_system laser_system_tf_sim laser_sim_tf_system laser_zero_stamp
		clock_loop sim_reset skew_2_5s static_only demo)
	for storage in mcap sqlite3; do
		for c in "${cases[@]}"; do
			"$work/bin/baggen" --case "$c" --storage "$storage" --duration "$duration" -o "$archive/$storage/$c" >/dev/null
		done
	done
fi
bags=$(find "$archive" -name metadata.yaml | wc -l)
size=$(du -sh "$archive" | cut -f1)
echo "archive: $bags bags, $size"

# One scan with N workers; --force so nothing is reused, --quiet so only
# the summary line is printed. Exit code 1 (findings) or 3 (error rows) is
# part of the result, not a failure of the benchmark.
run() {
	local j=$1 out="$work/out-j$1"
	rm -rf "$out"
	local t0 t1
	t0=$(date +%s.%N)
	"$work/bin/bagclock" scan -j "$j" --force --quiet --out "$out" "$archive" 2>"$work/log-j$j" || true
	t1=$(date +%s.%N)
	tail -n 1 "$work/log-j$j" >&2
	echo "$t1 - $t0" | bc -l
}

# Warm the page cache once so both timed runs read from memory.
run 2 >/dev/null 2>&1
t1=$(run 1)
t2=$(run 2)
ratio=$(echo "$t1 / $t2" | bc -l)
printf 'scan -j 1: %.2f s\nscan -j 2: %.2f s\nspeed-up -j 2 vs -j 1: %.2fx (target >= 1.7x)\n' "$t1" "$t2" "$ratio"
if ! cmp -s "$work/out-j1/index.jsonl" "$work/out-j2/index.jsonl"; then
	echo "WARNING: -j 1 and -j 2 wrote different index.jsonl files" >&2
fi
