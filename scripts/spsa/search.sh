#!/usr/bin/env bash
# SPSA of the search numbers in search.params at a fixed number of nodes a move, as run for
# issue 21 (the runs and what they gained: docs/results/spsa.md):
#
#   scripts/spsa/search.sh STATE_DIR   (SIZE=8 ITERATIONS=1000 PAIRS=2 NODES=20000 SEED=1
#                                       CONCURRENCY=1 PARAMS=scripts/spsa/search.params)
#
# The binary is target/release/lielow of this checkout, copied into STATE_DIR at the first
# start so that a rebuild changes nothing; started again, the run goes on from its state file.
# With fixed nodes and one thread the run is deterministic: the same tree and seed give the
# same state file. The final table gives the values to confirm by scripts/option-sprt.sh.
set -euo pipefail
[ $# -eq 1 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
dir=$1
SIZE=${SIZE:-8} ITERATIONS=${ITERATIONS:-1000} PAIRS=${PAIRS:-2} NODES=${NODES:-20000} SEED=${SEED:-1}
CONCURRENCY=${CONCURRENCY:-1}
here=$(cd "$(dirname "$0")" && pwd)
PARAMS=${PARAMS:-$here/search.params}
PARAMS=$(cd "$(dirname "$PARAMS")" && pwd)/$(basename "$PARAMS")
root=$(git -C "$here" rev-parse --show-toplevel)
mkdir -p "$dir"
state="$dir/spsa$SIZE.json"
if [ -f "$state" ]; then
    exec "$dir/lielow" spsa --resume --state "$state" --concurrency "$CONCURRENCY"
fi
(cd "$root" && cargo build --release --quiet)
cp "${CARGO_TARGET_DIR:-$root/target}/release/lielow" "$dir/lielow"
exec "$dir/lielow" spsa --params "$PARAMS" --engine "$dir/lielow" option.Threads=1 \
    --state "$state" --iterations "$ITERATIONS" --pairs "$PAIRS" --nodes "$NODES" --size "$SIZE" \
    --random-plies 8 --seed "$SEED" --concurrency "$CONCURRENCY"
