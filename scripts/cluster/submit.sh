#!/usr/bin/env bash
# Submits a lielow match to Slurm as an array of shards and a merge step after it:
#
#   scripts/cluster/submit.sh OUT N [lielow match flags...]
#
# OUT: a directory on shared storage for the summaries, records and the merged result;
# N: the number of shards (array tasks). LIELOW (default: target/release/lielow of this
# checkout, which must be on shared storage too) is the program every task runs; SBATCH_ARGS
# are extra sbatch options for both jobs (partition, account, --cpus-per-task, --time).
# Prints the two job ids; OUT/merged.txt and OUT/merged.json appear when the merge has run.
# A task that runs again (requeued after a preemption: add --requeue to SBATCH_ARGS where the
# site does not requeue by default) or the match submitted again into the same OUT resumes each
# shard from its records (match.sbatch); give another match an OUT of its own.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
out=$1 shards=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
lielow=${LIELOW:-$here/../../target/release/lielow}
lielow=$(cd "$(dirname "$lielow")" && pwd)/$(basename "$lielow")
[ -x "$lielow" ] || { echo "submit.sh: $lielow is not a program (build it or set LIELOW)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable ${SBATCH_ARGS:-} --chdir="$out" --array="1-$shards" \
    "$here/match.sbatch" "$out" "$shards" "$lielow" "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --chdir="$out" --dependency="afterany:$array" \
    "$here/merge.sbatch" "$out" "$lielow")
merge=${merge%%;*}
echo "array $array merge $merge"
