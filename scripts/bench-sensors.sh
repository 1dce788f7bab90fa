#!/usr/bin/env bash
# The camera + 3D-lidar benchmark (issue 9): two ~2.2 GB bags (1920x1080
# rgb8 Image at 30 Hz, 64x1024 PointCloud2 at 10 Hz, Imu at 200 Hz, tf at
# 100 Hz, /clock), uncompressed MCAP and db3. For each, from the same run:
# `cat FILE > /dev/null` from the page cache, and `bagclock analyze`, each
# timed by iorun (wall time, peak RSS, and rchar: the bytes asked of read
# syscalls, so a read from the page cache counts too), fastest of $RUNS.
# Then the bagread-level figures: go test -bench Sensors (a prefix read of
# the sensor topics' headers beside a raw read, with its read share and a
# fresh process's peak RSS).
#
#   scripts/bench-sensors.sh            # needs ~4.4 GB in $BAGCLOCK_BENCH_DIR
#
# Bags live in $BAGCLOCK_BENCH_DIR (default $TMPDIR/bagclock-bench) and are
# generated once (about 4 minutes); delete them when done.
set -u -o pipefail

cd "$(dirname "$0")/.."
runs=${RUNS:-3}
dir=${BAGCLOCK_BENCH_DIR:-${TMPDIR:-/tmp}/bagclock-bench}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

go build -o "$bin/bagclock" ./cmd/bagclock || exit 1
go build -o "$bin/baggen" ./cmd/baggen || exit 1
go build -o "$bin/iorun" ./internal/bench/iorun || exit 1

# best_of CMD...: the fastest of $runs runs as
# "wall_s maxrss_kb rchar read_bytes status" (iorun's fields, in its order).
best_of() {
	local best="" line="" w
	for _ in $(seq "$runs"); do
		"$bin/iorun" -o "$bin/report" "$@" >/dev/null 2>"$bin/err"
		read -r w _ < <(sed 's/wall_s=//' "$bin/report")
		if [ -z "$best" ] || awk "BEGIN{exit !($w < $best)}"; then
			best=$w
			line=$(sed -E 's/[a-z_]+=//g' "$bin/report")
		fi
	done
	echo "$line"
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (GOMAXPROCS=${GOMAXPROCS:-unset})"
printf '%-14s %-8s %8s %9s %12s %10s\n' bag command seconds 'peak MiB' 'read share' 'vs cat'
"$bin/baggen" --sensor-bench -o "$dir" | while IFS=$'\t' read -r name file _size; do
	size=$(stat -c %s "$file")
	cat "$file" >/dev/null # warm the page cache
	read -r tcat mcat rcat _ < <(best_of cat "$file")
	printf '%-14s %-8s %8s %9.1f %11.1f%% %10s\n' "$name" cat "$tcat" "$(awk "BEGIN{print $mcat/1024}")" \
		"$(awk "BEGIN{print 100*$rcat/$size}")" 1.00x
	read -r t m r _ st < <(best_of "$bin/bagclock" analyze --format json -o /dev/null "$(dirname "$file")")
	if [ "$st" != 0 ]; then
		printf '%-14s %-8s failed (exit %s): %s\n' "$name" analyze "$st" "$(head -c 200 "$bin/err" | tr '\n' ' ')"
		continue
	fi
	printf '%-14s %-8s %8s %9.1f %11.2f%% %9.2fx\n' "$name" analyze "$t" "$(awk "BEGIN{print $m/1024}")" \
		"$(awk "BEGIN{print 100*$r/$size}")" "$(awk "BEGIN{print $t/$tcat}")"
done

echo
go test -run '^$' -bench 'Sensors' -benchtime "${runs}x" ./internal/bench -args -sensors
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
