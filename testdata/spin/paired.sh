#!/usr/bin/env bash
# paired.sh: SPIN against once explore at the bounds of issue 22 — double
# billing, at-least-once + idempotent, 6 and 7 payments, at most 8 lost
# requests or responses — on 1 and 2 workers, ROUNDS rounds, each round
# running SPIN and both explores back to back so that the three share the
# machine's load of the moment. It prints one line per round and bound:
# wall times, the ratios once/SPIN, peak RSS, states and verdicts. On a
# shared machine the ratios vary from round to round: read them together.
#
# Needs spin, gcc and Go (see compare.sh). Run: make spin-compare, or
# bash testdata/spin/paired.sh. Exit status: 0 when every run proves the
# model (SPIN: errors 0; once: holds, complete), 1 otherwise, 2 when a
# tool is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
GO="${GO:-go}"
ROUNDS="${ROUNDS:-3}"
BOUNDS="${BOUNDS:-6 7}"
FAULTS="${FAULTS:-8}"

for tool in spin gcc "$GO"; do
	command -v "$tool" >/dev/null 2>&1 || { echo "paired.sh: $tool not found on PATH (apt-get install -y spin gcc)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "paired.sh: /usr/bin/time not found (apt-get install -y time)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$root" && "$GO" build -o "$work/once" ./cmd/once)
for n in $BOUNDS; do
	mkdir -p "$work/n$n"
	cp "$here/double_billing.pml" "$work/n$n/"
	(cd "$work/n$n" && spin -DN="$n" -DMAXF="$FAULTS" -a double_billing.pml >spin.log 2>&1 && gcc -O2 -w -DSAFETY -o pan pan.c)
done

ms() { echo $(($(date +%s%N) / 1000000)); }
jget() { awk -F': ' -v k="\"$2\"" '$1 ~ "^ *"k"$" { v = $2; sub(/,$/, "", v); print v; exit }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

status=0
printf '%-5s %-5s %9s %9s %9s %6s %6s %9s %8s %8s %9s %9s\n' round ops spin_ms w1_ms w2_ms w1/spin w2/spin spin_rssMB w1_rssMB w2_rssMB spin_st once_st
for round in $(seq "$ROUNDS"); do
	for n in $BOUNDS; do
		t0="$(ms)"
		(cd "$work/n$n" && /usr/bin/time -f %M -o pan.rss ./pan -m100000 >pan.out 2>&1) || true
		spin_ms=$(($(ms) - t0))
		grep -q 'errors: 0' "$work/n$n/pan.out" || { echo "paired.sh: SPIN found an error at N=$n" >&2; status=1; }
		for w in 1 2; do
			t0="$(ms)"
			/usr/bin/time -f %M -o "$work/o$w.rss" "$work/once" explore double-billing --semantics idem --ops "$n" \
				--max-faults "$FAULTS" --faults loss,ack-loss --workers "$w" --timing=false --format json >"$work/o$w.json"
			eval "w${w}_ms=$(($(ms) - t0))"
			if [ "$(jget "$work/o$w.json" holds)" != true ] || [ "$(jget "$work/o$w.json" complete)" != true ]; then
				echo "paired.sh: once did not prove N=$n on $w workers" >&2
				status=1
			fi
		done
		printf '%-5s %-5s %9s %9s %9s %6s %6s %9s %8s %8s %9s %9s\n' "$round" "$n/$FAULTS" "$spin_ms" "$w1_ms" "$w2_ms" \
			"$(ratio "$w1_ms" "$spin_ms")" "$(ratio "$w2_ms" "$spin_ms")" \
			$(($(cat "$work/n$n/pan.rss") / 1024)) $(($(cat "$work/o1.rss") / 1024)) $(($(cat "$work/o2.rss") / 1024)) \
			"$(awk '/states, stored/ { print $1 }' "$work/n$n/pan.out")" "$(jget "$work/o1.json" states)"
	done
done
exit "$status"
