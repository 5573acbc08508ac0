#!/usr/bin/env bash
# explore.sh: the scaling table of issue 33 in one run — `once explore
# double-billing --semantics idem --faults loss,ack-loss --ops N
# --max-faults N` (default budgets, default reductions, default workers)
# against SPIN on the same model (testdata/spin/double_billing.pml,
# -DSAFETY, one core), bound after bound, back to back, so both share the
# machine's load of the moment. Not part of CI: make bench-explore.
#
# Per bound it prints once's states, transitions, the reduction it used,
# wall and CPU time (user + sys of the whole process) and peak RSS; the
# same with --reduce none (up to NONE_UPTO operations: its states and
# transitions, what the reductions save); and SPIN's states, transitions,
# hash table, wall and CPU time and RSS. The ratios are once's time over
# SPIN's (below 1: once is faster).
#
# SPIN is also run without its partial-order reduction (-DNOREDUCE, up to
# NOREDUCE_UPTO operations, default 7): on this model, one atomic step
# per handler as once's engine steps, its reduction prunes nothing — the
# column shows it (docs/explore.md, "Why there is no partial-order
# reduction").
#
# SPIN's hash table is sized to the state space: 2^w slots with w from
# the previous bound's stored states times 8 (SPIN grows about 4–7× per
# bound on this model), 2^20 for the first. pan is built with
# -DMEMLIM=SPIN_MEMLIM (MB, default 12000): a bound that needs more is
# reported as "memory" rather than run into the machine's swap. SPIN is
# run up to SPIN_UPTO operations (default 9: at 9 / 9 it stores 56 M
# states in about 10 GB; 10 / 10 does not fit in 23 GB).
#
# State and transition counts are deterministic; times are not. On a
# shared machine say so beside any time this prints.
#
# Environment: SCALE (default "6 7 8 9 10": N operations with N faults
# each; add 12 for issue 33's 12 / 12), SPIN_UPTO, NONE_UPTO (default 9),
# NOREDUCE_UPTO, SPIN_MEMLIM, GO. Needs spin and gcc (apt-get install -y spin gcc),
# /usr/bin/time (apt-get install -y time) and Go. Exit status: 0 when every
# search that finished proved the model, 1 otherwise, 2 when a tool is
# missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
GO="${GO:-go}"
SCALE="${SCALE:-6 7 8 9 10}"
SPIN_UPTO="${SPIN_UPTO:-9}"
NONE_UPTO="${NONE_UPTO:-9}"
NOREDUCE_UPTO="${NOREDUCE_UPTO:-7}"
SPIN_MEMLIM="${SPIN_MEMLIM:-12000}"

for tool in spin gcc "$GO"; do
	command -v "$tool" >/dev/null 2>&1 || { echo "explore.sh: $tool not found on PATH (apt-get install -y spin gcc)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "explore.sh: /usr/bin/time not found (apt-get install -y time)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$root" && "$GO" build -o "$work/once" ./cmd/once)

jget() { awk -F': ' -v k="\"$2\"" '$1 ~ "^ *"k"$" { v = $2; sub(/,$/, "", v); gsub(/"/, "", v); print v; exit }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "—" }'; }
# measure OUT CMD...: run CMD, stdout to OUT; sets m_wall m_cpu (s) m_rss (MB).
measure() {
	local out="$1"
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$out.time" "$@" >"$out" 2>"$out.err" || true
	local user sys kb
	read -r m_wall user sys kb <"$out.time"
	m_cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
	m_rss=$((kb / 1024))
}
# once_row N REDUCE: once explore at N / N; sets o_* fields.
once_row() {
	local n="$1" reduce="$2" out="$work/once_${1}_$2.json"
	measure "$out" "$work/once" explore double-billing --semantics idem --ops "$n" --max-faults "$n" \
		--faults loss,ack-loss --reduce "$reduce" --format json
	o_states="$(jget "$out" states)" o_trans="$(jget "$out" transitions)"
	o_holds="$(jget "$out" holds)" o_complete="$(jget "$out" complete)" o_reduction="$(jget "$out" reduction)"
	o_verdict=HOLDS
	if [ "$o_holds" != true ]; then
		o_verdict=VIOLATED status=1
	elif [ "$o_complete" != true ]; then
		o_verdict="cut: $(jget "$out" cut)"
	fi
	o_wall="$m_wall" o_cpu="$m_cpu" o_rss="$m_rss"
}

status=0
w=20
echo "== tools"
spin -V
gcc --version | head -n 1
"$GO" version
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo
printf '%-7s | %-44s | %-22s | %-48s | %-22s | %s\n' "ops/f" "once (default reductions)" "once --reduce none" "SPIN -DSAFETY" "SPIN -DNOREDUCE" "once/SPIN"
printf '%-7s | %10s %11s %6s %7s %6s | %10s %11s | %10s %11s %3s %8s %8s %6s | %10s %11s | %6s %6s\n' \
	"" states transitions wall cpu RSS states transitions states transitions -w wall cpu RSS states transitions wall cpu
rows=()
for n in $SCALE; do
	once_row "$n" all
	d_states="$o_states" d_trans="$o_trans" d_wall="$o_wall" d_cpu="$o_cpu" d_rss="$o_rss" d_verdict="$o_verdict" d_reduction="$o_reduction"
	n_states="—" n_trans="—"
	if [ "$n" -le "$NONE_UPTO" ]; then
		once_row "$n" none
		n_states="$o_states" n_trans="$o_trans"
		[ "$o_verdict" = HOLDS ] || n_states="$o_states ($o_verdict)"
	fi
	s_states="—" s_trans="—" s_wall="—" s_cpu="—" s_rss="—" s_w="—" r_wall="—" r_cpu="—"
	if [ "$n" -le "$SPIN_UPTO" ]; then
		d="$work/spin$n"
		mkdir -p "$d"
		cp "$root/testdata/spin/double_billing.pml" "$d/"
		(cd "$d" && spin -DN="$n" -DMAXF="$n" -a double_billing.pml >spin.log 2>&1 &&
			gcc -O2 -w -DSAFETY -DMEMLIM="$SPIN_MEMLIM" -o pan pan.c) ||
			{ echo "explore.sh: building SPIN's verifier for N=$n failed" >&2; exit 1; }
		measure "$d/pan.out" bash -c "cd '$d' && ./pan -m100000 -w$w"
		s_states="$(awk '/states, stored/ { print $1 }' "$d/pan.out")"
		s_trans="$(awk '/transitions \(= (stored|visited)\+matched\)/ { printf "%.0f\n", $1 }' "$d/pan.out")"
		s_w="$w" s_wall="$m_wall" s_cpu="$m_cpu" s_rss="$m_rss"
		if grep -q 'reached -DMEMLIM bound\|out of memory' "$d/pan.out"; then
			s_states="memory (> $SPIN_MEMLIM MB)"
		elif ! grep -q 'errors: 0' "$d/pan.out"; then
			echo "explore.sh: SPIN found an error at N=$n:" >&2
			cat "$d/pan.out" >&2
			status=1
		else
			r_wall="$(ratio "$d_wall" "$s_wall")" r_cpu="$(ratio "$d_cpu" "$s_cpu")"
			w="$(awk -v s="$s_states" 'BEGIN { w = 20; while (2 ^ w < 8 * s) w++; print (w > 32 ? 32 : w) }')"
		fi
	fi
	nr_states="—" nr_trans="—"
	if [ "$n" -le "$NOREDUCE_UPTO" ] && [ "$n" -le "$SPIN_UPTO" ]; then
		d="$work/spin$n"
		(cd "$d" && gcc -O2 -w -DSAFETY -DNOREDUCE -DMEMLIM="$SPIN_MEMLIM" -o pan_noreduce pan.c) ||
			{ echo "explore.sh: building SPIN's verifier -DNOREDUCE for N=$n failed" >&2; exit 1; }
		(cd "$d" && ./pan_noreduce -m100000 -w"$s_w" >pan_noreduce.out 2>&1) || true
		nr_states="$(awk '/states, stored/ { print $1 }' "$d/pan_noreduce.out")"
		nr_trans="$(awk '/transitions \(= (stored|visited)\+matched\)/ { printf "%.0f\n", $1 }' "$d/pan_noreduce.out")"
		grep -q 'errors: 0' "$d/pan_noreduce.out" || { echo "explore.sh: SPIN -DNOREDUCE found an error at N=$n" >&2; status=1; }
	fi
	printf '%-7s | %10s %11s %6ss %6ss %6s | %10s %11s | %10s %11s %3s %7ss %7ss %6s | %10s %11s | %6s %6s\n' \
		"$n/$n" "$d_states" "$d_trans" "$d_wall" "$d_cpu" "$d_rss" "$n_states" "$n_trans" \
		"$s_states" "$s_trans" "$s_w" "$s_wall" "$s_cpu" "$s_rss" "$nr_states" "$nr_trans" "$r_wall" "$r_cpu"
	rows+=("$n/$n: once $d_verdict (reduction: $d_reduction)")
done
echo
echo "RSS in MB; wall and cpu in seconds (cpu: user + sys of the whole process)."
for r in "${rows[@]}"; do echo "$r"; done
echo "machine: load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
exit "$status"
