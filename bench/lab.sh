#!/usr/bin/env bash
# make bench-lab: the issue-20 benchmark of lab exploration with a Python
# node — the idempotent Python starter, double-billing, 2 operations, at
# most 3 faults — timed on the wall clock with python3 as found on PATH
# (a pyenv shim, if that is what the machine has). Prints the verdict's
# statistics and the wall time; not part of CI, not a timed test.
set -euo pipefail
GO=${GO:-go}
cd "$(dirname "$0")/.."
$GO build -o bin/once ./cmd/once
py=$(command -v python3)
echo "python3: $py ($(python3 -c 'import sys; print(sys.executable)'))"
echo "cores: $(nproc) · load: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
status=0
bin/once lab double-billing --node service="python3 examples/lab/python/idempotent_service.py" \
  --ops 2 --explore --max-faults 3 "$@" || status=$?
end=$(date +%s.%N)
echo "wall: $(echo "$end - $start" | bc) s (exit $status)"
