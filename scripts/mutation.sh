#!/usr/bin/env bash
# Mutation testing with gremlins v0.5.0, one package at a time, one worker.
#
#   scripts/mutation.sh cdr                       # every file of ./cdr
#   scripts/mutation.sh analysis verdict.go rows.go   # only these files
#   scripts/mutation.sh analysis rows.go:166-222      # only these lines
#
# With file names, the package is copied to a scratch tree whose own git
# repository holds those files empty, so `gremlins --diff HEAD` mutates
# every line of them and nothing else (gremlins v0.5.0 has no file filter;
# on a loaded machine a whole package like analysis takes hours). The
# results (KILLED/LIVED/TIMED OUT/NOT COVERED per mutant) go to
# $MUTATION_OUT/<pkg>.log and .json (default /tmp/bagclock-mutation).
# Equivalent mutants and why are listed in docs/dev/mutation.md.
set -eu -o pipefail

cd "$(dirname "$0")/.."
pkg=${1:?usage: scripts/mutation.sh PKGDIR [FILE...]}
shift
out=${MUTATION_OUT:-/tmp/bagclock-mutation}
mkdir -p "$out"
name=$(echo "$pkg" | tr / _)
gremlins=$(command -v gremlins || echo "$(go env GOPATH)/bin/gremlins")
[ -x "$gremlins" ] || go install github.com/go-gremlins/gremlins/cmd/gremlins@v0.5.0
flags=(unleash --workers 1 --timeout-coefficient 30 -o "$out/$name.json")
export GOFLAGS="-short -vet=off"
if [ $# -eq 0 ]; then
	"$gremlins" "${flags[@]}" "./$pkg" | tee "$out/$name.log"
	exit
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$scratch"
cd "$scratch/$pkg"
git init -q .
keep=$(mktemp -d)
for arg in "$@"; do
	f=${arg%%:*}
	mkdir -p "$keep/$(dirname "$f")" && cp "$f" "$keep/$f"
	if [ "$f" = "$arg" ]; then
		: >"$f" # the whole file
	else
		range=${arg#*:} # FILE:FROM-TO: only these lines (blank in the base)
		sed -i "${range%-*},${range#*-}s/.*//" "$f"
	fi
done
git add -A . && git -c user.name=mutation -c user.email=mutation@localhost commit -qm base
for arg in "$@"; do f=${arg%%:*}; cp "$keep/$f" "$f"; done
rm -rf "$keep"
"$gremlins" "${flags[@]}" --diff HEAD "$PWD" | tee "$out/$name.log"
