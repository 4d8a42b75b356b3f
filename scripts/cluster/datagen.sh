#!/usr/bin/env bash
# Submits a lielow datagen run to Slurm as an array of shards and a join step after it:
#
#   scripts/cluster/datagen.sh OUT N [lielow datagen flags of the whole run, without -o]
#
# OUT: a directory on shared storage; N: the number of shards (array tasks). Task K plays shard
# K/N of the run the flags describe (--games is the whole run's) into OUT/shard-K.bin; the join
# step then writes OUT/data.bin, byte for byte the file `lielow datagen FLAGS -o data.bin`
# writes in one piece (`lielow datagen --join`, which refuses missing, unfinished or foreign
# shards and then writes nothing). Submitting again resumes: each shard goes on from the games
# already in its file, and the join runs again.
#
# LIELOW (default: target/release/lielow of this checkout, on shared storage too) is the program
# every shard runs; LIELOW_JOIN (default: LIELOW) the one that joins (a lielow that has
# `datagen --join`; set it when LIELOW is an older revision). SBATCH_ARGS are extra sbatch
# options for both jobs (partition, account, --cpus-per-task, --time: give --concurrency the
# task's cores). WAIT=1 waits for the join and exits with its status (scripts/train.sh does);
# otherwise the two job ids are printed and OUT/data.bin appears when the join has run.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
out=$1 shards=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
lielow=${LIELOW:-$here/../../target/release/lielow}
lielow=$(absolute "$lielow")
joiner=$(absolute "${LIELOW_JOIN:-$lielow}")
for program in "$lielow" "$joiner"; do
    [ -x "$program" ] || { echo "datagen.sh: $program is not a program (build it or set LIELOW)" >&2; exit 2; }
done
games='' previous=''
for arg in "$@"; do
    case $arg in
    -o | --output | --output=* | --shard | --shard=* | --join | --join=*)
        echo "datagen.sh: $arg is the script's to give (OUT/shard-K.bin, --shard K/N, the join)" >&2
        exit 2 ;;
    --games=*) games=${arg#--games=} ;;
    esac
    [ "$previous" = --games ] && games=$arg
    previous=$arg
done
[ -n "$games" ] || { echo "datagen.sh: give the whole run's --games" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable ${SBATCH_ARGS:-} --chdir="$out" --array="1-$shards" \
    "$here/datagen.sbatch" "$out" "$shards" "$lielow" "$@")
array=${array%%;*}
wait=()
[ "${WAIT:-0}" = 1 ] && wait=(--wait)
# shellcheck disable=SC2086
join=$(sbatch --parsable "${wait[@]}" ${SBATCH_ARGS:-} --chdir="$out" \
    --dependency="afterany:$array" "$here/datagen-join.sbatch" "$out" "$shards" "$games" "$joiner")
join=${join%%;*}
echo "array $array join $join"
