#!/usr/bin/env bash
# make bench-lab: the issue-20 benchmark of lab exploration with a Python
# node — the idempotent Python starter, double-billing, 2 operations, at
# most 3 faults — timed on the wall clock with python3 as found on PATH
# (a pyenv shim, if that is what the machine has), with the starter's
# reset capability (one process per worker, reset between schedules) and
# with --no-reset (a node without any optional capability: fresh
# processes for every schedule and every restart). Prints each verdict's
# statistics, wall and CPU time; WORKERS (default "1 2 4") and RUNS
# (default 1) repeat it; NORESET=0 skips the slow no-reset run. Not part
# of CI, not a timed test.
set -euo pipefail
GO=${GO:-go}
WORKERS=${WORKERS:-"1 2 4"}
RUNS=${RUNS:-1}
NORESET=${NORESET:-1}
cd "$(dirname "$0")/.."
$GO build -o bin/once ./cmd/once
py=$(command -v python3)
echo "python3: $py ($(python3 -c 'import sys; print(sys.executable)'))"
echo "cores: $(nproc)"
bench() { # label, node flags, workers
  echo "--- $1, --workers $3 · load: $(cut -d' ' -f1-3 /proc/loadavg)"
  local status=0
  /usr/bin/time -f "wall %e s · cpu %U s user + %S s sys (once and its nodes)" \
    bin/once lab double-billing --node service="python3 examples/lab/python/idempotent_service.py$2" \
    --ops 2 --explore --max-faults 3 --workers "$3" || status=$?
  [ "$status" = 0 ] || echo "exit $status"
}
for run in $(seq "$RUNS"); do
  for w in $WORKERS; do
    bench "reset (run $run)" "" "$w"
  done
done
if [ "$NORESET" != 0 ]; then
  bench "no optional capability (--no-reset)" " --no-reset" "$(nproc)"
fi
