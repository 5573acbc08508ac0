#!/usr/bin/env bash
# compare.sh: measure SPIN on testdata/spin/double_billing.pml against
# `once explore` on the same bounds (double billing, 5 payments, at most 6
# lost requests or responses, at-least-once + idempotent service), and the
# at-least-once counterexample of each. See README.md in this folder.
#
# Needs spin and gcc (Debian: apt-get install -y spin) and Go. Not part of
# CI. Run from anywhere: make spin-compare, or bash testdata/spin/compare.sh.
# Exit status: 0 when both tools prove the idempotent model and both find
# the at-least-once double charge; 1 otherwise; 2 when a tool is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
GO="${GO:-go}"
OPS=5
FAULTS=6

missing() {
	echo "compare.sh: $1 not found on PATH — $2" >&2
	exit 2
}
command -v spin >/dev/null 2>&1 || missing spin "install it with: apt-get update && apt-get install -y spin"
command -v gcc >/dev/null 2>&1 || missing gcc "install it with: apt-get install -y gcc"
command -v "$GO" >/dev/null 2>&1 || missing "$GO" "install Go (see README.md)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

have_time=false
[ -x /usr/bin/time ] && have_time=true

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# timed DIR OUT CMD...: run CMD in DIR, stdout to OUT; sets wall_ms and rss_kb.
timed() {
	local dir="$1" out="$2"
	shift 2
	local t0 t1
	t0="$(now_ms)"
	if $have_time; then
		(cd "$dir" && /usr/bin/time -f '%M' -o "$out.rss" "$@" >"$out" 2>"$out.err") || true
		rss_kb="$(tail -n 1 "$out.rss")"
	else
		(cd "$dir" && "$@" >"$out" 2>"$out.err") || true
		rss_kb="n/a"
	fi
	t1="$(now_ms)"
	wall_ms=$((t1 - t0))
}

# build NAME "SPIN -D FLAGS" "GCC FLAGS": spin -a and gcc into $work/NAME.
# pan is a safety search (-DSAFETY) unless GCC FLAGS ask for -DNP.
build() {
	local name="$1" sdefs="$2" cflags="$3" d="$work/$1"
	case " $cflags " in
	*" -DNP "*) ;;
	*) cflags="-DSAFETY $cflags" ;;
	esac
	mkdir -p "$d"
	cp "$here/double_billing.pml" "$d/"
	# shellcheck disable=SC2086
	(cd "$d" && spin $sdefs -a double_billing.pml >spin.log 2>&1) ||
		{ echo "compare.sh: spin $sdefs -a failed:" >&2; cat "$d/spin.log" >&2; exit 1; }
	# -w: pan.c's generated backtracking code trips harmless gcc warnings.
	# shellcheck disable=SC2086
	(cd "$d" && gcc -O2 -w $cflags -o pan pan.c) ||
		{ echo "compare.sh: gcc failed for $name" >&2; exit 1; }
}

# pan_fields OUT: the figures of a pan run, as shell assignments.
pan_fields() {
	awk '
	/errors:/                               { for (i = 1; i <= NF; i++) if ($i == "errors:") err = $(i + 1)
	                                          for (i = 1; i <= NF; i++) if ($i == "reached") depth = $(i + 1); sub(/,/, "", depth) }
	/states, stored/                        { stored = $1 }
	/transitions \(= (stored|visited)\+matched\)/ { trans = $1 }
	/total actual memory usage/             { mem = $1 }
	/pan: elapsed time/                     { el = $4 }
	/pan: rate/                             { rate = $3 }
	END {
		printf "err=%s depth=%s stored=%s trans=%s mem=%s el=%s rate=%s\n", \
			err, depth, stored, trans, mem, (el == "" ? "?" : el), (rate == "" ? "n/a" : rate)
	}' "$1"
}

# run_pan NAME "PAN ARGS" LABEL: run pan, add one row to the summary, and
# set the fields of pan_fields.
err="" depth="" stored="" trans="" mem="" el="" rate="" wall_ms=0 rss_kb=""
rows=()
run_pan() {
	local name="$1" args="$2" label="$3"
	# shellcheck disable=SC2086
	timed "$work/$name" "$work/$name/pan.out" ./pan $args
	eval "$(pan_fields "$work/$name/pan.out")"
	local wrate="n/a"
	[ "$wall_ms" -gt 0 ] && [ -n "$stored" ] && wrate=$((stored * 1000 / wall_ms))
	rows+=("$(printf '%-44s %10s %10s %8s %9s %10s %12s %12s %9s' \
		"$label" "$stored" "$trans" "$depth" "${el}s" "${wall_ms}ms" "$rate" "$wrate" "$mem")")
	if $have_time; then rows[-1]+="$(printf ' %8s' "$((rss_kb / 1024))")"; fi
}

echo "== tools"
spin -V
gcc --version | head -n 1
"$GO" version
echo

# ---------------------------------------------------------------- SPIN proof
echo "== SPIN: at-least-once + idempotent, N=$OPS payments, MAXF=$FAULTS faults"
build idem "" ""
run_pan idem "-m100000" "spin idem (atomic handlers, POR, -w24 default)"
idem_err="$err"
sed -n '/Full statespace search/,/^pan: rate/p' "$work/idem/pan.out"
if [ "$idem_err" != "0" ]; then
	echo "compare.sh: SPIN found an error in the idempotent model:" >&2
	cat "$work/idem/pan.out" >&2
	exit 1
fi
echo

# Termination: a -DSAFETY search checks assertions and end states, but a
# livelock (the client retrying forever, never answered) is a cycle, not an
# end state. With no progress labels in the model, any cycle is a
# non-progress cycle: -DNP with pan -l proves that every run is finite, so
# every run reaches a valid end state where the client asserted its promise.
build idem_np "" "-DNP"
run_pan idem_np "-m100000 -l" "spin idem -DNP -l (no cycle: every run ends)"
[ "$err" = "0" ] || { echo "compare.sh: SPIN found a non-progress cycle:" >&2; cat "$work/idem_np/pan.out" >&2; exit 1; }
echo "non-progress cycle search: errors $err, $stored states ($el s): every run of the model terminates"
echo

# The same search with a hash table sized for ~60 k states (2^18 slots):
# -w24 costs 128 MB that this model never fills.
run_pan idem "-m100000 -w18" "spin idem, hash table -w18"

# Granularity and reduction: the same model without atomic handlers (-DFINE)
# and without partial-order reduction (-DNOREDUCE).
build idem_noreduce "" "-DNOREDUCE"
run_pan idem_noreduce "-m100000" "spin idem -DNOREDUCE"
build idem_fine "-DFINE" ""
run_pan idem_fine "-m100000" "spin idem -DFINE"
build idem_fine_noreduce "-DFINE" "-DNOREDUCE"
run_pan idem_fine_noreduce "-m100000" "spin idem -DFINE -DNOREDUCE"
for r in idem_noreduce idem_fine idem_fine_noreduce; do
	eval "$(pan_fields "$work/$r/pan.out")"
	[ "$err" = "0" ] || { echo "compare.sh: SPIN found an error in variant $r" >&2; exit 1; }
done

# ------------------------------------------------------------ once proof
echo "== once: go run ./cmd/once explore double-billing --semantics idem --ops $OPS --max-faults $FAULTS --faults loss,ack-loss --format json"
(cd "$root" && "$GO" build -o "$work/once" ./cmd/once)
timed "$root" "$work/once_idem.json" "$work/once" explore double-billing --semantics idem \
	--ops "$OPS" --max-faults "$FAULTS" --faults loss,ack-loss --format json
cat "$work/once_idem.json"
jget() { awk -F': ' -v k="\"$2\"" '$1 ~ "^ *"k"$" { v = $2; sub(/,$/, "", v); print v; exit }' "$1"; }
o_states="$(jget "$work/once_idem.json" states)"
o_trans="$(jget "$work/once_idem.json" transitions)"
o_depth="$(jget "$work/once_idem.json" max_depth)"
o_ms="$(jget "$work/once_idem.json" elapsed_ms)"
o_rate="$(jget "$work/once_idem.json" states_per_second)"
o_holds="$(jget "$work/once_idem.json" holds)"
o_complete="$(jget "$work/once_idem.json" complete)"
if [ "$o_holds" != "true" ] || [ "$o_complete" != "true" ]; then
	echo "compare.sh: once did not prove the idempotent model (holds=$o_holds complete=$o_complete)" >&2
	exit 1
fi
o_wrate=$((o_states * 1000 / (wall_ms > 0 ? wall_ms : 1)))
rows+=("$(printf '%-44s %10s %10s %8s %9s %10s %12s %12s %9s' \
	"once explore idem" "$o_states" "$o_trans" "$o_depth" "${o_ms}ms" "${wall_ms}ms" "${o_rate%.*}" "$o_wrate" "n/a")")
if $have_time; then rows[-1]+="$(printf ' %8s' "$((rss_kb / 1024))")"; fi
echo

# ------------------------------------------------ at-least-once counterexample
echo "== SPIN -DALO (no key store): the double charge"
build alo "-DALO" ""
run_pan alo "-m100000" "spin -DALO (first error, MAXF=$FAULTS)"
alo_err="$err" alo_stored="$stored"
[ "$alo_err" != "0" ] || { echo "compare.sh: SPIN did not find the double charge under -DALO" >&2; exit 1; }
grep -E 'assertion violated|errors:' "$work/alo/pan.out" || true
(cd "$work/alo" && spin -DALO -t double_billing.pml >trail.txt 2>&1) || true
alo_steps="$(sed -n 's/.*trail ends after \([0-9]*\) steps.*/\1/p' "$work/alo/trail.txt")"
alo_faults="$(awk '$1 == "faults" { print $3; exit }' "$work/alo/trail.txt")"
alo_depth="$(sed -n 's/.*assertion violated.*(at depth \([0-9]*\)).*/\1/p' "$work/alo/pan.out" | head -n 1)"
echo "trail: $alo_steps steps (error at pan depth $alo_depth), $alo_faults fault(s); its events:"
grep -E '^ +(client|service|gateway) ' "$work/alo/trail.txt" | sed 's/^ */  /' | nl -w3 -s'. '
alo_events="$(grep -cE '^ +(client|service|gateway) ' "$work/alo/trail.txt" || true)"
echo

echo "== SPIN -DALO -DMAXF=1: is one fault enough? (shortest trail, -DREACH -i)"
build alo1 "-DALO -DMAXF=1" "-DREACH"
run_pan alo1 "-m100000 -i" "spin -DALO -DMAXF=1 -i (shortest trail)"
[ "$err" != "0" ] || { echo "compare.sh: SPIN found no double charge with one fault" >&2; exit 1; }
(cd "$work/alo1" && spin -DALO -DMAXF=1 -t double_billing.pml >trail.txt 2>&1) || true
alo1_steps="$(sed -n 's/.*trail ends after \([0-9]*\) steps.*/\1/p' "$work/alo1/trail.txt")"
alo1_events="$(grep -cE '^ +(client|service|gateway) ' "$work/alo1/trail.txt" || true)"
alo1_drop="$(grep -E 'DROP' "$work/alo1/trail.txt" | sed 's/^ *//')"
echo "shortest 1-fault trail: $alo1_steps steps, $alo1_events events, fault: $alo1_drop"
echo

echo "== once: explore double-billing --semantics alo --ops $OPS --max-faults $FAULTS --faults loss,ack-loss"
timed "$root" "$work/once_alo.json" "$work/once" explore double-billing --semantics alo \
	--ops "$OPS" --max-faults "$FAULTS" --faults loss,ack-loss --format json
oa_holds="$(jget "$work/once_alo.json" holds)"
[ "$oa_holds" = "false" ] || { echo "compare.sh: once found no double charge under alo" >&2; exit 1; }
oa_states="$(jget "$work/once_alo.json" states)"
oa_steps="$(awk '/"steps": \[/ { on = 1; next } on && /^ *\]/ { exit } on { n++ } END { print n + 0 }' "$work/once_alo.json")"
oa_faults="$(awk '/"faults": \[/ && ++seen == 2 { on = 1; next } on && /^ *\]/ { exit } on { n++; sub(/^ *"/, ""); sub(/",?$/, ""); print "  " $0 } END { }' "$work/once_alo.json")"
oa_cause="$(jget "$work/once_alo.json" cause)"
echo "once: counterexample after $oa_states states; cause $oa_cause"
echo "$oa_faults"
echo "steps: $oa_steps (deliveries, drops, effects, outcomes, up to the end of the run)"
echo

# ------------------------------------------------------------------ scaling
# SPIN and once on the idempotent proof at growing bounds (SCALE, pairs of
# payments/max-faults), whole processes, wall and CPU time (user+sys) and
# peak RSS; the ratio is once's wall time over SPIN's (below 1: once is
# faster). once runs with --workers 1 and with its default (GOMAXPROCS).
SCALE="${SCALE:-5/6 6/8 7/8}"
# measure OUT CMD...: run CMD, stdout to OUT; sets m_wall m_cpu (s) m_rss (MB).
measure() {
	local out="$1"
	shift
	if $have_time; then
		/usr/bin/time -f '%e %U %S %M' -o "$out.time" "$@" >"$out" 2>"$out.err" || true
		read -r m_wall m_user m_sys m_kb <"$out.time"
		m_cpu="$(echo "$m_user + $m_sys" | bc -l)"
		m_rss=$((m_kb / 1024))
	else
		local t0 t1
		t0="$(now_ms)"
		"$@" >"$out" 2>"$out.err" || true
		t1="$(now_ms)"
		m_wall="$(echo "($t1 - $t0) / 1000" | bc -l)" m_cpu="n/a" m_rss="n/a"
	fi
}
scale_rows=()
for pair in $SCALE; do
	n="${pair%/*}" f="${pair#*/}"
	build "scale_${n}_${f}" "-DN=$n -DMAXF=$f" ""
	measure "$work/scale_${n}_${f}/pan.out" bash -c "cd '$work/scale_${n}_${f}' && ./pan -m100000"
	eval "$(pan_fields "$work/scale_${n}_${f}/pan.out")"
	[ "$err" = "0" ] || { echo "compare.sh: SPIN found an error at N=$n MAXF=$f" >&2; exit 1; }
	s_wall="$m_wall"
	scale_rows+=("$(printf '%-8s %-22s %10s %9s %9s %8s %s' "$n/$f" "spin -DSAFETY -w24" "$stored" "${m_wall}s" "${m_cpu}s" "$m_rss" "")")
	for workers in 1 0; do
		wflag=() label="once explore --workers 1"
		if [ "$workers" = 0 ]; then label="once explore (default)"; else wflag=(--workers 1); fi
		measure "$work/once_${n}_${f}_${workers}.json" "$work/once" explore double-billing --semantics idem \
			--ops "$n" --max-faults "$f" --faults loss,ack-loss --format json "${wflag[@]}"
		[ "$(jget "$work/once_${n}_${f}_${workers}.json" holds)" = "true" ] ||
			{ echo "compare.sh: once did not prove N=$n MAXF=$f:" >&2; cat "$work/once_${n}_${f}_${workers}.json.err" >&2; exit 1; }
		ratio="$(echo "$m_wall / $s_wall" | bc -l)"
		scale_rows+=("$(printf '%-8s %-22s %10s %9s %9s %8s %.2f' "$n/$f" "$label" \
			"$(jget "$work/once_${n}_${f}_${workers}.json" states)" "${m_wall}s" "${m_cpu}s" "$m_rss" "$ratio")")
	done
done

# ------------------------------------------------------------------ summary
echo "== summary (N=$OPS payments, MAXF=$FAULTS faults of loss + ack-loss)"
hdr="$(printf '%-44s %10s %10s %8s %9s %10s %12s %12s %9s' \
	"search" "states" "transitions" "depth" "search" "wall" "states/s" "states/s" "mem MB")"
$have_time && hdr+="$(printf ' %8s' "RSS MB")"
echo "$hdr"
printf '%-44s %10s %10s %8s %9s %10s %12s %12s %9s\n' "" "" "" "" "(own)" "(process)" "(own)" "(wall)" "(pan)"
for r in "${rows[@]}"; do echo "$r"; done
echo
echo "at-least-once counterexample:"
printf '  %-30s %s\n' "SPIN first trail, MAXF=$FAULTS:" "$alo_steps trail steps, $alo_events events, $alo_faults fault(s), $alo_stored states stored"
printf '  %-30s %s\n' "SPIN shortest trail, MAXF=1:" "$alo1_steps trail steps, $alo1_events events, 1 fault: $alo1_drop"
printf '  %-30s %s\n' "once shrunk counterexample:" "$oa_steps steps, $(echo "$oa_faults" | grep -c . || true) fault(s), $oa_states states explored"
echo
echo "scaling (idempotent proof, whole processes; ratio = once wall / SPIN wall):"
printf '%-8s %-22s %10s %9s %9s %8s %s\n' "N/MAXF" "search" "states" "wall" "cpu" "RSS MB" "ratio"
for r in "${scale_rows[@]}"; do echo "$r"; done
