#!/usr/bin/env bash
# Times `bagclock info` and `bagclock analyze` on the generated ~120 MB
# benchmark bags beside `cat FILE > /dev/null` (a raw read from the page
# cache) and prints the ratios and peak RSS; "startup" is `bagclock
# --version`, the process start every bagclock row includes.
#
#   scripts/bench-read.sh           # the three large bags (generated once)
#   scripts/bench-read.sh --huge    # the 10x bags too (~1.2 GB each)
#
# Bags live in $BAGCLOCK_BENCH_DIR (default $TMPDIR/bagclock-bench), shared
# with `go test -bench . ./internal/bench`. Each command runs $RUNS times
# (default 3); the fastest run counts. A command that fails (analyze before
# it exists) is reported as such and the script goes on.
set -u -o pipefail

cd "$(dirname "$0")/.."
runs=${RUNS:-3}
dir=${BAGCLOCK_BENCH_DIR:-${TMPDIR:-/tmp}/bagclock-bench}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

if [ ! -x /usr/bin/time ]; then
	echo "bench-read: needs /usr/bin/time (Debian package 'time')" >&2
	exit 2
fi

go build -o "$bin/bagclock" ./cmd/bagclock || exit 1
go build -o "$bin/baggen" ./cmd/baggen || exit 1

factors=(--large)
[ "${1:-}" = "--huge" ] && factors+=(--huge)

# best_of CMD...: prints "<seconds> <max RSS kB> <exit status>" of the
# fastest of $runs runs (wall time from date, peak RSS from /usr/bin/time).
best_of() {
	local best="" rss="" status t0 t1 t out
	for _ in $(seq "$runs"); do
		t0=$(date +%s%N)
		/usr/bin/time -o "$bin/time" -f '%M' "$@" >/dev/null 2>"$bin/err"
		status=$?
		t1=$(date +%s%N)
		if [ "$status" -ne 0 ]; then
			echo "- - $status"
			return
		fi
		t=$(awk "BEGIN{printf \"%.3f\", ($t1 - $t0) / 1e9}")
		if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then
			best=$t
			rss=$(tail -n 1 "$bin/time")
		fi
	done
	echo "$best $rss 0"
}

ratio() { awk "BEGIN{ if ($2 > 0) printf \"%.2fx\", $1 / $2; else print \"-\" }"; }

printf '%-18s %-8s %9s %10s %8s\n' bag command seconds 'peak MiB' 'vs cat'
for f in "${factors[@]}"; do
	"$bin/baggen" "$f" -o "$dir" | while IFS=$'\t' read -r name file _size; do
		bagdir=$(dirname "$file")
		cat "$file" >/dev/null # warm the page cache first
		read -r tcat _ _ < <(best_of cat "$file")
		printf '%-18s %-8s %9s %10s %8s\n' "$name" cat "$tcat" - 1.00x
		# The process start alone (runtime, package init, no bag): part of
		# every bagclock row below that cat does not pay.
		read -r t m _ < <(best_of "$bin/bagclock" --version)
		printf '%-18s %-8s %9s %10.1f %8s\n' "$name" startup "$t" "$(awk "BEGIN{print $m/1024}")" "$(ratio "$t" "$tcat")"
		for cmd in info analyze; do
			if [ "$cmd" = analyze ]; then
				args=(analyze --format json -o /dev/null "$bagdir")
			else
				args=(info "$bagdir")
			fi
			read -r t m st < <(best_of "$bin/bagclock" "${args[@]}")
			if [ "$st" != 0 ]; then
				printf '%-18s %-8s %9s %10s %8s  (exit %s: %s)\n' "$name" "$cmd" - - - "$st" "$(head -c 120 "$bin/err" | tr '\n' ' ')"
				continue
			fi
			printf '%-18s %-8s %9s %10.1f %8s\n' "$name" "$cmd" "$t" "$(awk "BEGIN{print $m/1024}")" "$(ratio "$t" "$tcat")"
		done
	done
done
