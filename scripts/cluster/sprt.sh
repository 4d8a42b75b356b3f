#!/usr/bin/env bash
# An SPRT across a Slurm cluster: one match cut into shards, run a batch of shards at a time,
# merged after each batch, stopped as soon as the merged SPRT decides.
#
#   scripts/cluster/sprt.sh OUT BATCH BATCHES [lielow match flags...]
#
# The flags describe the whole match, with --sprt and a --games large enough for the test
# (e.g. --games 40000); it is cut into BATCH*BATCHES shards, and batch b runs shards
# b*BATCH+1 .. (b+1)*BATCH as one array job (sbatch --wait). After each batch the summaries so far
# are merged into OUT/merged.json; the LLR is that of every game played so far, exactly as one
# long run would compute it. LIELOW and SBATCH_ARGS as for submit.sh.
#
# Exit status: 0 H1 accepted, 1 H0 accepted, 3 undecided after every batch, 2 error.
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
out=$1 batch=$2 batches=$3
shift 3
case " $* " in *" --sprt "*) ;; *) echo "sprt.sh: give --sprt elo0=...,elo1=..." >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
lielow=${LIELOW:-$here/../../target/release/lielow}
lielow=$(cd "$(dirname "$lielow")" && pwd)/$(basename "$lielow")
[ -x "$lielow" ] || { echo "sprt.sh: $lielow is not a program (build it or set LIELOW)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
shards=$((batch * batches))
for ((b = 0; b < batches; b++)); do
    first=$((b * batch + 1)) last=$(((b + 1) * batch))
    echo "sprt.sh: batch $((b + 1))/$batches: shards $first-$last of $shards"
    # shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
    sbatch --wait --parsable ${SBATCH_ARGS:-} --chdir="$out" --array="$first-$last" \
        "$here/match.sbatch" "$out" "$shards" "$lielow" "$@" >/dev/null || true
    "$lielow" match --merge "$out"/shard-*.json --json "$out/merged.json" >"$out/merged.txt" \
        2>/dev/null || { echo "sprt.sh: merging the shards failed" >&2; exit 2; }
    grep '^SPRT' "$out/merged.txt" || true
    case $(grep -o '"verdict": "H[01]"' "$out/merged.json" || true) in
    *H1*) cat "$out/merged.txt"; exit 0 ;;
    *H0*) cat "$out/merged.txt"; exit 1 ;;
    esac
done
cat "$out/merged.txt"
exit 3
