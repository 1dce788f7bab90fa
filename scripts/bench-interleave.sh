#!/usr/bin/env bash
# Times two bagclock binaries against each other and against `cat` in
# turns: each round runs `cat BAG`, then OLD and NEW (their order swapped
# every other round, so neither always runs on the warmer cache), on
# `--version` (the process start) and on `analyze --format json -o
# /dev/null BAGDIR`, and each analyze's ratio is to the `cat` of its own
# round. A loaded machine moves all three together, so the per-round
# ratios and the CPU times say more than the fastest run
# (scripts/bench-read.sh) does.
#
#   scripts/bench-interleave.sh OLD NEW            # the large MCAP and db3
#   ROUNDS=25 scripts/bench-interleave.sh OLD NEW BAGFILE...
#
# OLD and NEW are built binaries (e.g. go build -o /tmp/bc-new
# ./cmd/bagclock); the bags are those of `go run ./cmd/baggen --large`
# in $BAGCLOCK_BENCH_DIR (default $TMPDIR/bagclock-bench). Each run is
# timed by internal/bench/iorun: wall, CPU (user+system), peak RSS and
# minor page faults. Prints, per bag and command, min–max and median.
set -u -o pipefail

cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
	echo "usage: scripts/bench-interleave.sh OLD NEW [BAGFILE...]" >&2
	exit 2
fi
old=$1 new=$2
shift 2
rounds=${ROUNDS:-15}
dir=${BAGCLOCK_BENCH_DIR:-${TMPDIR:-/tmp}/bagclock-bench}
bags=("$@")
if [ ${#bags[@]} -eq 0 ]; then
	bags=("$dir/large-mcap/large-mcap_0.mcap" "$dir/large-db3/large-db3_0.db3")
fi
for b in "${bags[@]}"; do
	if [ ! -f "$b" ]; then
		echo "bench-interleave: $b: no such bag (go run ./cmd/baggen --large -o $dir)" >&2
		exit 2
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/iorun" ./internal/bench/iorun || exit 1

# run LABEL CMD...: one timed run, appended to $tmp/runs as
# "bag label round wall_s cpu_s maxrss_kb minflt".
run() {
	local label=$1
	shift
	if ! "$tmp/iorun" -o "$tmp/report" "$@" >/dev/null 2>"$tmp/err"; then
		echo "bench-interleave: $label failed: $(head -c 200 "$tmp/err")" >&2
		exit 1
	fi
	local wall cpu rss flt
	wall=$(grep -o 'wall_s=[0-9.]*' "$tmp/report" | cut -d= -f2)
	cpu=$(grep -o 'cpu_s=[0-9.]*' "$tmp/report" | cut -d= -f2)
	rss=$(grep -o 'maxrss_kb=[0-9]*' "$tmp/report" | cut -d= -f2)
	flt=$(grep -o 'minflt=[0-9]*' "$tmp/report" | cut -d= -f2)
	echo "$bagname $label $round $wall $cpu $rss $flt" >>"$tmp/runs"
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds"
for b in "${bags[@]}"; do
	bagname=$(basename "$(dirname "$b")")
	cat "$b" >/dev/null # warm the page cache
	for round in $(seq "$rounds"); do
		run cat cat "$b"
		pair=(old new)
		[ $((round % 2)) -eq 0 ] && pair=(new old)
		for which in "${pair[@]}"; do
			bin=$old
			[ "$which" = new ] && bin=$new
			run "$which-start" "$bin" --version
			run "$which-analyze" "$bin" analyze --format json -o /dev/null "$(dirname "$b")"
		done
	done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"

# Per bag and label: min-max (median) of wall ms, CPU ms, ratio of wall to
# the same round's cat, peak RSS MiB, page faults.
awk '
function med(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
function span(key, f, n,   i, a) {
	for (i = 1; i <= n; i++) a[i] = v[key, f, i]
	med(a, n)
	return sprintf(fmt[f], a[1]) "-" sprintf(fmt[f], a[n]) " (" sprintf(fmt[f], med(a, n)) ")"
}
BEGIN { fmt["wall"] = "%.1f"; fmt["cpu"] = "%.1f"; fmt["ratio"] = "%.2fx"; fmt["rss"] = "%.1f"; fmt["flt"] = "%d" }
{
	bag = $1; label = $2; round = $3
	if (label == "cat") catwall[bag, round] = $4
	key = bag SUBSEP label
	if (!(key in n)) { order[++nk] = key }
	i = ++n[key]
	v[key, "wall", i] = $4 * 1000; v[key, "cpu", i] = $5 * 1000
	v[key, "rss", i] = $6 / 1024; v[key, "flt", i] = $7
	v[key, "ratio", i] = catwall[bag, round] > 0 ? $4 / catwall[bag, round] : 0
}
END {
	printf "%-12s %-12s %-22s %-22s %-25s %-18s %s\n", "bag", "run", "wall ms", "CPU ms", "vs cat (same round)", "peak MiB", "page faults"
	for (k = 1; k <= nk; k++) {
		key = order[k]; split(key, p, SUBSEP)
		printf "%-12s %-12s %-22s %-22s %-25s %-18s %s\n", p[1], p[2], span(key, "wall", n[key]), span(key, "cpu", n[key]), \
			(p[2] == "cat" ? "1.00x" : span(key, "ratio", n[key])), span(key, "rss", n[key]), span(key, "flt", n[key])
	}
}' "$tmp/runs"
