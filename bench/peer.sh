#!/usr/bin/env bash
# peer.sh: the SimPy model of double-billing (bench/simpy_double_billing.py,
# 10 operations, lean callback style) beside `once matrix --workers 1` on
# the same model, one core each, and the ratio of runs per second. Also the
# engine's reused-world runs (sim.Runs, what a batch can use) from
# BenchmarkDoubleBillingRuns. Not part of CI: make bench-peer.
#
# Needs Debian's python3-simpy3 (apt-get install -y python3-simpy3) for
# /usr/bin/python3, and Go. SEEDS (default 3000) seeds per semantics.
# Exit status 2 when a tool is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
GO="${GO:-go}"
PY="${PYTHON:-/usr/bin/python3}"
SEEDS="${SEEDS:-3000}"

"$PY" -c 'import simpy' 2>/dev/null ||
	{ echo "peer.sh: SimPy not found for $PY — install it with: apt-get install -y python3-simpy3" >&2; exit 2; }
command -v "$GO" >/dev/null 2>&1 || { echo "peer.sh: $GO not found on PATH" >&2; exit 2; }

pin=()
command -v taskset >/dev/null 2>&1 && pin=(taskset -c 0)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(cd "$root" && "$GO" build -o "$work/once" ./cmd/once)

# The catalog's double-billing with 10 operations and one alo and one idem
# row under the scenario's own faults.
awk '
	/^ops:/ { print "ops: 10"; next }
	/^expect:/ { print; print "  - {semantics: alo, show: [\">=1\", dup]}"; print "  - {semantics: idem, show: [\"=1\"]}"; skip = 1; next }
	skip && /^  - / { next }
	{ skip = 0; print }
' "$root/scenarios/catalog/double-billing.yaml" >"$work/double-billing-10.yaml"

now_ns() { date +%s%N; }

t0="$(now_ns)"
"${pin[@]}" "$work/once" matrix -f "$work/double-billing-10.yaml" --workers 1 --seeds "$SEEDS" >"$work/matrix.out"
t1="$(now_ns)"
once_runs=$((2 * SEEDS))
once_rate=$((once_runs * 1000000000 / (t1 - t0)))

"${pin[@]}" "$PY" "$here/simpy_double_billing.py" "$SEEDS" both cb >"$work/simpy.out"
simpy_rate="$(sed -n 's/.* = \([0-9]*\) runs\/s.*/\1/p' "$work/simpy.out")"

bench_rates="$(cd "$root" && "${pin[@]}" "$GO" test ./sim/ -run '^$' -bench 'DoubleBillingRuns/' -benchtime 2s |
	awk '/runs\/s/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "runs/s") r += $i; n++ } END { if (n) printf "%d", r / n }')"

echo "== double-billing, 10 operations, alo + idem, seeds 1..$SEEDS each, one core"
cat "$work/simpy.out"
printf 'once matrix --workers 1 (whole process)  %8d runs/s  %6.1fx SimPy\n' "$once_rate" "$(echo "$once_rate / $simpy_rate" | bc -l)"
printf 'sim.Runs (reused world, no digest)       %8d runs/s  %6.1fx SimPy\n' "$bench_rates" "$(echo "$bench_rates / $simpy_rate" | bc -l)"
