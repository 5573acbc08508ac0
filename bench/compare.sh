#!/usr/bin/env bash
# compare.sh: the benchmarks of BASE (a git revision, default main) and of
# the working tree, -benchmem -count COUNT, side by side with benchstat.
# BENCH selects benchmarks (default .), BENCHPKGS the packages. Not CI.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GO="${GO:-go}"
BASE="${BASE:-main}"
BENCH="${BENCH:-.}"
COUNT="${COUNT:-6}"
BENCHTIME="${BENCHTIME:-1s}"
read -r -a pkgs <<<"${BENCHPKGS:-./sim/ ./scenarios/ ./scenarios/enginetest/ ./cmd/once/}"

benchstat="$("$GO" env GOPATH)/bin/benchstat"
[ -x "$benchstat" ] || "$GO" install golang.org/x/perf/cmd/benchstat@latest

work="$(mktemp -d)"
cleanup() {
	git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
git -C "$root" worktree add --detach "$work/base" "$BASE" >/dev/null

run() { (cd "$1" && "$GO" test -run '^$' -bench "$BENCH" -benchmem -benchtime "$BENCHTIME" -count "$COUNT" "${pkgs[@]}") | tee "$2"; }
run "$work/base" "$work/old.txt" >/dev/null
run "$root" "$work/new.txt" >/dev/null
cp "$work/old.txt" "$root/bench-old.out"
cp "$work/new.txt" "$root/bench.out"
"$benchstat" "$work/old.txt" "$work/new.txt"
