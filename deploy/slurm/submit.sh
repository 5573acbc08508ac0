#!/bin/bash
# Submits the array and, after every task of it succeeded, the merge.
#   bash deploy/slurm/submit.sh          (from the directory that gets shards/ and matrix.txt)
#   bash deploy/slurm/submit.sh explore  (explore-shards/ and explore.txt)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
what=${1:-matrix}
case "$what" in
matrix) ;;
explore)
	export ONCE_SHARDS_DIR=${ONCE_SHARDS_DIR:-explore-shards} ONCE_REPORT=${ONCE_REPORT:-explore.txt}
	;;
*)
	echo "submit.sh: $what: want matrix or explore" >&2
	exit 2
	;;
esac
array=$(sbatch --parsable "$here/$what.sbatch")
array=${array%%;*} # --parsable may add ";cluster"
sbatch --dependency="afterok:$array" "$here/merge.sbatch"
