#!/usr/bin/env bash
# An SPSA tuning run across a Slurm cluster: each iteration's game pairs cut into shards that
# run as one array job (sbatch --wait), then added up here and θ moved (`lielow spsa
# --update`), iteration after iteration until the run's last.
#
#   scripts/cluster/spsa.sh STATE SHARDS [lielow spsa flags of a new run...]
#
# Without STATE, the flags start a new run (`lielow spsa --init --state STATE FLAGS`: --params,
# --engine, --iterations, --pairs, limits, seed); with it, the run goes on from STATE (the flags
# are then ignored), so a driver that was stopped is simply started again. An iteration's
# partial results go to STATE.d/iteration-K/ (K from 1). The state after each iteration is
# exactly what one `lielow spsa` run would have written (with fixed --nodes the games are
# deterministic). LIELOW: the lielow binary (default target/release/lielow); SBATCH_ARGS:
# options for sbatch (e.g. "--cpus-per-task=2 --partition=cpu"); SHARD_FLAGS: flags for each
# shard (e.g. "--concurrency 2").
#
# Exit status: 0 when every iteration is done, 2 on an error (the state keeps the last whole
# iteration).
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
state=$1 shards=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
lielow=${LIELOW:-$here/../../target/release/lielow}
lielow=$(cd "$(dirname "$lielow")" && pwd)/$(basename "$lielow")
[ -x "$lielow" ] || { echo "spsa.sh: $lielow is not a program (build it or set LIELOW)" >&2; exit 2; }
mkdir -p "$(dirname "$state")"
state=$(cd "$(dirname "$state")" && pwd)/$(basename "$state")
if [ ! -f "$state" ]; then
    "$lielow" spsa --init --state "$state" "$@" || exit 2
elif [ $# -gt 0 ]; then
    echo "spsa.sh: $state exists: going on with its own flags (ignoring the ones given)" >&2
fi
# The state is pretty-printed JSON: its own fields are indented by two spaces, those of the
# setup and the history deeper.
field() { grep -m1 "^  \"$1\":" "$state" | grep -o '[0-9]\+' | head -1; }
iterations=$(grep -m1 '^      "iterations":' "$state" | grep -o '[0-9]\+')
while [ "$(field iteration)" -lt "$iterations" ]; do
    k=$(($(field iteration) + 1))
    out=$state.d/iteration-$k
    rm -rf "$out"
    mkdir -p "$out"
    # shellcheck disable=SC2086 # SBATCH_ARGS and SHARD_FLAGS are lists of options
    sbatch --wait --parsable ${SBATCH_ARGS:-} --chdir="$out" --array="1-$shards" \
        "$here/spsa.sbatch" "$state" "$out" "$shards" "$lielow" ${SHARD_FLAGS:-} >/dev/null || true
    "$lielow" spsa --state "$state" --update "$out"/shard-*.json >"$out/table.txt" ||
        { echo "spsa.sh: iteration $k: the update failed (see above); rerun to retry it" >&2; exit 2; }
done
if [ -n "${out:-}" ]; then
    cat "$out/table.txt" # the last update's final table
else
    echo "spsa.sh: $state: every iteration was already done"
fi
