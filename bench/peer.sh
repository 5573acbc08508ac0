#!/usr/bin/env bash
# peer.sh: the SimPy model of double-billing (bench/simpy_double_billing.py,
# 10 operations, lean callback style) beside `once matrix --workers 1` on
# the same model, one core each, and the ratio of runs per second. Also the
# engine's reused-world runs (sim.Runs, what a batch can use) from
# BenchmarkDoubleBillingRuns. Not part of CI: make bench-peer.
#
# The two run in ROUNDS (default 5) interleaved pairs, and the medians are
# compared, so that a neighbour's burst of load does not decide the ratio.
# Two measures: wall time (once: the whole process, start-up included;
# SimPy: its own loop, interpreter start-up excluded) and CPU time, the
# "per core" measure that a loaded machine disturbs least (once: user + sys
# of the whole process; SimPy: process_time of its loop).
#
# once's start-up (process, package init, messages, the scenario file:
# about 50 ms of CPU, most of it the kernel mapping a 37 MB binary and the
# init of the packages linked for other commands) is measured on its own,
# as the CPU of a --seeds 1 process (median of 5 per round), and a third
# figure leaves it out, as SimPy's leaves out its interpreter's: the runs
# past the first over the CPU they added, (2·SEEDS − 2) / (CPU(SEEDS) −
# CPU(1)). That is the per-run rate on one core; the whole-process figure
# depends on SEEDS (start-up is amortised over more runs).
#
# Needs Debian's python3-simpy3 (apt-get install -y python3-simpy3) for
# /usr/bin/python3, and Go. SEEDS (default 20000) seeds per semantics.
# Exit status 2 when a tool is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
GO="${GO:-go}"
PY="${PYTHON:-/usr/bin/python3}"
SEEDS="${SEEDS:-20000}"
ROUNDS="${ROUNDS:-5}"

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

once_runs=$((2 * SEEDS))
TIMEFORMAT='%3R %3U %3S'
for round in $(seq "$ROUNDS"); do
	# once: wall and CPU seconds of the whole process.
	{ time "${pin[@]}" "$work/once" matrix -f "$work/double-billing-10.yaml" --workers 1 --seeds "$SEEDS" >"$work/matrix.out"; } 2>"$work/time.out"
	tail -n 1 "$work/time.out" | awk -v n="$once_runs" '{ printf "%d %d %.3f\n", n / $1, n / ($2 + $3), $2 + $3 }' >>"$work/once.rates"
	# once's start-up: the CPU of a one-seed process, median of 5.
	: >"$work/start.cpu"
	for _ in 1 2 3 4 5; do
		{ time "${pin[@]}" "$work/once" matrix -f "$work/double-billing-10.yaml" --workers 1 --seeds 1 >/dev/null; } 2>"$work/time.out"
		tail -n 1 "$work/time.out" | awk '{ printf "%.3f\n", $2 + $3 }' >>"$work/start.cpu"
	done
	start="$(sort -n "$work/start.cpu" | sed -n 3p)"
	# The start-up proper: CPU from exec to the first simulated event of
	# `once run double-billing`, as the process itself measures it
	# (ONCE_STARTUP_CPU), median of 5.
	for _ in 1 2 3 4 5; do
		ONCE_STARTUP_CPU=1 "${pin[@]}" "$work/once" run double-billing 2>&1 >/dev/null | sed -n 's/^once: start-up \([0-9.]*\) ms.*/\1/p'
	done | sort -n | sed -n 3p >>"$work/first.event"
	tail -n 1 "$work/once.rates" | awk -v n="$once_runs" -v s="$start" '{ printf "%d %.3f\n", (n - 2) / ($3 - s), s }' >>"$work/once.runs"
	"${pin[@]}" "$PY" "$here/simpy_double_billing.py" "$SEEDS" both cb >"$work/simpy.out"
	wall="$(sed -n 's/.* = \([0-9]*\) runs\/s.*/\1/p' "$work/simpy.out" | head -1)"
	cpu="$(sed -n 's/^simpy-cpu: .* = \([0-9]*\) runs\/s.*/\1/p' "$work/simpy.out")"
	echo "$wall $cpu" >>"$work/simpy.rates"
done

# median COLUMN FILE
median() { sort -n -k"$1" "$2" | awk -v c="$1" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }
once_wall="$(median 1 "$work/once.rates")" once_cpu="$(median 2 "$work/once.rates")"
once_runs_cpu="$(median 1 "$work/once.runs")" once_start="$(median 2 "$work/once.runs")"
simpy_wall="$(median 1 "$work/simpy.rates")" simpy_cpu="$(median 2 "$work/simpy.rates")"

bench_rates="$(cd "$root" && "${pin[@]}" "$GO" test ./scenarios/enginetest/ -run '^$' -bench 'DoubleBillingRuns/' -benchtime 2s |
	awk '/runs\/s/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "runs/s") r += $i; n++ } END { if (n) printf "%d", r / n }')"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%6.1fx", a / b }'; }
echo "== double-billing, 10 operations, alo + idem, seeds 1..$SEEDS each, one core, median of $ROUNDS interleaved rounds"
sed '/^simpy-/d' "$work/simpy.out"
printf 'SimPy (its loop)                         %8d runs/s wall  %8d runs/s CPU\n' "$simpy_wall" "$simpy_cpu"
printf 'once matrix --workers 1 (whole process)  %8d runs/s wall  %8d runs/s CPU  %s SimPy wall  %s SimPy CPU\n' \
	"$once_wall" "$once_cpu" "$(ratio "$once_wall" "$simpy_wall")" "$(ratio "$once_cpu" "$simpy_cpu")"
printf 'once, start-up excluded (%3.0f ms CPU)   %8s runs/s wall  %8d runs/s CPU  %8s            %s SimPy CPU\n' \
	"$(awk -v s="$once_start" 'BEGIN { print s * 1000 }')" "—" "$once_runs_cpu" "" "$(ratio "$once_runs_cpu" "$simpy_cpu")"
printf 'once run double-billing: %s ms CPU from exec to its first event (median of %d×5)\n' "$(median 1 "$work/first.event")" "$ROUNDS"
printf 'sim.Runs (reused world, no digest)       %8d runs/s wall                      %s SimPy wall\n' \
	"$bench_rates" "$(ratio "$bench_rates" "$simpy_wall")"
