#!/bin/bash
# Submits the array and, after every task of it succeeded, the merge.
#   bash deploy/slurm/submit.sh        (from the directory that gets shards/ and matrix.txt)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
array=$(sbatch --parsable "$here/matrix.sbatch")
array=${array%%;*} # --parsable may add ";cluster"
sbatch --dependency="afterok:$array" "$here/merge.sbatch"
